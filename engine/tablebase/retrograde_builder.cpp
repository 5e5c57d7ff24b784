#include "engine/tablebase/retrograde_builder.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <stdexcept>

#include "engine/rules/board.h"

namespace foxgeese::tablebase {

namespace {

constexpr std::uint8_t kUnsolved = 255;
constexpr int kLongestValue = 254;

const Board& board() {
    return Board::cross33();
}

// The fox's place among the empty points: its slot in a layer's row.
int slot(Bitboard empty, int point) {
    return count(empty & (bit(point) - 1));
}

// A position's value from its successors' (each for the side to move
// there): a move to a position lost for the opponent wins, and the quickest
// such win is chosen; with none, the side to move loses, as late as it can,
// and with no move at all it has lost already.
class ValueFold {
  public:
    void add(std::uint8_t successor) {
        assert(successor != kUnsolved);
        if (successor % 2 == 0)
            quickest_win_ = std::min(quickest_win_, static_cast<int>(successor) + 1);
        else
            slowest_loss_ = std::max(slowest_loss_, static_cast<int>(successor) + 1);
    }
    std::uint8_t value() const {
        const int plies = quickest_win_ != kNoWin ? quickest_win_ : slowest_loss_;
        if (plies > kLongestValue) throw std::logic_error("a value past the tables' byte");
        return static_cast<std::uint8_t>(plies);
    }

  private:
    static constexpr int kNoWin = 1 << 20;
    int quickest_win_ = kNoWin;
    int slowest_loss_ = 0;
};

// Every jump sequence of the fox from `at` (each prefix is a move: capture
// is optional and may stop after any jump), as its landing point and the
// geese it took.
template <class Visit>
void walk_jumps(int at, Bitboard geese, Bitboard empty, Bitboard taken, Visit& visit) {
    for (const JumpLine* j = board().jumps_begin(at); j != board().jumps_end(at); ++j) {
        if (!has(geese, j->over) || !has(empty, j->land)) continue;
        const Bitboard now_taken = taken | bit(j->over);
        visit(static_cast<int>(j->land), now_taken);
        walk_jumps(j->land, geese & ~bit(j->over), (empty | bit(j->over) | bit(at)) & ~bit(j->land),
                   now_taken, visit);
    }
}

}  // namespace

// Solves one layer, a goose set at a time from the highest rank down.
class LayerBuilder {
  public:
    LayerBuilder(RetrogradeTables& tables, int geese)
        : tables_(tables),
          geese_(geese),
          width_(static_cast<std::uint64_t>(board().point_count() - geese)),
          fox_to_move_(tables.layer(geese, Side::kFox)),
          geese_to_move_(tables.layer(geese, Side::kGeese)) {}

    void solve_set(std::uint64_t rank) {
        const Bitboard geese = tables_.sets().unrank(rank, geese_);
        const Bitboard empty = board().all_points() & ~geese;
        const std::uint64_t row = rank * width_;
        collect_goose_steps(geese);
        // Geese to move: each step leads to a set of a higher rank, solved.
        for (Bitboard foxes = empty; foxes;) {
            const int fox = pop_lowest(foxes);
            ValueFold fold;
            for (const GooseStep& step : steps_) {
                if (step.to == fox) continue;
                fold.add(fox_to_move_[step.row + slot(step.empty, fox)]);
            }
            geese_to_move_[row + slot(empty, fox)] = fold.value();
        }
        // Fox to move: a step leads to this set with the geese to move (just
        // solved), a capture to a smaller layer (solved before this one).
        for (Bitboard foxes = empty; foxes;) {
            const int fox = pop_lowest(foxes);
            ValueFold fold;
            for (Bitboard to = board().links_from(fox) & empty; to;)
                fold.add(geese_to_move_[row + slot(empty, pop_lowest(to))]);
            auto capture = [&](int land, Bitboard taken) {
                const int left = geese_ - count(taken);
                if (left < RetrogradeTables::kFewestGeese) {
                    fold.add(0);  // the fox has won: the geese, to move, have lost
                    return;
                }
                const Bitboard rest = geese & ~taken;
                fold.add(tables_.layer(left, Side::kGeese)[tables_.index(rest, land)]);
            };
            walk_jumps(fox, geese, empty, 0, capture);
            fox_to_move_[row + slot(empty, fox)] = fold.value();
        }
    }

  private:
    // A goose step of the set being solved, with where its successor's row is.
    struct GooseStep {
        int to;
        std::uint64_t row;
        Bitboard empty;  // the successor's empty points
    };

    void collect_goose_steps(Bitboard geese) {
        steps_.clear();
        for (Bitboard from = geese; from;) {
            const int goose = pop_lowest(from);
            for (const Direction d : {kNorthWest, kNorth, kNorthEast}) {
                const int to = board().neighbour(goose, d);
                if (to == kNoPoint || has(geese, to)) continue;
                const Bitboard after = (geese & ~bit(goose)) | bit(to);
                steps_.push_back(
                    {to, tables_.sets().rank(after) * width_, board().all_points() & ~after});
            }
        }
    }

    RetrogradeTables& tables_;
    int geese_;
    std::uint64_t width_;
    std::vector<std::uint8_t>& fox_to_move_;
    std::vector<std::uint8_t>& geese_to_move_;
    std::vector<GooseStep> steps_;
};

RetrogradeTables::RetrogradeTables(int max_geese)
    : max_geese_(max_geese), sets_(board().point_count()), layers_(max_geese + 1) {}

RetrogradeTables RetrogradeTables::build(int max_geese, const Progress& progress) {
    if (max_geese < kFewestGeese || max_geese > kMostGeese)
        throw std::invalid_argument("the tables hold 4 to 17 geese");
    RetrogradeTables tables(max_geese);
    for (int geese = kFewestGeese; geese <= max_geese; ++geese) {
        for (auto& side : tables.layers_[geese])
            side.assign(tables.layer_size(geese), kUnsolved);
        LayerBuilder builder(tables, geese);
        const std::uint64_t sets = tables.sets_.count(geese);
        for (std::uint64_t rank = sets; rank-- > 0;) {
            builder.solve_set(rank);
            if (progress && rank % 65536 == 0) progress(geese, sets - rank, sets);
        }
    }
    return tables;
}

std::uint64_t RetrogradeTables::layer_size(int geese) const {
    return sets_.count(geese) * static_cast<std::uint64_t>(board().point_count() - geese);
}

std::uint64_t RetrogradeTables::index(Bitboard geese, int fox) const {
    const std::uint64_t width = static_cast<std::uint64_t>(board().point_count() - count(geese));
    return sets_.rank(geese) * width + slot(board().all_points() & ~geese, fox);
}

std::vector<std::uint8_t>& RetrogradeTables::layer(int geese, Side side) {
    return layers_[geese][side == Side::kFox ? 0 : 1];
}

const std::vector<std::uint8_t>& RetrogradeTables::layer(int geese, Side side) const {
    return layers_[geese][side == Side::kFox ? 0 : 1];
}

std::optional<ExactValue> RetrogradeTables::value(Bitboard geese, int fox, Side side) const {
    const int n = count(geese);
    if (n < kFewestGeese || n > max_geese_) return std::nullopt;
    if ((geese & ~board().all_points()) != 0) return std::nullopt;
    if (fox < 0 || fox >= board().point_count() || has(geese, fox)) return std::nullopt;
    const std::uint8_t plies = layer(n, side)[index(geese, fox)];
    assert(plies != kUnsolved);
    return ExactValue{plies % 2 == 1, plies};
}

}  // namespace foxgeese::tablebase
