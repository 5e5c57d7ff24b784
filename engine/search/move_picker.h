// The order in which the search tries the moves of a node: the transposition
// table's move, then captures (more geese first), then the two killer moves of
// the ply, then the other quiet moves by their history score. Moves are
// generated into a fixed per-ply buffer, one entry per distinct resulting
// position (jump paths that take the same geese and end on the same point are
// one move), so nothing is allocated per node.
#pragma once

#include <array>
#include <cstdint>
#include <functional>

#include "engine/rules/move.h"
#include "engine/rules/movegen.h"
#include "engine/rules/position.h"
#include "engine/search/move_key.h"

namespace foxgeese {

// How well quiet moves did in this search: a bonus when a move caused a
// cutoff, a malus for the moves tried before it. Kept per side and (from, to).
class MoveHistory {
  public:
    static constexpr int kMax = 1 << 14;

    void clear() { table_ = {}; }
    int score(Side side, MoveKey move) const {
        return table_[static_cast<int>(side)][move.from()][move.to()];
    }
    // Moves the score towards +-kMax by `bonus`, less the closer it already is,
    // so old results fade and the score stays bounded.
    void update(Side side, MoveKey move, int bonus);

  private:
    std::array<std::array<std::array<int, kMaxPoints>, kMaxPoints>, 2> table_{};
};

// The last two quiet moves that caused a cutoff at a ply: in sibling nodes the
// same move often refutes again.
struct Killers {
    std::array<MoveKey, 2> moves;

    void add(MoveKey move) {
        if (moves[0] == move) return;
        moves[1] = moves[0];
        moves[0] = move;
    }
};

struct ScoredMove {
    Move move;
    MoveKey key;
    int order;
};

class MovePicker {
  public:
    // Random playouts meet up to about 250 distinct moves in one position; a
    // contrived jump position can have more. Those beyond the buffer are not
    // lost: for_each() visits them after the buffered ones, unordered.
    static constexpr int kCapacity = 256;
    using Buffer = std::array<ScoredMove, kCapacity>;

    enum class Kind { kAll, kCaptures };
    // Generating stops when `interrupt` answers true (the search's time is up):
    // a contrived position has hundreds of thousands of jump paths. It is
    // asked every this many paths.
    static constexpr std::uint64_t kInterruptInterval = 1024;

    // Generates the moves of `pos` into `buffer` and scores them; `killers`
    // may be null (quiescence search has none), and `interrupt` too. `pos`
    // must outlive the picker. Once interrupted, it holds the moves generated
    // so far and for_each() visits no others.
    MovePicker(const Position& pos, Buffer& buffer, Kind kind, MoveKey table_move,
               const Killers* killers, const MoveHistory& history,
               const std::function<bool()>* interrupt = nullptr);

    // Calls visit(const Move&, MoveKey) for every distinct move until it
    // returns true (a cutoff): the buffered moves best first, then the ones
    // that did not fit, in generation order (generated again, so visit may
    // make() and unmake() moves on the position in between).
    template <class Visit>
    void for_each(Visit&& visit);

    int size() const { return size_; }
    // Whether there were more distinct moves than the buffer holds.
    bool overflowed() const { return overflowed_; }
    bool interrupted() const { return interrupted_; }

  private:
    // Counts a generated path; true when generating must stop.
    bool stop_generating() {
        if (interrupt_ == nullptr || ++generated_ % kInterruptInterval != 0) return false;
        interrupted_ = interrupted_ || (*interrupt_)();
        return interrupted_;
    }
    void add(const Move& move, MoveKey key, int order);
    bool holds(MoveKey key) const;
    // The best-ordered buffered move not yet returned, or null.
    const ScoredMove* next();

    const Position& pos_;
    Buffer& buffer_;
    Kind kind_;
    const std::function<bool()>* interrupt_;
    std::uint64_t generated_ = 0;
    int size_ = 0;
    int next_ = 0;
    bool overflowed_ = false;
    bool interrupted_ = false;
};

template <class Visit>
void MovePicker::for_each(Visit&& visit) {
    while (const ScoredMove* scored = next()) {
        if (visit(scored->move, scored->key)) return;
    }
    if (!overflowed_ || interrupted_) return;
    for_each_legal_move_until(pos_, [&](const Move& move) {
        if (stop_generating()) return true;
        if (kind_ == Kind::kCaptures && !move.is_jump()) return false;
        // Paths to the same position beyond the buffer are each visited; the
        // transposition table makes the repeats cheap.
        const MoveKey key(move);
        return !holds(key) && visit(move, key);
    });
}

}  // namespace foxgeese
