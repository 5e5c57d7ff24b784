// Search scores: heuristic values from the evaluation, and exact results
// encoded the way chess engines encode mates. A win for the side to move in N
// plies is kWin - N, a loss in N plies -(kWin - N), a draw 0; every heuristic
// score lies strictly between -kMaxHeuristic and kMaxHeuristic, so the two
// kinds never mix.
#pragma once

#include <cstdint>

#include "engine/rules/position.h"

namespace foxgeese {

using Score = int;

// The deepest ply the search reaches, qsearch included; a win is never
// further away than this from the root.
constexpr int kMaxSearchPly = 128;

constexpr Score kDrawScore = 0;
constexpr Score kWin = 30000;
constexpr Score kInfinity = kWin + 1;
// Scores at least this large are exact wins; the evaluation stays below it.
constexpr Score kWinThreshold = kWin - kMaxSearchPly;
constexpr Score kMaxHeuristic = kWinThreshold - 1;

constexpr Score win_in(int plies) {
    return kWin - plies;
}
constexpr Score loss_in(int plies) {
    return -(kWin - plies);
}

constexpr bool is_win(Score score) {
    return score >= kWinThreshold;
}
constexpr bool is_loss(Score score) {
    return score <= -kWinThreshold;
}
// An exact result other than a draw: a win or a loss the search has proved.
constexpr bool is_decisive(Score score) {
    return is_win(score) || is_loss(score);
}

// For a decisive score, the plies to the end of the game (from the node the
// score belongs to).
constexpr int plies_to_end(Score score) {
    return score > 0 ? kWin - score : kWin + score;
}

// A position won outright (too few geese, or the pen filled), scored for the
// side to move at `ply` plies from the root.
inline Score outright_score(const Position& pos, int ply) {
    const bool fox_side_won = pos.geese_count() < pos.variant().fox_side_wins_below();
    const bool mover_won = fox_side_won == (pos.side_to_move() == Side::kFox);
    return mover_won ? win_in(ply) : loss_in(ply);
}

}  // namespace foxgeese
