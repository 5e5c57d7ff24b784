// A move reduced to what it does to the position: its origin, its final point
// and the geese it removes, packed into one word. Jump paths that take the
// same geese in another order and end on the same point lead to the same
// position, so the search treats them as one move; the key is what the
// transposition table, the killers and the principal variation store.
#pragma once

#include <cassert>
#include <cstdint>

#include "engine/rules/move.h"

namespace foxgeese {

class MoveKey {
  public:
    constexpr MoveKey() = default;
    explicit MoveKey(const Move& move)
        : bits_(kValid | move.captured | std::uint64_t{move.from} << kFromShift |
                std::uint64_t{move.to} << kToShift) {
        // Boards have at most 45 points, so captures fit below bit 48.
        assert(move.captured >> kFromShift == 0);
    }

    static constexpr MoveKey from_bits(std::uint64_t bits) { return MoveKey(bits); }
    constexpr std::uint64_t bits() const { return bits_; }

    constexpr bool none() const { return bits_ == 0; }
    constexpr int from() const { return static_cast<int>(bits_ >> kFromShift & 63); }
    constexpr int to() const { return static_cast<int>(bits_ >> kToShift & 63); }

    friend constexpr bool operator==(MoveKey, MoveKey) = default;

  private:
    static constexpr int kFromShift = 48;
    static constexpr int kToShift = 54;
    static constexpr std::uint64_t kValid = std::uint64_t{1} << 63;

    constexpr explicit MoveKey(std::uint64_t bits) : bits_(bits) {}

    std::uint64_t bits_ = 0;
};

}  // namespace foxgeese
