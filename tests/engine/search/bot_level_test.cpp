// The bot levels: budgets grow and alternatives shrink from level 1 to 8,
// level 8 always plays the best move, an alternative is bounded in what it
// loses, and the choice depends only on the seed and the position.
#include "engine/search/bot_level.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <vector>

#include "engine/rules/game_status.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/search/forward_solver.h"
#include "engine/search/move_key.h"
#include "test_positions.h"

namespace foxgeese {
namespace {

using testing::position_from_code;
using testing::variant_named;

// What a level may search, in nodes; depth-limited levels count as less than
// any node budget, level 8's time as more.
std::uint64_t budget_rank(const BotLevel& level) {
    if (level.nodes == 0 && level.depth < SearchLimits::kMaxDepth) return level.depth;
    if (level.nodes == 0) return ~std::uint64_t{0};
    return 100 + level.nodes;
}

TEST(BotLevel, BudgetsGrowAndAlternativesFadeFromLevelToLevel) {
    for (int level = kMinBotLevel; level < kMaxBotLevel; ++level) {
        const BotLevel& lower = bot_level(level);
        const BotLevel& higher = bot_level(level + 1);
        EXPECT_EQ(lower.level, level);
        EXPECT_LT(budget_rank(lower), budget_rank(higher)) << level;
        EXPECT_GE(lower.blunder_percent, higher.blunder_percent) << level;
        EXPECT_GE(lower.max_blunder_loss, higher.max_blunder_loss) << level;
        EXPECT_GT(lower.time.count(), 0);
    }
    const BotLevel& full = bot_level(kMaxBotLevel);
    EXPECT_EQ(full.blunder_percent, 0);
    EXPECT_EQ(full.candidates, 1);
    EXPECT_EQ(full.nodes, 0u);
    EXPECT_GT(full.time.count(), 0);
    EXPECT_LE(full.time, std::chrono::seconds(2));
    // Out-of-range levels are clamped.
    EXPECT_EQ(bot_level(0).level, 1);
    EXPECT_EQ(bot_level(99).level, 8);
}

// A result with lines scored as given, the moves steps from distinct points.
SearchResult result_with_scores(std::initializer_list<Score> scores) {
    SearchResult result;
    int from = 0;
    for (Score score : scores) {
        SearchLine line;
        line.score = score;
        line.length = 1;
        line.pv[0] = Move::step(from, from + 1);
        from += 2;
        result.lines.push_back(line);
    }
    return result;
}

int line_of(const SearchResult& result, const Move& move) {
    for (std::size_t i = 0; i < result.lines.size(); ++i) {
        if (result.lines[i].move() == move) return static_cast<int>(i);
    }
    return -1;
}

TEST(BotLevel, AnAlternativeIsAtMostTheLevelsBoundWorseAndNeverALoss) {
    const BotLevel& level = bot_level(1);
    // Within the bound: line 1; beyond it: line 2; a proven loss: line 3.
    const SearchResult result = result_with_scores(
        {100, 100 - level.max_blunder_loss, 99 - level.max_blunder_loss, loss_in(4)});
    const Position pos(variant_named("standard"));
    std::map<int, int> chosen;
    const int trials = 2000;
    for (std::uint64_t seed = 0; seed < trials; ++seed)
        ++chosen[line_of(result, *choose_bot_move(result, level, pos, seed))];
    EXPECT_EQ(chosen.size(), 2u);
    EXPECT_EQ(chosen[2] + chosen[3], 0);
    // The share of alternatives is the level's chance, within sampling noise.
    const double share = static_cast<double>(chosen[1]) / trials;
    EXPECT_NEAR(share, level.blunder_percent / 100.0, 0.05);
}

TEST(BotLevel, TheChoiceDependsOnlyOnTheSeedAndThePosition) {
    const BotLevel& level = bot_level(2);
    const SearchResult result = result_with_scores({10, 5, 0, -5});
    const Position pos(variant_named("big_cross"));
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
        EXPECT_EQ(*choose_bot_move(result, level, pos, seed),
                  *choose_bot_move(result, level, pos, seed));
    }
}

TEST(BotLevel, LevelEightPlaysTheBestMove) {
    const SearchResult result = result_with_scores({10, 9, 8});
    const Position pos(variant_named("two_foxes"));
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        EXPECT_EQ(*choose_bot_move(result, bot_level(8), pos, seed), result.best_move());
    }
    EXPECT_FALSE(choose_bot_move(SearchResult{}, bot_level(8), pos, 1).has_value());
}

TEST(BotLevel, PlaysALegalMoveAtEveryLevel) {
    const Position pos =
        position_from_code(variant_named("standard"), "3/3/G1G1G1G/2GF1G1/1G1G1G1/1G1/1G1 f 4 26");
    RepetitionHistory history;
    history.record(pos);
    Searcher searcher(1);
    for (int level = kMinBotLevel; level <= 6; ++level) {
        const std::optional<Move> move = play_bot_move(searcher, pos, history, bot_level(level), 7);
        ASSERT_TRUE(move.has_value());
        bool legal = false;
        for_each_legal_move(pos, [&](const Move& m) { legal = legal || m == *move; });
        EXPECT_TRUE(legal) << "level " << level;
    }
}

TEST(BotLevel, OnlyLevelEightTakesTheExactSolversMove) {
    EXPECT_TRUE(bot_level(8).exact);
    for (int level = kMinBotLevel; level < kMaxBotLevel; ++level)
        EXPECT_FALSE(bot_level(level).exact);
}

TEST(BotLevel, TheExactStepPlaysAProvenWinWithinHalfTheTime) {
    const Variant& forward_only =
        variant_named("standard", VariantOptions{.geese = 13, .geese_sideways = false});
    // The geese shut the fox in on d7 with f4-f5 (or win more slowly).
    const Position pos = position_from_code(forward_only, "GFG/GGG/1G1G3/5G1/7/3/3 g 0 20");
    ForwardSolver solver(1);
    SearchLimits limits = bot_level(8).limits();
    ASSERT_EQ(limits.time, std::chrono::milliseconds(1000));
    const std::optional<Move> move = exact_bot_move(&solver, pos, bot_level(8), limits);
    ASSERT_TRUE(move.has_value());
    Position after = pos;
    UndoInfo undo;
    after.make(*move, undo);
    EXPECT_EQ(solver.solve(after), Side::kGeese);
    // The search's share once a win is proven: a tenth stays for the check.
    EXPECT_EQ(limits.time, std::chrono::milliseconds(400));

    // Through play_bot_move too: whichever move it plays wins.
    RepetitionHistory history;
    history.record(pos);
    Searcher searcher(1);
    const std::optional<Move> played =
        play_bot_move(searcher, pos, history, bot_level(8), 1, nullptr, &solver);
    ASSERT_TRUE(played.has_value());
    Position then = pos;
    then.make(*played, undo);
    EXPECT_EQ(evaluate_status(then, 0).outcome, Outcome::kGeeseWin)
        << format_move(pos.board(), *played);
}

TEST(BotLevel, TheSearchsMoveIsPlayedOnlyIfItKeepsTheProvenWin) {
    const Variant& forward_only =
        variant_named("standard", VariantOptions{.geese = 13, .geese_sideways = false});
    int kept = 0;
    int overruled = 0;
    // Two geese wins: in the first every geese move wins (some at once), in
    // the second only e5-e6 does (d5-e6 opens d5 for the fox's jump).
    for (const char* code : {"GFG/GGG/1G1G3/5G1/7/3/3 g 0 20", "GFG/GG1/GG1GG2/7/7/3/3 g 1 71"}) {
        const Position pos = position_from_code(forward_only, code);
        ForwardSolver solver(1);
        SearchLimits limits = bot_level(8).limits();
        const std::optional<Move> proven = exact_bot_move(&solver, pos, bot_level(8), limits);
        ASSERT_TRUE(proven.has_value()) << code;
        for_each_legal_move(pos, [&](const Move& move) {
            if (move == *proven) return;
            Position after = pos;
            UndoInfo undo;
            after.make(move, undo);
            const bool wins = evaluate_status(after, 0).outcome == Outcome::kGeeseWin ||
                              solver.solve(after) == Side::kGeese;
            EXPECT_EQ(keep_proven_win(&solver, pos, limits, proven, move), wins ? move : *proven)
                << code << " " << format_move(pos.board(), move);
            ++(wins ? kept : overruled);
        });
        // Without a proof the search's move stands; without a search, the proof's.
        EXPECT_EQ(keep_proven_win(&solver, pos, limits, std::nullopt, proven), proven);
        EXPECT_EQ(keep_proven_win(&solver, pos, limits, proven, std::nullopt), proven);
    }
    EXPECT_GT(kept, 0);
    EXPECT_GT(overruled, 0);
}

TEST(BotLevel, TheExactStepLeavesTheSearchAloneWhereItCannotHelp) {
    ForwardSolver solver(1);
    const BotLevel& full = bot_level(8);
    auto untouched = [&](const Position& pos, const BotLevel& level, ForwardSolver* with) {
        SearchLimits limits = level.limits();
        const auto time = limits.time;
        const bool none = !exact_bot_move(with, pos, level, limits).has_value();
        return none && limits.time == time;
    };
    const Position shut_in = position_from_code(
        variant_named("standard", VariantOptions{.geese = 13, .geese_sideways = false}),
        "GFG/GGG/1G1G3/5G1/7/3/3 g 0 20");
    EXPECT_TRUE(untouched(shut_in, full, nullptr));          // no solver
    EXPECT_TRUE(untouched(shut_in, bot_level(7), &solver));  // a level without it
    EXPECT_TRUE(untouched(Position(variant_named("big_cross")), full, &solver));
    EXPECT_TRUE(untouched(
        Position(variant_named("standard", VariantOptions{.geese = 13, .geese_sideways = true})),
        full, &solver));

    // A lost position has no winning move: the search gets the half left.
    const Position lost = position_from_code(
        variant_named("standard", VariantOptions{.geese = 13, .geese_sideways = false}),
        "3/3/7/7/GGGG3/3/1F1 g 0 20");
    SearchLimits limits = full.limits();
    EXPECT_FALSE(exact_bot_move(&solver, lost, full, limits).has_value());
    EXPECT_EQ(limits.time, std::chrono::milliseconds(500));
}

}  // namespace
}  // namespace foxgeese
