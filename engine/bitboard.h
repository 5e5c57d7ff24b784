// A set of board points as the bits of one 64-bit word. Every board has at most
// 45 points, so point index i is bit i.
#pragma once

#include <bit>
#include <cstdint>

namespace foxgeese {

using Bitboard = std::uint64_t;

constexpr Bitboard bit(int point) {
    return Bitboard{1} << point;
}
constexpr bool has(Bitboard set, int point) {
    return (set >> point) & 1;
}
constexpr int count(Bitboard set) {
    return std::popcount(set);
}

// Index of the lowest set bit; the set must not be empty.
constexpr int lowest(Bitboard set) {
    return std::countr_zero(set);
}

// Removes and returns the lowest set bit's index; the set must not be empty.
constexpr int pop_lowest(Bitboard& set) {
    const int point = std::countr_zero(set);
    set &= set - 1;
    return point;
}

}  // namespace foxgeese
