// Games against the bot over REST/JSON: "botLevel" in the CreateGame body,
// the bot's seat in the game's JSON, and whole games played by a person
// over HTTP while the replica's bot worker answers.
#include <chrono>
#include <string>
#include <thread>

#include "tests/service/harness/bot_games.h"
#include "tests/service/harness/rest_harness.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;

class RestBotGames : public RestTest {
  protected:
    void configure(service::ReplicaOptions& options) override {
        options.bot.threads = 1;
        options.bot.poll = 50ms;
    }

    v1::Game get_game(const std::string& id) {
        const HttpReply reply = get("/v1/games/" + id);
        EXPECT_EQ(reply.status, 200) << reply.body;
        v1::GetGameResponse got;
        EXPECT_TRUE(parse_json(reply.body, got));
        return got.game();
    }

    // Plays the person's side over HTTP until the game ends, polling the
    // game (bounded) while the bot thinks.
    v1::Game play_out(const std::string& id, const std::string& token, v1::Side person) {
        const auto deadline = std::chrono::steady_clock::now() + 120s;
        while (std::chrono::steady_clock::now() < deadline) {
            const v1::Game game = get_game(id);
            if (game.state() == v1::GAME_STATE_FINISHED || game.game_id().empty()) return game;
            if (game.side_to_move() != person) {
                std::this_thread::sleep_for(10ms);
                continue;
            }
            const HttpReply moved =
                post("/v1/games/" + id + "/moves",
                     R"({"move":")" + persons_move(game) + R"(","expectedPly":)" +
                         std::to_string(game.ply()) + "}",
                     token);
            EXPECT_EQ(moved.status, 200) << moved.body;
            if (moved.status != 200) return game;
        }
        ADD_FAILURE() << "game " << id << " did not end within 120 s";
        return get_game(id);
    }
};

TEST_F(RestBotGames, GamesAgainstTheBotPlayToTheEndOverHttp) {
    for (const std::string body :
         {R"({"variant":"two_foxes","seat":"SEAT_CHOICE_GEESE","botLevel":1})",
          R"({"variant":"standard","seat":"SEAT_CHOICE_GEESE","botLevel":2})",
          R"({"variant":"big_cross","seat":"SEAT_CHOICE_FOX","botLevel":1})"}) {
        SCOPED_TRACE(body);
        const HttpReply reply = post("/v1/games", body);
        ASSERT_EQ(reply.status, 200) << reply.body;
        EXPECT_NE(reply.body.find("\"botLevel\":"), std::string::npos) << reply.body;
        EXPECT_NE(reply.body.find(R"("inviteCode":"")"), std::string::npos) << reply.body;
        v1::CreateGameResponse created;
        ASSERT_TRUE(parse_json(reply.body, created));
        EXPECT_EQ(created.game().state(), v1::GAME_STATE_ACTIVE);
        const v1::Side person = created.seat() == v1::SEAT_FOX ? v1::SIDE_FOX : v1::SIDE_GEESE;
        EXPECT_EQ(created.game().bot_side(),
                  person == v1::SIDE_FOX ? v1::SIDE_GEESE : v1::SIDE_FOX);
        const v1::Game end = play_out(created.game().game_id(), created.seat_token(), person);
        EXPECT_EQ(end.state(), v1::GAME_STATE_FINISHED) << end.DebugString();
        EXPECT_NE(end.result(), v1::GAME_RESULT_NONE);
        EXPECT_GT(end.ply(), 2);
        // The replay over HTTP has every ply once.
        const HttpReply replay = get("/v1/games/" + created.game().game_id() + "/moves");
        v1::ListMovesResponse moves;
        ASSERT_TRUE(parse_json(replay.body, moves));
        EXPECT_EQ(moves.moves_size(), end.ply());
    }
    EXPECT_NE(get("/metrics").body.find("foxgeese_bot_moves_total{variant=\"big_cross\"}"),
              std::string::npos);
}

TEST_F(RestBotGames, ABotLevelOutOfRangeIsABadRequestNamingTheField) {
    const std::string body = R"({"variant":"standard","seat":"SEAT_CHOICE_FOX","botLevel":9})";
    const HttpReply reply = post("/v1/games", body);
    EXPECT_EQ(reply.status, 400) << reply.body;
    EXPECT_NE(reply.body.find("\"reason\":\"INVALID_ARGUMENT\""), std::string::npos) << reply.body;
    EXPECT_NE(reply.body.find("\"field\":\"bot_level\""), std::string::npos) << reply.body;
}

}  // namespace
}  // namespace foxgeese::test
