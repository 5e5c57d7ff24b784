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
#if defined(__x86_64__) && !defined(__POPCNT__)
    // Without the POPCNT instruction (the compiler's default x86-64 target;
    // the project builds for x86-64-v2, which has it, unless
    // FOXGEESE_X86_64_LEVEL says otherwise) std::popcount is a call into
    // libgcc; the same sum of bits inline costs a few cycles and no call, and
    // every evaluation counts bits many times (the profile:
    // bench/history/2026-12-01-to-12-02-search-speed.md). Other targets, and
    // x86-64 builds that may use POPCNT, take std::popcount.
    set -= (set >> 1) & 0x5555555555555555ULL;
    set = (set & 0x3333333333333333ULL) + ((set >> 2) & 0x3333333333333333ULL);
    set = (set + (set >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return static_cast<int>((set * 0x0101010101010101ULL) >> 56);
#else
    return std::popcount(set);
#endif
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
