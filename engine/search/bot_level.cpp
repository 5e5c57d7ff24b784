#include "engine/search/bot_level.h"

#include <algorithm>
#include <array>
#include <memory>

#include "engine/rules/game_status.h"
#include "engine/rules/zobrist.h"

namespace foxgeese {
namespace {

using std::chrono::milliseconds;

constexpr int kAnyDepth = SearchLimits::kMaxDepth;

// Budgets double to quadruple from level to level; the chance of an
// alternative and its bound shrink to nothing at level 7 (the evaluation is
// calibrated to expected results, so a bound in points means about the same
// in every variant: 200 points is one unit of logit). Every level has a
// little contempt (a tenth of a goose or so): against a person a bot that
// repeats into a draw it need not accept is no fun, and against a weaker
// player a draw is a result thrown away. The ladder in bench/README.md shows
// how each level fares against the one below it.
constexpr std::array<BotLevel, kMaxBotLevel> kLevels = {{
    {1, 1, 0, milliseconds(2000), 4, 40, 400, 15, false},
    {2, 2, 0, milliseconds(2000), 4, 30, 300, 15, false},
    {3, kAnyDepth, 2'000, milliseconds(2000), 3, 20, 200, 15, false},
    {4, kAnyDepth, 8'000, milliseconds(2000), 3, 12, 120, 15, false},
    {5, kAnyDepth, 30'000, milliseconds(2000), 2, 8, 80, 15, false},
    {6, kAnyDepth, 100'000, milliseconds(2000), 2, 4, 40, 15, false},
    {7, kAnyDepth, 400'000, milliseconds(2000), 1, 0, 0, 15, false},
    {8, kAnyDepth, 0, milliseconds(1000), 1, 0, 0, 15, true},
}};

}  // namespace

SearchLimits BotLevel::limits() const {
    SearchLimits limits;
    limits.depth = depth;
    limits.nodes = nodes;
    limits.time = time;
    limits.multipv = candidates;
    limits.contempt = contempt;
    return limits;
}

const BotLevel& bot_level(int level) {
    return kLevels[std::clamp(level, kMinBotLevel, kMaxBotLevel) - 1];
}

std::optional<Move> choose_bot_move(const SearchResult& result, const BotLevel& level,
                                    const Position& pos, std::uint64_t seed) {
    if (!result.has_move()) return std::nullopt;
    // One draw per (seed, position): independent from move to move, the same on a replay.
    std::uint64_t state = seed ^ pos.hash() ^ static_cast<std::uint64_t>(pos.ply()) << 40;
    const std::uint64_t roll = zobrist::splitmix64(state);
    if (static_cast<int>(roll % 100) >= level.blunder_percent) return result.best_move();

    const Score best = result.score();
    // An alternative is bounded in loss, and never turns a result that is not
    // lost into a proven loss.
    std::array<const Move*, 16> alternatives{};
    std::size_t found = 0;
    for (std::size_t i = 1; i < result.lines.size() && found < alternatives.size(); ++i) {
        const Score score = result.lines[i].score;
        if (score >= best - level.max_blunder_loss && !(is_loss(score) && !is_loss(best))) {
            alternatives[found++] = &result.lines[i].move();
        }
    }
    if (found == 0) return result.best_move();
    return *alternatives[zobrist::splitmix64(state) % found];
}

void make_exact_solver_if_needed(std::unique_ptr<ForwardSolver>& solver, const BotLevel& level,
                                 const Variant& variant, std::size_t megabytes) {
    if (level.exact && !solver && megabytes > 0 && ForwardSolver::handles(variant)) {
        solver = std::make_unique<ForwardSolver>(megabytes);
    }
}

std::optional<Move> exact_bot_move(ForwardSolver* solver, const Position& pos,
                                   const BotLevel& level, SearchLimits& limits) {
    if (!level.exact || !solver || !ForwardSolver::handles(pos.variant()) ||
        limits.time.count() == 0) {
        return std::nullopt;
    }
    // The search keeps the other half whatever the solver used, so the whole
    // stays within the level's time.
    const std::chrono::nanoseconds share = limits.time / 2;
    std::optional<Move> move = solver->winning_move(pos, {.time = share, .stop = limits.stop});
    limits.time -= share;
    // A fifth of the rest is keep_proven_win's, to check the search's move.
    if (move) limits.time -= limits.time / 5;
    return move;
}

std::optional<Move> keep_proven_win(ForwardSolver* solver, const Position& pos,
                                    const SearchLimits& limits, const std::optional<Move>& proven,
                                    const std::optional<Move>& searched) {
    if (!proven) return searched;
    if (!solver || !searched || *searched == *proven) return proven;
    Position after = pos;
    UndoInfo undo;
    after.make(*searched, undo);
    const Side mover = pos.side_to_move();
    const GameStatus status = evaluate_status(after, 0);
    const bool wins =
        status.over()
            ? status.outcome == win_for(mover)
            : solver->solve(after, {.time = limits.time / 4, .stop = limits.stop}) == mover;
    return wins ? searched : proven;
}

std::optional<Move> play_bot_move(Searcher& searcher, const Position& pos,
                                  const RepetitionHistory& history, const BotLevel& level,
                                  std::uint64_t seed, const std::atomic<bool>* stop,
                                  ForwardSolver* solver) {
    SearchLimits limits = level.limits();
    limits.stop = stop;
    const std::optional<Move> proven = exact_bot_move(solver, pos, level, limits);
    const std::optional<Move> searched =
        choose_bot_move(searcher.search(pos, history, limits), level, pos, seed);
    return keep_proven_win(solver, pos, limits, proven, searched);
}

}  // namespace foxgeese
