// Playing levels for people: level 1 is a beginner, level 8 the full engine
// within its time budget. Lower levels search less (depth or node budgets,
// which make them machine-independent and reproducible) and, with a bounded
// chance, play one of their other candidate moves, never one more than a
// bounded amount worse. The choice is seeded, so a game replays exactly.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "engine/rules/move.h"
#include "engine/rules/position.h"
#include "engine/rules/repetition_history.h"
#include "engine/search/forward_solver.h"
#include "engine/search/score.h"
#include "engine/search/search.h"

namespace foxgeese {

constexpr int kMinBotLevel = 1;
constexpr int kMaxBotLevel = 8;

struct BotLevel {
    int level;
    int depth;                       // iterations; SearchLimits::kMaxDepth when the budget is nodes
    std::uint64_t nodes;             // 0 for none
    std::chrono::milliseconds time;  // a cap for every level, the budget of level 8
    int candidates;                  // moves searched as lines, the best and the alternatives
    int blunder_percent;             // chance of playing an alternative
    Score max_blunder_loss;          // how much worse than the best an alternative may be
    Score contempt;                  // see SearchLimits: a bot plays on rather than repeat
    // Where a ForwardSolver decides the variant, half of the time goes to it
    // first; once it proves a win, the search's move is played only if it
    // wins too (it is the quicker win, the solver's any win).
    bool exact;

    SearchLimits limits() const;
};

// The level's settings; `level` is clamped to 1..8.
const BotLevel& bot_level(int level);

// The move a bot of that level plays, given its search (run with
// level.limits()); nothing when the result has no move. `seed` and the
// position decide whether it plays an alternative and which.
std::optional<Move> choose_bot_move(const SearchResult& result, const BotLevel& level,
                                    const Position& pos, std::uint64_t seed);

// Gives `solver` a table of `megabytes` the first time an exact level plays a
// variant it decides (0 megabytes: never), so that players that never need
// one do not pay for its memory.
void make_exact_solver_if_needed(std::unique_ptr<ForwardSolver>& solver, const BotLevel& level,
                                 const Variant& variant, std::size_t megabytes);

// The exact levels' first step (see BotLevel::exact): a move `solver` proves
// winning within half of `limits.time`, or nothing. `limits.time` is then cut
// to the search's share: the half left, or, after a proof, 40% of the whole
// (a tenth stays for keep_proven_win). Does nothing without a solver or where
// it does not decide the variant.
std::optional<Move> exact_bot_move(ForwardSolver* solver, const Position& pos,
                                   const BotLevel& level, SearchLimits& limits);

// The exact levels' last step: the search's move if the solver proved no win
// or the search's move keeps the win (checked within a quarter of the
// search's `limits.time`), else the `proven` move. The search aims at the
// quickest win it sees; the solver's move may win more slowly.
std::optional<Move> keep_proven_win(ForwardSolver* solver, const Position& pos,
                                    const SearchLimits& limits, const std::optional<Move>& proven,
                                    const std::optional<Move>& searched);

// Searches and chooses in one call, as the service does for a bot's turn;
// `solver`, if given, serves the exact levels (see BotLevel::exact).
std::optional<Move> play_bot_move(Searcher& searcher, const Position& pos,
                                  const RepetitionHistory& history, const BotLevel& level,
                                  std::uint64_t seed, const std::atomic<bool>* stop = nullptr,
                                  ForwardSolver* solver = nullptr);

}  // namespace foxgeese
