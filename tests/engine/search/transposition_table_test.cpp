// The transposition table: what is stored comes back, wins keep their
// distance from the node, deeper results of this search are kept.
#include "engine/search/transposition_table.h"

#include <gtest/gtest.h>

namespace foxgeese {
namespace {

const MoveKey kMove(Move::step(3, 10));
const MoveKey kOtherMove(Move::step(4, 11));

TEST(TranspositionTable, GivesBackWhatWasStored) {
    TranspositionTable table(1);
    const std::uint64_t hash = 0x1234'5678'9ABC'DEF0ull;
    TableEntry entry;
    EXPECT_FALSE(table.probe(hash, entry));
    table.store(hash, kMove, -321, 7, Bound::kLower);
    ASSERT_TRUE(table.probe(hash, entry));
    EXPECT_EQ(entry.move, kMove);
    EXPECT_EQ(entry.score, -321);
    EXPECT_EQ(entry.depth, 7);
    EXPECT_EQ(entry.bound, Bound::kLower);
    // Another position in the same cluster (same lower half) is not this one.
    EXPECT_FALSE(table.probe(hash ^ 0xFF00'0000'0000'0000ull, entry));
}

TEST(TranspositionTable, ClearForgetsEverything) {
    TranspositionTable table(1);
    table.store(42, kMove, 10, 3, Bound::kExact);
    table.clear();
    TableEntry entry;
    EXPECT_FALSE(table.probe(42, entry));
    EXPECT_EQ(table.permille_full(), 0);
}

TEST(TranspositionTable, WinsAreStoredAsDistancesFromTheNode) {
    // A win in 9 plies from the root found at ply 4 is a win in 5 from that node.
    EXPECT_EQ(score_to_table(win_in(9), 4), win_in(5));
    EXPECT_EQ(score_from_table(win_in(5), 4), win_in(9));
    // Met again at ply 2 in a later search, it is a win in 7 from that root.
    EXPECT_EQ(score_from_table(score_to_table(win_in(9), 4), 2), win_in(7));
    EXPECT_EQ(score_to_table(loss_in(9), 4), loss_in(5));
    EXPECT_EQ(score_from_table(loss_in(5), 4), loss_in(9));
    EXPECT_EQ(score_to_table(123, 4), 123);
}

TEST(TranspositionTable, AShallowerBoundDoesNotReplaceADeeperResultOfTheSameSearch) {
    TranspositionTable table(1);
    table.store(99, kMove, 50, 10, Bound::kExact);
    table.store(99, kOtherMove, -20, 3, Bound::kUpper);
    TableEntry entry;
    ASSERT_TRUE(table.probe(99, entry));
    EXPECT_EQ(entry.depth, 10);
    EXPECT_EQ(entry.score, 50);
    EXPECT_EQ(entry.move, kOtherMove) << "the newer move is kept for ordering";
    // In a later search the old entry gives way.
    table.new_search();
    table.store(99, kMove, -20, 3, Bound::kUpper);
    ASSERT_TRUE(table.probe(99, entry));
    EXPECT_EQ(entry.depth, 3);
}

TEST(TranspositionTable, AStoreWithoutAMoveKeepsTheOldMove) {
    TranspositionTable table(1);
    table.store(7, kMove, 0, 2, Bound::kLower);
    table.store(7, MoveKey{}, 5, 4, Bound::kUpper);
    TableEntry entry;
    ASSERT_TRUE(table.probe(7, entry));
    EXPECT_EQ(entry.move, kMove);
    EXPECT_EQ(entry.depth, 4);
}

TEST(TranspositionTable, IsAsLargeAsAsked) {
    EXPECT_EQ(TranspositionTable(4).size_in_bytes(), 4u * 1024 * 1024);
    EXPECT_GT(TranspositionTable(0).size_in_bytes(), 0u);
}

}  // namespace
}  // namespace foxgeese
