// The search: forced wins found with their exact distance, only legal moves,
// its limits kept, the same result for the same limits, stop, draws by
// repetition and the fifty-move rule, and several best lines for analysis.
#include "engine/search/search.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "engine/search/move_key.h"
#include "forced_win.h"
#include "random_playout.h"
#include "test_positions.h"
#include "variant_configs.h"

namespace foxgeese {
namespace {

using std::chrono::milliseconds;
using testing::position_from_code;
using testing::variant_named;

SearchLimits depth_limit(int depth, int multipv = 1) {
    SearchLimits limits;
    limits.depth = depth;
    limits.multipv = multipv;
    return limits;
}

SearchLimits node_limit(std::uint64_t nodes) {
    SearchLimits limits;
    limits.nodes = nodes;
    return limits;
}

RepetitionHistory history_of(const Position& pos) {
    RepetitionHistory history;
    history.record(pos);
    return history;
}

bool is_legal(const Position& pos, const Move& move) {
    bool found = false;
    for_each_legal_move(pos, [&](const Move& m) { found = found || m == move; });
    return found;
}

// Every move of the line is legal where it is played.
void expect_legal_line(const Position& root, const SearchLine& line) {
    Position pos = root;
    for (const Move& move : line.moves()) {
        ASSERT_TRUE(is_legal(pos, move))
            << format_move(pos.board(), move) << " in " << format_position_code(pos);
        UndoInfo undo;
        pos.make(move, undo);
    }
}

// --- Forced wins --------------------------------------------------------------

struct ForcedWin {
    const char* variant;
    const char* code;
    int plies;
    const char* how;  // how the game ends, for the test name
};

// Found in random placements and at the end of self-play games, and checked
// by the brute-force solver below: the side to move wins in exactly `plies`.
const ForcedWin kForcedWins[] = {
    {"standard", "3/3/3GG2/5GG/6F/3/G2 f 0 20", 1, "capture"},
    {"standard", "3/3/G6/1GF4/1G5/1G1/1G1 f 0 20", 3, "capture"},
    {"standard", "1F1/1G1/GG5/1G5/4G2/3/3 f 0 20", 5, "capture"},
    {"standard", "GFG/GG1/1G1GG2/1GG1GGG/7/1G1/3 g 1 67", 1, "trap"},
    {"standard", "G1G/1GF/1GGGG2/1GG1GGG/7/1G1/3 g 1 65", 3, "trap"},
    {"standard", "GF1/1GG/1GGGG2/1GG1GGG/7/1G1/3 g 1 63", 5, "trap"},
    {"big_cross", "F2/1G1/3/3GG4/5G3/6G2/3/1G1/3 f 0 20", 1, "capture"},
    {"big_cross", "3/3/3/3G5/GFG2G3/1G5G1/3/3/3 f 0 20", 3, "capture"},
    {"big_cross", "3/1G1/3/8G/3G5/3G5/2F/1GG/3 f 0 20", 5, "capture"},
    {"big_cross", "GF1/1GG/GGG/9/5G3/3GGG3/GGG/GG1/GGG g 1 61", 1, "trap"},
    {"big_cross", "G1F/1GG/GGG/9/9/3GGGG2/GGG/GG1/GGG g 1 59", 3, "trap"},
    {"big_cross", "1F1/GGG/GGG/9/9/3GGGG2/GGG/GG1/GGG g 1 57", 5, "trap"},
    {"two_foxes", "GG1/G2/7/4F2/G1FGG2/1GG/1G1 f 6 110", 1, "capture"},
    {"two_foxes", "GG1/G2/7/3F3/G1FGG2/1GG/2G f 4 108", 3, "capture"},
    {"two_foxes", "GG1/G2/7/1F1F3/1G1GG2/1GG/2G f 2 106", 5, "capture"},
    {"two_foxes", "GGG/GGG/2GG3/4G2/F5F/3/3 g 0 30", 1, "pen"},
    {"two_foxes", "GGF/1GG/GGGFGG1/GGGGGG1/GGGG1G1/3/3 g 1 71", 3, "trap"},
    {"two_foxes", "GGF/F1G/GGGGGG1/GGGGGG1/GGGG1G1/3/3 g 3 69", 5, "trap"},
};

class SearchFindsForcedWin : public ::testing::TestWithParam<ForcedWin> {};

TEST_P(SearchFindsForcedWin, ScoresItAsAWinInExactlyThatManyPliesAndPlaysAWinningMove) {
    const ForcedWin& c = GetParam();
    Position pos = position_from_code(variant_named(c.variant), c.code);
    ASSERT_TRUE(testing::wins_within(pos, c.plies)) << "not a forced win in " << c.plies;
    if (c.plies > 2) {
        ASSERT_FALSE(testing::wins_within(pos, c.plies - 2)) << "a shorter win exists";
    }

    Searcher searcher(1);
    const SearchResult& result = searcher.search(pos, history_of(pos), depth_limit(c.plies + 2));
    ASSERT_TRUE(result.has_move());
    EXPECT_EQ(result.score(), win_in(c.plies));
    EXPECT_TRUE(is_win(result.score()));
    EXPECT_EQ(plies_to_end(result.score()), c.plies);

    UndoInfo undo;
    pos.make(result.best_move(), undo);
    EXPECT_TRUE(testing::loses_within(pos, c.plies - 1))
        << format_move(pos.board(), result.best_move()) << " does not keep the win";
}

TEST_P(SearchFindsForcedWin, TheLosingSideSeesTheLossAfterTheWinningMove) {
    const ForcedWin& c = GetParam();
    Position pos = position_from_code(variant_named(c.variant), c.code);
    Searcher searcher(1);
    const Move winning =
        searcher.search(pos, history_of(pos), depth_limit(c.plies + 2)).best_move();
    UndoInfo undo;
    pos.make(winning, undo);
    const SearchResult& reply = searcher.search(pos, history_of(pos), depth_limit(c.plies + 1));
    if (c.plies == 1) {
        EXPECT_FALSE(reply.has_move()) << "the game is over";
    } else {
        EXPECT_EQ(reply.score(), loss_in(c.plies - 1));
    }
}

INSTANTIATE_TEST_SUITE_P(EveryVariantAndSide, SearchFindsForcedWin,
                         ::testing::ValuesIn(kForcedWins),
                         [](const ::testing::TestParamInfo<ForcedWin>& param) {
                             const ForcedWin& c = param.param;
                             const bool fox = std::string(c.code).find(" f ") != std::string::npos;
                             return std::string(c.variant) + (fox ? "_fox_" : "_geese_") + c.how +
                                    "_in_" + std::to_string(c.plies);
                         });

// --- Legal moves and decided positions ------------------------------------------

class SearchOnPlayouts : public ::testing::TestWithParam<const Variant*> {};

TEST_P(SearchOnPlayouts, EveryLineItReportsIsLegal) {
    Searcher searcher(1);
    SearchLimits limits = node_limit(3000);
    limits.multipv = 2;
    for (const Position& pos : testing::random_playout_positions(*GetParam(), 11, 40)) {
        const SearchResult& result = searcher.search(pos, history_of(pos), limits);
        ASSERT_EQ(result.has_move(), has_legal_move(pos)) << format_position_code(pos);
        for (const SearchLine& line : result.lines) {
            ASSERT_GE(line.length, 1);
            expect_legal_line(pos, line);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllConfigurations, SearchOnPlayouts, ::testing::ValuesIn(Variant::all()),
                         [](const auto& p) { return testing::config_name(*p.param); });

TEST(Search, ReportsNoMoveInADecidedPosition) {
    Searcher searcher(1);
    // Three geese left: the fox side has won.
    const Position won =
        position_from_code(variant_named("standard"), "3/3/7/3F3/1G1G1G1/3/3 g 0 40");
    EXPECT_FALSE(searcher.search(won, history_of(won), depth_limit(4)).has_move());
    // The fox is shut in on c7 and cannot jump.
    const Position trapped =
        position_from_code(variant_named("standard"), "FGG/GGG/2GGG2/7/7/3/3 f 0 40");
    ASSERT_FALSE(has_legal_move(trapped));
    EXPECT_FALSE(searcher.search(trapped, history_of(trapped), depth_limit(4)).has_move());
}

TEST(Search, ScoresAStuckOpponentAsAWinByTheRules) {
    // Whatever the fox plays from here the geese (standard: no sideways steps)
    // are left without a move, and the side without a move loses.
    const Position pos =
        position_from_code(variant_named("standard"), "GGG/GGG/GGGGGGG/3F3/7/3/3 f 0 40");
    Searcher searcher(1);
    const SearchResult& result = searcher.search(pos, history_of(pos), depth_limit(3));
    ASSERT_TRUE(result.has_move());
    EXPECT_EQ(result.score(), win_in(1));
}

// --- Limits -----------------------------------------------------------------------

TEST(SearchLimits, ADepthLimitCompletesExactlyThatManyIterations) {
    const Position start(variant_named("big_cross"));
    Searcher searcher(1);
    for (int depth : {1, 3, 6}) {
        EXPECT_EQ(searcher.search(start, history_of(start), depth_limit(depth)).depth, depth);
    }
}

TEST(SearchLimits, ANodeLimitIsExact) {
    const Position start(variant_named("two_foxes"));
    Searcher searcher(1);
    for (std::uint64_t nodes : {1u, 500u, 12345u}) {
        const SearchResult& result = searcher.search(start, history_of(start), node_limit(nodes));
        EXPECT_EQ(result.nodes, nodes);
        EXPECT_TRUE(result.has_move());
        EXPECT_TRUE(is_legal(start, result.best_move()));
    }
}

// A clock that moves on by a fixed step each time it is read: time passes with
// the work done, and the test never sleeps.
struct SteppingClock {
    std::chrono::nanoseconds now{0};
    std::chrono::nanoseconds step;
    int reads = 0;

    SearchClock as_search_clock() {
        return [this] {
            ++reads;
            return now += step;
        };
    }
};

TEST(SearchLimits, ATimeLimitIsReadOnTheInjectedClock) {
    SteppingClock clock{{}, milliseconds(1)};
    Searcher searcher(1, clock.as_search_clock());
    const Position start(variant_named("standard"));
    SearchLimits limits;
    limits.time = milliseconds(40);
    const SearchResult& result = searcher.search(start, history_of(start), limits);
    // The clock is read once per 1024 nodes: the search stops at the first read
    // past the limit.
    EXPECT_GE(result.elapsed, milliseconds(40));
    EXPECT_LE(result.elapsed, milliseconds(42));
    EXPECT_LE(result.nodes, 41u * 1024);
    EXPECT_GT(result.depth, 0);
    EXPECT_TRUE(is_legal(start, result.best_move()));
}

TEST(SearchLimits, StopFromAnotherThreadReturnsTheBestMoveSoFar) {
    std::atomic<bool> stop{false};
    // The "other thread" is the clock, read once per 1024 nodes under a time
    // limit (an hour, never reached): it raises the flag at its 30th read.
    int reads = 0;
    Searcher searcher(1, [&] {
        if (++reads == 30) stop.store(true);
        return std::chrono::nanoseconds(reads);
    });
    const Position start(variant_named("big_cross"));
    SearchLimits limits;
    limits.time = std::chrono::hours(1);
    limits.stop = &stop;
    const SearchResult& result = searcher.search(start, history_of(start), limits);
    EXPECT_LE(result.nodes, 30u * 1024);
    EXPECT_GE(result.depth, 1);
    ASSERT_TRUE(result.has_move());
    EXPECT_TRUE(is_legal(start, result.best_move()));
}

TEST(SearchLimits, AStopRaisedBeforeTheSearchStillGivesALegalMove) {
    const std::atomic<bool> stop{true};
    Searcher searcher(1);
    const Position start(variant_named("two_foxes"));
    SearchLimits limits;
    limits.stop = &stop;
    const SearchResult& result = searcher.search(start, history_of(start), limits);
    EXPECT_EQ(result.depth, 0);
    EXPECT_EQ(result.nodes, 0u);
    ASSERT_TRUE(result.has_move());
    EXPECT_TRUE(is_legal(start, result.best_move()));
}

// --- Determinism ------------------------------------------------------------------

void expect_same(const SearchResult& a, const SearchResult& b) {
    EXPECT_EQ(a.nodes, b.nodes);
    EXPECT_EQ(a.depth, b.depth);
    ASSERT_EQ(a.lines.size(), b.lines.size());
    for (std::size_t i = 0; i < a.lines.size(); ++i) {
        EXPECT_EQ(a.lines[i].score, b.lines[i].score);
        ASSERT_EQ(a.lines[i].length, b.lines[i].length);
        for (int k = 0; k < a.lines[i].length; ++k)
            EXPECT_EQ(a.lines[i].pv[k], b.lines[i].pv[k]);
    }
}

TEST(SearchDeterminism, TheSameLimitsGiveTheSameResult) {
    const Position pos =
        position_from_code(variant_named("standard"), "3/3/G1G1G1G/2GF1G1/1G1G1G1/1G1/1G1 f 4 26");
    SearchLimits limits = node_limit(40'000);
    limits.multipv = 2;
    Searcher first(2);
    Searcher second(2);
    const SearchResult a = first.search(pos, history_of(pos), limits);
    expect_same(a, second.search(pos, history_of(pos), limits));
    // A used searcher, cleared, forgets what it learnt.
    first.search(Position(variant_named("standard")), history_of(pos), node_limit(5000));
    first.clear();
    expect_same(a, first.search(pos, history_of(pos), limits));
}

// --- Draws ------------------------------------------------------------------------

// The score of the line that starts with `notation`.
Score line_score(const SearchResult& result, const Position& pos, const std::string& notation) {
    for (const SearchLine& line : result.lines) {
        if (format_move(pos.board(), line.move()) == notation) return line.score;
    }
    ADD_FAILURE() << notation << " is not among the lines";
    return kInfinity;
}

TEST(SearchDraws, AMoveToAPositionSeenTwiceBeforeIsADraw) {
    // big_cross, fox to move, with quiet plies behind it; the position after
    // e7-e6 already occurred twice in this game.
    const Variant& v = variant_named("big_cross");
    const Position pos = position_from_code(v, "3/3/1F1/9/9/GGGGGGGGG/GGG/GGG/GGG f 6 30");
    Position after = pos;
    UndoInfo undo;
    for_each_legal_move(pos, [&](const Move& m) {
        if (format_move(v.board(), m) == "e7-e6") after.make(m, undo);
    });
    RepetitionHistory history = history_of(pos);
    Searcher searcher(1);
    // Two plies: too few for a repetition inside the tree.
    const SearchLimits all_lines = depth_limit(2, 64);
    EXPECT_NE(line_score(searcher.search(pos, history, all_lines), pos, "e7-e6"), kDrawScore);

    history.set(after.key(), 2);
    searcher.clear();
    const SearchResult& result = searcher.search(pos, history, all_lines);
    EXPECT_EQ(line_score(result, pos, "e7-e6"), kDrawScore);
    EXPECT_NE(line_score(result, pos, "e7-d7"), kDrawScore);

    // With contempt the side to move at the root scores the draw below zero.
    SearchLimits with_contempt = all_lines;
    with_contempt.contempt = 30;
    searcher.clear();
    EXPECT_EQ(line_score(searcher.search(pos, history, with_contempt), pos, "e7-e6"), -30);
}

TEST(SearchDraws, TheLosingSideTakesARepetitionDraw) {
    // The fox is shut in the top arm of big_cross behind a full wall of geese.
    // The position after e9-d9 occurred twice before: the fox takes the draw.
    const Variant& v = variant_named("big_cross");
    const Position pos = position_from_code(v, "1F1/3/GGG/GGGGGGGGG/2GGGGG2/4G4/3/3/3 f 12 60");
    Searcher searcher(1);
    const Score without = searcher.search(pos, history_of(pos), depth_limit(6)).score();
    ASSERT_LT(without, kDrawScore) << "the fox should be worse here";

    Position after = pos;
    UndoInfo undo;
    for_each_legal_move(pos, [&](const Move& m) {
        if (format_move(v.board(), m) == "e9-d9") after.make(m, undo);
    });
    RepetitionHistory history = history_of(pos);
    history.set(after.key(), 2);
    searcher.clear();
    const SearchResult& result = searcher.search(pos, history, depth_limit(6));
    EXPECT_EQ(format_move(v.board(), result.best_move()), "e9-d9");
    EXPECT_EQ(result.score(), kDrawScore);
}

TEST(SearchDraws, AQuietMoveAtTheFiftyMoveLimitIsADraw) {
    // 99 quiet plies: any fox step makes 100 and draws; the captures reset the count.
    const Variant& v = variant_named("standard");
    const Position pos = position_from_code(v, "3/3/G1G1G1G/2GF1G1/1G1G1G1/1G1/1G1 f 99 126");
    Searcher searcher(1);
    const SearchResult& result = searcher.search(pos, history_of(pos), depth_limit(3, 64));
    int steps = 0;
    for (const SearchLine& line : result.lines) {
        if (line.move().is_jump()) {
            EXPECT_NE(line.score, kDrawScore) << format_move(v.board(), line.move());
        } else {
            EXPECT_EQ(line.score, kDrawScore) << format_move(v.board(), line.move());
            ++steps;
        }
    }
    EXPECT_GT(steps, 0);
}

TEST(SearchDraws, AForcedWinThatNeedsMoreQuietPliesThanRemainIsNoWin) {
    // Won in 3 with a fox step first; at 99 quiet plies that step draws.
    const Variant& v = variant_named("standard");
    Searcher searcher(1);
    const Position fresh = position_from_code(v, "3/3/G6/1GF4/1G5/1G1/1G1 f 0 20");
    EXPECT_EQ(searcher.search(fresh, history_of(fresh), depth_limit(5)).score(), win_in(3));
    const Position late = position_from_code(v, "3/3/G6/1GF4/1G5/1G1/1G1 f 99 120");
    searcher.clear();
    EXPECT_FALSE(is_win(searcher.search(late, history_of(late), depth_limit(5)).score()));
}

// --- Several lines ----------------------------------------------------------------

TEST(SearchMultiPv, ReportsTheNBestDistinctMovesBestFirst) {
    const Position pos = position_from_code(variant_named("big_cross"),
                                            "3/3/1F1/9/1G1G1G1G1/GG1G1G1GG/1G1/G1G/1GG g 2 25");
    Searcher searcher(2);
    const SearchResult& result = searcher.search(pos, history_of(pos), depth_limit(5, 4));
    ASSERT_EQ(result.lines.size(), 4u);
    std::set<std::uint64_t> moves;
    for (std::size_t i = 0; i < result.lines.size(); ++i) {
        expect_legal_line(pos, result.lines[i]);
        moves.insert(MoveKey(result.lines[i].move()).bits());
        if (i > 0) {
            EXPECT_GE(result.lines[i - 1].score, result.lines[i].score);
        }
    }
    EXPECT_EQ(moves.size(), 4u);
}

TEST(SearchMultiPv, AsksForMoreLinesThanMovesGetOneLinePerDistinctMove) {
    // Two fox steps and one jump path, plus a second path to the same capture.
    const Position pos =
        position_from_code(variant_named("standard"), "3/3/7/7/2GFG2/1GG/1G1 f 0 9");
    std::set<std::uint64_t> distinct;
    for_each_legal_move(pos, [&](const Move& m) { distinct.insert(MoveKey(m).bits()); });
    Searcher searcher(1);
    const SearchResult& result = searcher.search(pos, history_of(pos), depth_limit(3, 50));
    EXPECT_EQ(result.lines.size(), distinct.size());
}

}  // namespace
}  // namespace foxgeese
