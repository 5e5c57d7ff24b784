// The tablebase's answer for a position's moves: each legal move with its
// value from the mover's point of view, best first, as a player who knows
// the values plays: the quickest win; when every move loses, the longest
// defence, and among equally long ones the move that leaves the opponent
// the fewest winning replies (the most chances for a mistake).
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "engine/rules/move.h"
#include "engine/rules/position.h"
#include "engine/tablebase/retrograde_builder.h"

namespace foxgeese::tablebase {

// The value of a position for its side to move, nullopt when not known.
using ValueSource = std::function<std::optional<ExactValue>(const Position&)>;

struct MoveValue {
    Move move;
    ExactValue value;     // for the side that makes the move
    int winning_replies;  // the opponent's moves that keep its win (0 after a winning move)
};

// Every legal move with its value, best first; nullopt when the position's
// or a successor's value is not known (its layer is not built). A position
// whose game is over has no moves: an empty list.
std::optional<std::vector<MoveValue>> rank_moves(const Position& pos, const ValueSource& values);

}  // namespace foxgeese::tablebase
