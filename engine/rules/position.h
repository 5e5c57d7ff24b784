// A position: where the foxes and geese stand, who moves, and the two counters
// (quiet plies for the fifty-move rule, plies played). make() and unmake()
// change it in place and keep the Zobrist hash up to date, so search and perft
// never copy a position.
#pragma once

#include <cassert>
#include <cstdint>

#include "engine/rules/bitboard.h"
#include "engine/rules/move.h"
#include "engine/rules/variant.h"
#include "engine/rules/zobrist.h"

namespace foxgeese {

enum class Side : std::uint8_t { kFox, kGeese };

constexpr Side opponent(Side side) {
    return side == Side::kFox ? Side::kGeese : Side::kFox;
}

// What identifies a position for the repetition rule: the placement and the
// side to move (not the counters). `hash` is the Zobrist hash of those.
struct PositionKey {
    Bitboard foxes;
    Bitboard geese;
    Side side;
    std::uint64_t hash;

    friend bool operator==(const PositionKey& a, const PositionKey& b) {
        return a.foxes == b.foxes && a.geese == b.geese && a.side == b.side;
    }
};

// The fifty-move rule: a draw needs 100 quiet plies in a row. The position
// counts them, so the limit lives beside the counter.
constexpr int kFiftyMoveQuietPlies = 100;

// What unmake() needs that the move itself does not carry.
struct UndoInfo {
    int quiet_plies;
};

class Position {
  public:
    // The variant's start position.
    explicit Position(const Variant& variant);
    // A position from its parts; the caller has validated them (see position_code.h).
    Position(const Variant& variant, Bitboard foxes, Bitboard geese, Side side, int quiet_plies,
             int ply);

    const Variant& variant() const { return *variant_; }
    const Board& board() const { return variant_->board(); }

    Bitboard foxes() const { return foxes_; }
    Bitboard geese() const { return geese_; }
    Bitboard occupied() const { return foxes_ | geese_; }
    Bitboard empty() const { return board().all_points() & ~occupied(); }
    Side side_to_move() const { return side_; }
    int quiet_plies() const { return quiet_plies_; }
    int ply() const { return ply_; }
    int geese_count() const { return count(geese_); }

    // Hash of the placement and the side to move: the identity of a position
    // for the repetition rule (the counters are not part of it).
    std::uint64_t hash() const { return hash_; }
    PositionKey key() const { return PositionKey{foxes_, geese_, side_, hash_}; }

    // Plays a legal move of the side to move; the caller guarantees legality.
    void make(const Move& move, UndoInfo& undo) {
        undo.quiet_plies = quiet_plies_;
        const auto& keys = zobrist::kKeys;
        if (side_ == Side::kFox) {
            // XOR, not OR: a loop of jumps may end where it started.
            foxes_ ^= bit(move.from) ^ bit(move.to);
            hash_ ^= keys.fox[move.from] ^ keys.fox[move.to];
            if (move.captured) {
                geese_ &= ~move.captured;
                for (Bitboard c = move.captured; c;)
                    hash_ ^= keys.goose[pop_lowest(c)];
                quiet_plies_ = 0;
            } else {
                ++quiet_plies_;
            }
        } else {
            geese_ ^= bit(move.from) | bit(move.to);
            hash_ ^= keys.goose[move.from] ^ keys.goose[move.to];
            const bool forward = board().rank_of(move.to) > board().rank_of(move.from);
            quiet_plies_ = forward ? 0 : quiet_plies_ + 1;
        }
        side_ = opponent(side_);
        hash_ ^= keys.geese_to_move;
        ++ply_;
        assert(is_consistent());
    }

    // Takes back the move make() just played.
    void unmake(const Move& move, const UndoInfo& undo) {
        const auto& keys = zobrist::kKeys;
        side_ = opponent(side_);
        hash_ ^= keys.geese_to_move;
        --ply_;
        quiet_plies_ = undo.quiet_plies;
        if (side_ == Side::kFox) {
            foxes_ ^= bit(move.from) ^ bit(move.to);
            hash_ ^= keys.fox[move.from] ^ keys.fox[move.to];
            geese_ |= move.captured;
            for (Bitboard c = move.captured; c;)
                hash_ ^= keys.goose[pop_lowest(c)];
        } else {
            geese_ ^= bit(move.from) | bit(move.to);
            hash_ ^= keys.goose[move.from] ^ keys.goose[move.to];
        }
        assert(is_consistent());
    }

    // The hash computed from scratch; make()/unmake() must always agree with it.
    std::uint64_t compute_hash() const;

    // Whether the parts agree with each other and the variant: foxes and geese
    // on distinct board points, the variant's number of foxes, no more geese
    // than it starts with, the hash equal to compute_hash(), counters in range.
    // make() and unmake() assert it in debug builds (it costs a full hash), so
    // a corrupting move is caught at the move that made it.
    bool is_consistent() const;

    friend bool operator==(const Position& a, const Position& b) {
        return a.variant_ == b.variant_ && a.foxes_ == b.foxes_ && a.geese_ == b.geese_ &&
               a.side_ == b.side_ && a.quiet_plies_ == b.quiet_plies_ && a.ply_ == b.ply_;
    }

  private:
    const Variant* variant_;
    Bitboard foxes_;
    Bitboard geese_;
    Side side_;
    int quiet_plies_;
    int ply_;
    std::uint64_t hash_;
};

}  // namespace foxgeese
