// The end-of-game checks, run after every move in this order: too few geese,
// (two_foxes) the pen filled, the side to move has no legal move, threefold
// repetition, the fifty-move rule. Wins come before draws.
#pragma once

#include <string_view>

#include "engine/rules/position.h"

namespace foxgeese {

enum class Outcome { kOngoing, kFoxSideWins, kGeeseWin, kDraw };

enum class EndReason {
    kNone,
    kGeeseBelowThreshold,
    kPenFilled,
    kNoLegalMove,
    kThreefoldRepetition,
    kFiftyMoveRule,
};

struct GameStatus {
    Outcome outcome = Outcome::kOngoing;
    EndReason reason = EndReason::kNone;

    bool over() const { return outcome != Outcome::kOngoing; }
    friend bool operator==(const GameStatus&, const GameStatus&) = default;
};

// The status of `pos`, given how many times this same position (placement and
// side to move) occurred earlier in the game. The caller keeps that count (the
// service keeps it in PostgreSQL), so no game is replayed to decide it.
GameStatus evaluate_status(const Position& pos, int earlier_occurrences);

// The outcome in which `side` wins.
inline Outcome win_for(Side side) {
    return side == Side::kFox ? Outcome::kFoxSideWins : Outcome::kGeeseWin;
}

// Lowercase names used by the command-line tool and the API: "fox_side_wins",
// "geese_below_threshold", ... (empty for kNone).
std::string_view outcome_name(Outcome outcome);
std::string_view end_reason_name(EndReason reason);

}  // namespace foxgeese
