// A deliberately simple, independent second implementation of the rules (engine/RULES.md).
//
// It is written from the rules text alone (never from the engine's sources) so that the test
// suite can cross-check the real bitboard engine on perft counts and legal-move lists. Clarity
// beats speed here: plain coordinates, a 2D array of cells, recursion over board copies.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace foxgeese::reference {

struct Config {
    std::string variant;    // "standard", "big_cross" or "two_foxes"
    int geese = 13;         // standard only: 13, 15 or 17
    bool sideways = false;  // standard only: geese_sideways option
};

// Canonical start position code.
std::string start_code(const Config& config);

// Every legal move in canonical notation ("d4-d5", "d4xd6xf6"), sorted with std::sort (plain
// string order). A position won by rules 1-3 of "End of the game" has no moves. Repetition and
// the fifty-move rule are ignored (as in perft).
std::vector<std::string> legal_moves(const Config& config, const std::string& code);

// Plays one legal move given in canonical notation and returns the canonical code after it.
// Throws std::invalid_argument if the move is not legal.
std::string play(const Config& config, const std::string& code, const std::string& move);

// "ongoing", "fox_side_wins:geese_below_threshold", "geese_win:pen_filled",
// "geese_win:no_legal_move", "fox_side_wins:no_legal_move" or "draw:fifty_move_rule", checked in
// RULES.md order. Repetition is not checked.
std::string status(const Config& config, const std::string& code);

// Leaf count of the legal-move tree to `depth` plies; depth 0 = 1.
std::uint64_t perft(const Config& config, const std::string& code, int depth);

// Self-check support only: the board's size computed from the existence and link formulas.
struct BoardFacts {
    int points = 0;
    int orthogonal_links = 0;
    int diagonal_links = 0;
};
BoardFacts board_facts(const std::string& board);  // "cross33" or "cross45"

}  // namespace foxgeese::reference
