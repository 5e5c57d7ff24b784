// The tablebase end to end on PostgreSQL: GetTablebase over gRPC, a game's
// analysis judged by the table (its mark where the win was thrown away,
// stored and served again), and level 8 playing a won position to the win
// in exactly the plies the table gives, against a person who defends as
// the table says is best.
#include <chrono>
#include <thread>

#include "tests/service/core/tablebase_shared.h"
#include "tests/service/harness/bot_games.h"
#include "tests/service/harness/service_harness.h"
#include "tests/support/small_tablebase.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;

class TablebaseGames : public ScratchServiceTest {
  protected:
    void configure(service::ReplicaOptions& options) override {
        options.game.tablebase = small_tablebase();
        options.bot.tablebase = small_tablebase();
        options.bot.threads = 1;
        options.bot.poll = 50ms;
    }

    // The game once `done` holds, polled; a failure after 30 s.
    v1::Game wait_until(const std::string& id, const std::function<bool(const v1::Game&)>& done) {
        const auto deadline = std::chrono::steady_clock::now() + 30s;
        v1::Game game;
        while (std::chrono::steady_clock::now() < deadline) {
            const Reply<v1::GetGameResponse> got = client().get(id);
            if (!got.ok()) break;
            game = got->game();
            if (done(game)) return game;
            std::this_thread::sleep_for(10ms);
        }
        ADD_FAILURE() << "game " << id << " still at ply " << game.ply();
        return game;
    }
};

TEST_F(TablebaseGames, GetTablebaseAnswersOverGrpc) {
    const Reply<v1::GetTablebaseResponse> reply =
        client().get_tablebase(tablebase_request(kGeeseWinOrThrow));
    ASSERT_TRUE(IsOk(reply));
    EXPECT_EQ(reply->category(), v1::TABLEBASE_CATEGORY_WIN);
    EXPECT_EQ(reply->plies(), 1);
    EXPECT_EQ(reply->moves(0).move(), "c4-d5");
    EXPECT_TRUE(IsError(client().get_tablebase(tablebase_request("")), grpc::StatusCode::NOT_FOUND,
                        "NOT_IN_TABLEBASE"));
}

TEST_F(TablebaseGames, AGamesAnalysisMarksTheThrownAwayWinAndIsStored) {
    const SeatedGame game = start_game_with(create_request(
        "standard", v1::SEAT_CHOICE_GEESE, v1::VISIBILITY_PRIVATE, kGeeseWinOrThrow));
    play(game, "c4-b5");
    // The fox's best move now, as the table has it.
    const v1::Game now = client().get(game.id)->game();
    const Reply<v1::GetTablebaseResponse> fox =
        client().get_tablebase(tablebase_request(now.position()));
    ASSERT_TRUE(IsOk(fox));
    ASSERT_EQ(fox->category(), v1::TABLEBASE_CATEGORY_WIN);
    play(game, fox->moves(0).move());
    EXPECT_TRUE(IsOk(client().resign(game.id, game.geese_token)));

    const Reply<v1::AnalyzeGameResponse> reply = client().analyze_game(game.id);
    ASSERT_TRUE(IsOk(reply));
    ASSERT_EQ(reply->plies_size(), 2);
    const v1::PlyAnalysis& thrown = reply->plies(0);
    EXPECT_TRUE(thrown.tablebase());
    EXPECT_EQ(thrown.best_move(), "c4-d5");
    EXPECT_EQ(thrown.score_before().text(), "win in 1");
    EXPECT_EQ(thrown.score_after().loss_in_plies(), fox->plies() + 1);
    EXPECT_EQ(thrown.mark(), v1::MOVE_MARK_WIN_THROWN_AWAY);
    const v1::PlyAnalysis& best = reply->plies(1);
    EXPECT_TRUE(best.tablebase());
    EXPECT_EQ(best.move(), best.best_move());
    EXPECT_EQ(best.score_before().win_in_plies(), fox->plies());
    EXPECT_EQ(best.mark(), v1::MOVE_MARK_UNSPECIFIED);
    EXPECT_EQ(count_rows("game_analyses"), 1);
    // Served from the store the second time: the same answer.
    const Reply<v1::AnalyzeGameResponse> again = client().analyze_game(game.id);
    ASSERT_TRUE(IsOk(again));
    EXPECT_EQ(again->SerializeAsString(), reply->SerializeAsString());
}

TEST_F(TablebaseGames, LevelEightWinsAWonPositionInThePliesTheTableGives) {
    // Six geese in a row before the fox: the fox wins, and its bot must not
    // take a ply longer than the table says against the best defence.
    const char* start = "3/3/7/3F3/GGGGGG1/3/3 f 0 0";
    const Reply<v1::GetTablebaseResponse> value = client().get_tablebase(tablebase_request(start));
    ASSERT_TRUE(IsOk(value));
    ASSERT_EQ(value->category(), v1::TABLEBASE_CATEGORY_WIN);
    ASSERT_GT(value->plies(), 5);

    v1::CreateGameRequest request = bot_game_request("standard", v1::SEAT_CHOICE_GEESE, 8);
    request.set_start_position(start);
    const v1::CreateGameResponse created = create_game(request);
    const std::string id = created.game().game_id();
    v1::Game game;
    for (;;) {
        game = wait_until(id, [](const v1::Game& g) {
            return g.state() == v1::GAME_STATE_FINISHED || g.side_to_move() == v1::SIDE_GEESE;
        });
        if (game.state() == v1::GAME_STATE_FINISHED || game.side_to_move() != v1::SIDE_GEESE) break;
        // The geese defend as long as the table says they can.
        const Reply<v1::GetTablebaseResponse> defence =
            client().get_tablebase(tablebase_request(game.position()));
        ASSERT_TRUE(IsOk(defence)) << game.position();
        EXPECT_EQ(defence->category(), v1::TABLEBASE_CATEGORY_LOSS);
        v1::MakeMoveRequest move;
        move.set_game_id(id);
        move.set_move(defence->moves(0).move());
        move.set_expected_ply(game.ply());
        ASSERT_TRUE(IsOk(client().move(move, created.seat_token())));
    }
    ASSERT_EQ(game.state(), v1::GAME_STATE_FINISHED) << game.DebugString();
    EXPECT_EQ(game.result(), v1::GAME_RESULT_FOX_SIDE_WINS);
    EXPECT_EQ(game.ply(), value->plies());
}

}  // namespace
}  // namespace foxgeese::test
