// ASCII drawings of a position on its cross-shaped board: every point with its
// piece (F a fox, G a goose, . empty), the lines that join the points, rank
// numbers on the left and file letters below. Works for any board the engine
// knows, because the drawing follows Board's points and links.
#pragma once

#include <string>
#include <string_view>

#include "engine/rules/error.h"
#include "engine/rules/position.h"
#include "engine/rules/variant.h"

namespace foxgeese::cli {

// The position drawn, one line per rank and one between ranks for the
// vertical and diagonal lines; every line ends with '\n'.
std::string render_board(const Position& pos);

// The position code of a game of `variant` drawn, or kInvalidPosition.
Result<std::string> render_position_code(const Variant& variant, std::string_view code);

}  // namespace foxgeese::cli
