// Sets of k geese on a board numbered densely by the combinatorial number
// system: the geese on points p1 < p2 < ... < pk have the rank
// C(p1, 1) + C(p2, 2) + ... + C(pk, k), which runs over 0 .. C(n, k) - 1.
// The order is colexicographic, and since the board numbers its points rank
// by rank from the geese's home edge, a goose step forward or diagonally
// forward always leads to a set of a higher rank: the tablebase's builder
// walks the ranks downwards and finds every such successor already solved.
#pragma once

#include <array>
#include <cstdint>

#include "engine/rules/bitboard.h"

namespace foxgeese::tablebase {

class GooseSetIndex {
  public:
    static constexpr int kMaxPoints = 64;

    explicit GooseSetIndex(int points);

    int points() const { return points_; }
    // C(points, k): how many sets of k geese there are.
    std::uint64_t count(int k) const { return binomial_[points_][k]; }
    std::uint64_t rank(Bitboard geese) const;
    Bitboard unrank(std::uint64_t rank, int k) const;

  private:
    int points_;
    // binomial_[n][k] = C(n, k), 0 where k > n.
    std::array<std::array<std::uint64_t, kMaxPoints + 1>, kMaxPoints + 1> binomial_{};
};

}  // namespace foxgeese::tablebase
