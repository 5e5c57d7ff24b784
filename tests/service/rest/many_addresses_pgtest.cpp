// Real client addresses over HTTP, with the limits a server starts with:
// connections from many source addresses on 127.0.0.0/8 are limited each on
// its own, one abusive address is held back without slowing the others,
// and many players behind one address play a game each from their seat.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "foxgeese/v1/game_service.pb.h"
#include "tests/service/harness/rest_harness.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;

class ManyAddresses : public RestTest {
  protected:
    void configure(service::ReplicaOptions& options) override {
        options.game.limits = service::RateLimitOptions{};
        const auto linger = options.watch.rematch_linger;
        options.watch = service::WatchHubOptions{};
        options.watch.rematch_linger = linger;
    }

    // One call on a connection of its own from `source`.
    HttpReply from(const std::string& source, const std::string& method, const std::string& target,
                   const std::string& body = "", const std::string& token = "") {
        HttpClient client(port(), 20s, 0, "127.0.0.1", source);
        std::map<std::string, std::string> headers;
        if (!body.empty()) headers["Content-Type"] = "application/json";
        if (!token.empty()) headers["Authorization"] = "Bearer " + token;
        return client.request(method, target, body, headers);
    }

    v1::CreateGameResponse create_from(const std::string& source) {
        const HttpReply reply =
            from(source, "POST", "/v1/games", R"({"variant":"standard","seat":"SEAT_CHOICE_FOX"})");
        v1::CreateGameResponse created;
        EXPECT_EQ(reply.status, 200) << source << ": " << reply.body;
        if (reply.status == 200) parse_json(reply.body, created);
        return created;
    }
};

std::string source_address(int n) {
    return "127.0.0." + std::to_string(n);
}

TEST_F(ManyAddresses, OneAbusiveAddressIsHeldBackAndTheOthersAreNot) {
    // The abusive address creates until it is refused.
    int created = 0;
    HttpReply refused;
    for (int i = 0; i < 200; ++i) {
        const HttpReply reply = from(source_address(200), "POST", "/v1/games",
                                     R"({"variant":"standard","seat":"SEAT_CHOICE_FOX"})");
        if (reply.status != 200) {
            refused = reply;
            break;
        }
        ++created;
    }
    EXPECT_EQ(refused.status, 429) << refused.body;
    EXPECT_FALSE(refused.header("retry-after").empty());
    EXPECT_GE(created, 60);  // the burst of a shared address
    // Twenty other addresses each set up a game and play it, unhindered.
    for (int n = 2; n < 22; ++n) {
        const v1::CreateGameResponse game = create_from(source_address(n));
        const std::string id = game.game().game_id();
        const HttpReply joined = from(source_address(n + 100), "POST", "/v1/games/" + id + ":join",
                                      R"({"inviteCode":")" + game.invite_code() + R"("})");
        ASSERT_EQ(joined.status, 200) << joined.body;
        const HttpReply moved =
            from(source_address(n), "POST", "/v1/games/" + id + "/moves",
                 R"({"move":")" + game.game().legal_moves(0) + R"("})", game.seat_token());
        EXPECT_EQ(moved.status, 200) << moved.body;
    }
}

TEST_F(ManyAddresses, FortyPlayersBehindOneAddressWatchFromTheirSeatsAndPlay) {
    struct Player {
        std::string game_id;
        std::string token;
        std::unique_ptr<HttpClient> watch;
    };
    std::vector<Player> players;
    const std::string nat = source_address(7);
    for (int g = 0; g < 20; ++g) {
        const v1::CreateGameResponse game = create_from(nat);
        const std::string id = game.game().game_id();
        const HttpReply joined = from(nat, "POST", "/v1/games/" + id + ":join",
                                      R"({"inviteCode":")" + game.invite_code() + R"("})");
        ASSERT_EQ(joined.status, 200) << joined.body;
        v1::JoinGameResponse join;
        ASSERT_TRUE(parse_json(joined.body, join));
        players.push_back({id, game.seat_token(), nullptr});
        players.push_back({id, join.seat_token(), nullptr});
    }
    for (Player& p : players) {
        p.watch = std::make_unique<HttpClient>(port(), 20s, 0, "127.0.0.1", nat);
        p.watch->send("GET", "/v1/games/" + p.game_id + ":watch", "",
                      {{"Authorization", "Bearer " + p.token}});
        const HttpReply header = p.watch->read_header();
        ASSERT_EQ(header.status, 200) << header.body;
        const std::optional<std::string> snapshot = p.watch->read_line();
        ASSERT_TRUE(snapshot && snapshot->find("snapshot") != std::string::npos);
    }
    // Each fox side moves; both players of its game see the move.
    for (std::size_t i = 0; i < players.size(); i += 2) {
        const HttpReply game = from(nat, "GET", "/v1/games/" + players[i].game_id);
        v1::GetGameResponse got;
        ASSERT_TRUE(parse_json(game.body, got));
        const HttpReply moved =
            from(nat, "POST", "/v1/games/" + players[i].game_id + "/moves",
                 R"({"move":")" + got.game().legal_moves(0) + R"("})", players[i].token);
        EXPECT_EQ(moved.status, 200) << moved.body;
    }
    for (Player& p : players) {
        bool seen = false;
        for (int line = 0; line < 10 && !seen; ++line) {
            const std::optional<std::string> event = p.watch->read_line();
            ASSERT_TRUE(event);
            seen = event->find("moveMade") != std::string::npos;
        }
        EXPECT_TRUE(seen) << p.game_id;
    }
}

}  // namespace
}  // namespace foxgeese::test
