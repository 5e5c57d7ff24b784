// Position codes: "<placement> <side> <quiet plies> <ply>", e.g. the standard
// start "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0". The placement lists the ranks from
// the highest down, each rank's existing points left to right: F a fox, G a
// goose, a digit for a run of empty points.
#pragma once

#include <string>
#include <string_view>

#include "engine/rules/error.h"
#include "engine/rules/position.h"
#include "engine/rules/variant.h"

namespace foxgeese {

// Longer input is refused before it is looked at.
constexpr std::size_t kMaxPositionCodeLength = 256;
// The ply counter's upper bound: far beyond any real game, far below overflow.
constexpr int kMaxPly = 1'000'000;

// Reads and validates a code for a variant: ranks and points for its board, its
// number of foxes, no more geese than it starts with, counters in range.
// Every failure is a kInvalidPosition error that says what is wrong.
Result<Position> parse_position_code(const Variant& variant, std::string_view code);

// The canonical code of a position.
std::string format_position_code(const Position& pos);

// The placement and side-to-move fields only: what identifies a position for
// the repetition rule.
std::string format_repetition_key(const Position& pos);

}  // namespace foxgeese
