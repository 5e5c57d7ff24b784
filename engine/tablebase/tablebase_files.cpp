#include "engine/tablebase/tablebase_files.h"

#include "engine/rules/board.h"

namespace foxgeese::tablebase {

bool covers(const Variant& variant) {
    return variant.id() == VariantId::kStandard && !variant.geese_sideways();
}

TablebaseFiles::TablebaseFiles(std::filesystem::path dir)
    : dir_(std::move(dir)), sets_(Board::cross33().point_count()) {}

std::optional<ExactValue> TablebaseFiles::value(const Position& pos) {
    if (!covers(pos.variant())) return std::nullopt;
    const int n = pos.geese_count();
    if (n < kFewestGeese || n > kMostGeese) return std::nullopt;
    auto found = readers_.find(n);
    if (found == readers_.end()) {
        const auto path = layer_file_path(dir_, n);
        if (!std::filesystem::exists(path)) return std::nullopt;
        found = readers_.emplace(n, std::make_unique<LayerFileReader>(path, n)).first;
    }
    const std::uint8_t plies =
        found->second->at(sets_, pos.side_to_move(), pos.geese(), lowest(pos.foxes()));
    if (plies == kUnsolved) return std::nullopt;
    return ExactValue{plies % 2 == 1, plies};
}

}  // namespace foxgeese::tablebase
