// A move is its path: the origin, then each landing point. A step has one
// landing point and captures nothing; a jump sequence lands once per capture.
#pragma once

#include <array>
#include <cstdint>

#include "engine/rules/bitboard.h"

namespace foxgeese {

// Each jump removes a goose and no variant starts with more than 20 geese.
constexpr int kMaxJumps = 20;

struct Move {
    Bitboard captured = 0;        // geese removed by the move
    std::uint8_t from = 0;        // origin
    std::uint8_t to = 0;          // final landing point (may equal `from` after a loop of jumps)
    std::uint8_t jump_count = 0;  // 0 for a step
    std::array<std::uint8_t, kMaxJumps> path{};  // landing points of the jumps, in order

    bool is_jump() const { return jump_count > 0; }
    static Move step(int from, int to) {
        Move m;
        m.from = static_cast<std::uint8_t>(from);
        m.to = static_cast<std::uint8_t>(to);
        return m;
    }

    friend bool operator==(const Move& a, const Move& b) {
        if (a.from != b.from || a.to != b.to || a.jump_count != b.jump_count) return false;
        for (int i = 0; i < a.jump_count; ++i) {
            if (a.path[i] != b.path[i]) return false;
        }
        return true;
    }
};

}  // namespace foxgeese
