// The search: iterative-deepening alpha-beta (negamax with principal-variation
// search) over Position::make()/unmake(), a transposition table, move ordering
// (table move, captures, killers, history), late-move reductions and a
// quiescence search that resolves pending fox captures. Results the search
// proves are exact (see score.h); repetition and the fifty-move rule are
// draws. Everything a search needs is allocated when the Searcher is built,
// so searching allocates nothing.
//
// With a depth or node limit the result depends only on the arguments and on
// what the transposition table holds: a fresh (or clear()ed) Searcher gives the
// same result every time. A time limit reads the clock the Searcher was given,
// as often while one position's moves are generated as while nodes are
// searched: a contrived position has hundreds of thousands of jump paths, and
// the limit holds there too, at the root and below it.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "engine/rules/move.h"
#include "engine/rules/position.h"
#include "engine/rules/repetition_history.h"
#include "engine/search/evaluation.h"
#include "engine/search/score.h"

namespace foxgeese {

// Steady time since any fixed point; injected so that tests control time.
using SearchClock = std::function<std::chrono::nanoseconds()>;
SearchClock steady_search_clock();

struct SearchLimits {
    static constexpr int kMaxDepth = kMaxSearchPly - 28;  // room for quiescence beyond it

    int depth = kMaxDepth;             // iterations of iterative deepening, in plies
    std::uint64_t nodes = 0;           // positions visited; 0 for no limit
    std::chrono::nanoseconds time{0};  // since the search began; 0 for no limit
    int multipv = 1;                   // how many best moves to report (analysis)
    // How much the side to move at the root dislikes a draw, in score points:
    // a draw scores -contempt for it and +contempt for the other side, so
    // that with contempt > 0 it plays on rather than repeat when it is not
    // worse by more than that. 0 scores every draw exactly 0 (analysis).
    Score contempt = 0;
    // Set from any thread to end the search; it returns its best move so far.
    const std::atomic<bool>* stop = nullptr;
};

// One of the best moves with its score (for the side to move at the root) and
// the line the search expects: moves()[0] is the move itself.
struct SearchLine {
    Score score = 0;
    int length = 0;
    std::array<Move, kMaxSearchPly> pv;

    const Move& move() const { return pv[0]; }
    std::span<const Move> moves() const { return {pv.data(), static_cast<std::size_t>(length)}; }
};

struct SearchResult {
    // Best first, at most multipv distinct moves (moves reaching the same
    // position count once). Empty when the root position has no legal move.
    std::vector<SearchLine> lines;
    int depth = 0;     // the deepest iteration completed (0: stopped before depth 1)
    int seldepth = 0;  // the deepest ply visited, quiescence included
    std::uint64_t nodes = 0;
    std::chrono::nanoseconds elapsed{0};

    bool has_move() const { return !lines.empty(); }
    const Move& best_move() const { return lines.front().move(); }
    Score score() const { return lines.front().score; }
};

class Searcher {
  public:
    // A transposition table of `table_megabytes` (at least one cluster).
    explicit Searcher(std::size_t table_megabytes = 16, SearchClock clock = steady_search_clock());
    ~Searcher();
    Searcher(const Searcher&) = delete;
    Searcher& operator=(const Searcher&) = delete;

    // Searches `root` within `limits`. `history` holds the positions since the
    // last irreversible move, the root included, with their occurrence counts
    // (a position occurring a third time is a draw); the root's quiet counter
    // gives the fifty-move rule. The result stays valid until the next search.
    const SearchResult& search(const Position& root, const RepetitionHistory& history,
                               const SearchLimits& limits);
    // The last search's result (as search() returned it).
    const SearchResult& last_result() const;

    // Forgets the transposition table and the move statistics, so the next
    // search depends on its arguments alone.
    void clear();

    // Replaces a variant's evaluation weights (for tuning and experiments).
    void set_eval_weights(VariantId variant, const EvalWeights& weights);

  private:
    class Worker;
    std::unique_ptr<Worker> worker_;
};

}  // namespace foxgeese
