#include "service/core/game_analysis.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "engine/rules/game_status.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "engine/search/analysis.h"
#include "engine/tablebase/tablebase_files.h"
#include "service/core/analysis_budget.h"
#include "service/core/analysis_views.h"
#include "service/core/game_views.h"
#include "service/core/tablebase_answers.h"

namespace foxgeese::service {
namespace {

Position stored_position(const Variant& variant, const std::string& code) {
    Result<Position> parsed = parse_position_code(variant, code);
    if (!parsed) throw std::runtime_error("a stored position does not parse: " + code);
    return *parsed;
}

// A position the rules have decided, for its side to move: lost or won
// outright (no plies left), or drawn.
Score rules_score(const Position& pos, int earlier_occurrences) {
    const Outcome outcome = evaluate_status(pos, earlier_occurrences).outcome;
    if (outcome == Outcome::kDraw || outcome == Outcome::kOngoing) return kDrawScore;
    const bool fox_side_won = outcome == Outcome::kFoxSideWins;
    return fox_side_won == (pos.side_to_move() == Side::kFox) ? win_in(0) : loss_in(0);
}

}  // namespace

std::uint64_t nodes_per_ply(int positions) {
    const std::uint64_t share =
        kGameAnalysisNodes / static_cast<std::uint64_t>(std::max(1, positions));
    return std::clamp(share, kMinNodesPerPly, kMaxNodesPerPly);
}

Score score_for_mover(Score after_for_opponent) {
    // One ply further from the end, and the other side's view.
    if (is_win(after_for_opponent)) return -after_for_opponent + 1;
    if (is_loss(after_for_opponent)) return -after_for_opponent - 1;
    return -after_for_opponent;
}

v1::MoveMark mark_of(Score before, Score after) {
    if (is_win(before) && !is_win(after)) return v1::MOVE_MARK_WIN_THROWN_AWAY;
    if (is_loss(before) && !is_loss(after)) return v1::MOVE_MARK_LOSS_SAVED;
    return v1::MOVE_MARK_UNSPECIFIED;
}

GameAnalysisEnd analyse_moves(Searcher& searcher, const Variant& variant,
                              const std::string& start_code,
                              const std::vector<storage::MoveRow>& moves,
                              const GameAnalysisLimits& limits,
                              google::protobuf::RepeatedPtrField<v1::PlyAnalysis>& plies) {
    // The position after the last move is searched only for that move's sake.
    if (moves.empty()) return GameAnalysisEnd::kComplete;
    RepetitionHistory history;
    AnalysisLimits search_limits;
    search_limits.nodes = limits.nodes_per_ply;
    search_limits.deadline = limits.deadline;
    search_limits.stop = limits.stop;

    // The best line of a position and its score (by the rules once the game
    // is over there); nothing once the analysis has to end.
    struct Judged {
        std::optional<AnalysedLine> best;
        Score score = kDrawScore;
        bool exact = false;  // by the tablebase
    };
    std::optional<GameAnalysisEnd> cut;
    auto judge = [&](const Position& pos, int earlier_occurrences) {
        Judged judged;
        if (limits.tablebase && tablebase::covers(pos.variant())) {
            // An end by the rules is as exact as the table (fewer than four
            // geese are not in it).
            if (evaluate_status(pos, earlier_occurrences).over()) {
                judged.exact = true;
                judged.score = rules_score(pos, earlier_occurrences);
                return judged;
            }
            // The best move and the value: the line after it is not shown.
            if (auto lines = tablebase_lines(*limits.tablebase, pos, 1, false);
                lines && !lines->empty()) {
                judged.exact = true;
                judged.score = lines->front().score;
                judged.best = std::move(lines->front());
                return judged;
            }
        }
        std::vector<AnalysedLine> lines = analyze(searcher, pos, history, search_limits);
        // Checked after the search: one that ended by time ended at the deadline.
        if (limits.stop && limits.stop->load()) {
            cut = GameAnalysisEnd::kStopped;
        } else if (std::chrono::steady_clock::now() >= limits.deadline) {
            cut = GameAnalysisEnd::kOutOfTime;
        }
        if (lines.empty()) {
            judged.score = rules_score(pos, earlier_occurrences);
        } else {
            judged.score = lines.front().score;
            judged.best = std::move(lines.front());
        }
        return judged;
    };

    Position pos = stored_position(variant, start_code);
    Judged current = judge(pos, history.record(pos));
    for (const storage::MoveRow& move : moves) {
        if (cut) return *cut;
        const Position next = stored_position(variant, move.position);
        const Judged after = judge(next, history.record(next));
        if (cut) return *cut;
        v1::PlyAnalysis& ply = *plies.Add();
        ply.set_ply(move.ply);
        ply.set_side(api_side(pos.side_to_move()));
        ply.set_move(move.notation);
        if (current.best && !current.best->pv.empty()) {
            ply.set_best_move(format_move(pos.board(), current.best->pv.front()));
            ply.set_depth(current.best->depth);
        }
        const Score after_for_mover = score_for_mover(after.score);
        *ply.mutable_score_before() = score_view(current.score);
        *ply.mutable_score_after() = score_view(after_for_mover);
        ply.set_mark(mark_of(current.score, after_for_mover));
        ply.set_tablebase(current.exact && after.exact);
        pos = next;
        current = after;
    }
    return cut.value_or(GameAnalysisEnd::kComplete);
}

}  // namespace foxgeese::service
