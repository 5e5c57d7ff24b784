// The REST API end to end: every route's happy path and errors, each checked
// against the same call over gRPC (same decoded response, same
// google.rpc.Status), a whole game played over REST, CORS, the operational
// endpoints and the request metrics.
#include <atomic>
#include <functional>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "storage/migrations.h"
#include "tests/service/harness/rest_harness.h"
#include "tests/support/test_database.h"

namespace foxgeese::test {
namespace {

using RestApi = RestTest;

// A REST call and the same call over gRPC, for error tables.
struct ErrorCase {
    std::string name;
    std::string method;
    std::string target;
    std::string body;
    Auth auth;
    std::function<grpc::Status()> grpc;
};

std::string json_of(const v1::CreateGameRequest& request) {
    return to_json(request);
}

std::string percent_encode_all(const std::string& text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        out += '%';
        out += kHex[c >> 4];
        out += kHex[c & 15];
    }
    return out;
}

v1::MakeMoveRequest move_request(const std::string& game_id, const std::string& notation) {
    v1::MakeMoveRequest request;
    request.set_game_id(game_id);
    request.set_move(notation);
    return request;
}

class RestApiTest : public RestApi {
  protected:
    void expect_same_errors(const std::vector<ErrorCase>& cases) {
        for (const ErrorCase& c : cases) {
            SCOPED_TRACE(c.name + ": " + c.method + " " + c.target + " " + c.body);
            const HttpReply reply = rest(c.method, c.target, c.body, c.auth);
            EXPECT_TRUE(SameError(reply, c.grpc()));
        }
    }
};

TEST_F(RestApiTest, ListVariantsMatchesGrpcInEveryLanguage) {
    EXPECT_TRUE(SameResponse(get("/v1/variants"), grpc().list_variants().response));
    EXPECT_TRUE(
        SameResponse(get("/v1/variants?language=pl-PL"), grpc().list_variants("pl-PL").response));
    EXPECT_TRUE(
        SameResponse(get("/v1/variants?language=tr&"), grpc().list_variants("tr").response));
    EXPECT_TRUE(SameResponse(get("/v1/variants?language=xx"), grpc().list_variants("xx").response));
}

// A browser says its language in Accept-Language; an explicit field wins.
TEST_F(RestApiTest, ListVariantsSpeaksTheAcceptLanguageUnlessTheQueryNamesOne) {
    const HttpReply polish = rest("GET", "/v1/variants", "", Auth::none(),
                                  {{"Accept-Language", "pl-PL,pl;q=0.9,en;q=0.5"}});
    EXPECT_TRUE(SameResponse(polish, grpc().list_variants("pl").response));
    const HttpReply turkish =
        rest("GET", "/v1/variants?language=tr", "", Auth::none(), {{"Accept-Language", "pl-PL"}});
    EXPECT_TRUE(SameResponse(turkish, grpc().list_variants("tr").response));
}

TEST_F(RestApiTest, ListVariantsRejectsQueryParametersItDoesNotHave) {
    // ListVariants has no errors of its own, only the REST layer's.
    const HttpReply unknown = get("/v1/variants?colour=red");
    EXPECT_TRUE(IsRestError(unknown, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    EXPECT_EQ(rest_bad_field(unknown), "colour");
    const HttpReply twice = get("/v1/variants?language=en&language=pl");
    EXPECT_TRUE(IsRestError(twice, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    EXPECT_EQ(rest_bad_field(twice), "language");
}

TEST_F(RestApiTest, CreateGameReturnsTheGameThatGrpcReads) {
    const HttpReply reply = post("/v1/games", json_of(create_request("standard")));
    v1::CreateGameResponse created;
    ASSERT_EQ(reply.status, 200) << reply.body;
    ASSERT_TRUE(parse_json(reply.body, created));
    EXPECT_EQ(created.seat(), v1::SEAT_FOX);
    EXPECT_FALSE(created.seat_token().empty());
    EXPECT_FALSE(created.invite_code().empty());
    EXPECT_TRUE(SameResponse(get("/v1/games/" + created.game().game_id()),
                             grpc().get(created.game().game_id()).response));
    EXPECT_EQ(grpc().get(created.game().game_id())->game().SerializeAsString(),
              created.game().SerializeAsString());

    // Frontends see zeros, falses and enum names, and RFC 3339 times.
    for (const char* expected :
         {"\"ply\":0", "\"geeseCaptured\":0", "\"geeseSeatTaken\":false", "\"foxSeatTaken\":true",
          "\"state\":\"GAME_STATE_WAITING\"", "\"drawOfferedBy\":\"SIDE_UNSPECIFIED\"",
          "\"legalMovesOmitted\":false", "\"seat\":\"SEAT_FOX\"",
          "\"visibility\":\"VISIBILITY_PRIVATE\""}) {
        EXPECT_NE(reply.body.find(expected), std::string::npos) << expected << " in " << reply.body;
    }
    const auto at = reply.body.find("\"createTime\":\"");
    ASSERT_NE(at, std::string::npos);
    const std::string time = reply.body.substr(at + 14, reply.body.find('"', at + 14) - at - 14);
    EXPECT_EQ(time.size() >= 20 ? time[4] : ' ', '-') << time;
    EXPECT_EQ(time.back(), 'Z') << time;
}

TEST_F(RestApiTest, CreateGameAcceptsEnumsByNameOrNumberAndAnEmptyBodyIsEmpty) {
    const HttpReply both = post("/v1/games", R"({"variant": "standard", "seat": 4})");
    v1::CreateGameResponse created;
    ASSERT_EQ(both.status, 200) << both.body;
    ASSERT_TRUE(parse_json(both.body, created));
    EXPECT_EQ(created.seat(), v1::SEAT_BOTH);
    // No body at all is the empty request, which lacks its variant.
    expect_same_errors({{"empty body", "POST", "/v1/games", "", Auth::none(),
                         [&] { return grpc().create(v1::CreateGameRequest()).status; }},
                        {"whitespace body", "POST", "/v1/games", " \r\n", Auth::none(),
                         [&] { return grpc().create(v1::CreateGameRequest()).status; }}});
}

TEST_F(RestApiTest, CreateGameErrorsMatchGrpc) {
    auto bad_options = create_request("standard");
    bad_options.mutable_options()->set_geese(999);
    auto bad_position = create_request("standard");
    bad_position.set_start_position("not a position");
    auto bad_request_id = create_request("standard");
    bad_request_id.set_request_id(std::string(65, 'r'));
    auto negative_geese = create_request("big_cross");
    negative_geese.mutable_options()->set_geese(-1);
    std::vector<ErrorCase> cases;
    for (const auto& request :
         {create_request("chess"), bad_options, bad_position, bad_request_id, negative_geese}) {
        cases.push_back({request.ShortDebugString(), "POST", "/v1/games", json_of(request),
                         Auth::none(), [this, request] { return grpc().create(request).status; }});
    }
    expect_same_errors(cases);
}

TEST_F(RestApiTest, BodiesThatAreNotTheRequestMessageAreInvalidArgument) {
    for (const char* body :
         {R"({"variant": "standard", "colour": "red"})", R"({"variant": "standard")", "[]", "42",
          R"({"variant": 5})", R"({"variant": "standard", "seat": "SEAT_NOPE"})",
          R"({"variant": "standard", "options": {"geese": "many"}})"}) {
        SCOPED_TRACE(body);
        const HttpReply reply = post("/v1/games", body);
        EXPECT_TRUE(
            IsRestError(reply, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
        EXPECT_NE(rest_status(reply).message().find("CreateGameRequest"), std::string::npos)
            << reply.body;
    }
    const HttpReply named = post("/v1/games", R"({"variant": "standard", "colour": "red"})");
    EXPECT_NE(rest_status(named).message().find("colour"), std::string::npos) << named.body;
    // Fields of a body route come from the body only.
    const HttpReply query = post("/v1/games?variant=standard", "{}");
    EXPECT_TRUE(IsRestError(query, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    EXPECT_EQ(rest_bad_field(query), "variant");
}

TEST_F(RestApiTest, JoinGameSeatsTheJoinerAsGrpcSees) {
    const Reply<v1::CreateGameResponse> created = grpc().create(create_request("standard"));
    ASSERT_TRUE(IsOk(created));
    const std::string id = created->game().game_id();
    // A body that names another game than the path is refused; one that
    // repeats the path's game is fine.
    const HttpReply other = post("/v1/games/" + id + ":join", R"({"gameId": ")" + kUnknownGameId +
                                                                  R"(", "inviteCode": ")" +
                                                                  created->invite_code() + R"("})");
    EXPECT_TRUE(IsRestError(other, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    EXPECT_EQ(rest_bad_field(other), "game_id");
    const HttpReply reply =
        post("/v1/games/" + id + ":join",
             R"({"gameId": ")" + id + R"(", "inviteCode": ")" + created->invite_code() + R"("})");
    v1::JoinGameResponse joined;
    ASSERT_EQ(reply.status, 200) << reply.body;
    ASSERT_TRUE(parse_json(reply.body, joined));
    EXPECT_EQ(joined.seat(), v1::SEAT_GEESE);
    EXPECT_EQ(joined.game().game_id(), id);
    EXPECT_EQ(joined.game().state(), v1::GAME_STATE_ACTIVE);
    EXPECT_EQ(grpc().get(id)->game().SerializeAsString(), joined.game().SerializeAsString());
    // The token REST handed out works over gRPC.
    EXPECT_TRUE(IsError(grpc().move(id, "d4-d5", joined.seat_token()),
                        grpc::StatusCode::FAILED_PRECONDITION, "NOT_YOUR_TURN"));
}

TEST_F(RestApiTest, JoinGameErrorsMatchGrpc) {
    const Reply<v1::CreateGameResponse> open = grpc().create(create_request("standard"));
    ASSERT_TRUE(IsOk(open));
    const std::string id = open->game().game_id();
    const SeatedGame full = start_game();
    const auto body = [](const std::string& invite) {
        return R"({"inviteCode": ")" + invite + R"("})";
    };
    expect_same_errors({
        {"wrong invite", "POST", "/v1/games/" + id + ":join", body("nope"), Auth::none(),
         [&] { return grpc().join(id, "nope").status; }},
        {"no invite", "POST", "/v1/games/" + id + ":join", "", Auth::none(),
         [&] { return grpc().join(id, "").status; }},
        {"seat taken", "POST", "/v1/games/" + full.id + ":join", body(full.invite_code),
         Auth::none(), [&] { return grpc().join(full.id, full.invite_code).status; }},
        {"unknown game", "POST", "/v1/games/" + kUnknownGameId + ":join", body("x"), Auth::none(),
         [&] { return grpc().join(kUnknownGameId, "x").status; }},
        {"malformed id", "POST", "/v1/games/not-a-uuid:join", body("x"), Auth::none(),
         [&] { return grpc().join("not-a-uuid", "x").status; }},
    });
}

TEST_F(RestApiTest, GetGameMatchesGrpcAndDecodesThePath) {
    const SeatedGame game = start_game();
    const auto expected = grpc().get(game.id).response;
    EXPECT_TRUE(SameResponse(get("/v1/games/" + game.id), expected));
    EXPECT_TRUE(SameResponse(get("/v1/games/" + percent_encode_all(game.id)), expected));
    std::string upper = game.id;
    for (char& c : upper)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_TRUE(SameResponse(get("/v1/games/" + upper), expected));
}

TEST_F(RestApiTest, GetGameErrorsMatchGrpc) {
    expect_same_errors({
        {"unknown", "GET", "/v1/games/" + kUnknownGameId, "", Auth::none(),
         [&] { return grpc().get(kUnknownGameId).status; }},
        {"malformed", "GET", "/v1/games/12345", "", Auth::none(),
         [&] { return grpc().get("12345").status; }},
        {"encoded slash", "GET", "/v1/games/a%2Fb", "", Auth::none(),
         [&] { return grpc().get("a/b").status; }},
    });
    for (const char* target : {"/v1/games/abc%zz", "/v1/games/abc%2", "/v1/games/%"}) {
        const HttpReply reply = get(target);
        EXPECT_TRUE(IsRestError(reply, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"))
            << target;
        EXPECT_EQ(rest_bad_field(reply), "game_id");
    }
    const HttpReply in_query = get("/v1/games/" + kUnknownGameId + "?gameId=" + kUnknownGameId);
    EXPECT_TRUE(IsRestError(in_query, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
}

TEST_F(RestApiTest, ListGamesMatchesGrpcPageByPage) {
    // A database of its own: other tests add games to the shared one.
    start_servers(create_scratch_database("rest_list"));
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(IsOk(
            grpc().create(create_request("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PUBLIC))));
    }
    v1::ListGamesRequest request;
    request.set_page_size(2);
    request.set_filter(v1::GAME_LIST_FILTER_OPEN);
    request.set_variant("standard");
    const auto first = grpc().list_games(request);
    ASSERT_TRUE(IsOk(first));
    ASSERT_EQ(first->games_size(), 2);
    EXPECT_TRUE(SameResponse(
        get("/v1/games?pageSize=2&filter=GAME_LIST_FILTER_OPEN&variant=standard"), first.response));
    // Proto names work as well as JSON names; the token needs encoding.
    request.set_page_token(first->next_page_token());
    std::string token;
    for (unsigned char c : first->next_page_token()) {
        token += std::isalnum(c) ? std::string(1, static_cast<char>(c))
                                 : percent_encode_all(std::string(1, static_cast<char>(c)));
    }
    EXPECT_TRUE(
        SameResponse(get("/v1/games?page_size=2&filter=1&variant=standard&page_token=" + token),
                     grpc().list_games(request).response));
    EXPECT_TRUE(SameResponse(get("/v1/games"), grpc().list_games(v1::ListGamesRequest()).response));
}

TEST_F(RestApiTest, ListGamesErrorsMatchGrpc) {
    v1::ListGamesRequest negative;
    negative.set_page_size(-1);
    v1::ListGamesRequest bad_token;
    bad_token.set_page_token("garbage");
    expect_same_errors({
        {"negative size", "GET", "/v1/games?pageSize=-1", "", Auth::none(),
         [&] { return grpc().list_games(negative).status; }},
        {"bad token", "GET", "/v1/games?pageToken=garbage", "", Auth::none(),
         [&] { return grpc().list_games(bad_token).status; }},
    });
    const std::vector<std::pair<std::string, std::string>> bad_queries = {
        {"/v1/games?pageSize=abc", "page_size"},
        {"/v1/games?pageSize=99999999999", "page_size"},
        {"/v1/games?pageSize=1.5", "page_size"},
        {"/v1/games?filter=GAME_LIST_FILTER_NOPE", "filter"},
        {"/v1/games?pageSize=1&page_size=2", "page_size"},
        {"/v1/games?owner=me", "owner"},
        {"/v1/games?variant=%ff", "variant"},
        {"/v1/games?variant=%f", "variant"},
        {"/v1/games?games=x", "games"},
    };
    for (const auto& [target, field] : bad_queries) {
        const HttpReply reply = get(target);
        EXPECT_TRUE(IsRestError(reply, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"))
            << target;
        EXPECT_EQ(rest_bad_field(reply), field) << target;
    }
}

TEST_F(RestApiTest, MakeMoveTakesTheTokenFromTheAuthorizationHeader) {
    const SeatedGame game = start_game();
    const HttpReply reply =
        post("/v1/games/" + game.id + "/moves",
             R"({"move": "d4-d5", "expectedPly": 0, "requestId": "m1"})", game.fox_token);
    v1::MakeMoveResponse moved;
    ASSERT_EQ(reply.status, 200) << reply.body;
    ASSERT_TRUE(parse_json(reply.body, moved));
    EXPECT_EQ(moved.move().notation(), "d4-d5");
    EXPECT_EQ(moved.move().ply(), 1);
    EXPECT_EQ(grpc().get(game.id)->game().SerializeAsString(), moved.game().SerializeAsString());
    // A retry with the same request_id over gRPC gets the same answer.
    v1::MakeMoveRequest retry = move_request(game.id, "d4-d5");
    retry.set_expected_ply(0);
    retry.set_request_id("m1");
    EXPECT_TRUE(SameResponse(reply, grpc().move(retry, game.fox_token).response));
    EXPECT_TRUE(
        SameResponse(get("/v1/games/" + game.id + "/moves"), grpc().list_moves(game.id).response));
}

TEST_F(RestApiTest, MakeMoveErrorsMatchGrpc) {
    const SeatedGame game = start_game();
    const Reply<v1::CreateGameResponse> waiting = grpc().create(create_request("standard"));
    ASSERT_TRUE(IsOk(waiting));
    const std::string waiting_id = waiting->game().game_id();
    const SeatedGame over = start_game("3/3/3F3/3G3/GG4G/3/3 f 0 20");
    ASSERT_TRUE(IsOk(grpc().move(over.id, "d5xd3", over.fox_token)));

    const std::string moves = "/v1/games/" + game.id + "/moves";
    const auto body = [](const std::string& move) { return R"({"move": ")" + move + R"("})"; };
    v1::MakeMoveRequest stale = move_request(game.id, "d4-d5");
    stale.set_expected_ply(7);
    v1::MakeMoveRequest long_id = move_request(game.id, "d4-d5");
    long_id.set_request_id(std::string(65, 'x'));
    expect_same_errors({
        {"no token", "POST", moves, body("d4-d5"), Auth::none(),
         [&] { return grpc().move(game.id, "d4-d5", Auth::none()).status; }},
        {"not bearer", "POST", moves, body("d4-d5"), Auth::header("Basic abc"),
         [&] { return grpc().move(game.id, "d4-d5", Auth::header("Basic abc")).status; }},
        {"unknown token", "POST", moves, body("d4-d5"), kUnknownToken,
         [&] { return grpc().move(game.id, "d4-d5", kUnknownToken).status; }},
        {"other side", "POST", moves, body("d4-d5"), game.geese_token,
         [&] { return grpc().move(game.id, "d4-d5", game.geese_token).status; }},
        {"bad notation", "POST", moves, body("z9-z9"), game.fox_token,
         [&] { return grpc().move(game.id, "z9-z9", game.fox_token).status; }},
        {"illegal", "POST", moves, body("d4-d7"), game.fox_token,
         [&] { return grpc().move(game.id, "d4-d7", game.fox_token).status; }},
        {"stale ply", "POST", moves, R"({"move": "d4-d5", "expectedPly": 7})", game.fox_token,
         [&] { return grpc().move(stale, game.fox_token).status; }},
        {"long request id", "POST", moves, to_json(long_id), game.fox_token,
         [&] { return grpc().move(long_id, game.fox_token).status; }},
        {"not started", "POST", "/v1/games/" + waiting_id + "/moves", body("d4-d5"),
         waiting->seat_token(),
         [&] { return grpc().move(waiting_id, "d4-d5", waiting->seat_token()).status; }},
        {"over", "POST", "/v1/games/" + over.id + "/moves", body("d3-d4"), over.geese_token,
         [&] { return grpc().move(over.id, "d3-d4", over.geese_token).status; }},
        {"unknown game", "POST", "/v1/games/" + kUnknownGameId + "/moves", body("d4-d5"),
         game.fox_token,
         [&] { return grpc().move(kUnknownGameId, "d4-d5", game.fox_token).status; }},
        {"malformed id", "POST", "/v1/games/xyz/moves", body("d4-d5"), game.fox_token,
         [&] { return grpc().move("xyz", "d4-d5", game.fox_token).status; }},
    });
    EXPECT_EQ(grpc().get(game.id)->game().ply(), 0);
}

TEST_F(RestApiTest, ListMovesMatchesGrpc) {
    const SeatedGame game = start_game();
    ASSERT_TRUE(IsOk(grpc().move(game.id, "d4-d5", game.fox_token)));
    ASSERT_TRUE(IsOk(grpc().move(game.id, "a3-a4", game.geese_token)));
    EXPECT_TRUE(
        SameResponse(get("/v1/games/" + game.id + "/moves"), grpc().list_moves(game.id).response));
    expect_same_errors({
        {"unknown", "GET", "/v1/games/" + kUnknownGameId + "/moves", "", Auth::none(),
         [&] { return grpc().list_moves(kUnknownGameId).status; }},
        {"malformed", "GET", "/v1/games/-/moves", "", Auth::none(),
         [&] { return grpc().list_moves("-").status; }},
    });
}

TEST_F(RestApiTest, DrawsAndResignationMatchGrpc) {
    const SeatedGame game = start_game();
    const std::string base = "/v1/games/" + game.id;

    const HttpReply offered = post(base + ":offerDraw", "", game.fox_token);
    v1::OfferDrawResponse offer;
    ASSERT_EQ(offered.status, 200) << offered.body;
    ASSERT_TRUE(parse_json(offered.body, offer));
    EXPECT_EQ(offer.game().draw_offered_by(), v1::SIDE_FOX);
    EXPECT_EQ(grpc().get(game.id)->game().SerializeAsString(), offer.game().SerializeAsString());

    expect_same_errors({
        {"own offer", "POST", base + ":respondDraw", R"({"accept": true})", game.fox_token,
         [&] { return grpc().respond_draw(game.id, true, game.fox_token).status; }},
        {"no token", "POST", base + ":offerDraw", "{}", Auth::none(),
         [&] { return grpc().offer_draw(game.id, Auth::none()).status; }},
    });

    const HttpReply declined =
        post(base + ":respondDraw", R"({"accept": false})", game.geese_token);
    v1::RespondDrawResponse answer;
    ASSERT_EQ(declined.status, 200) << declined.body;
    ASSERT_TRUE(parse_json(declined.body, answer));
    EXPECT_EQ(answer.game().draw_offered_by(), v1::SIDE_UNSPECIFIED);
    EXPECT_NE(declined.body.find("\"drawOfferedBy\":\"SIDE_UNSPECIFIED\""), std::string::npos);

    expect_same_errors({
        {"no offer", "POST", base + ":respondDraw", R"({"accept": true})", game.geese_token,
         [&] { return grpc().respond_draw(game.id, true, game.geese_token).status; }},
    });

    const HttpReply resigned = post(base + ":resign", "", game.geese_token);
    v1::ResignGameResponse resign;
    ASSERT_EQ(resigned.status, 200) << resigned.body;
    ASSERT_TRUE(parse_json(resigned.body, resign));
    EXPECT_EQ(resign.game().state(), v1::GAME_STATE_FINISHED);
    EXPECT_EQ(resign.game().result(), v1::GAME_RESULT_FOX_SIDE_WINS);
    EXPECT_EQ(resign.game().end_reason(), v1::END_REASON_RESIGNATION);
    EXPECT_EQ(grpc().get(game.id)->game().SerializeAsString(), resign.game().SerializeAsString());

    expect_same_errors({
        {"resign over", "POST", base + ":resign", "", game.fox_token,
         [&] { return grpc().resign(game.id, game.fox_token).status; }},
        {"offer over", "POST", base + ":offerDraw", "", game.fox_token,
         [&] { return grpc().offer_draw(game.id, game.fox_token).status; }},
        {"respond unknown game", "POST", "/v1/games/" + kUnknownGameId + ":respondDraw", "{}",
         game.fox_token,
         [&] { return grpc().respond_draw(kUnknownGameId, false, game.fox_token).status; }},
        {"resign bad token", "POST", "/v1/games/" + game.id + ":resign", "", Auth::header("Bearer"),
         [&] { return grpc().resign(game.id, Auth::header("Bearer")).status; }},
    });
}

TEST_F(RestApiTest, AWholeGameIsPlayedOverRest) {
    // Create, join, then always the first legal move until the game ends.
    const HttpReply create = post("/v1/games", R"({"variant": "standard", "seat": "SEAT_CHOICE_FOX",
                                                   "visibility": "VISIBILITY_PUBLIC"})");
    v1::CreateGameResponse created;
    ASSERT_EQ(create.status, 200) << create.body;
    ASSERT_TRUE(parse_json(create.body, created));
    const std::string id = created.game().game_id();
    const HttpReply join =
        post("/v1/games/" + id + ":join", R"({"inviteCode": ")" + created.invite_code() + "\"}");
    v1::JoinGameResponse joined;
    ASSERT_EQ(join.status, 200) << join.body;
    ASSERT_TRUE(parse_json(join.body, joined));

    v1::Game game = joined.game();
    int plies = 0;
    while (game.state() == v1::GAME_STATE_ACTIVE && plies < 2000) {
        ASSERT_GT(game.legal_moves_size(), 0);
        const std::string& token =
            game.side_to_move() == v1::SIDE_FOX ? created.seat_token() : joined.seat_token();
        const HttpReply reply = post("/v1/games/" + id + "/moves",
                                     R"({"move": ")" + game.legal_moves(0) +
                                         R"(", "expectedPly": )" + std::to_string(game.ply()) + "}",
                                     token);
        v1::MakeMoveResponse moved;
        ASSERT_EQ(reply.status, 200) << reply.body;
        ASSERT_TRUE(parse_json(reply.body, moved));
        ASSERT_EQ(moved.move().ply(), game.ply() + 1);
        game = moved.game();
        ++plies;
    }
    EXPECT_EQ(game.state(), v1::GAME_STATE_FINISHED) << "after " << plies << " plies";
    EXPECT_NE(game.result(), v1::GAME_RESULT_UNSPECIFIED);
    EXPECT_EQ(game.legal_moves_size(), 0);
    EXPECT_TRUE(SameResponse(get("/v1/games/" + id), grpc().get(id).response));
    const HttpReply moves = get("/v1/games/" + id + "/moves");
    EXPECT_TRUE(SameResponse(moves, grpc().list_moves(id).response));
    v1::ListMovesResponse listed;
    ASSERT_TRUE(parse_json(moves.body, listed));
    EXPECT_EQ(listed.moves_size(), plies);
    // Nothing changes a finished game.
    EXPECT_TRUE(IsRestError(post("/v1/games/" + id + ":resign", "", created.seat_token()), 400,
                            grpc::StatusCode::FAILED_PRECONDITION, "GAME_OVER"));
}

TEST_F(RestApiTest, AMoveThatEndsTheGameFinishesItOverRest) {
    const SeatedGame game = start_game("3/3/3F3/3G3/GG4G/3/3 f 0 20");
    const HttpReply reply =
        post("/v1/games/" + game.id + "/moves", R"({"move": "d5xd3"})", game.fox_token);
    v1::MakeMoveResponse moved;
    ASSERT_EQ(reply.status, 200) << reply.body;
    ASSERT_TRUE(parse_json(reply.body, moved));
    EXPECT_EQ(moved.game().state(), v1::GAME_STATE_FINISHED);
    EXPECT_EQ(moved.game().end_reason(), v1::END_REASON_GEESE_BELOW_THRESHOLD);
    EXPECT_NE(reply.body.find("\"legalMoves\":[]"), std::string::npos) << reply.body;
}

TEST_F(RestApiTest, WrongMethodsAre405WithAllow) {
    const SeatedGame game = start_game();
    const HttpReply get_join = get("/v1/games/" + game.id + ":join");
    EXPECT_TRUE(IsRestError(get_join, 405, grpc::StatusCode::UNIMPLEMENTED, "METHOD_NOT_ALLOWED"));
    EXPECT_EQ(get_join.header("Allow"), "POST, OPTIONS");
    const HttpReply delete_games = rest("DELETE", "/v1/games");
    EXPECT_TRUE(
        IsRestError(delete_games, 405, grpc::StatusCode::UNIMPLEMENTED, "METHOD_NOT_ALLOWED"));
    EXPECT_EQ(delete_games.header("Allow"), "POST, GET, OPTIONS");
    const HttpReply put_moves = rest("PUT", "/v1/games/" + game.id + "/moves", "{}");
    EXPECT_EQ(put_moves.status, 405);
    EXPECT_EQ(put_moves.header("Allow"), "POST, GET, OPTIONS");
    const HttpReply post_health = post("/healthz", "");
    EXPECT_TRUE(
        IsRestError(post_health, 405, grpc::StatusCode::UNIMPLEMENTED, "METHOD_NOT_ALLOWED"));
    EXPECT_EQ(post_health.header("Allow"), "GET, OPTIONS");
    // Nothing was changed by any of them.
    EXPECT_EQ(grpc().get(game.id)->game().SerializeAsString(), game.game.SerializeAsString());
}

TEST_F(RestApiTest, UnknownRoutesAre404RouteNotFound) {
    for (const std::string& target : std::vector<std::string>{
             "/", "/v1", "/v1/nothing", "/v2/variants", "/v1/games/", "/v1/variants/",
             "/v1/games/" + kUnknownGameId + ":fly", "/v1/games/" + kUnknownGameId + "/moves/1",
             "/v1/games/" + kUnknownGameId + ":", "/v1//games", "/V1/VARIANTS", "/v1/games:join"}) {
        const HttpReply reply = get(target);
        EXPECT_TRUE(IsRestError(reply, 404, grpc::StatusCode::NOT_FOUND, "ROUTE_NOT_FOUND"))
            << target;
    }
}

TEST_F(RestApiTest, CorsPreflightAndHeadersForAllowedOriginsOnly) {
    const std::string moves = "/v1/games/" + kUnknownGameId + "/moves";
    const HttpReply preflight =
        rest("OPTIONS", moves, "", Auth::none(),
             {{"Origin", "https://play.example"},
              {"Access-Control-Request-Method", "POST"},
              {"Access-Control-Request-Headers", "authorization, content-type"}});
    EXPECT_EQ(preflight.status, 204);
    EXPECT_EQ(preflight.header("Access-Control-Allow-Origin"), "https://play.example");
    EXPECT_EQ(preflight.header("Access-Control-Allow-Methods"), "GET, POST, OPTIONS");
    EXPECT_EQ(preflight.header("Access-Control-Allow-Headers"),
              "authorization, content-type, x-request-id");
    EXPECT_EQ(preflight.header("Access-Control-Max-Age"), "600");
    EXPECT_EQ(preflight.header("Vary"), "Origin");
    EXPECT_EQ(preflight.header("Allow"), "POST, GET, OPTIONS");
    EXPECT_TRUE(preflight.body.empty());

    const HttpReply foreign =
        rest("OPTIONS", moves, "", Auth::none(),
             {{"Origin", "https://evil.example"}, {"Access-Control-Request-Method", "POST"}});
    EXPECT_EQ(foreign.status, 204);
    EXPECT_FALSE(foreign.has_header("Access-Control-Allow-Origin"));
    EXPECT_FALSE(foreign.has_header("Access-Control-Allow-Methods"));

    const HttpReply unknown_path =
        rest("OPTIONS", "/v1/nowhere", "", Auth::none(), {{"Origin", "https://play.example"}});
    EXPECT_TRUE(IsRestError(unknown_path, 404, grpc::StatusCode::NOT_FOUND, "ROUTE_NOT_FOUND"));

    // Simple requests, answers and errors alike.
    const HttpReply allowed =
        rest("GET", "/v1/variants", "", Auth::none(), {{"Origin", "https://play.example"}});
    EXPECT_EQ(allowed.status, 200);
    EXPECT_EQ(allowed.header("Access-Control-Allow-Origin"), "https://play.example");
    EXPECT_EQ(allowed.header("Vary"), "Origin");
    // Scripts on the page may read these two.
    EXPECT_EQ(allowed.header("Access-Control-Expose-Headers"), "Retry-After, X-Request-Id");
    const HttpReply error =
        rest("GET", moves, "", Auth::none(), {{"Origin", "https://play.example"}});
    EXPECT_EQ(error.status, 404);
    EXPECT_EQ(error.header("Access-Control-Allow-Origin"), "https://play.example");
    const HttpReply denied =
        rest("GET", "/v1/variants", "", Auth::none(), {{"Origin", "https://evil.example"}});
    EXPECT_EQ(denied.status, 200);
    EXPECT_FALSE(denied.has_header("Access-Control-Allow-Origin"));
    EXPECT_FALSE(denied.has_header("Access-Control-Expose-Headers"));
    EXPECT_FALSE(get("/v1/variants").has_header("Access-Control-Allow-Origin"));

    http_options().cors_allowed_origins = {"*"};
    restart_http();
    const HttpReply any =
        rest("GET", "/v1/variants", "", Auth::none(), {{"Origin", "http://localhost:5173"}});
    EXPECT_EQ(any.header("Access-Control-Allow-Origin"), "http://localhost:5173");
    http_options().cors_allowed_origins = {};
    restart_http();
    const HttpReply none =
        rest("OPTIONS", "/v1/variants", "", Auth::none(), {{"Origin", "https://play.example"}});
    EXPECT_EQ(none.status, 204);
    EXPECT_FALSE(none.has_header("Access-Control-Allow-Origin"));
    EXPECT_FALSE(none.has_header("Vary"));
}

TEST_F(RestApiTest, HealthReadinessAndMetrics) {
    const HttpReply health = get("/healthz");
    EXPECT_EQ(health.status, 200);
    EXPECT_EQ(health.body, "ok");
    EXPECT_EQ(get("/readyz").status, 200);

    ASSERT_EQ(get("/v1/games/" + kUnknownGameId).status, 404);
    ASSERT_EQ(get("/v1/variants").status, 200);
    const HttpReply metrics = get("/metrics");
    EXPECT_EQ(metrics.status, 200);
    EXPECT_EQ(metrics.header("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
    for (const char* expected :
         {"foxgeese_requests_total{method=\"GetGame\",transport=\"http\",code=\"NOT_FOUND\"} 1",
          "foxgeese_requests_total{method=\"ListVariants\",transport=\"http\",code=\"OK\"} 1",
          "foxgeese_request_duration_seconds_count{method=\"ListVariants\",transport=\"http\"} "
          "1"}) {
        EXPECT_NE(metrics.body.find(expected), std::string::npos) << expected << "\n"
                                                                  << metrics.body;
    }

    // A server that is alive but not ready.
    service::HttpServer unready(
        http_options(), server().logic(), server().hub(), server().metrics(), server().work(),
        server().access_log(), [] { return false; }, [] { return ""; });
    const HttpReply not_ready = http_call(unready.port(), "GET", "/readyz");
    EXPECT_TRUE(IsRestError(not_ready, 503, grpc::StatusCode::UNAVAILABLE, "NOT_READY"));
    EXPECT_EQ(http_call(unready.port(), "GET", "/healthz").status, 200);
    unready.shutdown();
}

TEST_F(RestApiTest, RequestsAreCountedByRpcAndCode) {
    auto& requests = server().metrics().requests;
    const double ok_before = requests.value({"ListMoves", "http", "OK"});
    const double bad_before = requests.value({"ListMoves", "http", "INVALID_ARGUMENT"});
    const double none_before = requests.value({"none", "http", "NOT_FOUND"});
    const SeatedGame game = start_game();
    ASSERT_EQ(get("/v1/games/" + game.id + "/moves").status, 200);
    ASSERT_EQ(get("/v1/games/bad/moves").status, 400);
    ASSERT_EQ(get("/v1/elsewhere").status, 404);
    EXPECT_EQ(requests.value({"ListMoves", "http", "OK"}), ok_before + 1);
    EXPECT_EQ(requests.value({"ListMoves", "http", "INVALID_ARGUMENT"}), bad_before + 1);
    EXPECT_EQ(requests.value({"none", "http", "NOT_FOUND"}), none_before + 1);
}

TEST_F(RestApiTest, OneKeepAliveConnectionServesManyRequests) {
    const SeatedGame game = start_game();
    HttpClient connection(port());
    for (int i = 0; i < 20; ++i) {
        const HttpReply reply = connection.request("GET", "/v1/games/" + game.id);
        ASSERT_EQ(reply.status, 200) << i;
        EXPECT_NE(reply.header("Connection"), "close");
    }
    const HttpReply moved = connection.request(
        "POST", "/v1/games/" + game.id + "/moves", R"({"move": "d4-d5"})",
        {{"Content-Type", "application/json"}, {"Authorization", "Bearer " + game.fox_token}});
    EXPECT_EQ(moved.status, 200) << moved.body;
    const HttpReply last =
        connection.request("GET", "/v1/games/" + game.id, "", {{"Connection", "close"}});
    EXPECT_EQ(last.status, 200);
    EXPECT_EQ(last.header("Connection"), "close");
    EXPECT_TRUE(connection.closed_by_server());
}

TEST_F(RestApiTest, ConcurrentClientsAllGetTheirAnswers) {
    const SeatedGame game = start_game();
    const std::string expected = get("/v1/games/" + game.id).body;
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 16; ++t) {
        threads.emplace_back([&, t] {
            HttpClient connection(port());
            for (int i = 0; i < 25; ++i) {
                const HttpReply reply = (t + i) % 3 == 0
                                            ? http_call(port(), "GET", "/v1/games/" + game.id)
                                            : connection.request("GET", "/v1/games/" + game.id);
                if (reply.status != 200 || reply.body != expected) ++failures;
            }
        });
    }
    for (auto& thread : threads)
        thread.join();
    EXPECT_EQ(failures.load(), 0);
}

TEST_F(RestApiTest, ShutdownLetsARequestInFlightFinishAndClosesIdleConnections) {
    // A work queue whose one thread is held: a request waits in it, in flight.
    service::WorkQueue work(1, 16);
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    // Held once its thread has taken it: until then the item itself is what
    // work.queued() counts, and the wait below would not wait for the busy
    // request (shutdown then closed the listener with that connection still
    // in its backlog, and the client read a reset).
    std::promise<void> holding;
    ASSERT_TRUE(work.post([released, &holding] {
        holding.set_value();
        released.wait();
    }));
    holding.get_future().wait();
    service::HttpServer slow(
        http_options(), server().logic(), server().hub(), server().metrics(), work,
        server().access_log(), [] { return true; }, [] { return ""; });
    HttpClient idle(slow.port());
    ASSERT_EQ(idle.request("GET", "/healthz").status, 200);
    HttpClient busy(slow.port());
    busy.send("GET", "/v1/variants");
    while (work.queued() == 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    // Joined even when a read below throws, so that the test reports it.
    std::jthread stopper([&] { slow.shutdown(); });
    // Shutdown has begun once the idle connection is closed; the request
    // still runs to its end.
    EXPECT_TRUE(idle.closed_by_server());
    release.set_value();
    const HttpReply reply = busy.read();
    EXPECT_EQ(reply.status, 200);
    EXPECT_EQ(reply.header("Connection"), "close");
    EXPECT_TRUE(busy.closed_by_server());
    stopper.join();
    EXPECT_THROW(http_call(slow.port(), "GET", "/healthz"), std::exception);
}

}  // namespace
}  // namespace foxgeese::test
