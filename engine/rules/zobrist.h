// Zobrist keys: one random 64-bit key per (piece kind, point) and one for the
// side to move. The keys come from a fixed-seed generator, so a position hashes
// to the same value in every process and every build.
#pragma once

#include <array>
#include <cstdint>

#include "engine/rules/board.h"

namespace foxgeese::zobrist {

struct Keys {
    std::array<std::uint64_t, kMaxPoints> fox;
    std::array<std::uint64_t, kMaxPoints> goose;
    std::uint64_t geese_to_move;
};

// splitmix64: a tiny generator with good avalanche, enough for hash keys.
constexpr std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

constexpr Keys make_keys() {
    Keys keys{};
    std::uint64_t state = 0x666F786765657365ull;  // "foxgeese"
    for (auto& key : keys.fox)
        key = splitmix64(state);
    for (auto& key : keys.goose)
        key = splitmix64(state);
    keys.geese_to_move = splitmix64(state);
    return keys;
}

inline constexpr Keys kKeys = make_keys();

}  // namespace foxgeese::zobrist
