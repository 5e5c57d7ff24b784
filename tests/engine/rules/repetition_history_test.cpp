// The repetition history: occurrence counts as evaluate_status() takes them,
// forgotten after an irreversible move, settable from stored counts.
#include "engine/rules/repetition_history.h"

#include <gtest/gtest.h>

#include <string_view>

#include "engine/rules/game_status.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "test_positions.h"

namespace foxgeese {
namespace {

using testing::position_from_code;
using testing::variant_named;

void play(Position& pos, std::string_view notation) {
    bool played = false;
    for_each_legal_move(Position(pos), [&](const Move& m) {
        if (!played && format_move(pos.board(), m) == notation) {
            UndoInfo undo;
            pos.make(m, undo);
            played = true;
        }
    });
    ASSERT_TRUE(played) << notation;
}

TEST(RepetitionHistory, CountsEarlierOccurrencesLikeEvaluateStatusWants) {
    // big_cross: fox and one goose step back and forth.
    Position pos =
        position_from_code(variant_named("big_cross"), "3/3/1F1/9/9/GGGGGGGG1/GGG/GGG/GGG f 3 10");
    RepetitionHistory history;
    EXPECT_EQ(history.record(pos), 0);
    for (int round = 1; round <= 2; ++round) {
        play(pos, "e7-e6");
        history.record(pos);
        play(pos, "h4-i4");
        history.record(pos);
        play(pos, "e6-e7");
        history.record(pos);
        play(pos, "i4-h4");
        EXPECT_EQ(history.record(pos), round);
    }
    EXPECT_EQ(history.occurrences(pos.key()), 3);
    EXPECT_EQ(evaluate_status(pos, 2).reason, EndReason::kThreefoldRepetition);
    EXPECT_EQ(history.entries().size(), 4u);
}

TEST(RepetitionHistory, AnIrreversibleMoveForgetsEverythingBefore) {
    Position pos =
        position_from_code(variant_named("big_cross"), "3/3/1F1/9/9/GGGGGGGG1/GGG/GGG/GGG f 3 10");
    RepetitionHistory history;
    history.record(pos);
    play(pos, "e7-e6");
    history.record(pos);
    play(pos, "a4-a5");  // forward: the quiet counter is 0 again
    EXPECT_EQ(history.record(pos), 0);
    EXPECT_EQ(history.entries().size(), 1u);
}

TEST(RepetitionHistory, TakesCountsFromOutside) {
    const Position pos(variant_named("two_foxes"));
    RepetitionHistory history;
    history.set(pos.key(), 2);
    EXPECT_EQ(history.occurrences(pos.key()), 2);
    history.set(pos.key(), 1);
    EXPECT_EQ(history.occurrences(pos.key()), 1);
    EXPECT_EQ(history.occurrences(Position(variant_named("standard")).key()), 0);
    history.clear();
    EXPECT_EQ(history.occurrences(pos.key()), 0);
}

}  // namespace
}  // namespace foxgeese
