#include "engine/tablebase/tablebase_moves.h"

#include <gtest/gtest.h>

#include <random>

#include "engine/rules/board.h"
#include "engine/rules/movegen.h"
#include "engine/rules/variant.h"

namespace foxgeese::tablebase {
namespace {

class TablebaseMovesTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() { tables_ = new RetrogradeTables(RetrogradeTables::build(6)); }
    static void TearDownTestSuite() {
        delete tables_;
        tables_ = nullptr;
    }

    static ValueSource source() {
        return [](const Position& pos) {
            return tables_->value(pos.geese(), lowest(pos.foxes()), pos.side_to_move());
        };
    }

    // A random position of k geese whose game is not over.
    static Position random_position(std::mt19937_64& random, int k) {
        const Variant& variant = **Variant::find("standard", {});
        for (;;) {
            const Bitboard geese = tables_->sets().unrank(random() % tables_->sets().count(k), k);
            Bitboard free = Board::cross33().all_points() & ~geese;
            for (int skip = static_cast<int>(random() % count(free)); skip > 0; --skip)
                pop_lowest(free);
            Position pos(variant, bit(lowest(free)), geese,
                         random() % 2 ? Side::kFox : Side::kGeese, 0, 0);
            if (has_legal_move(pos)) return pos;
        }
    }

    static RetrogradeTables* tables_;
};

RetrogradeTables* TablebaseMovesTest::tables_ = nullptr;

TEST_F(TablebaseMovesTest, TheBestMoveHasThePositionsValue) {
    std::mt19937_64 random(3);
    int wins = 0;
    int losses = 0;
    for (int trial = 0; trial < 2'000; ++trial) {
        const Position pos = random_position(random, 5 + trial % 2);
        const auto ranked = rank_moves(pos, source());
        ASSERT_TRUE(ranked.has_value());
        ASSERT_FALSE(ranked->empty());
        EXPECT_EQ(ranked->front().value, *source()(pos));
        ++(ranked->front().value.mover_wins ? wins : losses);
        for (std::size_t i = 1; i < ranked->size(); ++i) {
            const MoveValue& a = (*ranked)[i - 1];
            const MoveValue& b = (*ranked)[i];
            // Ordered: wins first, quicker wins, slower losses.
            EXPECT_FALSE(!a.value.mover_wins && b.value.mover_wins);
            if (a.value.mover_wins && b.value.mover_wins) {
                EXPECT_LE(a.value.plies, b.value.plies);
            }
            if (!a.value.mover_wins && !b.value.mover_wins) {
                EXPECT_GE(a.value.plies, b.value.plies);
                if (a.value.plies == b.value.plies) {
                    EXPECT_LE(a.winning_replies, b.winning_replies);
                }
            }
            if (b.value.mover_wins) {
                EXPECT_EQ(b.winning_replies, 0);
            }
        }
    }
    EXPECT_GT(wins, 100);
    EXPECT_GT(losses, 100);
}

// Both sides playing the tablebase's first move: the game ends after exactly
// the plies the start's value gives, won by the side it names; a loser that
// plays at random only ends it sooner.
TEST_F(TablebaseMovesTest, PerfectPlayEndsWhenAndAsTheValueSays) {
    std::mt19937_64 random(5);
    for (int trial = 0; trial < 300; ++trial) {
        Position pos = random_position(random, 6);
        const ExactValue start = *source()(pos);
        const Side winner = start.mover_wins ? pos.side_to_move() : opponent(pos.side_to_move());
        const bool random_loser = trial % 2 == 1;
        int plies = 0;
        while (!won_outright(pos) && has_legal_move(pos)) {
            const auto ranked = rank_moves(pos, source());
            ASSERT_TRUE(ranked.has_value());
            Move move = ranked->front().move;
            if (random_loser && pos.side_to_move() != winner)
                move = (*ranked)[random() % ranked->size()].move;
            UndoInfo undo;
            pos.make(move, undo);
            ++plies;
            ASSERT_LE(plies, start.plies);
        }
        // The side to move at the end has lost.
        EXPECT_EQ(opponent(pos.side_to_move()), winner);
        if (!random_loser) {
            EXPECT_EQ(plies, start.plies);
        }
    }
}

TEST_F(TablebaseMovesTest, MovesIntoLayersNotBuiltAreUnknown) {
    std::mt19937_64 random(9);
    const Position seven = random_position(random, 7);
    EXPECT_FALSE(rank_moves(seven, source()).has_value());
}

}  // namespace
}  // namespace foxgeese::tablebase
