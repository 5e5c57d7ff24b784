// Analysis of a position, as the service and the command line ask for it: the
// best few moves, each with its score for the side to move, the line the
// search expects after it and the depth behind it. No draw is shaded here
// (no contempt): a draw scores exactly 0, as an analysis should report it.
// Transport-free: callers turn the lines into protobuf, JSON or text.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/rules/move.h"
#include "engine/rules/position.h"
#include "engine/rules/repetition_history.h"
#include "engine/search/score.h"
#include "engine/search/search.h"

namespace foxgeese {

// Give at least one of depth, nodes, time, deadline or stop: without them an
// analysis searches until it proves the result, which can take very long.
struct AnalysisLimits {
    int depth = SearchLimits::kMaxDepth;  // iterations, in plies
    std::uint64_t nodes = 0;              // positions visited; 0 for no limit
    std::chrono::nanoseconds time{0};     // from the call; 0 for no limit
    // A point on std::chrono::steady_clock to end by, as a server's request
    // deadline; the earlier of it and `time` counts.
    std::optional<std::chrono::steady_clock::time_point> deadline;
    // Set from any thread to end the analysis; it returns what it has so far.
    const std::atomic<bool>* stop = nullptr;
};

struct AnalysedLine {
    // For the side to move: exact when is_decisive(score) (a win or a loss in
    // plies_to_end(score) plies), else the evaluation's estimate; see score.h.
    Score score = 0;
    std::vector<Move> pv;  // pv[0] is the move analysed
    // The deepest iteration completed behind the score; 0 when the analysis
    // was stopped before its first, and the score is the static evaluation.
    int depth = 0;
};

// The `multipv` best distinct moves of `pos`, best first (fewer when it has
// fewer moves; one when stopped before the first iteration completed).
// Empty when the game is over there. `history` holds the game's positions
// since its last irreversible move, `pos` included, for the repetition rule.
std::vector<AnalysedLine> analyze(Searcher& searcher, const Position& pos,
                                  const RepetitionHistory& history, const AnalysisLimits& limits,
                                  int multipv = 1);

// The same with a fresh Searcher and `pos` as the first position of its game.
std::vector<AnalysedLine> analyze(const Position& pos, const AnalysisLimits& limits,
                                  int multipv = 1);

// A score as people read it: "win in 3", "loss in 4" (plies), or the
// evaluation's points signed, "+37", "-12", "0".
std::string describe_score(Score score);

}  // namespace foxgeese
