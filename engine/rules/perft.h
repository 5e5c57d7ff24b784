// perft: the number of leaf nodes of the legal-move tree to a depth, the
// regression test of move generation. Repetition and the fifty-move rule are
// ignored; a position won outright (rules 1-3) has no moves.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/rules/move.h"
#include "engine/rules/position.h"

namespace foxgeese {

// Counts the last ply in bulk. `pos` is restored before returning.
std::uint64_t perft(Position& pos, int depth);

// One entry per legal move at the root: the move and perft(depth - 1) below it.
std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth);

}  // namespace foxgeese
