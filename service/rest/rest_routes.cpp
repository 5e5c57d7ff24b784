#include "service/rest/rest_routes.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "engine/record/game_record.h"
#include "google/api/annotations.pb.h"
#include "service/rest/rest_json.h"
#include "service/rest/strict_json.h"

namespace foxgeese::service {
namespace {

namespace pb = google::protobuf;
using FieldPath = std::vector<const pb::FieldDescriptor*>;

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    while (true) {
        const auto at = text.find(separator);
        parts.push_back(text.substr(0, at));
        if (at == std::string_view::npos) return parts;
        text.remove_prefix(at + 1);
    }
}

// Names a client might put a seat token under in a URL.
bool is_token_parameter(const std::string& name) {
    static const std::set<std::string> kNames = {"access_token", "token",         "seat_token",
                                                 "seatToken",    "authorization", "bearer"};
    return kNames.count(name) > 0;
}

// ImportGame's body carries a record of up to kMaxRecordBytes, which JSON may
// write six times as long: a client may escape any character as \uXXXX (six
// bytes for a one-byte character, at most three times the bytes of a longer
// one). The rest is room for the other fields and whitespace. The record's
// own limit is checked on the decoded text.
constexpr std::size_t kImportBodyBytes = 6 * kMaxRecordBytes + 16 * 1024;

[[noreturn]] void bad_rule(const pb::MethodDescriptor* method, const std::string& why) {
    throw std::logic_error("google.api.http of " + method->full_name() + ": " + why);
}

// A dotted field path ("options.geese") of `type`, by proto or JSON names.
// Every step but the last is a singular message; the last is a singular
// scalar. nullopt when there is no such field.
std::optional<FieldPath> resolve_field(const pb::Descriptor* type, std::string_view dotted) {
    FieldPath path;
    const auto names = split(dotted, '.');
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (type == nullptr) return std::nullopt;
        const pb::FieldDescriptor* found = nullptr;
        for (int f = 0; f < type->field_count() && found == nullptr; ++f) {
            const auto* field = type->field(f);
            if (field->name() == names[i] || field->json_name() == names[i]) found = field;
        }
        if (found == nullptr || found->is_repeated()) return std::nullopt;
        const bool last = i + 1 == names.size();
        const bool is_message = found->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE;
        if (last == is_message) return std::nullopt;
        path.push_back(found);
        type = is_message ? found->message_type() : nullptr;
    }
    return path;
}

std::string dotted_name(const FieldPath& path) {
    std::string out;
    for (const auto* field : path) {
        if (!out.empty()) out += '.';
        out += field->name();
    }
    return out;
}

RestRoute::Segment parse_segment(const pb::MethodDescriptor* method, std::string_view text) {
    RestRoute::Segment segment;
    if (text.empty()) bad_rule(method, "empty path segment");
    if (text.front() != '{') {
        if (text.find_first_of("{}*=") != std::string_view::npos)
            bad_rule(method, "unsupported path segment '" + std::string(text) + "'");
        segment.literal = std::string(text);
        return segment;
    }
    if (text.back() != '}') bad_rule(method, "unterminated variable '" + std::string(text) + "'");
    std::string_view name = text.substr(1, text.size() - 2);
    if (const auto eq = name.find('='); eq != std::string_view::npos) {
        // Only single-segment variables are served; "{x=*}" is the same as "{x}".
        if (name.substr(eq + 1) != "*")
            bad_rule(method, "unsupported variable pattern '" + std::string(text) + "'");
        name = name.substr(0, eq);
    }
    auto field = resolve_field(method->input_type(), name);
    if (!field) bad_rule(method, "no scalar request field '" + std::string(name) + "'");
    segment.field = std::move(*field);
    return segment;
}

// The HTTP method and path template of a rule.
std::pair<std::string, std::string> method_and_path(const pb::MethodDescriptor* method,
                                                    const google::api::HttpRule& rule) {
    using Rule = google::api::HttpRule;
    switch (rule.pattern_case()) {
        case Rule::kGet:
            return {"GET", rule.get()};
        case Rule::kPost:
            return {"POST", rule.post()};
        case Rule::kPut:
            return {"PUT", rule.put()};
        case Rule::kDelete:
            return {"DELETE", rule.delete_()};
        case Rule::kPatch:
            return {"PATCH", rule.patch()};
        case Rule::kCustom:
            return {rule.custom().kind(), rule.custom().path()};
        case Rule::PATTERN_NOT_SET:
            break;
    }
    bad_rule(method, "no HTTP method");
}

RestRoute parse_rule(const pb::MethodDescriptor* method, const google::api::HttpRule& rule) {
    RestRoute route;
    route.method = method;
    std::tie(route.http_method, route.pattern) = method_and_path(method, rule);
    if (rule.body() == "*") {
        route.has_body = true;
    } else if (!rule.body().empty()) {
        bad_rule(method, "only body \"*\" or no body is served, not \"" + rule.body() + "\"");
    }
    if (!rule.response_body().empty()) bad_rule(method, "response_body is not served");

    std::string_view path = route.pattern;
    if (path.empty() || path.front() != '/') bad_rule(method, "the path must start with '/'");
    path.remove_prefix(1);
    // The verb follows the last segment: a ':' after the last '/' and '}'.
    const auto last_close = path.rfind('}');
    const auto last_slash = path.rfind('/');
    auto colon = path.rfind(':');
    const auto after = [&](std::size_t at) { return at == std::string_view::npos || colon > at; };
    if (colon != std::string_view::npos && after(last_close) && after(last_slash)) {
        route.verb = std::string(path.substr(colon + 1));
        if (route.verb.empty()) bad_rule(method, "empty custom verb");
        path = path.substr(0, colon);
    }
    for (std::string_view text : split(path, '/'))
        route.segments.push_back(parse_segment(method, text));
    return route;
}

template <class Int>
std::optional<Int> parse_int(const std::string& text) {
    Int value{};
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
    return value;
}

std::optional<double> parse_double(const std::string& text) {
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
    return value;
}

// Whether a (dotted) scalar field holds a value other than its default.
bool field_is_set(const pb::Message& root, const FieldPath& path) {
    const pb::Message* message = &root;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        if (!message->GetReflection()->HasField(*message, path[i])) return false;
        message = &message->GetReflection()->GetMessage(*message, path[i]);
    }
    return message->GetReflection()->HasField(*message, path.back());
}

// A string field's value (path variables are strings).
std::string field_text(const pb::Message& root, const FieldPath& path) {
    const pb::Message* message = &root;
    for (std::size_t i = 0; i + 1 < path.size(); ++i)
        message = &message->GetReflection()->GetMessage(*message, path[i]);
    if (path.back()->cpp_type() != pb::FieldDescriptor::CPPTYPE_STRING) return {};
    return message->GetReflection()->GetString(*message, path.back());
}

// Sets a scalar field from text (a path variable or query value); returns
// what is wrong with the text, if anything.
std::optional<std::string> set_field(pb::Message& root, const FieldPath& path,
                                     const std::string& text) {
    pb::Message* message = &root;
    for (std::size_t i = 0; i + 1 < path.size(); ++i)
        message = message->GetReflection()->MutableMessage(message, path[i]);
    const pb::FieldDescriptor* field = path.back();
    const pb::Reflection* r = message->GetReflection();
    using F = pb::FieldDescriptor;
    switch (field->cpp_type()) {
        case F::CPPTYPE_STRING:
            if (field->type() == F::TYPE_BYTES) return "cannot be given as text";
            if (!is_valid_utf8(text)) return "is not valid UTF-8";
            r->SetString(message, field, text);
            return std::nullopt;
        case F::CPPTYPE_INT32: {
            const auto v = parse_int<std::int32_t>(text);
            if (!v) return "must be a 32-bit integer";
            r->SetInt32(message, field, *v);
            return std::nullopt;
        }
        case F::CPPTYPE_INT64: {
            const auto v = parse_int<std::int64_t>(text);
            if (!v) return "must be a 64-bit integer";
            r->SetInt64(message, field, *v);
            return std::nullopt;
        }
        case F::CPPTYPE_UINT32: {
            const auto v = parse_int<std::uint32_t>(text);
            if (!v) return "must be an unsigned 32-bit integer";
            r->SetUInt32(message, field, *v);
            return std::nullopt;
        }
        case F::CPPTYPE_UINT64: {
            const auto v = parse_int<std::uint64_t>(text);
            if (!v) return "must be an unsigned 64-bit integer";
            r->SetUInt64(message, field, *v);
            return std::nullopt;
        }
        case F::CPPTYPE_DOUBLE:
        case F::CPPTYPE_FLOAT: {
            const auto v = parse_double(text);
            if (!v) return "must be a number";
            if (field->cpp_type() == F::CPPTYPE_DOUBLE)
                r->SetDouble(message, field, *v);
            else
                r->SetFloat(message, field, static_cast<float>(*v));
            return std::nullopt;
        }
        case F::CPPTYPE_BOOL:
            if (text != "true" && text != "false") return "must be true or false";
            r->SetBool(message, field, text == "true");
            return std::nullopt;
        case F::CPPTYPE_ENUM: {
            const pb::EnumValueDescriptor* value = field->enum_type()->FindValueByName(text);
            if (value == nullptr) {
                if (const auto number = parse_int<int>(text))
                    value = field->enum_type()->FindValueByNumber(*number);
            }
            if (value == nullptr) return "must be a value of " + field->enum_type()->full_name();
            r->SetEnum(message, field, value);
            return std::nullopt;
        }
        case F::CPPTYPE_MESSAGE:
            break;
    }
    return "cannot be given as text";
}

// The raw path split into segments and a verb, or nullopt if it cannot
// name any route (no leading '/').
struct SplitPath {
    std::vector<std::string_view> segments;
    std::string_view verb;
    bool has_verb = false;
};

std::optional<SplitPath> split_path(std::string_view path) {
    if (path.empty() || path.front() != '/') return std::nullopt;
    path.remove_prefix(1);
    SplitPath out;
    const auto last_slash = path.rfind('/');
    const auto colon = path.rfind(':');
    if (colon != std::string_view::npos &&
        (last_slash == std::string_view::npos || colon > last_slash)) {
        out.verb = path.substr(colon + 1);
        out.has_verb = true;
        path = path.substr(0, colon);
    }
    out.segments = split(path, '/');
    return out;
}

bool path_matches(const RestRoute& route, const SplitPath& path) {
    if (route.verb.empty() == path.has_verb) return false;
    if (path.has_verb && route.verb != path.verb) return false;
    if (route.segments.size() != path.segments.size()) return false;
    for (std::size_t i = 0; i < route.segments.size(); ++i) {
        const auto& segment = route.segments[i];
        if (segment.field.empty() ? segment.literal != path.segments[i] : path.segments[i].empty())
            return false;
    }
    return true;
}

std::string join(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& part : parts)
        out += (out.empty() ? "" : ", ") + part;
    return out;
}

}  // namespace

std::size_t RestRoutes::body_limit(std::string_view http_method, std::string_view target,
                                   std::size_t server_limit) const {
    const auto found = match(http_method, split_target(target).path);
    if (!found.ok()) return server_limit;
    return std::max(server_limit, found.value().route->max_body_bytes);
}

std::size_t RestRoutes::largest_body_limit(std::size_t server_limit) const {
    std::size_t largest = server_limit;
    for (const RestRoute& route : routes_)
        largest = std::max(largest, route.max_body_bytes);
    return largest;
}

RequestTarget split_target(std::string_view target) {
    const auto question = target.find('?');
    return RequestTarget{std::string(target.substr(0, question)),
                         question == std::string_view::npos
                             ? std::string()
                             : std::string(target.substr(question + 1))};
}

ServiceError route_not_found(std::string_view path) {
    return ServiceError{StatusCode::kNotFound,
                        kReasonRouteNotFound,
                        "no API route has the path " + std::string(path),
                        {{"path", std::string(path)}},
                        ""};
}

RestRoutes::RestRoutes() {
    for (const RpcMethod& rpc : rpc_methods()) {
        const pb::MethodDescriptor* method = rpc.descriptor;
        if (!method->options().HasExtension(google::api::http)) bad_rule(method, "missing");
        const google::api::HttpRule& rule = method->options().GetExtension(google::api::http);
        std::vector<const google::api::HttpRule*> rules = {&rule};
        for (const auto& extra : rule.additional_bindings())
            rules.push_back(&extra);
        for (const auto* one : rules) {
            RestRoute route = parse_rule(method, *one);
            route.rpc = &rpc;
            if (method->name() == "ImportGame") route.max_body_bytes = kImportBodyBytes;
            for (const RestRoute& other : routes_) {
                if (other.http_method == route.http_method && other.verb == route.verb &&
                    other.segments.size() == route.segments.size() &&
                    std::equal(other.segments.begin(), other.segments.end(), route.segments.begin(),
                               [](const auto& a, const auto& b) {
                                   return a.field.empty() == b.field.empty() &&
                                          a.literal == b.literal;
                               })) {
                    bad_rule(method, "same route as " + other.method->full_name());
                }
            }
            routes_.push_back(std::move(route));
        }
    }
}

ServiceResult<RouteMatch> RestRoutes::match(std::string_view http_method,
                                            std::string_view path) const {
    const auto split = split_path(path);
    std::vector<std::string> allowed;
    const RestRoute* found = nullptr;
    if (split) {
        for (const RestRoute& route : routes_) {
            if (!path_matches(route, *split)) continue;
            if (route.http_method == http_method) {
                found = &route;
                break;
            }
            if (std::find(allowed.begin(), allowed.end(), route.http_method) == allowed.end())
                allowed.push_back(route.http_method);
        }
    }
    if (found == nullptr && allowed.empty()) return route_not_found(path);
    if (found == nullptr) {
        allowed.push_back("OPTIONS");
        return ServiceError{
            StatusCode::kUnimplemented,
            kReasonMethodNotAllowed,
            std::string(http_method) + " is not served at this path; use " + join(allowed),
            {{"allow", join(allowed)}},
            ""};
    }
    RouteMatch result;
    result.route = found;
    for (std::size_t i = 0; i < found->segments.size(); ++i) {
        const auto& segment = found->segments[i];
        if (segment.field.empty()) continue;
        auto value = percent_decode(split->segments[i], false);
        const std::string name = dotted_name(segment.field);
        if (!value) {
            return invalid_argument(
                name, "the path segment for " + name + " has a '%' not followed by two hex digits");
        }
        result.variables.emplace_back(&segment, std::move(*value));
    }
    return result;
}

std::vector<std::string> RestRoutes::methods_at(std::string_view path) const {
    std::vector<std::string> methods;
    const auto split = split_path(path);
    if (!split) return methods;
    for (const RestRoute& route : routes_) {
        if (path_matches(route, *split) &&
            std::find(methods.begin(), methods.end(), route.http_method) == methods.end())
            methods.push_back(route.http_method);
    }
    return methods;
}

namespace {

// The JSON body (body "*"; empty counts as {}), read strictly.
std::optional<ServiceError> read_body(const RestRoute& route, std::string_view body,
                                      pb::Message& request) {
    if (!route.has_body || body.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return std::nullopt;
    const std::string type = route.method->input_type()->full_name();
    if (auto problem = strict_json_problem(body, *route.method->input_type()))
        return invalid_argument("",
                                "the request body is not a JSON " + type + " message: " + *problem);
    pb::util::JsonParseOptions options;
    options.ignore_unknown_fields = false;
    const auto status =
        pb::util::JsonStringToMessage(pb::StringPiece(body.data(), body.size()), &request, options);
    if (status.ok()) return std::nullopt;
    std::string why(status.message());
    std::replace(why.begin(), why.end(), '\n', ' ');
    return invalid_argument("", "the request body is not a JSON " + type + " message: " + why);
}

// The query's parameters, each once: only on routes without a body, never a
// seat token nor a field the path gives.
std::optional<ServiceError> read_query(const RouteMatch& match, std::string_view query,
                                       pb::Message& request) {
    const RestRoute& route = *match.route;
    std::set<std::string> seen;
    for (std::string_view pair : split(query, '&')) {
        if (pair.empty()) continue;
        const auto eq = pair.find('=');
        const auto key = percent_decode(pair.substr(0, eq), true);
        const auto value = percent_decode(
            eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1), true);
        if (!key || !value) {
            return invalid_argument(key.value_or(""),
                                    "the query has a '%' not followed by two hex digits");
        }
        if (is_token_parameter(*key)) {
            return invalid_argument(*key,
                                    "seat tokens are not accepted in the URL (URLs end up in "
                                    "logs and browser history): send the header "
                                    "'authorization: Bearer <seat_token>'");
        }
        const auto field = resolve_field(route.method->input_type(), *key);
        if (route.has_body) {
            return invalid_argument(
                *key, field ? "query parameters are not accepted here: send '" + *key +
                                  "' in the JSON body"
                            : "unknown query parameter '" + *key + "'; " +
                                  route.method->input_type()->full_name() +
                                  " is sent as the JSON body, with no query parameters");
        }
        if (!field) {
            return invalid_argument(*key, "unknown query parameter '" + *key + "' for " +
                                              route.method->input_type()->full_name());
        }
        const std::string name = dotted_name(*field);
        for (const auto& [segment, unused] : match.variables) {
            if (segment->field == *field)
                return invalid_argument(name, name + " comes from the path, not the query");
        }
        if (!seen.insert(name).second)
            return invalid_argument(name, "query parameter '" + *key + "' is given twice");
        if (auto problem = set_field(request, *field, *value))
            return invalid_argument(name, "query parameter '" + *key + "' " + *problem);
    }
    return std::nullopt;
}

// The path's variables, which win over the body.
std::optional<ServiceError> read_path_variables(const RouteMatch& match, pb::Message& request) {
    for (const auto& [segment, value] : match.variables) {
        const std::string name = dotted_name(segment->field);
        // A body may repeat a path field, but not contradict it: it could
        // mean another game than the URL a proxy checked.
        if (match.route->has_body && field_is_set(request, segment->field) &&
            field_text(request, segment->field) != value) {
            return invalid_argument(name, name +
                                              " in the body differs from the path's; leave it "
                                              "out of the body");
        }
        if (auto problem = set_field(request, segment->field, value))
            return invalid_argument(name, "the path segment for " + name + " " + *problem);
    }
    return std::nullopt;
}

}  // namespace

ServiceResult<std::unique_ptr<pb::Message>> RestRoutes::build_request(const RouteMatch& match,
                                                                      std::string_view query,
                                                                      std::string_view body) const {
    std::unique_ptr<pb::Message> request = match.route->rpc->new_request();
    if (auto e = read_body(*match.route, body, *request)) return *e;
    if (auto e = read_query(match, query, *request)) return *e;
    if (auto e = read_path_variables(match, *request)) return *e;
    return request;
}

}  // namespace foxgeese::service
