#include "engine/tablebase/mirror_index.h"

#include <gtest/gtest.h>

#include <set>

#include "engine/rules/board.h"

namespace foxgeese::tablebase {
namespace {

TEST(MirrorIndex, MirrorsPointsAcrossTheDFile) {
    const Board& board = Board::cross33();
    for (int p = 0; p < board.point_count(); ++p) {
        EXPECT_EQ(board.rank_of(mirror_point(p)), board.rank_of(p));
        EXPECT_EQ(board.file_of(mirror_point(p)), 6 - board.file_of(p));
        EXPECT_EQ(mirror_set(bit(p)), bit(mirror_point(p)));
    }
    const Bitboard start = 0x1fff;  // c1 .. g3, standard's 13 geese start
    EXPECT_EQ(mirror_set(start), start);
}

TEST(MirrorIndex, SetsComeInRankOrder) {
    const GooseSetIndex sets(33);
    std::uint64_t seen = 0;
    for_each_set_ascending(33, 5, [&](std::uint64_t rank, Bitboard set) {
        ASSERT_EQ(sets.rank(set), rank);
        ++seen;
    });
    EXPECT_EQ(seen, sets.count(5));
}

// One set of each mirrored pair is kept, numbered densely: the kept sets
// are those no higher than their mirror, and every set or its mirror is kept.
TEST(MirrorIndex, KeepsOneSetOfEachMirroredPairNumberedDensely) {
    const GooseSetIndex sets(33);
    for (const int k : {4, 5, 6}) {
        const MirrorIndex index(sets, k);
        std::uint64_t kept = 0;
        std::uint64_t own_mirrors = 0;
        for_each_set_ascending(33, k, [&](std::uint64_t rank, Bitboard set) {
            const std::uint64_t mirror_rank = sets.rank(mirror_set(set));
            EXPECT_EQ(index.is_canonical(rank), rank <= mirror_rank);
            EXPECT_TRUE(index.is_canonical(rank) || index.is_canonical(mirror_rank));
            if (index.is_canonical(rank)) {
                EXPECT_EQ(index.dense(rank), kept);
                ++kept;
            }
            if (mirror_rank == rank) ++own_mirrors;
        });
        EXPECT_EQ(kept, index.canonical_count());
        EXPECT_EQ(2 * kept, sets.count(k) + own_mirrors) << k << " geese";
        const MirrorIndex stored(k, index.bitmap_words());
        EXPECT_EQ(stored.canonical_count(), kept);
    }
}

TEST(MirrorIndex, APositionAndItsMirrorShareOnePlace) {
    const GooseSetIndex sets(33);
    const MirrorIndex index(sets, 5);
    std::set<std::pair<std::uint64_t, int>> places;
    std::uint64_t positions = 0;
    for_each_set_ascending(33, 5, [&](std::uint64_t, Bitboard set) {
        for (Bitboard free = 0x1ffffffffULL & ~set; free;) {
            const int fox = pop_lowest(free);
            const LayerPlace a = layer_place(sets, index, set, fox);
            const LayerPlace b = layer_place(sets, index, mirror_set(set), mirror_point(fox));
            EXPECT_EQ(a.set, b.set);
            EXPECT_LT(a.set, index.canonical_count());
            EXPECT_LT(a.fox_slot, 28);
            places.insert({a.set, a.fox_slot});
            ++positions;
        }
    });
    // Every stored place is used.
    EXPECT_EQ(places.size(), index.canonical_count() * 28);
    EXPECT_EQ(positions, sets.count(5) * 28);
}

}  // namespace
}  // namespace foxgeese::tablebase
