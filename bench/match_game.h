// One game between two players, judged by the rules (engine/rules/game_status.h)
// with the occurrence counts kept in a RepetitionHistory, and the varied
// openings matches start from.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/rules/game_status.h"
#include "engine/rules/move.h"
#include "engine/rules/position.h"
#include "engine/rules/variant.h"
#include "match_players.h"

namespace foxgeese::bench {

struct GameRecord {
    GameStatus status;                // ongoing only when the ply cap ended the game
    int plies = 0;                    // played from the opening on
    int geese_left = 0;               // at the end
    std::vector<Position> positions;  // every position, the opening first, if asked for
    std::vector<Move> moves;          // every move played, in order
    Position final_position;          // where the game ended
    bool capped() const { return !status.over(); }
};

// The start position after `plies` random legal moves (seeded), never a
// decided one.
Position random_opening(const Variant& variant, int plies, std::uint64_t seed);

// Plays from `start` until the rules end the game or `max_plies` are played;
// a capped game is scored as a draw by the match. The opening counts as the
// first occurrence of its position. Every move is checked to be legal.
GameRecord play_game(const Position& start, Player& fox, Player& geese, int max_plies,
                     bool keep_positions = false);

// The score of a finished game for the fox side: 1, 1/2 or 0.
double fox_side_score(const GameRecord& game);

}  // namespace foxgeese::bench
