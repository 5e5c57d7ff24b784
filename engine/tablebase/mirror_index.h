// Left-right mirror symmetry of standard's board: a position and its mirror
// image have the same value, so a layer keeps only one goose set of each
// mirrored pair, the one of the lower rank (a set that is its own mirror is
// kept with every fox point). The kept ("canonical") sets are numbered
// densely in rank order through a bitmap with a running count per word.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "engine/rules/bitboard.h"
#include "engine/tablebase/goose_set_index.h"

namespace foxgeese::tablebase {

// The mirror image of points and of sets of points on cross33.
int mirror_point(int point);
Bitboard mirror_set(Bitboard points);

class MirrorIndex {
  public:
    // The bitmap of a layer of `geese` geese, computed (tens of seconds for
    // 13 geese: every set is mirrored and ranked once).
    MirrorIndex(const GooseSetIndex& sets, int geese);
    // A bitmap as stored (words as bitmap_words() gives them).
    MirrorIndex(int geese, std::vector<std::uint64_t> words);

    int geese() const { return geese_; }
    bool is_canonical(std::uint64_t rank) const { return (words_[rank / 64] >> (rank % 64)) & 1; }
    // The place of a canonical set among the canonical sets, in rank order.
    std::uint64_t dense(std::uint64_t rank) const {
        const std::uint64_t below = words_[rank / 64] & ((std::uint64_t{1} << (rank % 64)) - 1);
        return counts_[rank / 64] + static_cast<std::uint64_t>(count(below));
    }
    std::uint64_t canonical_count() const { return total_; }
    const std::vector<std::uint64_t>& bitmap_words() const { return words_; }

  private:
    void count_words();

    int geese_;
    std::vector<std::uint64_t> words_;
    std::vector<std::uint64_t> counts_;  // canonical sets before each word
    std::uint64_t total_ = 0;
};

// A position of one goose count as a layer stores it: the canonical goose
// set's dense number and the fox's slot among that set's empty points.
struct LayerPlace {
    std::uint64_t set;
    int fox_slot;
};

// Where (geese, fox) is stored: mirrored first when its set is not canonical.
LayerPlace layer_place(const GooseSetIndex& sets, const MirrorIndex& index, Bitboard geese,
                       int fox);

// Every set of k of the n lowest points, in increasing rank (colexicographic
// order is the order of the sets' bit patterns): visit(rank, set).
template <class Visit>
void for_each_set_ascending(int n, int k, Visit&& visit) {
    if (k == 0) {
        visit(std::uint64_t{0}, Bitboard{0});
        return;
    }
    const Bitboard end = bit(n);
    std::uint64_t rank = 0;
    for (Bitboard set = bit(k) - 1; set < end; ++rank) {
        visit(rank, set);
        // The next pattern with as many bits (Gosper's hack).
        const Bitboard ripple = set + (set & (~set + 1));
        set = (((ripple ^ set) >> 2) >> std::countr_zero(set)) | ripple;
    }
}

}  // namespace foxgeese::tablebase
