// The two automatic draws, decided by the server from the history it stores:
// threefold repetition (the third occurrence of a placement with the same
// side to move) and the fifty-move rule (100 quiet plies). On the memory
// store; draw_rules_pgtest.cpp plays them across server restarts on
// PostgreSQL.
#include "tests/service/core/draw_rules.h"

#include <string>
#include <vector>

#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using DrawRules = DrawRulesOn<MemoryServiceTest>;

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
