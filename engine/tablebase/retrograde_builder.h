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
// move, which then makes the last move; even: its opponent). A byte holds it.
//
// A layer is solved in two passes, so that the biggest (13 geese) fits this
// machine's memory: the fox-to-move values first, from the smaller layers'
// geese-to-move values (captures) and the geese-to-move values of the set at
// hand (computed on the way and dropped); then the geese-to-move values from
// the finished fox-to-move ones, with the smaller layers no longer needed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "engine/rules/bitboard.h"
#include "engine/rules/position.h"
#include "engine/tablebase/goose_set_index.h"
#include "engine/tablebase/mirror_index.h"
#include "engine/tablebase/table_layer.h"

namespace foxgeese::tablebase {

// Below four geese the fox has won: the layers start at four.
constexpr int kFewestGeese = 4;
constexpr int kMostGeese = 17;

struct ExactValue {
    bool mover_wins;
    int plies;  // to the end of the game under perfect play
    friend bool operator==(const ExactValue&, const ExactValue&) = default;
};

// Called now and then during a pass: goose sets done and their number.
using PassProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

class LayerBuilder {
  public:
    // `smaller[g]` is the layer of g geese for every g from kFewestGeese
    // below `index.geese()` (only its geese-to-move values are read).
    LayerBuilder(const GooseSetIndex& sets, const MirrorIndex& index,
                 std::span<const LayerView> smaller);

    std::vector<std::uint8_t> solve_fox_to_move(const PassProgress& progress = {});
    std::vector<std::uint8_t> solve_geese_to_move(std::span<const std::uint8_t> fox_to_move,
                                                  const PassProgress& progress = {});

  private:
    // A goose step of the set being solved, with where the set after it is
    // stored: its row among the canonical sets, whether it is stored as its
    // mirror image, and the empty points of the stored set (a fox's slot).
    struct GooseStep {
        int to;
        std::uint64_t row;
        bool mirrored;
        Bitboard stored_empty;
    };
    void collect_goose_steps(Bitboard geese);
    std::uint8_t geese_value(int fox, std::span<const std::uint8_t> fox_to_move) const;

    const GooseSetIndex& sets_;
    const MirrorIndex& index_;
    std::span<const LayerView> smaller_;
    int geese_;
    std::uint64_t width_;
    std::vector<GooseStep> steps_;
};

// The value of a position from layers (indexed by goose count), or nullopt
// when it is not in them (a goose count outside them, the fox on a goose or
// off the board).
std::optional<ExactValue> probe(const GooseSetIndex& sets, std::span<const LayerView> layers,
                                Bitboard geese, int fox, Side side);

// Every layer from kFewestGeese to a number of geese, in memory: the tests'
// and small tables' way (a byte per position and side to move).
class RetrogradeTables {
  public:
    using Progress = std::function<void(int geese, std::uint64_t done, std::uint64_t total)>;
    static RetrogradeTables build(int max_geese, const Progress& progress = {});

    int max_geese() const { return static_cast<int>(views_.size()) - 1; }
    const GooseSetIndex& sets() const { return sets_; }
    const LayerView& layer(int geese) const { return views_[geese]; }
    std::optional<ExactValue> value(Bitboard geese, int fox, Side side) const {
        return probe(sets_, views_, geese, fox, side);
    }

  private:
    RetrogradeTables();

    struct OwnedLayer {
        std::unique_ptr<MirrorIndex> index;
        std::vector<std::uint8_t> fox_to_move;
        std::vector<std::uint8_t> geese_to_move;
    };
    GooseSetIndex sets_;
    std::vector<OwnedLayer> owned_;
    std::vector<LayerView> views_;
};

}  // namespace foxgeese::tablebase
