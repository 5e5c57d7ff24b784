// Move notation: "d4-d5" for a step, "d4xd6xf6" for a jump sequence. Parsers
// accept upper or lower case and surrounding whitespace; writers emit the
// canonical lowercase form.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/rules/board.h"
#include "engine/rules/error.h"
#include "engine/rules/move.h"

namespace foxgeese {

// Longer input is refused before it is looked at.
constexpr std::size_t kMaxNotationLength = 128;

// A move as written: its points, and whether it was written as a jump.
struct MovePath {
    std::array<std::uint8_t, kMaxJumps + 1> points{};
    int count = 0;
    bool jump = false;
};

// A point name such as "d4" on the board, or kInvalidNotation saying what is wrong.
Result<int> parse_point(const Board& board, std::string_view text);

// A move's syntax on the board (points exist, separators consistent); whether it
// is legal is decided by find_legal_move().
Result<MovePath> parse_move(const Board& board, std::string_view text);

std::string format_move(const Board& board, const Move& move);
std::string format_path(const Board& board, const MovePath& path);

}  // namespace foxgeese
