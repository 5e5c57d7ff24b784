#include "engine/tablebase/retrograde_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <unordered_map>

#include "engine/rules/board.h"
#include "engine/rules/movegen.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"

namespace foxgeese::tablebase {
namespace {

const Variant& forward_only_standard() {
    return **Variant::find("standard", {});
}

// The second algorithm: a plain minimax over the engine's own legal moves
// and end-of-game rules, memoised by placement and side to move. It shares
// nothing with the builder but the board.
class PlainMinimax {
  public:
    ExactValue solve(Position& pos) {
        const int plies = plies_of(pos);
        return ExactValue{plies % 2 == 1, plies};
    }

  private:
    struct KeyHash {
        std::size_t operator()(const PositionKey& k) const { return k.hash; }
    };

    int plies_of(Position& pos) {
        // Neither draw rule can apply: the geese move every other ply and
        // only forward, so a placement never comes back and no two plies in
        // a row are quiet.
        EXPECT_LE(pos.quiet_plies(), 1);
        if (won_outright(pos)) return 0;
        const PositionKey key = pos.key();
        if (const auto known = memo_.find(key); known != memo_.end()) return known->second;
        int quickest_win = -1;
        int slowest_loss = 0;
        for_each_legal_move(pos, [&](const Move& move) {
            UndoInfo undo;
            pos.make(move, undo);
            const int after = plies_of(pos);
            pos.unmake(move, undo);
            if (after % 2 == 0) {
                if (quickest_win < 0 || after + 1 < quickest_win) quickest_win = after + 1;
            } else {
                slowest_loss = std::max(slowest_loss, after + 1);
            }
        });
        const int plies = quickest_win >= 0 ? quickest_win : slowest_loss;
        memo_.emplace(key, plies);
        return plies;
    }

    std::unordered_map<PositionKey, int, KeyHash> memo_;
};

class RetrogradeTablesTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() { tables_ = new RetrogradeTables(RetrogradeTables::build(6)); }
    static void TearDownTestSuite() {
        delete tables_;
        tables_ = nullptr;
    }

    static ExactValue table_value(const Position& pos) {
        const auto v = tables_->value(pos.geese(), lowest(pos.foxes()), pos.side_to_move());
        EXPECT_TRUE(v.has_value());
        return v.value_or(ExactValue{});
    }

    static Position from_code(std::string_view code) {
        return parse_position_code(forward_only_standard(), code).value();
    }

    static RetrogradeTables* tables_;
};

RetrogradeTables* RetrogradeTablesTest::tables_ = nullptr;

TEST_F(RetrogradeTablesTest, EveryPositionWithFourGeeseAgreesWithPlainMinimax) {
    const Variant& variant = forward_only_standard();
    const GooseSetIndex& sets = tables_->sets();
    PlainMinimax minimax;
    std::uint64_t checked = 0;
    for (std::uint64_t r = 0; r < sets.count(4); ++r) {
        const Bitboard geese = sets.unrank(r, 4);
        for (Bitboard foxes = Board::cross33().all_points() & ~geese; foxes;) {
            const int fox = pop_lowest(foxes);
            for (const Side side : {Side::kFox, Side::kGeese}) {
                Position pos(variant, bit(fox), geese, side, 0, 0);
                ASSERT_EQ(table_value(pos), minimax.solve(pos))
                    << "geese " << geese << " fox " << fox << " side " << static_cast<int>(side);
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 2 * tables_->sets().count(4) * 29);
}

// Five geese: random positions (the whole layer would make the minimax's
// memo too big for a unit test; the next test covers every position).
TEST_F(RetrogradeTablesTest, RandomPositionsWithFiveGeeseAgreeWithPlainMinimax) {
    const Variant& variant = forward_only_standard();
    const GooseSetIndex& sets = tables_->sets();
    PlainMinimax minimax;
    std::mt19937_64 random(13);
    int mover_wins = 0;
    int mover_loses = 0;
    for (int trial = 0; trial < 40; ++trial) {
        const Bitboard geese = sets.unrank(random() % sets.count(5), 5);
        Bitboard free = Board::cross33().all_points() & ~geese;
        for (int skip = static_cast<int>(random() % count(free)); skip > 0; --skip)
            pop_lowest(free);
        const Side side = random() % 2 ? Side::kFox : Side::kGeese;
        Position pos(variant, bit(lowest(free)), geese, side, 0, 0);
        const ExactValue expected = minimax.solve(pos);
        ASSERT_EQ(table_value(pos), expected);
        ++(expected.mover_wins ? mover_wins : mover_loses);
    }
    // Not one constant answer.
    EXPECT_GT(mover_wins, 3);
    EXPECT_GT(mover_loses, 3);
}

// Every position up to six geese against one ply of minimax over the
// engine's moves and the table's values after them. The positions form a
// graph without cycles whose ends the engine decides (too few geese, or no
// move), so a table that agrees with this step everywhere is, by induction
// from the ends, the plain minimax's value everywhere.
TEST_F(RetrogradeTablesTest, EveryPositionUpToSixGeeseIsOnePlyOfMinimaxOverTheEnginesMoves) {
    const Variant& variant = forward_only_standard();
    const GooseSetIndex& sets = tables_->sets();
    for (int k = kFewestGeese; k <= 6; ++k) {
        std::uint64_t checked = 0;
        for (std::uint64_t r = 0; r < sets.count(k); ++r) {
            const Bitboard geese = sets.unrank(r, k);
            for (Bitboard foxes = Board::cross33().all_points() & ~geese; foxes;) {
                const int fox = pop_lowest(foxes);
                for (const Side side : {Side::kFox, Side::kGeese}) {
                    Position pos(variant, bit(fox), geese, side, 0, 0);
                    int quickest_win = -1;
                    int slowest_loss = 0;
                    for_each_legal_move(pos, [&](const Move& move) {
                        UndoInfo undo;
                        pos.make(move, undo);
                        const int after = won_outright(pos) ? 0 : table_value(pos).plies;
                        pos.unmake(move, undo);
                        if (after % 2 == 0) {
                            if (quickest_win < 0 || after + 1 < quickest_win)
                                quickest_win = after + 1;
                        } else {
                            slowest_loss = std::max(slowest_loss, after + 1);
                        }
                    });
                    const int plies = quickest_win >= 0 ? quickest_win : slowest_loss;
                    const ExactValue stored = table_value(pos);
                    if (stored != ExactValue{plies % 2 == 1, plies}) {
                        ADD_FAILURE() << "geese " << geese << " fox " << fox << " side "
                                      << static_cast<int>(side) << ": table " << stored.plies
                                      << ", one ply of minimax " << plies;
                        return;
                    }
                    ++checked;
                }
            }
        }
        EXPECT_EQ(checked, 2 * tables_->sets().count(k) * static_cast<std::uint64_t>(33 - k))
            << k << " geese";
    }
}

TEST_F(RetrogradeTablesTest, ValuesOfPositionsSolvedByHand) {
    // The fox on d4 takes d3 and lands on d2: three geese are left, a win in one.
    EXPECT_EQ(table_value(from_code("3/3/7/3F3/3G3/3/GGG f 0 0")), (ExactValue{true, 1}));
    // Geese to move with none able to step (all on the top ranks, blocked):
    // lost at once.
    EXPECT_EQ(table_value(from_code("GGG/1G1/7/3F3/7/3/3 g 0 0")), (ExactValue{false, 0}));
}

TEST_F(RetrogradeTablesTest, PositionsOutsideTheTablesHaveNoValue) {
    const Bitboard seven = tables_->sets().unrank(0, 7);
    EXPECT_FALSE(tables_->value(seven, 32, Side::kFox).has_value());
    const Bitboard three = tables_->sets().unrank(0, 3);
    EXPECT_FALSE(tables_->value(three, 32, Side::kFox).has_value());
    const Bitboard four = tables_->sets().unrank(0, 4);
    EXPECT_FALSE(tables_->value(four, lowest(four), Side::kFox).has_value());
}

}  // namespace
}  // namespace foxgeese::tablebase
