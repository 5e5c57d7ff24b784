#include "engine/tablebase/tablebase_stats.h"

#include <algorithm>
#include <vector>

#include "engine/rules/board.h"

namespace foxgeese::tablebase {

namespace {

// One side's values in storage order, read a block at a time.
class ValueStream {
  public:
    ValueStream(LayerFileReader& reader, Side side) : reader_(reader), side_(side) {}
    const std::uint8_t* row(std::uint64_t first, std::uint64_t width) {
        if (first < start_ || first + width > start_ + buffer_.size()) {
            const std::uint64_t total = layer_positions(reader_.index());
            buffer_.resize(std::min<std::uint64_t>(kBlock, total - first));
            reader_.read_values(side_, first, buffer_);
            start_ = first;
        }
        return buffer_.data() + (first - start_);
    }

  private:
    static constexpr std::uint64_t kBlock = 1 << 22;
    LayerFileReader& reader_;
    Side side_;
    std::vector<std::uint8_t> buffer_;
    std::uint64_t start_ = 0;
};

void count(SideToMoveStats& stats, Side side, std::uint8_t plies, std::uint64_t weight,
           Bitboard geese, int fox) {
    stats.positions += weight;
    const bool mover_wins = plies % 2 == 1;
    ((mover_wins == (side == Side::kFox)) ? stats.fox_wins : stats.geese_wins) += weight;
    if (plies > stats.longest) {
        stats.longest = plies;
        stats.longest_geese = geese;
        stats.longest_fox = fox;
    }
}

}  // namespace

LayerStats layer_stats(LayerFileReader& reader,
                       const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
    const Board& board = Board::cross33();
    const GooseSetIndex sets(board.point_count());
    const MirrorIndex& index = reader.index();
    const int k = index.geese();
    const std::uint64_t width = static_cast<std::uint64_t>(board.point_count() - k);
    LayerStats stats;
    stats.geese = k;
    ValueStream fox_values(reader, Side::kFox);
    ValueStream geese_values(reader, Side::kGeese);
    const std::uint64_t total = index.canonical_count();
    std::uint64_t done = 0;
    for_each_set_ascending(sets.points(), k, [&](std::uint64_t rank, Bitboard geese) {
        if (!index.is_canonical(rank)) return;
        // A set that is not its own mirror image stands for its image too.
        const std::uint64_t weight = sets.rank(mirror_set(geese)) == rank ? 1 : 2;
        const std::uint64_t first = index.dense(rank) * width;
        const std::uint8_t* f = fox_values.row(first, width);
        const std::uint8_t* g = geese_values.row(first, width);
        int slot = 0;
        for (Bitboard foxes = board.all_points() & ~geese; foxes; ++slot) {
            const int fox = pop_lowest(foxes);
            count(stats.fox_to_move, Side::kFox, f[slot], weight, geese, fox);
            count(stats.geese_to_move, Side::kGeese, g[slot], weight, geese, fox);
        }
        if (progress && ++done % (1 << 20) == 0) progress(done, total);
    });
    if (progress) progress(total, total);
    return stats;
}

}  // namespace foxgeese::tablebase
