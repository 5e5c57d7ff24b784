#include "engine/tablebase/mirror_index.h"

#include <array>
#include <cassert>

#include "engine/rules/board.h"

namespace foxgeese::tablebase {

namespace {

const Board& board() {
    return Board::cross33();
}

// The mirror of every point, and of every byte of a set (five bytes cover
// the 33 points), so that mirroring a set costs five lookups.
struct MirrorTables {
    std::array<int, 64> point{};
    std::array<std::array<Bitboard, 256>, 5> byte{};
    MirrorTables() {
        const Board& b = board();
        for (int p = 0; p < b.point_count(); ++p)
            point[p] = b.point_at(b.files() - 1 - b.file_of(p), b.rank_of(p));
        for (int chunk = 0; chunk < 5; ++chunk)
            for (int value = 0; value < 256; ++value) {
                Bitboard image = 0;
                for (int i = 0; i < 8; ++i) {
                    const int p = chunk * 8 + i;
                    if ((value >> i) & 1 && p < b.point_count()) image |= bit(point[p]);
                }
                byte[chunk][value] = image;
            }
    }
};

const MirrorTables& mirror_tables() {
    static const MirrorTables tables;
    return tables;
}

}  // namespace

int mirror_point(int point) {
    return mirror_tables().point[point];
}

Bitboard mirror_set(Bitboard points) {
    const auto& byte = mirror_tables().byte;
    return byte[0][points & 0xff] | byte[1][(points >> 8) & 0xff] | byte[2][(points >> 16) & 0xff] |
           byte[3][(points >> 24) & 0xff] | byte[4][(points >> 32) & 0xff];
}

MirrorIndex::MirrorIndex(const GooseSetIndex& sets, int geese)
    : geese_(geese), words_((sets.count(geese) + 63) / 64, 0) {
    for_each_set_ascending(sets.points(), geese, [&](std::uint64_t rank, Bitboard set) {
        if (rank <= sets.rank(mirror_set(set)))
            words_[rank / 64] |= std::uint64_t{1} << (rank % 64);
    });
    count_words();
}

MirrorIndex::MirrorIndex(int geese, std::vector<std::uint64_t> words)
    : geese_(geese), words_(std::move(words)) {
    count_words();
}

void MirrorIndex::count_words() {
    counts_.resize(words_.size());
    total_ = 0;
    for (std::size_t i = 0; i < words_.size(); ++i) {
        counts_[i] = total_;
        total_ += static_cast<std::uint64_t>(count(words_[i]));
    }
}

LayerPlace layer_place(const GooseSetIndex& sets, const MirrorIndex& index, Bitboard geese,
                       int fox) {
    std::uint64_t rank = sets.rank(geese);
    if (!index.is_canonical(rank)) {
        geese = mirror_set(geese);
        fox = mirror_point(fox);
        rank = sets.rank(geese);
        assert(index.is_canonical(rank));
    }
    const Bitboard empty = board().all_points() & ~geese;
    return LayerPlace{index.dense(rank), count(empty & (bit(fox) - 1))};
}

}  // namespace foxgeese::tablebase
