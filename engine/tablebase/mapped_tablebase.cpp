#include "engine/tablebase/mapped_tablebase.h"

#include <stdexcept>

#include "engine/rules/board.h"
#include "engine/tablebase/tablebase_files.h"

namespace foxgeese::tablebase {

MappedTablebase::MappedTablebase(std::filesystem::path dir)
    : dir_(std::move(dir)), sets_(Board::cross33().point_count()) {}

MappedTablebase::~MappedTablebase() = default;

std::unique_ptr<const MappedTablebase> MappedTablebase::open(const std::filesystem::path& dir) {
    std::unique_ptr<MappedTablebase> table(new MappedTablebase(dir));
    table->views_.resize(kFewestGeese);
    for (int geese = kFewestGeese; geese <= kMostGeese; ++geese) {
        const auto path = layer_file_path(dir, geese);
        if (!std::filesystem::exists(path)) break;
        table->files_.push_back(std::make_unique<MappedLayerFile>(path, geese));
        table->views_.push_back(table->files_.back()->view());
    }
    if (table->files_.empty())
        throw std::runtime_error(dir.string() + " holds no tablebase layer of " +
                                 std::to_string(kFewestGeese) + " geese (" +
                                 layer_file_path(dir, kFewestGeese).filename().string() + ")");
    return table;
}

std::uint64_t MappedTablebase::mapped_bytes() const {
    std::uint64_t total = 0;
    for (const auto& file : files_)
        total += file->bytes();
    return total;
}

bool MappedTablebase::answers(const Position& pos) const {
    const int n = pos.geese_count();
    // The values assume the fifty-move rule never ends a game: in play a goose
    // step resets its count every other ply, but a position code may bring
    // one near its end (99 with the fox to move: a fox step draws).
    const int quiet_limit = kFiftyMoveQuietPlies - (pos.side_to_move() == Side::kFox ? 2 : 1);
    return covers(pos.variant()) && n >= kFewestGeese && n <= max_geese() &&
           count(pos.foxes()) == 1 && pos.quiet_plies() <= quiet_limit;
}

std::optional<ExactValue> MappedTablebase::value(const Position& pos) const {
    if (!answers(pos)) return std::nullopt;
    return probe(sets_, views_, pos.geese(), lowest(pos.foxes()), pos.side_to_move());
}

}  // namespace foxgeese::tablebase
