// What the adversarial probe found over REST, each refused cleanly: the seat
// takeover by request id, forged page tokens, HEAD answers with a body, two
// authorization headers, JSON that is not JSON, transfer and content codings
// the server would ignore, a missing Host, other charsets, and messages that
// misled. Every refusal is a JSON error with a stable reason; nothing changes.
#include <boost/algorithm/hex.hpp>
#include <string>
#include <vector>

#include "tests/service/harness/rest_harness.h"

namespace foxgeese::test {
namespace {

using C = grpc::StatusCode;

class HostileRest : public RestTest {
  protected:
    // Sends raw bytes on a fresh connection and reads one response.
    HttpReply raw(const std::string& bytes) {
        HttpClient connection(port());
        connection.send_raw(bytes);
        return connection.read();
    }
};

// Over REST, exactly as the takeover was reported.
// The takeover as reported: a replay of a CreateGame after the owner played.

TEST_F(HostileRest, TheReportedTakeoverIsRefused) {
    const std::string nil_id = R"({"variant":"standard","seat":"SEAT_CHOICE_FOX",)"
                               R"("requestId":"00000000-0000-0000-0000-000000000000"})";
    EXPECT_TRUE(
        IsRestError(post("/v1/games", nil_id), 400, C::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    const std::string body = R"({"variant":"standard","seat":"SEAT_CHOICE_FOX","requestId":")" +
                             random_request_id() + R"("})";
    const HttpReply created = post("/v1/games", body);
    ASSERT_EQ(created.status, 200) << created.body;
    v1::CreateGameResponse game;
    ASSERT_TRUE(parse_json(created.body, game));
    const std::string& id = game.game().game_id();
    ASSERT_EQ(post("/v1/games/" + id + ":join", R"({"inviteCode":")" + game.invite_code() + R"("})")
                  .status,
              200);
    ASSERT_EQ(post("/v1/games/" + id + "/moves", R"({"move":"d4-d5"})", game.seat_token()).status,
              200);
    EXPECT_TRUE(IsRestError(post("/v1/games", body), 409, C::ALREADY_EXISTS, "REQUEST_ID_USED"));
    EXPECT_EQ(post("/v1/games/" + id + ":offerDraw", "{}", game.seat_token()).status, 200);
}

std::string hex(const std::string& text) {
    std::string out;
    boost::algorithm::hex_lower(text.begin(), text.end(), std::back_inserter(out));
    return out;
}

TEST_F(HostileRest, ForgedPageTokensAre400NeverA500) {
    const std::string id = "6f1c2a52-0d3e-4c8a-9b1e-000000000001";
    for (const std::string& token : std::vector<std::string>{
             hex("v1|1||-9223372036854775808|" + id), hex("v1|1||9223372036854775807|" + id),
             hex("v1|1||-1|" + id), hex("v1|1||+5|" + id), hex("v1|1||007|" + id),
             hex("v1|1||5|" + std::string("6F1C2A52-0D3E-4C8A-9B1E-000000000001")),
             hex("v1|1||5|" + id + "|extra"), hex("v1|2||5|" + id), "zz", "ABCDEF",
             std::string(600, 'a')}) {
        SCOPED_TRACE(token);
        const HttpReply reply = get("/v1/games?pageToken=" + token);
        EXPECT_TRUE(IsRestError(reply, 400, C::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
        EXPECT_EQ(rest_bad_field(reply), "page_token");
    }
    // A token the server wrote still works.
    EXPECT_EQ(get("/v1/games?pageToken=" + hex("v1|1||5|" + id)).status, 200);
}

TEST_F(HostileRest, HeadAnswersCarryHeadersOnly) {
    const HttpReply full = get("/v1/variants");
    ASSERT_EQ(full.status, 200);
    // A HEAD, then a GET on the same connection: the second response must
    // start right after the first one's headers.
    HttpClient connection(port());
    connection.send_raw(
        "HEAD /v1/variants HTTP/1.1\r\nHost: x\r\n\r\n"
        "HEAD /v1/nowhere HTTP/1.1\r\nHost: x\r\n\r\n"
        "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const std::string bytes = connection.read_all_raw();
    const auto first_end = bytes.find("\r\n\r\n");
    ASSERT_NE(first_end, std::string::npos) << bytes;
    const std::string first = bytes.substr(0, first_end);
    EXPECT_EQ(first.rfind("HTTP/1.1 200", 0), 0u) << first;
    EXPECT_NE(first.find("Content-Length: " + std::to_string(full.body.size())), std::string::npos)
        << first;
    const std::string rest_of = bytes.substr(first_end + 4);
    EXPECT_EQ(rest_of.rfind("HTTP/1.1 404", 0), 0u) << rest_of.substr(0, 200);
    const auto second_end = rest_of.find("\r\n\r\n");
    ASSERT_NE(second_end, std::string::npos);
    EXPECT_EQ(rest_of.substr(second_end + 4).rfind("HTTP/1.1 200", 0), 0u)
        << "a HEAD answer carried a body";
    EXPECT_EQ(bytes.substr(bytes.size() - 2), "ok");
    // HEAD of a watch stream is refused, headers only too.
    const SeatedGame game = start_game();
    HttpClient watch(port());
    watch.send_raw("HEAD /v1/games/" + game.id +
                   ":watch HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const std::string refused = watch.read_all_raw();
    EXPECT_EQ(refused.rfind("HTTP/1.1 405", 0), 0u) << refused;
    EXPECT_EQ(refused.substr(refused.size() - 4), "\r\n\r\n") << refused;
}

TEST_F(HostileRest, TwoAuthorizationHeadersAreRefused) {
    const SeatedGame game = start_game();
    const std::string body = R"({"move":"d4-d5"})";
    const HttpReply reply =
        raw("POST /v1/games/" + game.id +
            "/moves HTTP/1.1\r\nHost: x\r\nContent-Type: "
            "application/json\r\nAuthorization: Bearer " +
            game.fox_token + "\r\nAuthorization: Bearer " + game.geese_token +
            "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
    EXPECT_TRUE(IsRestError(reply, 400, C::INVALID_ARGUMENT, "DUPLICATE_HEADER")) << reply.body;
    EXPECT_EQ(grpc().get(game.id)->game().ply(), 0);
    // Also on a watch stream.
    const HttpReply watch =
        raw("GET /v1/games/" + game.id + ":watch HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
            game.fox_token + "\r\nAuthorization: Bearer " + game.fox_token + "\r\n\r\n");
    EXPECT_TRUE(IsRestError(watch, 400, C::INVALID_ARGUMENT, "DUPLICATE_HEADER")) << watch.body;
}

TEST_F(HostileRest, JsonThatIsNotStrictJsonIsRefused) {
    const SeatedGame game = start_game();
    for (const std::string& body : std::vector<std::string>{
             "{'variant':'standard'}", R"({"variant":"standard",})",
             R"({"variant":"standard"}/**/)", R"({"variant":"standard","variant":"big_cross"})",
             R"({"variant":"standard","seat":"SEAT_CHOICE_FOX","options":{"geese":13,"geese":15}})",
             R"({"variant":"standard","startPosition":"x","start_position":"y"})",
             R"({"variant":"standard","visibility":"VISIBILITY_PUBLIC",})", R"({"variant":1e400})",
             std::string(40, '[') + std::string(40, ']')}) {
        SCOPED_TRACE(body);
        const HttpReply reply = post("/v1/games", body);
        EXPECT_TRUE(IsRestError(reply, 400, C::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    }
    const HttpReply twice = post("/v1/games", R"({"variant":"standard","variant":"big_cross"})");
    EXPECT_NE(rest_status(twice).message().find("appears twice"), std::string::npos) << twice.body;
    // A body that names another game than the path.
    const HttpReply contradiction =
        post("/v1/games/" + game.id + "/moves",
             R"({"move":"d4-d5","gameId":")" + kUnknownGameId + "\"}", game.fox_token);
    EXPECT_EQ(contradiction.status, 400) << contradiction.body;
    const HttpReply aliased =
        post("/v1/games", R"({"variant":"standard","startPosition":"x","start_position":"y"})");
    EXPECT_NE(rest_status(aliased).message().find("given twice"), std::string::npos)
        << aliased.body;
    EXPECT_EQ(grpc().get(game.id)->game().ply(), 0);
}

TEST_F(HostileRest, TransferAndContentCodingsTheServerWouldIgnoreAreRefused) {
    const std::string chunk = "16\r\n{\"variant\":\"standard\"}\r\n0\r\n\r\n";
    const HttpReply gzip =
        raw("POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: gzip, chunked\r\n\r\n" +
            chunk);
    EXPECT_TRUE(IsRestError(gzip, 501, C::UNIMPLEMENTED, "UNSUPPORTED_TRANSFER_CODING"))
        << gzip.body;
    const HttpReply chunked =
        raw("POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n" +
            chunk);
    EXPECT_EQ(chunked.status, 200) << chunked.body;
    const std::string body = R"({"variant":"standard"})";
    const HttpReply encoded =
        raw("POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Encoding: gzip\r\nContent-Length: " +
            std::to_string(body.size()) + "\r\n\r\n" + body);
    EXPECT_TRUE(IsRestError(encoded, 415, C::INVALID_ARGUMENT, "UNSUPPORTED_MEDIA_TYPE"))
        << encoded.body;
}

TEST_F(HostileRest, Http11NeedsExactlyOneHost) {
    const HttpReply none = raw("GET /v1/variants HTTP/1.1\r\n\r\n");
    EXPECT_TRUE(IsRestError(none, 400, C::INVALID_ARGUMENT, "MALFORMED_REQUEST")) << none.body;
    const HttpReply two = raw("GET /v1/variants HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n");
    EXPECT_TRUE(IsRestError(two, 400, C::INVALID_ARGUMENT, "DUPLICATE_HEADER")) << two.body;
    // HTTP/1.0 may go without.
    EXPECT_EQ(raw("GET /v1/variants HTTP/1.0\r\n\r\n").status, 200);
}

TEST_F(HostileRest, OnlyUtf8JsonIsRead) {
    const std::string body = R"({"variant":"standard"})";
    for (const std::string type :
         {"application/json; charset=utf-16", "application/json; charset=\"UTF-16LE\"",
          "application/json; charset=latin1"}) {
        SCOPED_TRACE(type);
        const HttpReply reply =
            rest("POST", "/v1/games", body, Auth::none(), {{"Content-Type", type}});
        EXPECT_TRUE(IsRestError(reply, 415, C::INVALID_ARGUMENT, "UNSUPPORTED_MEDIA_TYPE"));
    }
    EXPECT_EQ(rest("POST", "/v1/games", body, Auth::none(),
                   {{"Content-Type", "application/json; charset=\"utf-8\""}})
                  .status,
              200);
}

TEST_F(HostileRest, MessagesSayWhatToDo) {
    const SeatedGame game = start_game();
    // A token in the URL: the header is the place, not a JSON field.
    const HttpReply token = post("/v1/games/" + game.id + "/moves?access_token=" + game.fox_token,
                                 R"({"move":"d4-d5"})");
    EXPECT_TRUE(IsRestError(token, 400, C::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    EXPECT_NE(rest_status(token).message().find("authorization: Bearer"), std::string::npos)
        << token.body;
    EXPECT_EQ(rest_status(token).message().find("JSON body"), std::string::npos) << token.body;
    // An en dash where a hyphen belongs is named.
    const HttpReply dash =
        post("/v1/games/" + game.id + "/moves", "{\"move\":\"d4\u2013d5\"}", game.fox_token);
    EXPECT_TRUE(IsRestError(dash, 400, C::INVALID_ARGUMENT, "INVALID_NOTATION"));
    EXPECT_NE(rest_status(dash).message().find("en dash"), std::string::npos) << dash.body;
    EXPECT_EQ(grpc().get(game.id)->game().ply(), 0);
}

}  // namespace
}  // namespace foxgeese::test
