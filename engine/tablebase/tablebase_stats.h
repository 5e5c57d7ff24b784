// What a built layer holds, counted over every position (a stored set that
// is not its own mirror image stands for two): positions, wins for each
// side, and the longest win with one position that has it.
#pragma once

#include <cstdint>
#include <functional>

#include "engine/rules/bitboard.h"
#include "engine/tablebase/layer_file.h"

namespace foxgeese::tablebase {

struct SideToMoveStats {
    std::uint64_t positions = 0;
    std::uint64_t fox_wins = 0;
    std::uint64_t geese_wins = 0;
    int longest = -1;  // plies of the longest game under perfect play
    Bitboard longest_geese = 0;
    int longest_fox = -1;
};

struct LayerStats {
    int geese = 0;
    SideToMoveStats fox_to_move;
    SideToMoveStats geese_to_move;
};

// Reads the layer's values once, in order.
LayerStats layer_stats(LayerFileReader& reader,
                       const std::function<void(std::uint64_t, std::uint64_t)>& progress = {});

}  // namespace foxgeese::tablebase
