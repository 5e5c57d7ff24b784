// AnalyzeGame's work without a database: the node budget per ply, scores
// turned to the mover's view, the marks, and a game whose fox passes up a
// winning capture, analysed the same way every time.
#include "service/core/game_analysis.h"

#include <gtest/gtest.h>

#include <atomic>

#include "service/core/analysis_budget.h"
#include "tests/service/core/stored_moves.h"

namespace foxgeese::service {
namespace {

using Plies = google::protobuf::RepeatedPtrField<v1::PlyAnalysis>;

const Variant& standard() {
    return *Variant::find("standard", {}).value();
}

// Ten geese, and the fox on e5 takes seven of them at once (e5xg3x...xe5):
// a win in 1. Found by random placements; a quiet move leaves the fox a
// plain advantage, not a win the search can prove.
constexpr const char* kCaptureWins = "3/GG1/4F2/G1G2G1/1G3G1/1GG/1G1 f 0 20";
constexpr const char* kTheCapture = "e5xg3xe3xe1xc3xc5xc7xe5";

using test::moves_from;

GameAnalysisLimits budget(std::uint64_t nodes) {
    GameAnalysisLimits limits;
    limits.nodes_per_ply = nodes;
    limits.deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
    return limits;
}

TEST(GameAnalysis, ShortGamesGetTheFullBudgetLongOnesShareAFixedTotal) {
    EXPECT_EQ(nodes_per_ply(1), kMaxNodesPerPly);
    EXPECT_EQ(nodes_per_ply(40), kMaxNodesPerPly);
    EXPECT_EQ(nodes_per_ply(1000), kGameAnalysisNodes / 1000);
    EXPECT_LT(nodes_per_ply(1000), kMaxNodesPerPly);
    EXPECT_EQ(nodes_per_ply(1'000'000), kMinNodesPerPly);
    EXPECT_EQ(nodes_per_ply(0), kMaxNodesPerPly);
}

TEST(GameAnalysis, ScoresAfterAMoveAreTheMoversCountedFromBeforeIt) {
    // The opponent lost outright: the mover won with the move.
    EXPECT_EQ(score_for_mover(loss_in(0)), win_in(1));
    EXPECT_EQ(score_for_mover(loss_in(2)), win_in(3));
    EXPECT_EQ(score_for_mover(win_in(4)), loss_in(5));
    EXPECT_EQ(score_for_mover(120), -120);
    EXPECT_EQ(score_for_mover(kDrawScore), kDrawScore);
}

TEST(GameAnalysis, MarksAWinGivenUpAndALossEscaped) {
    EXPECT_EQ(mark_of(win_in(3), 500), v1::MOVE_MARK_WIN_THROWN_AWAY);
    EXPECT_EQ(mark_of(win_in(3), kDrawScore), v1::MOVE_MARK_WIN_THROWN_AWAY);
    EXPECT_EQ(mark_of(win_in(1), loss_in(4)), v1::MOVE_MARK_WIN_THROWN_AWAY);
    EXPECT_EQ(mark_of(win_in(3), win_in(7)), v1::MOVE_MARK_UNSPECIFIED);  // slower, still won
    EXPECT_EQ(mark_of(loss_in(2), -300), v1::MOVE_MARK_LOSS_SAVED);
    EXPECT_EQ(mark_of(loss_in(2), loss_in(2)), v1::MOVE_MARK_UNSPECIFIED);
    EXPECT_EQ(mark_of(200, -900), v1::MOVE_MARK_UNSPECIFIED);  // nothing proved before
}

TEST(GameAnalysis, APassedUpWinningCaptureIsMarkedAndTheReplyIsNot) {
    const auto moves = moves_from(kCaptureWins, {"e5-e6", "a4-a5"});
    Plies plies;
    Searcher searcher;
    ASSERT_EQ(
        analyse_moves(searcher, standard(), kCaptureWins, moves, budget(kMaxNodesPerPly), plies),
        GameAnalysisEnd::kComplete);
    ASSERT_EQ(plies.size(), 2);

    const v1::PlyAnalysis& passed = plies[0];
    EXPECT_EQ(passed.ply(), 21);
    EXPECT_EQ(passed.side(), v1::SIDE_FOX);
    EXPECT_EQ(passed.move(), "e5-e6");
    EXPECT_EQ(passed.best_move(), kTheCapture);
    EXPECT_EQ(passed.score_before().win_in_plies(), 1);
    EXPECT_EQ(passed.score_before().text(), "win in 1");
    EXPECT_TRUE(passed.score_after().has_points()) << passed.score_after().DebugString();
    EXPECT_GT(passed.score_after().points(), 0);  // still better, no longer won
    EXPECT_EQ(passed.mark(), v1::MOVE_MARK_WIN_THROWN_AWAY);
    EXPECT_GE(passed.depth(), 1);

    const v1::PlyAnalysis& reply = plies[1];
    EXPECT_EQ(reply.ply(), 22);
    EXPECT_EQ(reply.side(), v1::SIDE_GEESE);
    EXPECT_EQ(reply.move(), "a4-a5");
    EXPECT_FALSE(reply.best_move().empty());
    // The geese's view of the position the fox's move left.
    EXPECT_EQ(reply.score_before().points(), -passed.score_after().points());
    EXPECT_EQ(reply.mark(), v1::MOVE_MARK_UNSPECIFIED);
}

TEST(GameAnalysis, AWinningMoveScoresAWinInOneByTheRules) {
    const auto moves = moves_from(kCaptureWins, {kTheCapture});
    Plies plies;
    Searcher searcher;
    ASSERT_EQ(analyse_moves(searcher, standard(), kCaptureWins, moves, budget(20'000), plies),
              GameAnalysisEnd::kComplete);
    ASSERT_EQ(plies.size(), 1);
    EXPECT_EQ(plies[0].score_before().win_in_plies(), 1);
    EXPECT_EQ(plies[0].score_after().win_in_plies(), 1);
    EXPECT_EQ(plies[0].mark(), v1::MOVE_MARK_UNSPECIFIED);
}

TEST(GameAnalysis, TheSameMovesAndBudgetGiveTheSameAnalysis) {
    const auto moves = moves_from("3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0",
                                  {"d4-d5", "c3-c4", "d5-e5", "e3-e4", "e5-f5", "a3-a4"});
    Plies first, second;
    // One searcher, cleared in between, as an analysis place reuses its own.
    Searcher searcher;
    ASSERT_EQ(analyse_moves(searcher, standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0", moves,
                            budget(30'000), first),
              GameAnalysisEnd::kComplete);
    searcher.clear();
    ASSERT_EQ(analyse_moves(searcher, standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0", moves,
                            budget(30'000), second),
              GameAnalysisEnd::kComplete);
    ASSERT_EQ(first.size(), 6);
    for (int i = 0; i < first.size(); ++i)
        EXPECT_EQ(first[i].SerializeAsString(), second[i].SerializeAsString()) << i;
}

TEST(GameAnalysis, EndsEarlyWhenStoppedOrOutOfTime) {
    const auto moves = moves_from(kCaptureWins, {"e5-e6", "a4-a5"});
    Plies plies;
    Searcher searcher;
    const std::atomic<bool> stop{true};
    GameAnalysisLimits stopped = budget(kMaxNodesPerPly);
    stopped.stop = &stop;
    EXPECT_EQ(analyse_moves(searcher, standard(), kCaptureWins, moves, stopped, plies),
              GameAnalysisEnd::kStopped);
    GameAnalysisLimits late = budget(kMaxNodesPerPly);
    late.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    EXPECT_EQ(analyse_moves(searcher, standard(), kCaptureWins, moves, late, plies),
              GameAnalysisEnd::kOutOfTime);
}

}  // namespace
}  // namespace foxgeese::service
