#include "engine/tablebase/goose_set_index.h"

#include <cassert>

namespace foxgeese::tablebase {

GooseSetIndex::GooseSetIndex(int points) : points_(points) {
    assert(points >= 0 && points <= kMaxPoints);
    for (int n = 0; n <= kMaxPoints; ++n) {
        binomial_[n][0] = 1;
        for (int k = 1; k <= n; ++k)
            binomial_[n][k] = binomial_[n - 1][k - 1] + (k < n ? binomial_[n - 1][k] : 0);
    }
}

std::uint64_t GooseSetIndex::rank(Bitboard geese) const {
    std::uint64_t r = 0;
    for (int i = 1; geese; ++i)
        r += binomial_[pop_lowest(geese)][i];
    return r;
}

Bitboard GooseSetIndex::unrank(std::uint64_t rank, int k) const {
    Bitboard geese = 0;
    int p = points_;
    // The highest goose first: the largest p with C(p, k) <= rank.
    for (int i = k; i >= 1; --i) {
        do {
            --p;
        } while (binomial_[p][i] > rank);
        geese |= bit(p);
        rank -= binomial_[p][i];
    }
    return geese;
}

}  // namespace foxgeese::tablebase
