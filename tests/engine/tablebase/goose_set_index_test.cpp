#include "engine/tablebase/goose_set_index.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "engine/rules/board.h"

namespace foxgeese::tablebase {
namespace {

TEST(GooseSetIndex, CountsAreBinomials) {
    const GooseSetIndex sets(33);
    EXPECT_EQ(sets.count(0), 1u);
    EXPECT_EQ(sets.count(4), 40'920u);
    EXPECT_EQ(sets.count(13), 573'166'440u);
    EXPECT_EQ(sets.count(17), 1'166'803'110u);
    EXPECT_EQ(sets.count(33), 1u);
}

TEST(GooseSetIndex, EverySetOfFourHasItsOwnRankAndComesBack) {
    const GooseSetIndex sets(33);
    std::vector<bool> seen(sets.count(4), false);
    for (int a = 0; a < 33; ++a)
        for (int b = a + 1; b < 33; ++b)
            for (int c = b + 1; c < 33; ++c)
                for (int d = c + 1; d < 33; ++d) {
                    const Bitboard geese = bit(a) | bit(b) | bit(c) | bit(d);
                    const std::uint64_t r = sets.rank(geese);
                    ASSERT_LT(r, seen.size());
                    EXPECT_FALSE(seen[r]) << "rank " << r << " given twice";
                    seen[r] = true;
                    EXPECT_EQ(sets.unrank(r, 4), geese);
                }
}

// What the builder's order rests on: a goose step forward or diagonally
// forward leads to a set of a higher rank.
TEST(GooseSetIndex, AGooseStepForwardRaisesTheRank) {
    const GooseSetIndex sets(33);
    const Board& board = Board::cross33();
    std::mt19937_64 random(7);
    int steps = 0;
    for (int trial = 0; trial < 2'000; ++trial) {
        const int k = 4 + static_cast<int>(random() % 14);
        const Bitboard geese = sets.unrank(random() % sets.count(k), k);
        EXPECT_EQ(count(geese), k);
        EXPECT_EQ(sets.rank(geese) < sets.count(k), true);
        for (Bitboard from = geese; from;) {
            const int goose = pop_lowest(from);
            for (const Direction d : {kNorthWest, kNorth, kNorthEast}) {
                const int to = board.neighbour(goose, d);
                if (to == kNoPoint || has(geese, to)) continue;
                const Bitboard after = (geese & ~bit(goose)) | bit(to);
                EXPECT_GT(sets.rank(after), sets.rank(geese));
                ++steps;
            }
        }
    }
    EXPECT_GT(steps, 10'000);
}

}  // namespace
}  // namespace foxgeese::tablebase
