// A brute-force solver for short forced wins, independent of the search: plain
// minimax over every legal move, the game judged by evaluate_status(). The
// search tests check the search's exact scores against it.
#pragma once

#include "engine/rules/game_status.h"
#include "engine/rules/movegen.h"
#include "engine/rules/position.h"

namespace foxgeese::testing {

// Whether the game is over and lost for the side to move.
inline bool lost_for_side_to_move(const Position& pos) {
    const GameStatus status = evaluate_status(pos, 0);
    const bool fox_to_move = pos.side_to_move() == Side::kFox;
    return (status.outcome == Outcome::kFoxSideWins && !fox_to_move) ||
           (status.outcome == Outcome::kGeeseWin && fox_to_move);
}

bool loses_within(Position& pos, int plies);

// Whether the side to move can force a win within `plies` plies.
inline bool wins_within(Position& pos, int plies) {
    if (plies <= 0 || evaluate_status(pos, 0).over()) return false;
    bool win = false;
    for_each_legal_move(pos, [&](const Move& move) {
        if (win) return;
        UndoInfo undo;
        pos.make(move, undo);
        win = loses_within(pos, plies - 1);
        pos.unmake(move, undo);
    });
    return win;
}

// Whether the side to move has lost, or loses within `plies` plies whatever it plays.
inline bool loses_within(Position& pos, int plies) {
    if (lost_for_side_to_move(pos)) return true;
    if (plies <= 0 || evaluate_status(pos, 0).over()) return false;
    bool all_lose = true;
    for_each_legal_move(pos, [&](const Move& move) {
        if (!all_lose) return;
        UndoInfo undo;
        pos.make(move, undo);
        all_lose = wins_within(pos, plies - 1);
        pos.unmake(move, undo);
    });
    return all_lose;
}

}  // namespace foxgeese::testing
