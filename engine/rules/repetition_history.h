// The positions of a game since its last irreversible move (a capture or a
// forward goose step), each with how often it has occurred: all the
// repetition rule needs. The service fills it from the counts it stores, a
// game loop by recording every position it reaches; the search reads it so
// that a position's third occurrence is a draw inside the tree too.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "engine/rules/position.h"

namespace foxgeese {

class RepetitionHistory {
  public:
    struct Entry {
        PositionKey key;
        int occurrences;
    };

    // 100 quiet plies end the game, so a window holds at most 101 positions.
    static constexpr int kCapacity = kFiftyMoveQuietPlies + 1;

    void clear();

    // Sets how often a position has occurred (the service's stored counts).
    // Beyond kCapacity distinct positions the rest are dropped: no legal game
    // reaches that many.
    void set(const PositionKey& key, int occurrences);

    // Records one more occurrence of `pos`, first forgetting everything before
    // it when the move that led to it was irreversible (its quiet counter is
    // 0). Returns the number of earlier occurrences, as evaluate_status() takes.
    int record(const Position& pos);

    // How often the position has occurred (0 when never). The hash test is a
    // one-word filter first, so the search can ask at every node.
    int occurrences(const PositionKey& key) const;

    std::span<const Entry> entries() const { return {entries_.data(), size_}; }

  private:
    static std::uint64_t filter_bit(std::uint64_t hash) { return std::uint64_t{1} << (hash & 63); }
    // Index of the position's entry, or size_ when it has none.
    std::size_t find(const PositionKey& key) const;

    std::array<Entry, kCapacity> entries_{};
    std::size_t size_ = 0;
    std::uint64_t filter_ = 0;  // filter_bit() of every hash held
};

}  // namespace foxgeese
