// Checking a move a player sent: walk its path against the position and either
// return the legal Move or say exactly why it is not legal. This costs a few
// table lookups per point of the path; no move list is generated.
#pragma once

#include "engine/rules/error.h"
#include "engine/rules/move.h"
#include "engine/rules/notation.h"
#include "engine/rules/position.h"

namespace foxgeese {

// The legal move with that path, or kIllegalMove (kGameOver when the position
// is already won by rules 1-2) with a message that names the problem.
// Repetition and the fifty-move rule are the caller's business (see Game).
Result<Move> find_legal_move(const Position& pos, const MovePath& path);

}  // namespace foxgeese
