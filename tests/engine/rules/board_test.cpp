// Board topology: the point and link counts and the diagonal pattern of each board.
#include "engine/rules/board.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>

#include "engine/rules/bitboard.h"

namespace foxgeese {
namespace {

int point(const Board& board, const std::string& name) {
    return board.point_at(name[0] - 'a', name[1] - '1');
}

bool linked(const Board& board, const std::string& a, const std::string& b) {
    return board.linked(point(board, a), point(board, b));
}

TEST(Board, Cross33Has33PointsAnd92Links) {
    const Board& b = Board::cross33();
    EXPECT_EQ(b.point_count(), 33);
    EXPECT_EQ(b.orthogonal_link_count(), 52);
    EXPECT_EQ(b.diagonal_link_count(), 40);
}

TEST(Board, Cross45Has45PointsAnd100Links) {
    const Board& b = Board::cross45();
    EXPECT_EQ(b.point_count(), 45);
    EXPECT_EQ(b.orthogonal_link_count(), 72);
    EXPECT_EQ(b.diagonal_link_count(), 28);
}

TEST(Board, PointsExistOnlyOnTheCross) {
    const Board& small = Board::cross33();
    for (const char* name : {"a3", "a5", "c1", "e7", "g4", "d4"}) {
        EXPECT_NE(point(small, name), kNoPoint) << name;
    }
    for (const char* name : {"a1", "b2", "a6", "f6", "g7", "b7"}) {
        EXPECT_EQ(point(small, name), kNoPoint) << name;
    }
    const Board& big = Board::cross45();
    for (const char* name : {"a4", "a6", "d1", "f9", "i5", "e5"}) {
        EXPECT_NE(point(big, name), kNoPoint) << name;
    }
    for (const char* name : {"a3", "c3", "g7", "i9", "c7"}) {
        EXPECT_EQ(point(big, name), kNoPoint) << name;
    }
}

TEST(Board, Cross33DrawsBothDiagonalsOfEveryCompleteSquare) {
    const Board& b = Board::cross33();
    EXPECT_TRUE(linked(b, "d4", "e5"));
    EXPECT_TRUE(linked(b, "d4", "c3"));
    EXPECT_TRUE(linked(b, "c3", "d4"));
    EXPECT_TRUE(linked(b, "d3", "c4"));  // the other diagonal of the same square
    EXPECT_TRUE(linked(b, "a3", "b4"));
    // A square with a missing corner carries no diagonal: b2 does not exist.
    EXPECT_FALSE(linked(b, "c2", "b3"));
    EXPECT_FALSE(linked(b, "e6", "f5"));
    EXPECT_FALSE(linked(b, "d4", "d6"));  // links join neighbours only
}

TEST(Board, Cross45DiagonalsOnlyThroughOddPoints) {
    const Board& b = Board::cross45();
    // A point has diagonals exactly when file + rank (a = 1) is odd, except
    // where its squares are incomplete.
    auto has_diagonal = [&](const std::string& name) {
        const int p = point(b, name);
        for (Direction d : {kNorthEast, kSouthEast, kSouthWest, kNorthWest}) {
            if (b.neighbour(p, d) != kNoPoint) return true;
        }
        return false;
    };
    EXPECT_TRUE(has_diagonal("a4"));
    EXPECT_TRUE(has_diagonal("e4"));
    EXPECT_TRUE(has_diagonal("d5"));
    EXPECT_FALSE(has_diagonal("e5"));
    EXPECT_FALSE(has_diagonal("e7"));
    EXPECT_FALSE(has_diagonal("d4"));
    EXPECT_TRUE(linked(b, "d5", "e6"));
    EXPECT_TRUE(linked(b, "e4", "d5"));
    EXPECT_FALSE(linked(b, "d4", "e5"));
    for (int p = 0; p < b.point_count(); ++p) {
        const bool odd = (b.file_of(p) + 1 + b.rank_of(p) + 1) % 2 == 1;
        if (!odd) {
            EXPECT_FALSE(has_diagonal(b.point_name(p))) << b.point_name(p);
        }
    }
}

TEST(Board, JumpsFollowOneLineOverANeighbour) {
    const Board& b = Board::cross33();
    const auto jump = b.jump_between(point(b, "c3"), point(b, "e5"));
    ASSERT_TRUE(jump.has_value());
    EXPECT_EQ(b.point_name(jump->over), "d4");
    EXPECT_FALSE(b.jump_between(point(b, "d4"), point(b, "e6")).has_value());
    // d4 over e5 to f6 would land off the cross.
    EXPECT_FALSE(b.jump_between(point(b, "d4"), point(b, "f6")).has_value());
    // c2 over b3 to a4 would need the link c2-b3, which b2's absence removes.
    EXPECT_FALSE(b.jump_between(point(b, "c2"), point(b, "a4")).has_value());
    // On cross45 a diagonal jump needs both diagonal links on one line.
    const Board& big = Board::cross45();
    EXPECT_TRUE(big.jump_between(point(big, "d5"), point(big, "f3")).has_value());
    EXPECT_FALSE(big.jump_between(point(big, "e5"), point(big, "g3")).has_value());
}

TEST(Board, PointNamesRoundTrip) {
    for (const Board* b : {&Board::cross33(), &Board::cross45()}) {
        for (int p = 0; p < b->point_count(); ++p) {
            const std::string name = b->point_name(p);
            EXPECT_EQ(point(*b, name), p);
        }
    }
}

// count() adds the bits itself on x86-64 without POPCNT: it must agree with
// std::popcount on every kind of set.
TEST(Bitboard, CountAgreesWithPopcount) {
    static_assert(count(0) == 0 && count(~Bitboard{0}) == 64 && count(bit(63) | bit(0)) == 2);
    std::uint64_t state = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 10000; ++i) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        // Sparse, dense and full words alike.
        const Bitboard set = i % 3 == 0 ? state & (state >> 1) : i % 3 == 1 ? state : ~state;
        ASSERT_EQ(count(set), std::popcount(set)) << set;
    }
}

}  // namespace
}  // namespace foxgeese
