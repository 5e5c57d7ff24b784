#include "engine/record/record_ending.h"

namespace foxgeese {
namespace {

std::string quoted(std::string_view word) {
    return "\"" + std::string(word) + "\"";
}

// Whether the result fits an end reason when the rules did not end the
// game, and what is wrong when it does not.
std::optional<std::string> off_the_rules(const RecordOutcome& played, Outcome result,
                                         RecordEnd end) {
    const std::string name = quoted(record_end_name(end));
    if (end.rules != EndReason::kNone)
        return "the moves do not end the game by " + name + ": the game goes on after them";
    const std::string said = quoted(record_result_name(result));
    const Outcome side_not_to_move_wins = win_for(opponent(played.side_to_move));
    switch (end.other) {
        case OffRulesEnd::kNone:
            if (result == Outcome::kOngoing) return std::nullopt;
            return "the moves do not end the game, so a result of " + said +
                   " needs an EndReason saying how it ended (resignation, draw_agreed, timeout "
                   "or opponent_left)";
        case OffRulesEnd::kResignation:
            if (result == Outcome::kFoxSideWins || result == Outcome::kGeeseWin)
                return std::nullopt;
            return "a resignation is a win for the other side, not " + said;
        case OffRulesEnd::kDrawAgreed:
            if (result == Outcome::kDraw) return std::nullopt;
            return "an agreed draw is the result \"draw\", not " + said;
        case OffRulesEnd::kTimeout:
            if (played.moves < 2) {
                return "a game cannot be lost on time before both sides have moved (it is "
                       "aborted instead)";
            }
            if (result == side_not_to_move_wins) return std::nullopt;
            return "on time, the side to move loses: the result is " +
                   quoted(record_result_name(side_not_to_move_wins)) + ", not " + said;
        case OffRulesEnd::kOpponentLeft:
            if (result == side_not_to_move_wins || result == Outcome::kDraw) return std::nullopt;
            return "when the side to move left, the other side claims " +
                   quoted(record_result_name(side_not_to_move_wins)) + " or \"draw\", not " + said;
        case OffRulesEnd::kAborted:
            if (played.moves > 1)
                return std::string("a game can only be aborted before both sides have moved");
            break;
        case OffRulesEnd::kCancelled:
        case OffRulesEnd::kExpired:
            if (played.moves > 0) return "a game that is " + name + " has no moves";
            break;
    }
    if (result == Outcome::kOngoing) return std::nullopt;
    return "a game that ended by " + name + " has no result: the result is \"*\", not " + said;
}

}  // namespace

std::optional<std::string> ending_mismatch(const RecordOutcome& played, Outcome result,
                                           RecordEnd end) {
    if (!played.status.over()) return off_the_rules(played, result, end);
    const RecordEnd by_rules{played.status.reason, OffRulesEnd::kNone};
    const std::string verdict = quoted(record_result_name(played.status.outcome)) + " by " +
                                quoted(record_end_name(by_rules));
    if (end != by_rules) {
        return "the moves end the game, " + verdict + ", not by " +
               (end.named() ? quoted(record_end_name(end)) : std::string("no reason"));
    }
    if (result != played.status.outcome) {
        return "the moves end the game, " + verdict + ", but the result says " +
               quoted(record_result_name(result));
    }
    return std::nullopt;
}

}  // namespace foxgeese
