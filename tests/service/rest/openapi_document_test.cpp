// The OpenAPI document against what the server does: the same routes both
// ways, the proto3 JSON mapping the server prints (names, types, which fields
// are always present), a description on every element, the seat-token
// scheme where the RPCs need it, and each error reason with the HTTP status
// the server really sends for it.
#include "service/rest/openapi_document.h"

#include <google/protobuf/descriptor.h>
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "foxgeese/v1/game_service.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "service/rest/rest_json.h"
#include "service/rest/rest_routes.h"

namespace foxgeese::service {
namespace {

namespace pb = google::protobuf;
using Json = nlohmann::ordered_json;

const RestRoutes& routes() {
    static const RestRoutes table;
    return table;
}

const Json& document() {
    static const Json doc = Json::parse(openapi_json());
    return doc;
}

const Json& schema(const std::string& name) {
    return document().at("components").at("schemas").at(name);
}

std::string lower(std::string text) {
    for (char& c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::string upper(std::string text) {
    for (char& c : text)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

// The document's path template with every {variable} made concrete.
std::string concrete(const std::string& path) {
    return std::regex_replace(path, std::regex("\\{[^}]+\\}"), "x");
}

const pb::Descriptor* message_named(const std::string& name) {
    return pb::DescriptorPool::generated_pool()->FindMessageTypeByName(name);
}

std::set<std::string> names_of(const Json& array) {
    std::set<std::string> names;
    for (const auto& item : array)
        names.insert(item.get<std::string>());
    return names;
}

// The messages a client sends (request messages and what they contain).
std::set<const pb::Descriptor*> request_side() {
    std::set<const pb::Descriptor*> seen;
    std::vector<const pb::Descriptor*> todo;
    for (const RestRoute& route : routes().routes())
        todo.push_back(route.method->input_type());
    while (!todo.empty()) {
        const pb::Descriptor* type = todo.back();
        todo.pop_back();
        if (!seen.insert(type).second) continue;
        for (int i = 0; i < type->field_count(); ++i) {
            if (type->field(i)->message_type() != nullptr)
                todo.push_back(type->field(i)->message_type());
        }
    }
    return seen;
}

TEST(OpenApiDocument, IsOpenApi31WithTheServersVersionAndBearerScheme) {
    EXPECT_EQ(document().at("openapi"), "3.1.0");
    EXPECT_FALSE(document().at("info").at("version").get<std::string>().empty());
    const Json& scheme = document().at("components").at("securitySchemes").at("seatToken");
    EXPECT_EQ(scheme.at("type"), "http");
    EXPECT_EQ(scheme.at("scheme"), "bearer");
}

TEST(OpenApiDocument, HasAnOperationForEveryRouteAtItsPathAndMethod) {
    for (const RestRoute& route : routes().routes()) {
        std::string path;
        for (const auto& segment : route.segments) {
            path += "/";
            path +=
                segment.field.empty() ? segment.literal : "{" + segment.field.back()->name() + "}";
        }
        if (!route.verb.empty()) path += ":" + route.verb;
        SCOPED_TRACE(route.http_method + " " + path);
        const Json& paths = document().at("paths");
        ASSERT_TRUE(paths.contains(path));
        ASSERT_TRUE(paths.at(path).contains(lower(route.http_method)));
        EXPECT_EQ(paths.at(path).at(lower(route.http_method)).at("operationId"),
                  route.method->name());
    }
}

TEST(OpenApiDocument, EveryOperationIsARouteTheServerServes) {
    std::size_t operations = 0;
    std::set<std::string> ids;
    for (const auto& [path, methods] : document().at("paths").items()) {
        for (const auto& [method, operation] : methods.items()) {
            ++operations;
            const auto match = routes().match(upper(method), concrete(path));
            SCOPED_TRACE(method + " " + path);
            ASSERT_TRUE(match.ok()) << match.error().reason;
            EXPECT_EQ(match.value().route->method->name(), operation.at("operationId"));
            ids.insert(operation.at("operationId").get<std::string>());
            // Every {variable} of the path is a path parameter.
            static const std::regex kVariable("\\{([^}]+)\\}");
            for (auto it = std::sregex_iterator(path.begin(), path.end(), kVariable);
                 it != std::sregex_iterator(); ++it) {
                bool declared = false;
                for (const auto& parameter : operation.at("parameters"))
                    declared |=
                        parameter.at("in") == "path" && parameter.at("name") == (*it)[1].str();
                EXPECT_TRUE(declared) << (*it)[1].str();
            }
        }
    }
    EXPECT_EQ(operations, routes().routes().size());
    EXPECT_EQ(ids.size(), operations);
}

TEST(OpenApiDocument, QueryParametersAreTheRequestFieldsByJsonName) {
    const Json& list_games = document().at("paths").at("/v1/games").at("get").at("parameters");
    std::set<std::string> names;
    for (const auto& parameter : list_games) {
        EXPECT_EQ(parameter.at("in"), "query");
        names.insert(parameter.at("name").get<std::string>());
    }
    EXPECT_EQ(names, (std::set<std::string>{"pageSize", "pageToken", "filter", "variant"}));
    const Json& watch =
        document().at("paths").at("/v1/games/{game_id}:watch").at("get").at("parameters");
    ASSERT_EQ(watch.size(), 2u);
    EXPECT_EQ(watch.at(1).at("name"), "fromPly");
    EXPECT_EQ(watch.at(1).at("schema").at("type"), "integer");
}

TEST(OpenApiDocument, BodiesAreTheRequestMessagesWithoutTheirPathFields) {
    const Json& body = schema("foxgeese.v1.MakeMoveRequest");
    EXPECT_FALSE(body.at("properties").contains("gameId"));
    EXPECT_EQ(names_of(body.at("required")), std::set<std::string>{"move"});  // "Required."
    EXPECT_TRUE(body.at("properties").contains("expectedPly"));
    EXPECT_EQ(schema("foxgeese.v1.CreateGameRequest").at("required"), Json::array({"variant"}));
    const Json& operation = document().at("paths").at("/v1/games/{game_id}/moves").at("post");
    EXPECT_EQ(
        operation.at("requestBody").at("content").at("application/json").at("schema").at("$ref"),
        "#/components/schemas/foxgeese.v1.MakeMoveRequest");
}

// Every property of every message schema is the field's JSON name, and the
// messages clients receive mark as required exactly what message_to_json
// prints for an empty message (every field without presence).
TEST(OpenApiDocument, MessageSchemasFollowTheJsonTheServerPrints) {
    const auto requests = request_side();
    int checked = 0;
    for (const auto& [name, object] : document().at("components").at("schemas").items()) {
        const pb::Descriptor* type = message_named(name);
        if (type == nullptr || !object.contains("properties")) continue;
        SCOPED_TRACE(name);
        ++checked;
        std::set<std::string> expected;
        for (int i = 0; i < type->field_count(); ++i)
            expected.insert(type->field(i)->json_name());
        std::set<std::string> properties;
        for (const auto& [property, unused] : object.at("properties").items())
            properties.insert(property);
        for (const auto& property : properties)
            EXPECT_TRUE(expected.count(property)) << property;
        if (requests.count(type) > 0) continue;
        EXPECT_EQ(properties, expected);
        std::unique_ptr<pb::Message> empty(
            pb::MessageFactory::generated_factory()->GetPrototype(type)->New());
        std::set<std::string> printed;
        const Json json = Json::parse(message_to_json(*empty));
        for (const auto& [key, unused] : json.items())
            printed.insert(key);
        EXPECT_EQ(names_of(object.value("required", Json::array())), printed);
    }
    EXPECT_GT(checked, 30);
}

TEST(OpenApiDocument, MapsProtoTypesToTheirJsonForms) {
    const Json& game = schema("foxgeese.v1.Game").at("properties");
    EXPECT_EQ(game.at("createTime").at("type"), "string");
    EXPECT_EQ(game.at("createTime").at("format"), "date-time");
    EXPECT_EQ(game.at("ply").at("type"), "integer");
    EXPECT_EQ(game.at("ply").at("format"), "int32");
    EXPECT_EQ(game.at("legalMoves").at("type"), "array");
    EXPECT_EQ(game.at("legalMoves").at("items").at("type"), "string");
    EXPECT_EQ(game.at("foxSeatTaken").at("type"), "boolean");
    EXPECT_EQ(game.at("state").at("$ref"), "#/components/schemas/foxgeese.v1.GameState");
    EXPECT_EQ(game.at("lastMove").at("$ref"), "#/components/schemas/foxgeese.v1.Move");

    const Json& state = schema("foxgeese.v1.GameState");
    EXPECT_EQ(state.at("type"), "string");
    std::set<std::string> values;
    for (int i = 0; i < v1::GameState_descriptor()->value_count(); ++i)
        values.insert(v1::GameState_descriptor()->value(i)->name());
    EXPECT_EQ(names_of(state.at("enum")), values);

    const Json& metadata = schema("google.rpc.ErrorInfo").at("properties").at("metadata");
    EXPECT_EQ(metadata.at("type"), "object");
    EXPECT_EQ(metadata.at("additionalProperties").at("type"), "string");

    const Json& options = schema("foxgeese.v1.GameOptions");
    EXPECT_FALSE(options.contains("required"));  // optional fields may be absent
}

TEST(OpenApiDocument, DescribesEveryOperationSchemaAndFieldWithTheProtoComment) {
    for (const auto& [path, methods] : document().at("paths").items()) {
        for (const auto& [method, operation] : methods.items()) {
            EXPECT_FALSE(operation.at("summary").get<std::string>().empty()) << path;
            EXPECT_GT(operation.at("description").get<std::string>().size(), 40u) << path;
        }
    }
    for (const auto& [name, object] : document().at("components").at("schemas").items()) {
        if (name.rfind("foxgeese.", 0) != 0) continue;
        EXPECT_FALSE(object.value("description", "").empty()) << name;
        const Json properties = object.value("properties", Json::object());
        for (const auto& [property, field] : properties.items())
            EXPECT_FALSE(field.value("description", "").empty()) << name << "." << property;
    }
    const std::string list = schema("foxgeese.v1.EndReason").at("description");
    EXPECT_NE(list.find("`END_REASON_PEN_FILLED`: Every point of the pen"), std::string::npos);
    const Json& create = document().at("paths").at("/v1/games").at("post");
    EXPECT_EQ(create.at("summary"), "CreateGame");
    EXPECT_EQ(create.at("description")
                  .get<std::string>()
                  .rfind("Creates a game and seats its creator.", 0),
              0u);
}

TEST(OpenApiDocument, SeatActionsNeedTheTokenAndWatchingAcceptsIt) {
    const std::set<std::string> needs = {
        "MakeMove",     "ResignGame",   "OfferDraw",      "RespondDraw", "AbortGame", "CancelGame",
        "ClaimVictory", "OfferRematch", "RespondRematch", "JoinRematch", "GetSeat"};
    for (const auto& [path, methods] : document().at("paths").items()) {
        for (const auto& [method, operation] : methods.items()) {
            const std::string id = operation.at("operationId");
            SCOPED_TRACE(id);
            const Json required = Json::array({{{"seatToken", Json::array()}}});
            if (needs.count(id) > 0) {
                EXPECT_EQ(operation.at("security"), required);
                EXPECT_TRUE(operation.at("responses").contains("401"));
            } else if (id == "WatchGame") {
                EXPECT_EQ(operation.at("security"), Json::array({Json::object(), required.at(0)}));
            } else {
                EXPECT_EQ(operation.at("security"), Json::array());
            }
        }
    }
}

TEST(OpenApiDocument, WatchGameIsAnNdjsonStreamOfWatchGameResponses) {
    const Json& ok =
        document().at("paths").at("/v1/games/{game_id}:watch").at("get").at("responses").at("200");
    ASSERT_TRUE(ok.at("content").contains("application/x-ndjson"));
    EXPECT_EQ(ok.at("content").at("application/x-ndjson").at("schema").at("$ref"),
              "#/components/schemas/foxgeese.v1.WatchGameResponse");
    EXPECT_NE(ok.at("description").get<std::string>().find("one JSON"), std::string::npos);
}

TEST(OpenApiDocument, ExportGameAnswersTheRecordAsPlainTextAndImportTakesJson) {
    const Json& exported = document().at("paths").at("/v1/games/{game_id}/record").at("get");
    const Json& ok = exported.at("responses").at("200").at("content");
    ASSERT_EQ(ok.size(), 1u);
    EXPECT_EQ(ok.at("text/plain; charset=utf-8").at("schema").at("type"), "string");
    EXPECT_FALSE(document().at("components").at("schemas").contains("google.api.HttpBody"));
    // What the proto's comment tells buf's linter is not for readers.
    EXPECT_EQ(exported.at("description").get<std::string>().find("buf:lint"), std::string::npos);
    EXPECT_NE(exported.at("responses")
                  .at("404")
                  .at("description")
                  .get<std::string>()
                  .find("`GAME_NOT_FOUND`"),
              std::string::npos);

    const Json& imported = document().at("paths").at("/v1/games:import").at("post");
    EXPECT_EQ(
        imported.at("requestBody").at("content").at("application/json").at("schema").at("$ref"),
        "#/components/schemas/foxgeese.v1.ImportGameRequest");
    EXPECT_EQ(names_of(schema("foxgeese.v1.ImportGameRequest").at("required")),
              std::set<std::string>{"record"});
    const std::string refused = imported.at("responses").at("400").at("description");
    for (const char* reason : {"RECORD_INVALID", "RECORD_ILLEGAL_MOVE", "RECORD_RESULT_MISMATCH"})
        EXPECT_NE(refused.find(std::string("`") + reason + "`"), std::string::npos) << reason;
}

TEST(OpenApiDocument, ErrorsAreTheStatusBodyWithErrorInfoAndBadRequest) {
    const Json& status = schema("google.rpc.Status");
    EXPECT_EQ(names_of(status.at("required")),
              (std::set<std::string>{"code", "message", "details"}));
    const Json& mapping =
        status.at("properties").at("details").at("items").at("discriminator").at("mapping");
    EXPECT_EQ(mapping.at("type.googleapis.com/google.rpc.ErrorInfo"),
              "#/components/schemas/google.rpc.PackedErrorInfo");
    EXPECT_EQ(mapping.at("type.googleapis.com/google.rpc.BadRequest"),
              "#/components/schemas/google.rpc.PackedBadRequest");
    EXPECT_EQ(schema("google.rpc.ErrorInfo").at("properties").at("domain").at("const"),
              "foxgeese.dev");
    for (const auto& [path, methods] : document().at("paths").items()) {
        for (const auto& [method, operation] : methods.items()) {
            for (const auto& [code, response] : operation.at("responses").items()) {
                if (code == "200") continue;
                EXPECT_EQ(response.at("content").at("application/json").at("schema").at("$ref"),
                          "#/components/schemas/google.rpc.Status");
            }
        }
    }
}

// The reasons table in ErrorInfo.reason's description: every reason with the
// status code and HTTP status the REST side really answers with.
TEST(OpenApiDocument, ListsEveryReasonWithTheHttpStatusTheServerSends) {
    const Json& reason = schema("google.rpc.ErrorInfo").at("properties").at("reason");
    const std::set<std::string> listed = names_of(reason.at("enum"));
    for (const char* expected :
         {"INVALID_ARGUMENT", "ILLEGAL_MOVE", "NOT_YOUR_TURN", "TOKEN_REQUIRED", "TOKEN_INVALID",
          "GAME_NOT_FOUND", "PLY_MISMATCH", "SEAT_TAKEN", "REQUEST_ID_USED", "DATABASE_TIMEOUT",
          "SERVER_BUSY", kReasonRouteNotFound, kReasonMethodNotAllowed, kReasonMalformedRequest,
          kReasonPayloadTooLarge, kReasonHeadersTooLarge, kReasonUnsupportedMediaType,
          kReasonUnsupportedTransferCoding})
        EXPECT_TRUE(listed.count(expected)) << expected;

    const std::string table = reason.at("description");
    const std::regex row("\\| `([A-Z_]+)` \\| ([A-Z_]+) \\| ([0-9]{3}) \\|");
    std::size_t rows = 0;
    for (auto it = std::sregex_iterator(table.begin(), table.end(), row);
         it != std::sregex_iterator(); ++it) {
        ++rows;
        const std::string name = (*it)[1];
        SCOPED_TRACE(name);
        std::optional<StatusCode> code;
        for (int n = 0; n <= 16; ++n) {
            if ((*it)[2] == status_code_name(static_cast<StatusCode>(n)))
                code = static_cast<StatusCode>(n);
        }
        ASSERT_TRUE(code.has_value()) << (*it)[2];
        const ServiceError error{*code, name, "", {}, ""};
        EXPECT_EQ(std::to_string(http_status_of(error)), (*it)[3].str());
    }
    EXPECT_EQ(rows, listed.size());
}

// Every reason the server's code can answer with (each make_error with a
// literal reason, and the HTTP layer's constants), read from the sources, so
// that a new reason cannot reach clients undocumented. Two never do: NO_BOT
// (the bot's own moves, logged only) and CANCELLED (the caller has gone).
std::map<std::string, std::string> reasons_in_sources() {
    static const std::regex raised(R"re(make_error\(\s*StatusCode::k(\w+),\s*"([A-Z_]+)")re");
    static const std::regex http_layer(R"re(kReason\w+ = "([A-Z_]+)")re");
    std::map<std::string, std::string> found;  // reason -> gRPC code name
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(FOXGEESE_SOURCE_DIR "/service")) {
        const auto ext = entry.path().extension();
        if (ext != ".cpp" && ext != ".h") continue;
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        const std::string source = text.str();
        for (auto it = std::sregex_iterator(source.begin(), source.end(), raised);
             it != std::sregex_iterator(); ++it) {
            // kFailedPrecondition -> FAILED_PRECONDITION
            std::string code;
            for (char c : (*it)[1].str()) {
                if (std::isupper(static_cast<unsigned char>(c)) && !code.empty()) code += '_';
                code += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            }
            found[(*it)[2]] = code;
        }
        for (auto it = std::sregex_iterator(source.begin(), source.end(), http_layer);
             it != std::sregex_iterator(); ++it)
            found.emplace((*it)[1], "");
    }
    found.erase("NO_BOT");
    found.erase("CANCELLED");
    return found;
}

TEST(OpenApiDocument, ListsEveryReasonTheServerRaisesWithItsCode) {
    const std::map<std::string, std::string> raised = reasons_in_sources();
    // A scan that found little read the wrong place, not a small server.
    ASSERT_GE(raised.size(), 40u);
    const std::string table = schema("google.rpc.ErrorInfo")
                                  .at("properties")
                                  .at("reason")
                                  .at("description")
                                  .get<std::string>();
    for (const auto& [reason, code] : raised) {
        SCOPED_TRACE(reason);
        const std::regex row("\\| `" + reason + "` \\| ([A-Z_]+) \\|");
        std::smatch listed;
        ASSERT_TRUE(std::regex_search(table, listed, row)) << "not in the reasons table";
        // Over REST an oversized header block is INVALID_ARGUMENT (431).
        if (!code.empty() && reason != kReasonHeadersTooLarge) {
            EXPECT_EQ(listed[1], code);
        }
    }
}

TEST(OpenApiDocument, EachOperationListsTheReasonsItsRpcNames) {
    const Json& responses =
        document().at("paths").at("/v1/games/{game_id}/moves").at("post").at("responses");
    const std::string bad = responses.at("400").at("description");
    for (const char* reason : {"INVALID_NOTATION", "ILLEGAL_MOVE", "NOT_YOUR_TURN", "GAME_OVER"})
        EXPECT_NE(bad.find(std::string("`") + reason + "`"), std::string::npos) << reason;
    EXPECT_NE(responses.at("409").at("description").get<std::string>().find("`PLY_MISMATCH`"),
              std::string::npos);
    EXPECT_TRUE(responses.contains("503"));
    EXPECT_TRUE(responses.contains("default"));
    const Json& join =
        document().at("paths").at("/v1/games/{game_id}:join").at("post").at("responses");
    EXPECT_NE(join.at("403").at("description").get<std::string>().find("`INVITE_INVALID`"),
              std::string::npos);
    EXPECT_FALSE(join.contains("401"));  // joining needs no token
}

}  // namespace
}  // namespace foxgeese::service
