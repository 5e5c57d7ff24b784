#include "engine/rules/game_status.h"

#include "engine/rules/movegen.h"

namespace foxgeese {

GameStatus evaluate_status(const Position& pos, int earlier_occurrences) {
    const Variant& variant = pos.variant();
    if (pos.geese_count() < variant.fox_side_wins_below()) {
        return {Outcome::kFoxSideWins, EndReason::kGeeseBelowThreshold};
    }
    if (variant.pen() != 0 && (pos.geese() & variant.pen()) == variant.pen()) {
        return {Outcome::kGeeseWin, EndReason::kPenFilled};
    }
    if (!has_legal_move(pos)) {
        // The side to move loses.
        return {pos.side_to_move() == Side::kFox ? Outcome::kGeeseWin : Outcome::kFoxSideWins,
                EndReason::kNoLegalMove};
    }
    if (earlier_occurrences >= 2) return {Outcome::kDraw, EndReason::kThreefoldRepetition};
    if (pos.quiet_plies() >= kFiftyMoveQuietPlies)
        return {Outcome::kDraw, EndReason::kFiftyMoveRule};
    return {};
}

std::string_view outcome_name(Outcome outcome) {
    switch (outcome) {
        case Outcome::kOngoing:
            return "ongoing";
        case Outcome::kFoxSideWins:
            return "fox_side_wins";
        case Outcome::kGeeseWin:
            return "geese_win";
        case Outcome::kDraw:
            return "draw";
    }
    return "ongoing";
}

std::string_view end_reason_name(EndReason reason) {
    switch (reason) {
        case EndReason::kNone:
            return "";
        case EndReason::kGeeseBelowThreshold:
            return "geese_below_threshold";
        case EndReason::kPenFilled:
            return "pen_filled";
        case EndReason::kNoLegalMove:
            return "no_legal_move";
        case EndReason::kThreefoldRepetition:
            return "threefold_repetition";
        case EndReason::kFiftyMoveRule:
            return "fifty_move_rule";
    }
    return "";
}

}  // namespace foxgeese
