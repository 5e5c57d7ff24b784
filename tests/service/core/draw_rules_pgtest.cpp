// The two automatic draws, decided by the server from the history it stores:
// threefold repetition (the third occurrence of a placement with the same
// side to move) and the fifty-move rule (100 quiet plies). Each is also
// played across a server restart, so the count must come from the database,
// not from anything a server keeps in memory.
#include <string>
#include <vector>

#include "tests/service/harness/service_harness.h"

namespace foxgeese::test {
namespace {

class DrawRules : public ServiceTest {
  protected:
    static v1::GameOptions sideways() {
        v1::GameOptions options;
        options.set_geese_sideways(true);
        return options;
    }

    // Plays moves that must all leave the game going.
    void play_ongoing(const SeatedGame& game, const std::vector<std::string>& moves) {
        for (const std::string& m : moves) {
            const v1::MakeMoveResponse reply = play(game, m);
            EXPECT_EQ(reply.game().state(), v1::GAME_STATE_ACTIVE)
                << m << " at ply " << reply.move().ply()
                << " ended the game: " << v1::EndReason_Name(reply.game().end_reason());
        }
    }

    // Plays the move that must end the game in a draw for `reason`.
    void play_drawing(const SeatedGame& game, const std::string& move, v1::EndReason reason,
                      int ply) {
        const v1::MakeMoveResponse reply = play(game, move);
        EXPECT_EQ(reply.move().ply(), ply);
        EXPECT_EQ(reply.move().state(), v1::GAME_STATE_FINISHED);
        EXPECT_EQ(reply.move().result(), v1::GAME_RESULT_DRAW);
        EXPECT_EQ(reply.move().end_reason(), reason);
        const Reply<v1::GetGameResponse> got = client().get(game.id);
        ASSERT_TRUE(IsOk(got));
        EXPECT_EQ(got->game().state(), v1::GAME_STATE_FINISHED);
        EXPECT_EQ(got->game().result(), v1::GAME_RESULT_DRAW);
        EXPECT_EQ(got->game().end_reason(), reason);
        EXPECT_EQ(got->game().ply(), ply);
        EXPECT_TRUE(got->game().legal_moves().empty());
        // Drawn means over.
        EXPECT_TRUE(IsError(client().resign(game.id, game.fox_token),
                            grpc::StatusCode::FAILED_PRECONDITION, "GAME_OVER"));
    }
};

// The fox shuttles d5-d6 and a goose a4-b4 (sideways): the position after
// ply 2 comes back at plies 6 and 10; every other position only twice.
const std::vector<std::string> kStandardShuttle = {"d4-d5", "a3-a4", "d5-d6", "a4-b4", "d6-d5",
                                                   "b4-a4", "d5-d6", "a4-b4", "d6-d5"};

TEST_F(DrawRules, ThreefoldRepetitionDrawsOnTheThirdOccurrenceNotBefore) {
    const SeatedGame game = start_game("standard", sideways());
    play_ongoing(game, kStandardShuttle);  // plies 1-9, two occurrences each
    play_drawing(game, "b4-a4", v1::END_REASON_THREEFOLD_REPETITION, 10);
}

TEST_F(DrawRules, ThreefoldRepetitionOnTheBigCross) {
    // The same shuttle with the fox on e6-e7 and a goose on a5-b5.
    const SeatedGame game = start_game("big_cross");
    play_ongoing(game,
                 {"e7-e6", "a4-a5", "e6-e7", "a5-b5", "e7-e6", "b5-a5", "e6-e7", "a5-b5", "e7-e6"});
    play_drawing(game, "b5-a5", v1::END_REASON_THREEFOLD_REPETITION, 10);
}

TEST_F(DrawRules, ThreefoldRepetitionIsCountedFromStoredHistoryAcrossARestart) {
    const SeatedGame game = start_game("standard", sideways());
    // Six plies on one server: the position after ply 2 has occurred twice.
    play_ongoing(game,
                 std::vector<std::string>(kStandardShuttle.begin(), kStandardShuttle.begin() + 6));
    restart_server();
    play_ongoing(game,
                 std::vector<std::string>(kStandardShuttle.begin() + 6, kStandardShuttle.end()));
    restart_server();
    play_drawing(game, "b4-a4", v1::END_REASON_THREEFOLD_REPETITION, 10);
}

TEST_F(DrawRules, ACustomStartCountsAsTheFirstOccurrence) {
    const std::string start = "3/3/7/3F3/G6/GGG/GGG f 0 40";
    const SeatedGame game = start_game("standard", sideways(), start);
    // Back to the start after 4 plies (second occurrence) and after 8 (third).
    play_ongoing(game, {"d4-d5", "a3-b3", "d5-d4", "b3-a3", "d4-d5", "a3-b3", "d5-d4"});
    play_drawing(game, "b3-a3", v1::END_REASON_THREEFOLD_REPETITION, 48);
}

TEST_F(DrawRules, FiftyMoveRuleDrawsAtExactlyOneHundredQuietPlies) {
    // 96 quiet plies already; fox steps and sideways goose steps add up.
    const SeatedGame game = start_game("standard", sideways(), "3/3/7/3F3/G6/GGG/GGG f 96 120");
    play_ongoing(game, {"d4-d5", "a3-b3", "d5-d4"});
    const Reply<v1::GetGameResponse> at_99 = client().get(game.id);
    ASSERT_TRUE(IsOk(at_99));
    EXPECT_EQ(at_99->game().quiet_plies(), 99);
    // Back at the start position, only its second occurrence: the
    // fifty-move rule decides.
    play_drawing(game, "b3-a3", v1::END_REASON_FIFTY_MOVE_RULE, 124);
}

TEST_F(DrawRules, FiftyMoveRuleAcrossARestart) {
    const SeatedGame game = start_game("standard", sideways(), "3/3/7/3F3/G6/GGG/GGG f 96 120");
    play_ongoing(game, {"d4-d5", "a3-b3"});
    restart_server();
    play_ongoing(game, {"d5-d4"});
    play_drawing(game, "b3-a3", v1::END_REASON_FIFTY_MOVE_RULE, 124);
}

TEST_F(DrawRules, AForwardGooseStepResetsTheFiftyMoveCount) {
    const SeatedGame game = start_game("standard", sideways(), "3/3/7/3F3/G6/GGG/GGG f 98 120");
    play_ongoing(game, {"d4-d5"});
    const v1::MakeMoveResponse forward = play(game, "a3-a4");
    EXPECT_EQ(forward.game().quiet_plies(), 0);
    EXPECT_EQ(forward.game().state(), v1::GAME_STATE_ACTIVE);
}

TEST_F(DrawRules, RepetitionComesBeforeTheFiftyMoveRule) {
    // The third occurrence of the start lands on the 100th quiet ply: the
    // rules check repetition first.
    const SeatedGame game = start_game("standard", sideways(), "3/3/7/3F3/G6/GGG/GGG f 92 120");
    play_ongoing(game, {"d4-d5", "a3-b3", "d5-d4", "b3-a3", "d4-d5", "a3-b3", "d5-d4"});
    play_drawing(game, "b3-a3", v1::END_REASON_THREEFOLD_REPETITION, 128);
}

}  // namespace
}  // namespace foxgeese::test
