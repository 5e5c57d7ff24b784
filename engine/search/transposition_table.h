// The transposition table: what earlier searches learnt about a position,
// keyed by its Zobrist hash. Allocated once, at construction; probing and
// storing never allocate. Four 16-byte slots share a 64-byte cluster (one
// cache line); a new entry replaces the slot of the same position, else the
// shallowest or oldest one.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/search/move_key.h"
#include "engine/search/score.h"

namespace foxgeese {

// How a stored score relates to the true value of the position.
enum class Bound : std::uint8_t {
    kNone,
    kUpper,  // the search failed low: the value is at most the score
    kLower,  // the search failed high: the value is at least the score
    kExact,
};

struct TableEntry {
    MoveKey move;  // the best move found, or none
    Score score;   // relative to the node: see score_to_table()
    int depth;
    Bound bound;
};

// Wins and losses are stored as distances from the node, not from the root,
// so that an entry is right wherever in a later tree the position appears.
constexpr Score score_to_table(Score score, int ply) {
    return is_win(score) ? score + ply : is_loss(score) ? score - ply : score;
}
constexpr Score score_from_table(Score score, int ply) {
    return is_win(score) ? score - ply : is_loss(score) ? score + ply : score;
}

class TranspositionTable {
  public:
    // `megabytes` of slots (at least one cluster), all empty.
    explicit TranspositionTable(std::size_t megabytes);

    void clear();
    // Marks the entries of earlier searches as old, so they are replaced first.
    void new_search() { age_ = static_cast<std::uint8_t>((age_ + 1) & kAgeMask); }

    // The entry for the position, if the table holds one.
    bool probe(std::uint64_t hash, TableEntry& entry) const;
    // A move of none keeps the move an earlier entry of the same position held.
    void store(std::uint64_t hash, MoveKey move, Score score, int depth, Bound bound);

    // Used slots among the first thousand, in permille (as UCI's hashfull).
    int permille_full() const;
    std::size_t size_in_bytes() const { return clusters_.size() * sizeof(Cluster); }

  private:
    static constexpr int kSlotsPerCluster = 4;
    static constexpr std::uint8_t kAgeMask = 0x3F;

    struct Slot {
        std::uint32_t check;     // the hash's upper half
        std::int16_t score;      // fits: |score| <= kWin < 2^15
        std::uint8_t depth;      // 0 for an empty slot's default
        std::uint8_t bound_age;  // Bound in the low two bits, age above
        std::uint64_t move;      // MoveKey bits

        Bound bound() const { return static_cast<Bound>(bound_age & 3); }
        std::uint8_t age() const { return static_cast<std::uint8_t>(bound_age >> 2); }
    };
    struct alignas(64) Cluster {
        Slot slots[kSlotsPerCluster];
    };
    static_assert(sizeof(Slot) == 16 && sizeof(Cluster) == 64);

    std::size_t cluster_index(std::uint64_t hash) const;

    std::vector<Cluster> clusters_;
    std::uint8_t age_ = 0;
};

}  // namespace foxgeese
