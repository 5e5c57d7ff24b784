#include "engine/tablebase/retrograde_builder.h"

#include <algorithm>
#include <cassert>
#include <stdexcept>

#include "engine/rules/board.h"

namespace foxgeese::tablebase {

namespace {

constexpr int kLongestValue = 254;
constexpr std::uint64_t kProgressEvery = 1 << 16;

const Board& board() {
    return Board::cross33();
}

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

// The canonical sets of a layer from the highest rank down, or up.
template <class Visit>
void for_each_canonical_descending(const GooseSetIndex& sets, const MirrorIndex& index,
                                   Visit&& visit) {
    const int k = index.geese();
    const std::uint64_t last = sets.count(k) - 1;
    const Bitboard all = board().all_points();
    // The complements of the sets come in increasing order: the sets in
    // decreasing order.
    for_each_set_ascending(sets.points(), sets.points() - k, [&](std::uint64_t r, Bitboard free) {
        const std::uint64_t rank = last - r;
        if (index.is_canonical(rank)) visit(rank, all & ~free);
    });
}

template <class Visit>
void for_each_canonical_ascending(const GooseSetIndex& sets, const MirrorIndex& index,
                                  Visit&& visit) {
    for_each_set_ascending(sets.points(), index.geese(), [&](std::uint64_t rank, Bitboard geese) {
        if (index.is_canonical(rank)) visit(rank, geese);
    });
}

}  // namespace

std::uint64_t LayerView::width() const {
    return static_cast<std::uint64_t>(board().point_count() - geese);
}

std::uint64_t layer_positions(const MirrorIndex& index) {
    return index.canonical_count() *
           static_cast<std::uint64_t>(board().point_count() - index.geese());
}

LayerBuilder::LayerBuilder(const GooseSetIndex& sets, const MirrorIndex& index,
                           std::span<const LayerView> smaller)
    : sets_(sets),
      index_(index),
      smaller_(smaller),
      geese_(index.geese()),
      width_(static_cast<std::uint64_t>(board().point_count() - geese_)) {
    for (int g = kFewestGeese; g < geese_; ++g)
        if (static_cast<int>(smaller.size()) <= g || smaller[g].geese != g)
            throw std::invalid_argument("a smaller layer is missing");
}

void LayerBuilder::collect_goose_steps(Bitboard geese) {
    steps_.clear();
    for (Bitboard from = geese; from;) {
        const int goose = pop_lowest(from);
        for (const Direction d : {kNorthWest, kNorth, kNorthEast}) {
            const int to = board().neighbour(goose, d);
            if (to == kNoPoint || has(geese, to)) continue;
            // Where the set after the step is stored does not depend on the
            // fox: found once here, not for each of its points.
            Bitboard after = (geese & ~bit(goose)) | bit(to);
            std::uint64_t rank = sets_.rank(after);
            const bool mirrored = !index_.is_canonical(rank);
            if (mirrored) {
                after = mirror_set(after);
                rank = sets_.rank(after);
            }
            steps_.push_back(
                {to, index_.dense(rank) * width_, mirrored, board().all_points() & ~after});
        }
    }
}

// The geese to move with the fox on `fox`: each step leads to a set of a
// higher rank, whose fox-to-move values `layer` holds already.
std::uint8_t LayerBuilder::geese_value(int fox, std::span<const std::uint8_t> fox_to_move) const {
    const int mirrored_fox = mirror_point(fox);
    ValueFold fold;
    for (const GooseStep& step : steps_) {
        if (step.to == fox) continue;
        const int stored_fox = step.mirrored ? mirrored_fox : fox;
        fold.add(fox_to_move[step.row +
                             static_cast<std::uint64_t>(slot(step.stored_empty, stored_fox))]);
    }
    return fold.value();
}

std::vector<std::uint8_t> LayerBuilder::solve_fox_to_move(const PassProgress& progress) {
    std::vector<std::uint8_t> fox_to_move(layer_positions(index_), kUnsolved);
    const std::uint64_t total = index_.canonical_count();
    std::uint64_t done = 0;
    std::array<std::uint8_t, kMaxPoints> geese_to_move{};
    for_each_canonical_descending(sets_, index_, [&](std::uint64_t rank, Bitboard geese) {
        const Bitboard empty = board().all_points() & ~geese;
        collect_goose_steps(geese);
        for (Bitboard foxes = empty; foxes;) {
            const int fox = pop_lowest(foxes);
            geese_to_move[fox] = geese_value(fox, fox_to_move);
        }
        const std::uint64_t row = index_.dense(rank) * width_;
        for (Bitboard foxes = empty; foxes;) {
            const int fox = pop_lowest(foxes);
            ValueFold fold;
            // A step: this set, the geese to move (just solved).
            for (Bitboard to = board().links_from(fox) & empty; to;)
                fold.add(geese_to_move[pop_lowest(to)]);
            // A capture: a smaller layer, or the fox has won.
            auto capture = [&](int land, Bitboard taken) {
                const int left = geese_ - count(taken);
                if (left < kFewestGeese)
                    fold.add(0);  // the geese, to move, have lost
                else
                    fold.add(smaller_[left].at(sets_, Side::kGeese, geese & ~taken, land));
            };
            walk_jumps(fox, geese, empty, 0, capture);
            fox_to_move[row + static_cast<std::uint64_t>(slot(empty, fox))] = fold.value();
        }
        if (progress && ++done % kProgressEvery == 0) progress(done, total);
    });
    if (progress) progress(total, total);
    return fox_to_move;
}

std::vector<std::uint8_t> LayerBuilder::solve_geese_to_move(
    std::span<const std::uint8_t> fox_to_move, const PassProgress& progress) {
    std::vector<std::uint8_t> geese_to_move(layer_positions(index_), kUnsolved);
    const std::uint64_t total = index_.canonical_count();
    std::uint64_t done = 0;
    for_each_canonical_ascending(sets_, index_, [&](std::uint64_t rank, Bitboard geese) {
        const Bitboard empty = board().all_points() & ~geese;
        collect_goose_steps(geese);
        const std::uint64_t row = index_.dense(rank) * width_;
        for (Bitboard foxes = empty; foxes;) {
            const int fox = pop_lowest(foxes);
            geese_to_move[row + static_cast<std::uint64_t>(slot(empty, fox))] =
                geese_value(fox, fox_to_move);
        }
        if (progress && ++done % kProgressEvery == 0) progress(done, total);
    });
    if (progress) progress(total, total);
    return geese_to_move;
}

std::optional<ExactValue> probe(const GooseSetIndex& sets, std::span<const LayerView> layers,
                                Bitboard geese, int fox, Side side) {
    const int n = count(geese);
    if (n < kFewestGeese || n >= static_cast<int>(layers.size()) || layers[n].index == nullptr)
        return std::nullopt;
    if ((geese & ~board().all_points()) != 0) return std::nullopt;
    if (fox < 0 || fox >= board().point_count() || has(geese, fox)) return std::nullopt;
    const std::uint8_t plies = layers[n].at(sets, side, geese, fox);
    if (plies == kUnsolved) return std::nullopt;
    return ExactValue{plies % 2 == 1, plies};
}

RetrogradeTables::RetrogradeTables() : sets_(board().point_count()) {}

RetrogradeTables RetrogradeTables::build(int max_geese, const Progress& progress) {
    if (max_geese < kFewestGeese || max_geese > kMostGeese)
        throw std::invalid_argument("the tables hold 4 to 17 geese");
    RetrogradeTables tables;
    tables.owned_.resize(max_geese + 1);
    tables.views_.resize(max_geese + 1);
    for (int geese = kFewestGeese; geese <= max_geese; ++geese) {
        OwnedLayer& layer = tables.owned_[geese];
        layer.index = std::make_unique<MirrorIndex>(tables.sets_, geese);
        LayerBuilder builder(tables.sets_, *layer.index, tables.views_);
        PassProgress pass;
        if (progress)
            pass = [&](std::uint64_t done, std::uint64_t total) { progress(geese, done, total); };
        layer.fox_to_move = builder.solve_fox_to_move(pass);
        layer.geese_to_move = builder.solve_geese_to_move(layer.fox_to_move, pass);
        tables.views_[geese] =
            LayerView{geese, layer.index.get(), layer.fox_to_move, layer.geese_to_move};
    }
    return tables;
}

}  // namespace foxgeese::tablebase
