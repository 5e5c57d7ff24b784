// AnalyzeGame's work apart from storage and limits: the positions of a
// stored game searched in order, all with one Searcher and the same node
// budget, so that the same moves always give the same analysis, and each
// move judged by the mover's score before it and after it. Positions the
// tablebase answers for are judged by it, exactly.
#pragma once

#include <google/protobuf/repeated_ptr_field.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/rules/variant.h"
#include "engine/search/score.h"
#include "engine/search/search.h"
#include "engine/tablebase/mapped_tablebase.h"
#include "foxgeese/v1/analysis.pb.h"
#include "storage/game_records.h"

namespace foxgeese::service {

struct GameAnalysisLimits {
    std::uint64_t nodes_per_ply = 0;  // each position's budget (nodes_per_ply())
    // When to give up: the earlier of the call's deadline and the server's cap.
    std::chrono::steady_clock::time_point deadline;
    const std::atomic<bool>* stop = nullptr;  // the caller went away
    // Where it answers, a position is judged by it instead of searched.
    const tablebase::MappedTablebase* tablebase = nullptr;
};

// The nodes per position of a game's analysis that searches `positions`
// positions (one per ply and the one after the last), from the budgets of
// analysis_budget.h.
std::uint64_t nodes_per_ply(int positions);

enum class GameAnalysisEnd { kComplete, kOutOfTime, kStopped };

// Analyses `moves` (oldest first) of a game of `variant` that started at
// `start_code`, one PlyAnalysis per move into `plies`, with `searcher`
// (fresh or cleared, so that the analysis depends on the moves alone).
// Anything but kComplete leaves `plies` partial: a search cut short by time
// would make the result depend on the machine.
GameAnalysisEnd analyse_moves(Searcher& searcher, const Variant& variant,
                              const std::string& start_code,
                              const std::vector<storage::MoveRow>& moves,
                              const GameAnalysisLimits& limits,
                              google::protobuf::RepeatedPtrField<v1::PlyAnalysis>& plies);

// A score of the position after a move, for the side to move there, as the
// mover's score in plies from the position before the move.
Score score_for_mover(Score after_for_opponent);

// The mark of a move from the mover's scores before (the best move's) and
// after it (see v1::MoveMark).
v1::MoveMark mark_of(Score before, Score after);

}  // namespace foxgeese::service
