// The analysis API: the best lines with exact results where the search proves
// them, legal lines, nothing for a finished game, its limits and stop kept,
// and scores described as people read them.
#include "engine/search/analysis.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <set>

#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/search/move_key.h"
#include "test_positions.h"

namespace foxgeese {
namespace {

using testing::position_from_code;
using testing::variant_named;

AnalysisLimits depth_limit(int depth) {
    AnalysisLimits limits;
    limits.depth = depth;
    return limits;
}

void expect_legal_line(const Position& root, const AnalysedLine& line) {
    Position pos = root;
    for (const Move& move : line.pv) {
        bool legal = false;
        for_each_legal_move(pos, [&](const Move& m) { legal = legal || m == move; });
        ASSERT_TRUE(legal) << format_move(pos.board(), move);
        UndoInfo undo;
        pos.make(move, undo);
    }
}

TEST(Analysis, AForcedWinIsReportedExactlyWithItsLine) {
    // From search_test's forced wins: the fox captures its way to a win in 3 plies.
    const Position pos =
        position_from_code(variant_named("standard"), "3/3/G6/1GF4/1G5/1G1/1G1 f 0 20");
    const std::vector<AnalysedLine> lines = analyze(pos, depth_limit(6));
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0].score, win_in(3));
    EXPECT_EQ(describe_score(lines[0].score), "win in 3");
    EXPECT_GE(lines[0].depth, 3);
    ASSERT_GE(lines[0].pv.size(), 3u);
    expect_legal_line(pos, lines[0]);
}

TEST(Analysis, ReportsTheRequestedNumberOfDistinctLinesBestFirstAtOneDepth) {
    const Position start(variant_named("big_cross"));
    const std::vector<AnalysedLine> lines = analyze(start, depth_limit(5), 3);
    ASSERT_EQ(lines.size(), 3u);
    std::set<std::uint64_t> moves;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        EXPECT_EQ(lines[i].depth, 5);
        ASSERT_FALSE(lines[i].pv.empty());
        expect_legal_line(start, lines[i]);
        moves.insert(MoveKey(lines[i].pv[0]).bits());
        if (i > 0) {
            EXPECT_LE(lines[i].score, lines[i - 1].score);
        }
    }
    EXPECT_EQ(moves.size(), 3u);
}

TEST(Analysis, AFinishedGameHasNoLines) {
    // Three geese left: the fox side has won.
    const Position won =
        position_from_code(variant_named("standard"), "3/3/7/3F3/1G1G1G1/3/3 g 0 40");
    EXPECT_TRUE(analyze(won, depth_limit(4)).empty());
    // 100 quiet plies: drawn, though both sides still have moves.
    const Position fifty = position_from_code(variant_named("big_cross"),
                                              "3/3/1F1/9/9/GGGGGGGGG/GGG/GGG/GGG g 100 140");
    ASSERT_TRUE(has_legal_move(fifty));
    EXPECT_TRUE(analyze(fifty, depth_limit(4)).empty());
}

TEST(Analysis, APositionSeenTwiceBeforeIsADrawnGameWithNoLines) {
    const Position start(variant_named("two_foxes"));
    RepetitionHistory history;
    history.set(start.key(), 2);  // this occurrence and one before
    Searcher searcher(1);
    EXPECT_FALSE(analyze(searcher, start, history, depth_limit(3)).empty());
    history.set(start.key(), 3);
    EXPECT_TRUE(analyze(searcher, start, history, depth_limit(3)).empty());
}

TEST(Analysis, TheSameNodeBudgetGivesTheSameLines) {
    const Position start(variant_named("two_foxes"));
    AnalysisLimits limits;
    limits.nodes = 20'000;
    const std::vector<AnalysedLine> a = analyze(start, limits, 2);
    const std::vector<AnalysedLine> b = analyze(start, limits, 2);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].score, b[i].score);
        EXPECT_EQ(a[i].depth, b[i].depth);
        EXPECT_EQ(a[i].pv, b[i].pv);
    }
}

TEST(Analysis, AStopRaisedBeforehandStillGivesOneLegalMoveAtDepthZero) {
    const std::atomic<bool> stop{true};
    AnalysisLimits limits;
    limits.stop = &stop;
    const Position start(variant_named("standard"));
    const std::vector<AnalysedLine> lines = analyze(start, limits, 3);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0].depth, 0);
    ASSERT_EQ(lines[0].pv.size(), 1u);
    expect_legal_line(start, lines[0]);
}

TEST(Analysis, ADeadlineAlreadyPassedStillGivesALegalMove) {
    AnalysisLimits limits;
    limits.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    const Position start(variant_named("big_cross"));
    const std::vector<AnalysedLine> lines = analyze(start, limits);
    ASSERT_EQ(lines.size(), 1u);
    ASSERT_FALSE(lines[0].pv.empty());
    expect_legal_line(start, lines[0]);
}

TEST(Analysis, DescribesScores) {
    EXPECT_EQ(describe_score(win_in(1)), "win in 1");
    EXPECT_EQ(describe_score(loss_in(4)), "loss in 4");
    EXPECT_EQ(describe_score(37), "+37");
    EXPECT_EQ(describe_score(-12), "-12");
    EXPECT_EQ(describe_score(0), "0");
}

}  // namespace
}  // namespace foxgeese
