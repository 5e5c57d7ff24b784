// Whether a record's result and end reason are what its moves allow. An end
// by the rules must be the engine's verdict on the last position. Otherwise
// the game ended (or stopped) in one of the ways a game on the server ends
// besides the rules, each with the result it gives: a resignation (a win),
// an agreed draw, a fallen flag (a win for the side not to move, once both
// sides have moved), an opponent who left (a win for the side not to move,
// or a draw), an abort (no result, before both first moves), a cancelled or
// expired table (no result, no moves), or no reason at all (no result: the
// record stops before the end).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "engine/record/game_record.h"
#include "engine/rules/game_status.h"
#include "engine/rules/position.h"

namespace foxgeese {

// What the moves of a record establish: the rules' status after the last
// one, the side to move then, and how many moves were made.
struct RecordOutcome {
    GameStatus status;
    Side side_to_move = Side::kFox;
    std::size_t moves = 0;
};

// What disagrees, as a message; nothing when the result and end fit.
std::optional<std::string> ending_mismatch(const RecordOutcome& played, Outcome result,
                                           RecordEnd end);

}  // namespace foxgeese
