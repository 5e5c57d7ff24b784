// Legal move generation. The generator calls a visitor once per legal move
// instead of filling a list: jump sequences can branch into very many paths in
// contrived positions, so no fixed list size is a safe bound, and perft and
// search need no storage at all. MoveList collects moves when a list is wanted.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/rules/bitboard.h"
#include "engine/rules/move.h"
#include "engine/rules/position.h"

namespace foxgeese {

// Rules 1 and 2 of the end of the game: too few geese left, or (two_foxes) the
// pen full of geese. Such a position has no moves.
inline bool won_outright(const Position& pos) {
    const Variant& v = pos.variant();
    if (pos.geese_count() < v.fox_side_wins_below()) return true;
    return v.pen() != 0 && (pos.geese() & v.pen()) == v.pen();
}

namespace detail {

// Depth-first walk over the jump sequences of the fox standing on `at`.
// `geese` are the geese still on the board, `empty` the free points (with the
// moving fox already lifted off its origin). With kMaximal only sequences that
// cannot be continued are moves (compulsory capture); otherwise every prefix is.
// Returns true as soon as visit() does: the walk stops there.
template <bool kMaximal, class Visit>
bool walk_jumps(const Board& board, int at, Bitboard geese, Bitboard empty, Move& move,
                Visit& visit) {
    bool extended = false;
    for (const JumpLine* j = board.jumps_begin(at); j != board.jumps_end(at); ++j) {
        if (!has(geese, j->over) || !has(empty, j->land)) continue;
        extended = true;
        move.path[move.jump_count++] = j->land;
        move.captured |= bit(j->over);
        move.to = j->land;
        bool stopped = false;
        if constexpr (!kMaximal) stopped = visit(static_cast<const Move&>(move));
        if (!stopped) {
            stopped =
                walk_jumps<kMaximal>(board, j->land, geese & ~bit(j->over),
                                     (empty | bit(j->over) | bit(at)) & ~bit(j->land), move, visit);
        }
        --move.jump_count;
        move.captured &= ~bit(j->over);
        if (stopped) return true;
    }
    if constexpr (kMaximal) {
        if (!extended && move.jump_count > 0) {
            move.to = static_cast<std::uint8_t>(at);
            return visit(static_cast<const Move&>(move));
        }
    }
    return false;
}

// Number of jump sequences the walk above would visit, without building moves.
template <bool kMaximal>
std::uint64_t count_jumps(const Board& board, int at, Bitboard geese, Bitboard empty, int depth) {
    std::uint64_t total = 0;
    bool extended = false;
    for (const JumpLine* j = board.jumps_begin(at); j != board.jumps_end(at); ++j) {
        if (!has(geese, j->over) || !has(empty, j->land)) continue;
        extended = true;
        if constexpr (!kMaximal) ++total;
        total += count_jumps<kMaximal>(board, j->land, geese & ~bit(j->over),
                                       (empty | bit(j->over) | bit(at)) & ~bit(j->land), depth + 1);
    }
    if constexpr (kMaximal) {
        if (!extended && depth > 0) ++total;
    }
    return total;
}

}  // namespace detail

// Whether the fox on `fox` can jump right now.
inline bool fox_can_jump(const Position& pos, int fox) {
    const Board& board = pos.board();
    const Bitboard geese = pos.geese();
    const Bitboard empty = pos.empty();
    for (const JumpLine* j = board.jumps_begin(fox); j != board.jumps_end(fox); ++j) {
        if (has(geese, j->over) && has(empty, j->land)) return true;
    }
    return false;
}

inline bool any_fox_can_jump(const Position& pos) {
    for (Bitboard f = pos.foxes(); f;) {
        if (fox_can_jump(pos, pop_lowest(f))) return true;
    }
    return false;
}

// Calls visit(const Move&) for every legal move of the side to move until it
// returns true, and returns whether it did: the generation stops there. A
// contrived position has hundreds of thousands of jump paths, so a caller
// with a limit (a count, a clock) stops it rather than walking them all. The
// Move passed is only valid during the call. The visitor may make() and
// unmake() on `pos` as long as it leaves it as it found it.
template <class Visit>
bool for_each_legal_move_until(const Position& pos, Visit&& visit) {
    if (won_outright(pos)) return false;
    const Board& board = pos.board();
    const Bitboard empty = pos.empty();
    Move move;
    if (pos.side_to_move() == Side::kGeese) {
        for (Bitboard g = pos.geese(); g;) {
            const int from = pop_lowest(g);
            move.from = static_cast<std::uint8_t>(from);
            for (Bitboard to = pos.variant().goose_steps(from) & empty; to;) {
                move.to = static_cast<std::uint8_t>(pop_lowest(to));
                if (visit(static_cast<const Move&>(move))) return true;
            }
        }
        return false;
    }
    const Bitboard geese = pos.geese();
    if (pos.variant().compulsory_capture() && any_fox_can_jump(pos)) {
        for (Bitboard f = pos.foxes(); f;) {
            const int from = pop_lowest(f);
            move.from = static_cast<std::uint8_t>(from);
            if (detail::walk_jumps<true>(board, from, geese, empty | bit(from), move, visit))
                return true;
        }
        return false;
    }
    for (Bitboard f = pos.foxes(); f;) {
        const int from = pop_lowest(f);
        move.from = static_cast<std::uint8_t>(from);
        move.jump_count = 0;
        move.captured = 0;
        for (Bitboard to = board.links_from(from) & empty; to;) {
            move.to = static_cast<std::uint8_t>(pop_lowest(to));
            if (visit(static_cast<const Move&>(move))) return true;
        }
        // Under compulsory capture we only get here when no fox can jump.
        if (!pos.variant().compulsory_capture() &&
            detail::walk_jumps<false>(board, from, geese, empty | bit(from), move, visit)) {
            return true;
        }
    }
    return false;
}

// Calls visit(const Move&) for every legal move of the side to move (see
// for_each_legal_move_until).
template <class Visit>
void for_each_legal_move(const Position& pos, Visit&& visit) {
    for_each_legal_move_until(pos, [&](const Move& move) {
        visit(move);
        return false;
    });
}

// The number of legal moves, without building them (perft's last ply).
std::uint64_t count_legal_moves(const Position& pos);
// The same counted up to `limit`: a position with more moves gives `limit`,
// and the count stops there, so it costs at most about `limit` moves' work
// whatever the position.
std::uint64_t count_legal_moves(const Position& pos, std::uint64_t limit);

// The most legal moves a game may start with (a custom start position, or a
// record's Start tag). Random play meets a few thousand at most (6,639 was
// the most in 160,000 random games); a contrived lattice of geese gives
// hundreds of thousands of jump paths, which everyone who lists, searches or
// analyses the game would pay for.
constexpr std::uint64_t kMaxStartLegalMoves = 100'000;

// Whether the side to move has any legal move (rule 3 of the end of the game).
bool has_legal_move(const Position& pos);

// A list of moves that lives on the stack for every ordinary position and only
// spills to the heap for the rare position with hundreds of jump paths.
class MoveList {
  public:
    static constexpr int kInlineCapacity = 192;

    void push_back(const Move& move) {
        if (size_ < kInlineCapacity) {
            inline_[size_] = move;
        } else {
            spill_.push_back(move);
        }
        ++size_;
    }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const Move& operator[](std::size_t i) const {
        return i < kInlineCapacity ? inline_[i] : spill_[i - kInlineCapacity];
    }
    void clear() {
        size_ = 0;
        spill_.clear();
    }

  private:
    std::array<Move, kInlineCapacity> inline_;
    std::size_t size_ = 0;
    std::vector<Move> spill_;
};

inline void generate_legal_moves(const Position& pos, MoveList& list) {
    list.clear();
    for_each_legal_move(pos, [&](const Move& m) { list.push_back(m); });
}

}  // namespace foxgeese
