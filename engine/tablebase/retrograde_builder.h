// Exact values of standard's forward-only positions (one fox, geese that only
// step forward or diagonally forward), found by backward induction rather
// than by searching forward from a position: the fewest geese first, and
// within a goose count the goose sets from the highest rank down (see
// goose_set_index.h), so that every successor of a position is solved before
// it. Such games cannot repeat a position or reach the fifty-move rule (every
// goose move goes forward, and the geese move every other ply), so every
// position is a win for one side: there are no draws.
//
// A value is the number of plies to the end of the game when the winner
// hurries and the loser delays; its parity says who wins (odd: the side to
// move, which then makes the last move; even: its opponent). These in-memory
// tables keep a byte per position and side to move, which fits up to about
// 10 geese; 13 needs the on-disk format with fewer bits per position.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "engine/rules/bitboard.h"
#include "engine/rules/position.h"
#include "engine/tablebase/goose_set_index.h"

namespace foxgeese::tablebase {

struct ExactValue {
    bool mover_wins;
    int plies;  // to the end of the game under perfect play
    friend bool operator==(const ExactValue&, const ExactValue&) = default;
};

class RetrogradeTables {
  public:
    // Below four geese the fox has won: the tables start at four.
    static constexpr int kFewestGeese = 4;
    static constexpr int kMostGeese = 17;

    // Called now and then while a layer is built: its goose count, the goose
    // sets done and their number.
    using Progress = std::function<void(int geese, std::uint64_t done, std::uint64_t total)>;

    // Every layer from kFewestGeese to max_geese geese.
    static RetrogradeTables build(int max_geese, const Progress& progress = {});

    int max_geese() const { return max_geese_; }
    const GooseSetIndex& sets() const { return sets_; }
    // Positions of a layer with one side to move: goose sets times the
    // points left for the fox.
    std::uint64_t layer_size(int geese) const;

    // The value for the side to move, or nullopt when the placement is not
    // in the tables (a goose count outside them, the fox on a goose).
    std::optional<ExactValue> value(Bitboard geese, int fox, Side side) const;

  private:
    explicit RetrogradeTables(int max_geese);
    friend class LayerBuilder;

    // Where a position is in its layer: the goose set's rank, then the fox's
    // point counted among the empty ones.
    std::uint64_t index(Bitboard geese, int fox) const;
    std::vector<std::uint8_t>& layer(int geese, Side side);
    const std::vector<std::uint8_t>& layer(int geese, Side side) const;

    int max_geese_;
    GooseSetIndex sets_;
    // layers_[geese][side]: one byte per position, the plies as above.
    std::vector<std::array<std::vector<std::uint8_t>, 2>> layers_;
};

}  // namespace foxgeese::tablebase
