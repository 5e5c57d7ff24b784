#include "engine/search/analysis.h"

#include <algorithm>

#include "engine/rules/game_status.h"

namespace foxgeese {

std::vector<AnalysedLine> analyze(Searcher& searcher, const Position& pos,
                                  const RepetitionHistory& history, const AnalysisLimits& limits,
                                  int multipv) {
    // The rules first: a game drawn by repetition or the fifty-move rule still
    // has moves on the board, but nothing to analyse.
    const int earlier = std::max(0, history.occurrences(pos.key()) - 1);
    if (evaluate_status(pos, earlier).over()) return {};

    SearchLimits search_limits;
    search_limits.depth = std::clamp(limits.depth, 1, SearchLimits::kMaxDepth);
    search_limits.nodes = limits.nodes;
    search_limits.time = limits.time;
    if (limits.deadline) {
        // At least a nanosecond: a zero time would mean no limit at all.
        const auto left = std::max(std::chrono::nanoseconds(1),
                                   std::chrono::duration_cast<std::chrono::nanoseconds>(
                                       *limits.deadline - std::chrono::steady_clock::now()));
        search_limits.time =
            search_limits.time.count() > 0 ? std::min(search_limits.time, left) : left;
    }
    search_limits.multipv = std::max(1, multipv);
    search_limits.contempt = 0;
    search_limits.stop = limits.stop;

    const SearchResult& result = searcher.search(pos, history, search_limits);
    std::vector<AnalysedLine> lines;
    lines.reserve(result.lines.size());
    for (const SearchLine& line : result.lines) {
        lines.push_back(
            AnalysedLine{line.score, {line.moves().begin(), line.moves().end()}, result.depth});
    }
    return lines;
}

std::vector<AnalysedLine> analyze(const Position& pos, const AnalysisLimits& limits, int multipv) {
    Searcher searcher;
    RepetitionHistory history;
    history.record(pos);
    return analyze(searcher, pos, history, limits, multipv);
}

std::string describe_score(Score score) {
    if (is_win(score)) return "win in " + std::to_string(plies_to_end(score));
    if (is_loss(score)) return "loss in " + std::to_string(plies_to_end(score));
    return (score > 0 ? "+" : "") + std::to_string(score);
}

}  // namespace foxgeese
