#include "service/rest/openapi_document.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "engine/record/game_record.h"
#include "google/api/httpbody.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "service/core/error_status.h"
#include "service/rest/embedded_files.h"
#include "service/rest/rest_json.h"

#ifndef FOXGEESE_VERSION
#define FOXGEESE_VERSION "unknown"
#endif

namespace foxgeese::service {
namespace {

namespace pb = google::protobuf;
using Json = nlohmann::ordered_json;
using F = pb::FieldDescriptor;

constexpr const char* kSchemas = "#/components/schemas/";
constexpr const char* kSecurityScheme = "seatToken";
constexpr const char* kTag = "FoxGeeseService";

// ---------------------------------------------------------------------------
// The proto comments, from the descriptor set embedded at build time. The
// compiled-in descriptors carry no source info, so each element is looked up
// by its full name in a pool built from that set.

std::string trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(first, last - first + 1));
}

// protoc keeps the text after "//" as is: drop the one space every line
// starts with, keep deeper indentation (Markdown code blocks). Lines that
// speak to buf's linter ("buf:lint:ignore ...") are not for readers.
std::string clean_comment(const std::string& raw) {
    std::string out;
    std::size_t start = 0;
    while (start <= raw.size()) {
        auto end = raw.find('\n', start);
        if (end == std::string::npos) end = raw.size();
        std::string_view line(raw.data() + start, end - start);
        if (!line.empty() && line.front() == ' ') line.remove_prefix(1);
        if (line.starts_with("buf:lint:")) {
            start = end + 1;
            continue;
        }
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r'))
            line.remove_suffix(1);
        out.append(line);
        out += '\n';
        start = end + 1;
    }
    return trim(out);
}

class ProtoComments {
  public:
    ProtoComments() {
        for (const EmbeddedFile& file : embedded_api_descriptors()) {
            pb::FileDescriptorSet set;
            if (!set.ParseFromArray(file.bytes.data(), static_cast<int>(file.bytes.size())))
                throw std::logic_error("the embedded " + std::string(file.name) +
                                       " is not a FileDescriptorSet");
            // --include_imports lists every file after the files it imports.
            for (const auto& proto : set.file()) {
                if (pool_.FindFileByName(proto.name()) != nullptr) continue;
                if (pool_.BuildFile(proto) == nullptr)
                    throw std::logic_error("cannot load " + proto.name() + " from " +
                                           std::string(file.name));
            }
        }
    }

    std::string of(const pb::Descriptor* d) const {
        return located(pool_.FindMessageTypeByName(d->full_name()));
    }
    std::string of(const pb::FieldDescriptor* d) const {
        return located(pool_.FindFieldByName(d->full_name()));
    }
    std::string of(const pb::OneofDescriptor* d) const {
        return located(pool_.FindOneofByName(d->full_name()));
    }
    std::string of(const pb::EnumDescriptor* d) const {
        return located(pool_.FindEnumTypeByName(d->full_name()));
    }
    std::string of(const pb::EnumValueDescriptor* d) const {
        return located(pool_.FindEnumValueByName(d->full_name()));
    }
    std::string of(const pb::ServiceDescriptor* d) const {
        return located(pool_.FindServiceByName(d->full_name()));
    }
    std::string of(const pb::MethodDescriptor* d) const {
        return located(pool_.FindMethodByName(d->full_name()));
    }

  private:
    template <class D>
    static std::string located(const D* d) {
        pb::SourceLocation location;
        if (d == nullptr || !d->GetSourceLocation(&location)) return {};
        return clean_comment(location.leading_comments);
    }

    pb::DescriptorPool pool_;
};

// The first sentence of a comment, on one line, without its full stop.
std::string first_sentence(const std::string& comment) {
    std::string paragraph = comment.substr(0, comment.find("\n\n"));
    std::replace(paragraph.begin(), paragraph.end(), '\n', ' ');
    for (std::size_t at = paragraph.find('.'); at != std::string::npos;
         at = paragraph.find('.', at + 1)) {
        const bool ends = at + 1 == paragraph.size() || paragraph[at + 1] == ' ';
        const bool abbreviation = at >= 3 && (paragraph.compare(at - 3, 3, "e.g") == 0 ||
                                              paragraph.compare(at - 3, 3, "i.e") == 0);
        if (ends && !abbreviation) return paragraph.substr(0, at);
    }
    return paragraph;
}

// ---------------------------------------------------------------------------
// Error reasons: the tables in FoxGeeseService's comment (reason, gRPC code,
// HTTP status, meaning), then the HTTP layer's own.

struct Reason {
    std::string name;
    std::string grpc_code;
    int http_status = 0;
    std::string meaning;
};

std::vector<Reason> reasons_from_comment(const std::string& comment) {
    static const std::regex kName("[A-Z][A-Z0-9_]+");
    std::vector<Reason> reasons;
    std::size_t start = 0;
    while (start < comment.size()) {
        auto end = comment.find('\n', start);
        if (end == std::string::npos) end = comment.size();
        const std::string line = trim(std::string_view(comment).substr(start, end - start));
        start = end + 1;
        if (line.size() < 2 || line.front() != '|' || line.back() != '|') continue;
        std::vector<std::string> cells;
        for (std::size_t at = 1; at < line.size();) {
            const auto next = line.find('|', at);
            cells.push_back(trim(std::string_view(line).substr(at, next - at)));
            at = next + 1;
        }
        if (cells.size() != 4 || !std::regex_match(cells[0], kName) ||
            !std::regex_match(cells[1], kName) || cells[2].size() != 3 ||
            !std::all_of(cells[2].begin(), cells[2].end(),
                         [](unsigned char c) { return std::isdigit(c) != 0; }))
            continue;
        reasons.push_back({cells[0], cells[1], std::stoi(cells[2]), cells[3]});
    }
    return reasons;
}

// Reasons the proto's tables do not list: the HTTP layer's (rest_json.h) and
// INTERNAL. A reason the proto lists keeps the proto's text, except where
// HTTP answers differently from gRPC.
std::vector<Reason> all_reasons(const std::string& service_comment) {
    std::vector<Reason> reasons = reasons_from_comment(service_comment);
    const std::vector<Reason> http_layer = {
        {kReasonRouteNotFound, "NOT_FOUND", 404,
         "No API route has this path (REST only). Metadata \"path\"."},
        {kReasonMethodNotAllowed, "UNIMPLEMENTED", 405,
         "The path exists but not with this HTTP method (REST only). Metadata \"allow\", also "
         "sent as the Allow header."},
        {kReasonPayloadTooLarge, "INVALID_ARGUMENT", 413,
         "The request body is over 64 KiB (REST only)."},
        {kReasonUnsupportedMediaType, "INVALID_ARGUMENT", 415,
         "A request body that is not application/json in UTF-8, or has a content coding (REST "
         "only)."},
        {kReasonUnsupportedTransferCoding, "UNIMPLEMENTED", 501,
         "A transfer coding other than chunked (REST only)."},
        {kReasonNotReady, "UNAVAILABLE", 503,
         "GET /readyz only: a migration is not applied yet, a test write did not commit, or "
         "the database pool is starved. Probes route traffic elsewhere."},
        {"INTERNAL", "INTERNAL", 500, "A fault of the server. Report it; retrying may not help."},
    };
    for (const Reason& extra : http_layer) {
        const auto known = std::find_if(reasons.begin(), reasons.end(),
                                        [&](const Reason& r) { return r.name == extra.name; });
        if (known == reasons.end()) reasons.push_back(extra);
    }
    for (Reason& reason : reasons) {
        // Over HTTP the status code is INVALID_ARGUMENT, sent with 431.
        if (reason.name == kReasonHeadersTooLarge) {
            reason.grpc_code = "INVALID_ARGUMENT";
            reason.meaning += " Over REST: the request line and headers are over 8 KiB.";
        }
    }
    return reasons;
}

std::string reasons_table(const std::vector<const Reason*>& reasons) {
    std::string text = "| reason | code | HTTP | meaning |\n|---|---|---|---|\n";
    for (const Reason* r : reasons) {
        text += "| `" + r->name + "` | " + r->grpc_code + " | " + std::to_string(r->http_status) +
                " | " + r->meaning + " |\n";
    }
    return text;
}

// ---------------------------------------------------------------------------
// Schemas in the proto3 JSON mapping.

bool is_well_known(const pb::Descriptor* type) {
    return type->file()->package() == "google.protobuf";
}

// The JSON form of the well-known types that have a special one.
Json well_known_schema(const pb::Descriptor* type) {
    const std::string& name = type->full_name();
    const auto nullable = [](Json type_name, Json extra = Json::object()) {
        Json schema = {{"type", Json::array({std::move(type_name), "null"})}};
        schema.update(extra);
        return schema;
    };
    if (name == "google.protobuf.Timestamp") {
        return {{"type", "string"},
                {"format", "date-time"},
                {"description",
                 "An RFC 3339 date and time in UTC, e.g. "
                 "\"2025-05-04T12:30:00.123Z\"."}};
    }
    if (name == "google.protobuf.Duration") {
        return {
            {"type", "string"},
            {"pattern", "^-?[0-9]+(\\.[0-9]{1,9})?s$"},
            {"description", "Seconds with up to nine decimals and the suffix s, e.g. \"1.5s\"."}};
    }
    if (name == "google.protobuf.Empty") return {{"type", "object"}};
    if (name == "google.protobuf.FieldMask")
        return {{"type", "string"}, {"description", "Comma-separated lowerCamelCase field paths."}};
    if (name == "google.protobuf.Struct")
        return {{"type", "object"}, {"additionalProperties", true}};
    if (name == "google.protobuf.Value") return Json::object();
    if (name == "google.protobuf.ListValue") return {{"type", "array"}, {"items", Json::object()}};
    if (name == "google.protobuf.Any") {
        return {{"type", "object"},
                {"required", {"@type"}},
                {"properties", {{"@type", {{"type", "string"}}}}},
                {"additionalProperties", true},
                {"description",
                 "A message of the type that \"@type\" names, with its fields "
                 "next to \"@type\"."}};
    }
    if (name == "google.protobuf.DoubleValue" || name == "google.protobuf.FloatValue")
        return nullable("number");
    if (name == "google.protobuf.Int64Value")
        return nullable("string", {{"format", "int64"}, {"pattern", "^-?[0-9]+$"}});
    if (name == "google.protobuf.UInt64Value") return nullable("string", {{"pattern", "^[0-9]+$"}});
    if (name == "google.protobuf.Int32Value") return nullable("integer", {{"format", "int32"}});
    if (name == "google.protobuf.UInt32Value")
        return nullable("integer", {{"minimum", 0}, {"maximum", 4294967295u}});
    if (name == "google.protobuf.BoolValue") return nullable("boolean");
    if (name == "google.protobuf.StringValue") return nullable("string");
    if (name == "google.protobuf.BytesValue")
        return nullable("string", {{"contentEncoding", "base64"}});
    throw std::logic_error("no JSON mapping for " + name);
}

Json ref(const std::string& name) {
    return {{"$ref", kSchemas + name}};
}

class DocumentBuilder {
  public:
    DocumentBuilder(const RestRoutes& routes, const ProtoComments& comments)
        : routes_(routes), comments_(comments) {
        const pb::ServiceDescriptor* service =
            routes.routes().empty() ? nullptr : routes.routes().front().method->service();
        if (service == nullptr) throw std::logic_error("no REST routes to document");
        service_ = service;
        reasons_ = all_reasons(comments_.of(service));
        for (const RestRoute& route : routes_.routes())
            mark_request_side(route.method->input_type());
    }

    Json build() {
        const std::string service_comment = comments_.of(service_);
        Json doc;
        doc["openapi"] = "3.1.0";
        doc["info"] = {
            {"title", "foxgeese API"},
            {"version", FOXGEESE_VERSION},
            {"summary", "Fox and Geese over REST/JSON: " + service_->full_name()},
            {"description", service_comment},
        };
        doc["servers"] =
            Json::array({{{"url", "/"}, {"description", "The server that serves this document"}}});
        doc["tags"] =
            Json::array({{{"name", kTag}, {"description", first_sentence(service_comment) + "."}}});
        doc["security"] = Json::array();

        Json paths = Json::object();
        for (const RestRoute& route : routes_.routes()) {
            std::string method = route.http_method;
            std::transform(method.begin(), method.end(), method.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            Json& path = paths[openapi_path(route)];
            if (path.contains(method))
                throw std::logic_error("two routes for " + route.http_method + " " + route.pattern);
            path[method] = operation(route);
        }
        doc["paths"] = std::move(paths);

        add_error_schemas();
        Json sorted = Json::object();
        for (const auto& name : schema_order())
            sorted[name] = schemas_.at(name);
        doc["components"] = {
            {"schemas", std::move(sorted)},
            {"securitySchemes",
             {{kSecurityScheme,
               {{"type", "http"},
                {"scheme", "bearer"},
                {"description",
                 "The seat token that CreateGame or JoinGame returned, as "
                 "`authorization: Bearer <seat_token>`. Never put it in a URL."}}}}},
        };
        return doc;
    }

  private:
    // --- paths ------------------------------------------------------------

    static std::string openapi_path(const RestRoute& route) {
        std::string path;
        for (const auto& segment : route.segments) {
            path += '/';
            path += segment.field.empty() ? segment.literal : "{" + dotted(segment.field) + "}";
        }
        if (!route.verb.empty()) path += ":" + route.verb;
        return path;
    }

    static std::string dotted(const std::vector<const F*>& path, bool json = false) {
        std::string out;
        for (const F* field : path) {
            if (!out.empty()) out += '.';
            out += json ? field->json_name() : field->name();
        }
        return out;
    }

    Json operation(const RestRoute& route) {
        const pb::MethodDescriptor* method = route.method;
        const std::string comment = comments_.of(method);
        Json op;
        op["operationId"] = method->name();
        // The RPC's name: what the sidebar of the docs lists and what the
        // error tables and the gRPC side call it; the comment says the rest.
        op["summary"] = method->name();
        op["description"] = comment;
        op["tags"] = Json::array({kTag});
        op["x-grpc-method"] = "/" + service_->full_name() + "/" + method->name();

        Json parameters = Json::array();
        std::set<const F*> from_path;
        for (const auto& segment : route.segments) {
            if (segment.field.empty()) continue;
            if (segment.field.size() == 1) from_path.insert(segment.field.front());
            const F* leaf = segment.field.back();
            parameters.push_back({{"name", dotted(segment.field)},
                                  {"in", "path"},
                                  {"required", true},
                                  {"description", comments_.of(leaf)},
                                  {"schema", value_schema(leaf)}});
        }
        if (route.has_body) {
            op["requestBody"] = {
                {"description",
                 "The request as JSON; fields that come from the path may be "
                 "left out. An empty body counts as {}."},
                {"required", false},
                {"content", {{"application/json", {{"schema", body_schema(method, from_path)}}}}}};
        } else {
            add_query_parameters(method->input_type(), {}, from_path, parameters, 0);
        }
        if (!parameters.empty()) op["parameters"] = std::move(parameters);

        // The RPC comments say which calls need the token ("Needs
        // authorization: ...") and which accept it (WatchGame).
        const bool needs_token = comment.find("Needs \"authorization: Bearer") != std::string::npos;
        const bool takes_token = comment.find("authorization: Bearer") != std::string::npos;
        if (needs_token) {
            op["security"] = Json::array({{{kSecurityScheme, Json::array()}}});
        } else if (takes_token) {
            op["security"] = Json::array({Json::object(), {{kSecurityScheme, Json::array()}}});
        } else {
            op["security"] = Json::array();
        }
        op["responses"] = responses(method, comment);
        return op;
    }

    // The body of a body "*" route: the request message without the fields
    // its path already gives.
    Json body_schema(const pb::MethodDescriptor* method, const std::set<const F*>& from_path) {
        const pb::Descriptor* type = method->input_type();
        const std::string name = type->full_name();
        if (!schemas_.contains(name)) {
            schemas_[name] = Json::object();  // placeholder against recursion
            schemas_[name] = message_schema(type, from_path);
        }
        return ref(name);
    }

    // Query parameters of a route without a body: every singular scalar
    // field not bound by the path, nested ones by dotted lowerCamelCase path,
    // as RestRoutes::build_request reads them.
    void add_query_parameters(const pb::Descriptor* type, const std::vector<const F*>& prefix,
                              const std::set<const F*>& from_path, Json& parameters, int depth) {
        if (depth > 4) return;
        for (int i = 0; i < type->field_count(); ++i) {
            const F* field = type->field(i);
            if (field->is_repeated() || from_path.count(field) > 0) continue;
            std::vector<const F*> path = prefix;
            path.push_back(field);
            if (field->cpp_type() == F::CPPTYPE_MESSAGE) {
                add_query_parameters(field->message_type(), path, {}, parameters, depth + 1);
                continue;
            }
            const std::string comment = comments_.of(field);
            Json parameter = {{"name", dotted(path, true)},
                              {"in", "query"},
                              {"description", comment},
                              {"schema", value_schema(field)}};
            if (comment.rfind("Required.", 0) == 0) parameter["required"] = true;
            parameters.push_back(std::move(parameter));
        }
    }

    Json responses(const pb::MethodDescriptor* method, const std::string& comment) {
        Json out;
        const std::string response_comment = comments_.of(method->output_type());
        if (method->server_streaming()) {
            out["200"] = {
                {"description",
                 "A stream of events as NDJSON: one JSON " + method->output_type()->full_name() +
                     " per line, sent as each event happens, until the game ends (or the "
                     "server stops). The schema describes one line, as OpenAPI 3.2's itemSchema "
                     "would; OpenAPI 3.1 has no keyword for a sequence. Read it with a stream "
                     "reader, splitting on \\n."},
                {"content",
                 {{"application/x-ndjson", {{"schema", message_ref(method->output_type())}}}}}};
        } else if (method->output_type() == google::api::HttpBody::descriptor()) {
            out["200"] = {
                {"description",
                 "The response body itself, in this media type (over gRPC a "
                 "google.api.HttpBody carries the same bytes)."},
                {"content", {{http_body_media_type(method), {{"schema", {{"type", "string"}}}}}}}};
        } else {
            out["200"] = {
                {"description", response_comment.empty() ? "OK" : response_comment},
                {"content",
                 {{"application/json", {{"schema", message_ref(method->output_type())}}}}}};
        }

        // The reasons the RPC's comment names, grouped by HTTP status.
        static const std::regex kWord("[A-Z][A-Z0-9_]+");
        std::set<std::string> named;
        for (auto it = std::sregex_iterator(comment.begin(), comment.end(), kWord);
             it != std::sregex_iterator(); ++it)
            named.insert(it->str());
        // Any route refuses a request it cannot build (an unknown query
        // parameter, a body that is not the request message).
        named.insert("INVALID_ARGUMENT");
        std::map<int, std::vector<const Reason*>> by_status;
        for (const Reason& reason : reasons_) {
            const bool unavailable = reason.http_status == 503 || reason.http_status == 504;
            if (named.count(reason.name) > 0 || unavailable)
                by_status[reason.http_status].push_back(&reason);
        }
        for (const auto& [status, reasons] : by_status) {
            std::string text = status == 503 || status == 504
                                   ? "The server cannot answer now; retry with backoff "
                                     "(ErrorInfo metadata \"write_outcome\" says whether the "
                                     "call may have changed anything).\n\n"
                                   : "Refused; nothing changed.\n\n";
            out[std::to_string(status)] = error_response(text + reasons_table(reasons));
        }
        out["default"] = error_response(
            "Any other error, e.g. MALFORMED_REQUEST (400) for a request that is not valid "
            "HTTP or JSON, or a reason added later. Branch on ErrorInfo.reason; fall back on "
            "the HTTP status.");
        return out;
    }

    // What an RPC answering google.api.HttpBody sends: each such RPC is
    // named here, so a new one cannot go undocumented.
    static std::string http_body_media_type(const pb::MethodDescriptor* method) {
        if (method->name() == "ExportGame") return std::string(kRecordMediaType);
        throw std::logic_error(method->full_name() +
                               " answers google.api.HttpBody: name its media type in "
                               "openapi_document.cpp");
    }

    static Json error_response(const std::string& description) {
        return {{"description", description},
                {"content", {{"application/json", {{"schema", ref("google.rpc.Status")}}}}}};
    }

    // --- schemas ----------------------------------------------------------

    void mark_request_side(const pb::Descriptor* type) {
        if (!request_side_.insert(type).second) return;
        for (int i = 0; i < type->field_count(); ++i) {
            if (type->field(i)->cpp_type() == F::CPPTYPE_MESSAGE)
                mark_request_side(type->field(i)->message_type());
        }
    }

    Json message_ref(const pb::Descriptor* type) {
        if (is_well_known(type)) return well_known_schema(type);
        const std::string& name = type->full_name();
        if (!schemas_.contains(name)) {
            schemas_[name] = Json::object();  // placeholder against recursion
            schemas_[name] = message_schema(type, {});
        }
        return ref(name);
    }

    Json enum_ref(const pb::EnumDescriptor* type) {
        const std::string& name = type->full_name();
        if (name == "google.protobuf.NullValue") return {{"type", "null"}};
        if (!schemas_.contains(name)) {
            Json values = Json::array();
            std::string text = comments_.of(type) + "\n\n";
            for (int i = 0; i < type->value_count(); ++i) {
                const pb::EnumValueDescriptor* value = type->value(i);
                values.push_back(value->name());
                std::string about = comments_.of(value);
                std::replace(about.begin(), about.end(), '\n', ' ');
                text += "- `" + value->name() + "`: " + about + "\n";
            }
            schemas_[name] = {{"type", "string"},
                              {"title", type->name()},
                              {"description", trim(text)},
                              {"enum", std::move(values)}};
        }
        return ref(name);
    }

    // A singular value of the field's type.
    Json value_schema(const F* field) {
        switch (field->type()) {
            case F::TYPE_DOUBLE:
            case F::TYPE_FLOAT:
                return {{"oneOf",
                         Json::array(
                             {{{"type", "number"},
                               {"format", field->type() == F::TYPE_DOUBLE ? "double" : "float"}},
                              {{"type", "string"}, {"enum", {"NaN", "Infinity", "-Infinity"}}}})}};
            case F::TYPE_INT32:
            case F::TYPE_SINT32:
            case F::TYPE_SFIXED32:
                return {{"type", "integer"}, {"format", "int32"}};
            case F::TYPE_UINT32:
            case F::TYPE_FIXED32:
                return {{"type", "integer"}, {"minimum", 0}, {"maximum", 4294967295u}};
            case F::TYPE_INT64:
            case F::TYPE_SINT64:
            case F::TYPE_SFIXED64:
                return {{"type", "string"}, {"format", "int64"}, {"pattern", "^-?[0-9]+$"}};
            case F::TYPE_UINT64:
            case F::TYPE_FIXED64:
                return {{"type", "string"}, {"pattern", "^[0-9]+$"}};
            case F::TYPE_BOOL:
                return {{"type", "boolean"}};
            case F::TYPE_STRING:
                return {{"type", "string"}};
            case F::TYPE_BYTES:
                return {{"type", "string"}, {"contentEncoding", "base64"}};
            case F::TYPE_ENUM:
                return enum_ref(field->enum_type());
            case F::TYPE_MESSAGE:
                return message_ref(field->message_type());
            case F::TYPE_GROUP:
                break;
        }
        throw std::logic_error("no JSON mapping for field " + field->full_name());
    }

    // The field as a property: repeated fields are arrays, maps objects.
    Json field_schema(const F* field) {
        Json schema;
        if (field->is_map()) {
            const pb::Descriptor* entry = field->message_type();
            const F* key = entry->map_key();
            schema = {{"type", "object"},
                      {"additionalProperties", value_schema(entry->map_value())}};
            if (key->cpp_type() == F::CPPTYPE_BOOL) {
                schema["propertyNames"] = {{"enum", {"true", "false"}}};
            } else if (key->cpp_type() != F::CPPTYPE_STRING) {
                schema["propertyNames"] = {{"pattern", "^-?[0-9]+$"}};
            }
        } else if (field->is_repeated()) {
            schema = {{"type", "array"}, {"items", value_schema(field)}};
        } else {
            schema = value_schema(field);
        }
        std::string description = comments_.of(field);
        if (const pb::OneofDescriptor* oneof = field->real_containing_oneof()) {
            std::string members;
            for (int i = 0; i < oneof->field_count(); ++i)
                members += std::string(members.empty() ? "" : ", ") + "`" +
                           oneof->field(i)->json_name() + "`";
            description += "\n\nOne of " + members + " (oneof `" + oneof->name() + "`).";
        }
        if (!description.empty()) schema["description"] = trim(description);
        return schema;
    }

    // A message as an object. Messages that only servers send list as
    // required every field the server always prints (message_to_json prints
    // every field without presence, defaults included); request messages
    // list the fields their comments call "Required.".
    Json message_schema(const pb::Descriptor* type, const std::set<const F*>& leave_out) {
        Json properties = Json::object();
        Json required = Json::array();
        const bool request_side = request_side_.count(type) > 0;
        for (int i = 0; i < type->field_count(); ++i) {
            const F* field = type->field(i);
            if (leave_out.count(field) > 0) continue;
            properties[field->json_name()] = field_schema(field);
            const bool always_printed = !field->has_presence();
            const bool documented_required = comments_.of(field).rfind("Required.", 0) == 0;
            if (request_side ? documented_required : always_printed)
                required.push_back(field->json_name());
        }
        Json schema = {{"type", "object"}, {"title", type->name()}};
        std::string description = comments_.of(type);
        if (!leave_out.empty()) {
            std::string names;
            for (const F* field : leave_out)
                names += (names.empty() ? "" : ", ") + field->json_name();
            description += "\n\nAs a request body: " + names + " comes from the path.";
        }
        if (!description.empty()) schema["description"] = description;
        schema["properties"] = std::move(properties);
        if (!required.empty()) schema["required"] = std::move(required);
        return schema;
    }

    // google.rpc.Status as the error body: its details are exactly what
    // status_of() packs (an ErrorInfo, and a BadRequest when a field is at
    // fault), and ErrorInfo.reason lists every reason.
    void add_error_schemas() {
        message_ref(google::rpc::Status::descriptor());
        const std::map<std::string, const pb::Descriptor*> packed = {
            {"google.rpc.PackedErrorInfo", google::rpc::ErrorInfo::descriptor()},
            {"google.rpc.PackedBadRequest", google::rpc::BadRequest::descriptor()},
        };
        Json mapping = Json::object();
        Json variants = Json::array();
        for (const auto& [name, type] : packed) {
            const std::string& message = type->full_name();
            message_ref(type);
            const std::string url = "type.googleapis.com/" + message;
            schemas_[name] = {
                {"title", type->name()},
                {"description", "A " + message +
                                    " in google.rpc.Status.details: its fields "
                                    "next to \"@type\"."},
                {"allOf", Json::array({ref(message),
                                       {{"type", "object"},
                                        {"required", {"@type"}},
                                        {"properties", {{"@type", {{"const", url}}}}}}})}};
            mapping[url] = kSchemas + name;
            variants.push_back(ref(name));
        }
        Json& details = schemas_["google.rpc.Status"]["properties"]["details"];
        details["items"] = {{"oneOf", std::move(variants)},
                            {"discriminator", {{"propertyName", "@type"}, {"mapping", mapping}}}};
        details["description"] =
            "An ErrorInfo, always; and a BadRequest naming the field when one is at fault.";
        schemas_["google.rpc.Status"]["properties"]["code"]["description"] =
            "The gRPC status code as a number (3 INVALID_ARGUMENT, 5 NOT_FOUND, 9 "
            "FAILED_PRECONDITION, 10 ABORTED, ...); the HTTP status says the same more coarsely.";

        Json& info = schemas_["google.rpc.ErrorInfo"]["properties"];
        Json names = Json::array();
        std::vector<const Reason*> all;
        for (const Reason& reason : reasons_) {
            names.push_back(reason.name);
            all.push_back(&reason);
        }
        info["reason"]["enum"] = std::move(names);
        info["reason"]["description"] =
            info["reason"].value("description", "") +
            "\n\nThe reasons foxgeese sends, with the status code and HTTP status they come "
            "with:\n\n" +
            reasons_table(all);
        info["domain"]["const"] = kErrorDomain;
    }

    // Schema names: foxgeese's first, then google's, each alphabetical.
    std::vector<std::string> schema_order() const {
        std::vector<std::string> names;
        for (const auto& [name, unused] : schemas_.items())
            names.push_back(name);
        std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
            const bool a_google = a.rfind("google.", 0) == 0;
            const bool b_google = b.rfind("google.", 0) == 0;
            return a_google != b_google ? b_google : a < b;
        });
        return names;
    }

    const RestRoutes& routes_;
    const ProtoComments& comments_;
    const pb::ServiceDescriptor* service_ = nullptr;
    std::vector<Reason> reasons_;
    std::set<const pb::Descriptor*> request_side_;
    Json schemas_ = Json::object();
};

}  // namespace

nlohmann::ordered_json openapi_document(const RestRoutes& routes) {
    static const ProtoComments comments;
    return DocumentBuilder(routes, comments).build();
}

const std::string& openapi_json() {
    static const std::string text = [] {
        const RestRoutes routes;
        return openapi_document(routes).dump(2) + "\n";
    }();
    return text;
}

}  // namespace foxgeese::service
