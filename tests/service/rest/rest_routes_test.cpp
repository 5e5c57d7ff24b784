// The REST mapping without a server: the route table read from the proto's
// google.api.http options, path matching, percent-decoding, requests built
// from path, query and body, and the JSON and HTTP status of responses and
// errors.
#include "service/rest/rest_routes.h"

#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include "foxgeese/v1/game_service.pb.h"
#include "google/api/annotations.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "service/rest/rest_json.h"

namespace foxgeese::service {
namespace {

namespace pb = google::protobuf;

const RestRoutes& routes() {
    static const RestRoutes table;
    return table;
}

// The RPC a method and path lead to, or the error's reason.
std::string route_of(const std::string& method, const std::string& path) {
    const auto match = routes().match(method, path);
    return match.ok() ? match.value().route->method->name() : match.error().reason;
}

ServiceResult<std::unique_ptr<pb::Message>> build(const std::string& method,
                                                  const std::string& target,
                                                  const std::string& body = "") {
    const auto question = target.find('?');
    const auto match = routes().match(method, target.substr(0, question));
    EXPECT_TRUE(match.ok()) << target;
    if (!match.ok()) return match.error();
    return routes().build_request(
        match.value(), question == std::string::npos ? "" : target.substr(question + 1), body);
}

template <class Message>
Message built(const std::string& method, const std::string& target, const std::string& body = "") {
    auto result = build(method, target, body);
    EXPECT_TRUE(result.ok()) << target << ": " << (result.ok() ? "" : result.error().message);
    Message out;
    if (result.ok()) out.CopyFrom(*result.value());
    return out;
}

std::string error_field(const std::string& method, const std::string& target,
                        const std::string& body = "") {
    auto result = build(method, target, body);
    if (result.ok()) return "(accepted)";
    EXPECT_EQ(result.error().code, StatusCode::kInvalidArgument);
    return result.error().field;
}

TEST(RestRoutes, EveryRpcIsServedAtThePathOfItsAnnotation) {
    const auto* service =
        pb::DescriptorPool::generated_pool()->FindServiceByName("foxgeese.v1.FoxGeeseService");
    ASSERT_NE(service, nullptr);
    ASSERT_EQ(routes().routes().size(), static_cast<std::size_t>(service->method_count()));
    for (int i = 0; i < service->method_count(); ++i) {
        const auto* method = service->method(i);
        const auto& rule = method->options().GetExtension(google::api::http);
        const RestRoute& route = routes().routes()[i];
        SCOPED_TRACE(method->name());
        EXPECT_EQ(route.method, method);
        EXPECT_EQ(route.pattern, rule.has_get() ? rule.get() : rule.post());
        EXPECT_EQ(route.http_method, rule.has_get() ? "GET" : "POST");
        EXPECT_EQ(route.has_body, rule.body() == "*");
        // Only the stream has no unary call; it is served by the watch stream.
        EXPECT_EQ(route.rpc->streaming(), method->server_streaming());
    }
}

TEST(RestRoutes, PathsAndVerbsLeadToTheirRpcs) {
    const std::string id = "0b6f3c1e-6a4e-4c51-9d3a-6f3b2f8f6a2d";
    EXPECT_EQ(route_of("GET", "/v1/variants"), "ListVariants");
    EXPECT_EQ(route_of("POST", "/v1/games"), "CreateGame");
    EXPECT_EQ(route_of("GET", "/v1/games"), "ListGames");
    EXPECT_EQ(route_of("POST", "/v1/games/" + id + ":join"), "JoinGame");
    EXPECT_EQ(route_of("GET", "/v1/games/" + id), "GetGame");
    EXPECT_EQ(route_of("POST", "/v1/games/" + id + "/moves"), "MakeMove");
    EXPECT_EQ(route_of("GET", "/v1/games/" + id + "/moves"), "ListMoves");
    EXPECT_EQ(route_of("POST", "/v1/games/" + id + ":resign"), "ResignGame");
    EXPECT_EQ(route_of("POST", "/v1/games/" + id + ":offerDraw"), "OfferDraw");
    EXPECT_EQ(route_of("POST", "/v1/games/" + id + ":respondDraw"), "RespondDraw");
    EXPECT_EQ(route_of("GET", "/v1/games/" + id + ":watch"), "WatchGame");
    EXPECT_EQ(route_of("GET", "/v1/games/" + id + "/record"), "ExportGame");
    EXPECT_EQ(route_of("POST", "/v1/games:import"), "ImportGame");
    EXPECT_EQ(route_of("POST", "/v1/positions:analyze"), "AnalyzePosition");
    EXPECT_EQ(route_of("POST", "/v1/games/" + id + ":analyze"), "AnalyzeGame");
    // An encoded ':' is part of the id, not a verb.
    EXPECT_EQ(route_of("GET", "/v1/games/a%3Ajoin"), "GetGame");
}

TEST(RestRoutes, UnknownPathsAreNotFoundAndOtherMethodsNotAllowed) {
    for (const std::string path : {"", "v1/variants", "/", "/v1", "/v1/games/", "/v1/games//moves",
                                   "/v1/games/x/moves/", "/v1/games/x:Join", "/v1/games/x:",
                                   "/v1/variants:list", "/v1/games:join", "//v1/games"}) {
        EXPECT_EQ(route_of("GET", path), kReasonRouteNotFound) << path;
        EXPECT_EQ(route_of("POST", path), kReasonRouteNotFound) << path;
    }
    const auto wrong = routes().match("DELETE", "/v1/games/x:join");
    ASSERT_FALSE(wrong.ok());
    EXPECT_EQ(wrong.error().reason, kReasonMethodNotAllowed);
    EXPECT_EQ(wrong.error().metadata.at("allow"), "POST, OPTIONS");
    EXPECT_EQ(http_status_of(wrong.error()), 405);
    EXPECT_EQ(routes().methods_at("/v1/games"), (std::vector<std::string>{"POST", "GET"}));
    EXPECT_EQ(routes().methods_at("/v1/games/x:watch"), (std::vector<std::string>{"GET"}));
    EXPECT_TRUE(routes().methods_at("/v1/elsewhere").empty());
}

TEST(RestRoutes, PathVariablesArePercentDecoded) {
    EXPECT_EQ(built<v1::GetGameRequest>("GET", "/v1/games/%41b%2fc+d").game_id(), "Ab/c+d");
    EXPECT_EQ(built<v1::GetGameRequest>("GET", "/v1/games/%E2%9C%93").game_id(), "\u2713");
    for (const std::string path :
         {"/v1/games/%", "/v1/games/%4", "/v1/games/%zz", "/v1/games/a%g1"}) {
        const auto match = routes().match("GET", path);
        ASSERT_FALSE(match.ok()) << path;
        EXPECT_EQ(match.error().code, StatusCode::kInvalidArgument);
        EXPECT_EQ(match.error().field, "game_id");
    }
    EXPECT_EQ(error_field("GET", "/v1/games/%FF"), "game_id");  // not UTF-8
    EXPECT_EQ(percent_decode("a+b%20c", true), "a b c");
    EXPECT_EQ(percent_decode("a+b%20c", false), "a+b c");
    EXPECT_FALSE(percent_decode("%2", true));
}

TEST(RestRoutes, QueryParametersSetFieldsByJsonOrProtoName) {
    const auto list = built<v1::ListGamesRequest>(
        "GET", "/v1/games?pageSize=7&page_token=a%2Bb+c&filter=GAME_LIST_FILTER_RECENT&variant=");
    EXPECT_EQ(list.page_size(), 7);
    EXPECT_EQ(list.page_token(), "a+b c");
    EXPECT_EQ(list.filter(), v1::GAME_LIST_FILTER_RECENT);
    EXPECT_EQ(built<v1::ListGamesRequest>("GET", "/v1/games?filter=2").filter(),
              v1::GAME_LIST_FILTER_ACTIVE);
    EXPECT_EQ(built<v1::ListGamesRequest>("GET", "/v1/games?page_size=-3&&").page_size(), -3);

    const auto watch = built<v1::WatchGameRequest>("GET", "/v1/games/g:watch?fromPly=0");
    EXPECT_EQ(watch.game_id(), "g");
    EXPECT_TRUE(watch.has_from_ply());
    EXPECT_EQ(watch.from_ply(), 0);
    EXPECT_FALSE(built<v1::WatchGameRequest>("GET", "/v1/games/g:watch").has_from_ply());

    EXPECT_EQ(error_field("GET", "/v1/games?pageSize=x"), "page_size");
    EXPECT_EQ(error_field("GET", "/v1/games?pageSize="), "page_size");
    EXPECT_EQ(error_field("GET", "/v1/games?pageSize=2147483648"), "page_size");
    EXPECT_EQ(error_field("GET", "/v1/games?pageSize=1&pageSize=1"), "page_size");
    EXPECT_EQ(error_field("GET", "/v1/games?filter=OPEN"), "filter");
    EXPECT_EQ(error_field("GET", "/v1/games?filter=9"), "filter");
    EXPECT_EQ(error_field("GET", "/v1/games?PageSize=1"), "PageSize");
    EXPECT_EQ(error_field("GET", "/v1/games?games=1"), "games");
    EXPECT_EQ(error_field("GET", "/v1/games/g?gameId=h"), "game_id");
    EXPECT_EQ(error_field("GET", "/v1/games/g?game_id=h"), "game_id");
    EXPECT_EQ(error_field("GET", "/v1/variants?language=%FF"), "language");
    EXPECT_EQ(error_field("POST", "/v1/games?variant=standard", "{}"), "variant");
    EXPECT_EQ(error_field("POST", "/v1/games/path-id/moves", R"({"gameId": "other-id"})"),
              "game_id");
}

TEST(RestRoutes, BodiesAreTheJsonRequestAndMayRepeatButNotContradictThePath) {
    const auto move = built<v1::MakeMoveRequest>(
        "POST", "/v1/games/path-id/moves",
        R"({"gameId": "path-id", "move": "d4-d5", "expected_ply": 3, "requestId": "r"})");
    EXPECT_EQ(move.game_id(), "path-id");
    EXPECT_EQ(move.move(), "d4-d5");
    EXPECT_TRUE(move.has_expected_ply());
    EXPECT_EQ(move.expected_ply(), 3);
    EXPECT_EQ(move.request_id(), "r");

    const auto empty = built<v1::CreateGameRequest>("POST", "/v1/games", "");
    EXPECT_EQ(empty.SerializeAsString(), "");
    EXPECT_EQ(built<v1::CreateGameRequest>("POST", "/v1/games", " \n\t ").SerializeAsString(), "");
    const auto create = built<v1::CreateGameRequest>(
        "POST", "/v1/games",
        R"({"variant": "standard", "options": {"geese": 13, "geeseSideways": false},
            "seat": "SEAT_CHOICE_BOTH", "visibility": 1})");
    EXPECT_EQ(create.variant(), "standard");
    EXPECT_TRUE(create.options().has_geese_sideways());
    EXPECT_EQ(create.seat(), v1::SEAT_CHOICE_BOTH);
    EXPECT_EQ(create.visibility(), 1);

    for (const std::string body : {"{", "[]", "null", R"({"variant": 1})", R"({"colour": "red"})",
                                   R"({"seat": "SEAT_NOPE"})", R"({"variant": "a"} {})"}) {
        auto result = build("POST", "/v1/games", body);
        ASSERT_FALSE(result.ok()) << body;
        EXPECT_EQ(result.error().code, StatusCode::kInvalidArgument);
        EXPECT_NE(result.error().message.find("foxgeese.v1.CreateGameRequest"), std::string::npos);
        EXPECT_EQ(result.error().message.find('\n'), std::string::npos);
    }
    // A body on a GET is ignored.
    EXPECT_EQ(built<v1::GetGameRequest>("GET", "/v1/games/g", "{not json").game_id(), "g");
}

TEST(RestJson, ResponsesPrintEveryPrimitiveFieldInTheJsonMapping) {
    v1::GetGameResponse response;
    response.mutable_game()->set_game_id("g");
    response.mutable_game()->mutable_create_time()->set_seconds(1700000000);
    const std::string json = message_to_json(response);
    for (const char* expected :
         {"\"gameId\":\"g\"", "\"ply\":0", "\"foxSeatTaken\":false", "\"legalMoves\":[]",
          "\"state\":\"GAME_STATE_UNSPECIFIED\"", "\"createTime\":\"2023-11-14T22:13:20Z\""}) {
        EXPECT_NE(json.find(expected), std::string::npos) << expected << " in " << json;
    }
    EXPECT_EQ(json.find('\n'), std::string::npos);
    EXPECT_EQ(json.find("lastMove"), std::string::npos);  // unset messages stay absent
}

TEST(RestJson, ErrorsAreTheGoogleRpcStatusInJson) {
    ServiceError error{StatusCode::kFailedPrecondition,
                       "ILLEGAL_MOVE",
                       "no such move",
                       {{"move", "d4-d7"}},
                       "move"};
    const std::string json = error_to_json(error);
    google::rpc::Status status;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(json, &status).ok()) << json;
    EXPECT_EQ(status.code(), 9);
    EXPECT_EQ(status.message(), "no such move");
    ASSERT_EQ(status.details_size(), 2);
    google::rpc::ErrorInfo info;
    ASSERT_TRUE(status.details(0).UnpackTo(&info));
    EXPECT_EQ(info.reason(), "ILLEGAL_MOVE");
    EXPECT_EQ(info.domain(), "foxgeese.dev");
    EXPECT_EQ(info.metadata().at("move"), "d4-d7");
    google::rpc::BadRequest bad;
    ASSERT_TRUE(status.details(1).UnpackTo(&bad));
    EXPECT_EQ(bad.field_violations(0).field(), "move");
    EXPECT_NE(json.find("\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\""),
              std::string::npos)
        << json;
    EXPECT_NE(json.find("\"code\":9"), std::string::npos) << json;
}

TEST(RestJson, ErrorsQuotingBytesThatAreNotUtf8StayValidJson) {
    const ServiceError error = invalid_argument("k\xff", "unknown query parameter 'k\xff\xc0'");
    google::rpc::Status status;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(error_to_json(error), &status).ok());
    EXPECT_EQ(status.message(), "unknown query parameter 'k\uFFFD\uFFFD'");
    ASSERT_EQ(status.details_size(), 2);
    EXPECT_TRUE(is_valid_utf8("plain \u2713 \U0001F98A"));
    EXPECT_FALSE(is_valid_utf8("\xc0\xaf"));      // overlong '/'
    EXPECT_FALSE(is_valid_utf8("\xed\xa0\x80"));  // a surrogate
    EXPECT_FALSE(is_valid_utf8("\xe2\x9c"));      // cut short
    EXPECT_EQ(coerce_utf8("a\xff"
                          "b"),
              "a\uFFFD"
              "b");
}

TEST(RestJson, HttpStatusesFollowTheDocumentedTable) {
    const std::vector<std::pair<int, int>> table = {
        {1, 499}, {2, 500},  {3, 400},  {4, 504},  {5, 404},  {6, 409},  {7, 403},  {8, 429},
        {9, 400}, {10, 409}, {11, 400}, {12, 501}, {13, 500}, {14, 503}, {15, 500}, {16, 401}};
    for (const auto& [code, http] : table)
        EXPECT_EQ(http_status_of(static_cast<StatusCode>(code)), http) << code;
    const auto transport = [](const char* reason) {
        return http_status_of(ServiceError{StatusCode::kInvalidArgument, reason, "", {}, ""});
    };
    EXPECT_EQ(transport(kReasonPayloadTooLarge), 413);
    EXPECT_EQ(transport(kReasonHeadersTooLarge), 431);
    EXPECT_EQ(transport(kReasonUnsupportedMediaType), 415);
    EXPECT_EQ(transport(kReasonMalformedRequest), 400);
}

}  // namespace
}  // namespace foxgeese::service
