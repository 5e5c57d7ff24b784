// An exact solver for the configurations whose geese only step forward
// (standard without sideways steps). Each goose step raises the geese's sum of
// ranks, so a game lasts a bounded number of plies, no position can occur
// twice and the fifty-move rule never applies (every goose move resets it):
// every position is a win for one side, and a depth-first search over the rest
// of the game finds which. Solved positions go to a table of fixed size (a
// lossy one: a full bucket gives up the entry that took the fewest positions
// to solve, the cheapest to solve again), so memory is bounded and the answer
// never depends on what was dropped. The table is far larger than the caches
// and a probe is a miss to memory, which is most of a node's time: a bucket
// is one cache line, and a position's children are prefetched together before
// the first is probed, so that their misses overlap. A position and its mirror image
// (files reversed) share one entry. The configurations it handles (13, 15 or
// 17 geese) differ only in where the geese start, so one solver and its table
// serve them all.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/rules/move.h"
#include "engine/rules/position.h"
#include "engine/rules/variant.h"
#include "engine/search/search.h"

namespace foxgeese {

// What one call of the solver may spend before it gives up: searched
// positions, time on its clock, and a flag another thread may set. 0 is no limit.
struct SolverLimits {
    std::uint64_t nodes = 0;
    std::chrono::nanoseconds time{0};
    const std::atomic<bool>* stop = nullptr;
};

class ForwardSolver {
  public:
    struct Stats {
        std::uint64_t nodes = 0;     // positions solved by search (not by the table)
        std::uint64_t stored = 0;    // entries written to empty slots
        std::uint64_t replaced = 0;  // entries written over another position's
    };

    // Whether the variant is one this solver can decide: one fox, optional
    // capture, no pen and no sideways goose steps.
    static bool handles(const Variant& variant);

    // Up to `megabytes` of table (8 bytes a position, 8 to a 64-byte bucket),
    // allocated here; time limits read `clock`.
    explicit ForwardSolver(std::size_t megabytes, SearchClock clock = steady_search_clock());

    // The side that wins `position` (a position of a variant handles()
    // accepts, not over) when both sides play their best; nothing when the
    // limits end the search first. What a call solved stays in the table for
    // the next, so a position given up once may be solved by a later call.
    std::optional<Side> solve(const Position& position, const SolverLimits& limits = {});

    // A move that wins `position` for the side to move, if it has one and the
    // limits (for the whole call) allow finding it; nothing when the side to
    // move loses or the limits end the search first.
    std::optional<Move> winning_move(const Position& position, const SolverLimits& limits = {});

    // Totals over every call since construction or clear().
    const Stats& stats() const { return stats_; }
    void clear();

  private:
    struct Child {
        Bitboard geese;
        int fox;
        int order;          // higher is tried first
        std::uint64_t key;  // key_of() the child, with the other side to move
    };
    // One cache line of entries (see probe()).
    static constexpr std::size_t kBucketEntries = 8;
    struct alignas(64) Bucket {
        std::array<std::uint64_t, kBucketEntries> entries{};
    };

    bool fox_wins(Bitboard geese, int fox, Side side, std::uint64_t key);
    bool fox_wins_with_fox_to_move(Bitboard geese, int fox);
    bool fox_wins_with_geese_to_move(Bitboard geese, int fox);
    bool fox_is_free(Bitboard geese, int fox) const;
    int fox_move_order(Bitboard geese_after, int to, int captured) const;
    bool out_of_budget();
    // Whether the stop flag is set or the deadline passed, which ends the call.
    bool interrupted();
    void begin(const SolverLimits& limits);
    std::optional<Side> verdict(const Position& position);
    // What the rules or the table say without a search.
    std::optional<Side> known(const Position& position) const;

    // The key of a position or of its mirror image, whichever is smaller.
    std::uint64_t key_of(Bitboard geese, int fox, Side side) const;
    Bitboard mirrored(Bitboard points) const;
    // 0: not in the table, else 1 + (1 if the fox side wins).
    int probe(std::uint64_t key) const;
    // `nodes`: the positions searched to solve it, for the replacement.
    void store(std::uint64_t key, bool fox_wins, std::uint64_t nodes);
    Bucket& bucket_of(std::uint64_t key);
    const Bucket& bucket_of(std::uint64_t key) const;
    // Starts loading the children's buckets from first on.
    void prefetch_children(std::size_t first) const;

    const Variant& variant_;  // standard with 17 geese: the rules every handled one shares
    SearchClock clock_;
    std::vector<Bitboard> reach_;  // per point: every point a goose there may yet stand on
    std::vector<int> mirror_point_;
    // mirror_bytes_[i][b]: the mirror image of the points 8i..8i+7 in b.
    std::vector<std::array<Bitboard, 256>> mirror_bytes_;
    std::vector<Bucket> table_;
    std::uint64_t bucket_mask_ = 0;
    // The children of every position on the current path, one frame after
    // another, so that no position allocates once the stack has grown.
    std::vector<Child> children_;
    Stats stats_;

    // The current call.
    std::uint64_t node_limit_ = 0;          // stats_.nodes at which it gives up; 0 for none
    std::chrono::nanoseconds deadline_{0};  // on clock_; 0 for none
    const std::atomic<bool>* stop_ = nullptr;
    bool aborted_ = false;
};

}  // namespace foxgeese
