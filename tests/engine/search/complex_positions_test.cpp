// Contrived positions with hundreds of thousands of jump paths: a bounded
// count stops at its limit, generation stops when its visitor says so, and
// the search, the analysis and the exact solver keep their time limits at
// such a root and below it. Work is this thread's CPU time, with bounds far
// above what the limited calls need and far below what walking every path
// costs (a second and more before those limits were kept).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>

#include "engine/rules/movegen.h"
#include "engine/search/analysis.h"
#include "engine/search/forward_solver.h"
#include "engine/search/search.h"
#include "test_positions.h"
#include "tests/support/cpu_time.h"

namespace foxgeese {
namespace {

using std::chrono::milliseconds;
using testing::cpu_bound;
using testing::position_from_code;
using testing::variant_named;

// Two foxes among 20 geese on a lattice: every other point a goose, so the
// capture chains branch at every landing point. 407,217 jump paths to 4,282
// distinct positions.
constexpr const char* kTwoFoxesLattice = "1G1/GGG/1G1G1G1/GGGGGGG/1G1G1GF/GGG/F2 f 0 0";
// One goose step before it (d1-d2), the geese to move: a search meets the
// lattice below its root.
constexpr const char* kBeforeTwoFoxesLattice = "1G1/GGG/1G1G1G1/GGGGGGG/1G1G1GF/G1G/FG1 g 0 0";
// The same for standard with 17 geese and forward-only geese (the exact
// solver's variant): 230,897 paths.
constexpr const char* kStandardLattice = "1G1/GGG/1G1GFG1/GGGGGGG/1G1G1G1/3/3 f 0 0";
// One goose step before it (d2-d3).
constexpr const char* kBeforeStandardLattice = "1G1/GGG/1G1GFG1/GGGGGGG/1G3G1/1G1/3 g 0 0";

const Variant& two_foxes() {
    return variant_named("two_foxes");
}
const Variant& forward_only_17() {
    return variant_named("standard", VariantOptions{.geese = 17, .geese_sideways = false});
}

// The CPU time `work` takes on this thread.
template <class Work>
std::chrono::nanoseconds cpu_time_of(Work&& work) {
    return testing::cpu_time_of(CLOCK_THREAD_CPUTIME_ID, work);
}

bool is_legal(const Position& pos, const Move& move) {
    return for_each_legal_move_until(pos, [&](const Move& m) { return m == move; });
}

RepetitionHistory history_of(const Position& pos) {
    RepetitionHistory history;
    history.record(pos);
    return history;
}

TEST(ComplexPositions, TheLatticesHaveHundredsOfThousandsOfJumpPaths) {
    EXPECT_EQ(count_legal_moves(position_from_code(two_foxes(), kTwoFoxesLattice)), 407'217u);
    EXPECT_EQ(count_legal_moves(position_from_code(forward_only_17(), kStandardLattice)), 230'897u);
    EXPECT_GT(230'897u, kMaxStartLegalMoves);
}

TEST(BoundedCount, CountsUpToTheLimitAndNoFurther) {
    for (const Variant* variant : Variant::all()) {
        const Position start(*variant);
        const std::uint64_t all = count_legal_moves(start);
        EXPECT_EQ(count_legal_moves(start, all), all);
        EXPECT_EQ(count_legal_moves(start, 10'000), all);
        EXPECT_EQ(count_legal_moves(start, all - 1), all - 1);
    }
    const Position lattice = position_from_code(two_foxes(), kTwoFoxesLattice);
    EXPECT_EQ(count_legal_moves(lattice, 10'001), 10'001u);
    EXPECT_EQ(count_legal_moves(lattice, 1), 1u);
    EXPECT_EQ(count_legal_moves(lattice, 0), 0u);
    const Position geese_to_move = position_from_code(two_foxes(), kBeforeTwoFoxesLattice);
    EXPECT_EQ(count_legal_moves(geese_to_move, 3), 3u);
}

TEST(BoundedCount, CostsNoMoreThanTheMovesItCounts) {
    const Position lattice = position_from_code(two_foxes(), kTwoFoxesLattice);
    std::uint64_t counted = 0;
    // A whole count walks 1.1 million jumps; a hundred of them take seconds.
    const auto spent = cpu_time_of([&] {
        for (int i = 0; i < 100; ++i)
            counted += count_legal_moves(lattice, 10'001);
    });
    EXPECT_EQ(counted, 100u * 10'001);
    EXPECT_LT(spent, cpu_bound(milliseconds(150)));
}

TEST(GenerationUntil, StopsWhenTheVisitorSaysSo) {
    for (const char* code : {kTwoFoxesLattice, kBeforeTwoFoxesLattice}) {
        const Position pos = position_from_code(two_foxes(), code);
        int visits = 0;
        EXPECT_TRUE(for_each_legal_move_until(pos, [&](const Move&) { return ++visits == 10; }));
        EXPECT_EQ(visits, 10) << code;
    }
    const Position start(variant_named("standard"));
    std::uint64_t visits = 0;
    EXPECT_FALSE(for_each_legal_move_until(start, [&](const Move&) { return ++visits == 0; }));
    EXPECT_EQ(visits, count_legal_moves(start));
}

TEST(ComplexPositions, ASearchKeepsItsTimeLimitAtSuchARoot) {
    Searcher searcher(1);
    const Position lattice = position_from_code(two_foxes(), kTwoFoxesLattice);
    SearchLimits limits;
    limits.time = milliseconds(1);
    const SearchResult* result = nullptr;
    const auto spent =
        cpu_time_of([&] { result = &searcher.search(lattice, history_of(lattice), limits); });
    EXPECT_LT(spent, cpu_bound(milliseconds(100)));
    ASSERT_TRUE(result->has_move());
    EXPECT_TRUE(is_legal(lattice, result->best_move()));
}

TEST(ComplexPositions, AStopRaisedBeforeTheSearchEndsItAtSuchARoot) {
    Searcher searcher(1);
    const Position lattice = position_from_code(two_foxes(), kTwoFoxesLattice);
    const std::atomic<bool> stop{true};
    SearchLimits limits;
    limits.stop = &stop;
    const SearchResult* result = nullptr;
    const auto spent =
        cpu_time_of([&] { result = &searcher.search(lattice, history_of(lattice), limits); });
    EXPECT_LT(spent, cpu_bound(milliseconds(100)));
    EXPECT_EQ(result->depth, 0);
    ASSERT_TRUE(result->has_move());
    EXPECT_TRUE(is_legal(lattice, result->best_move()));
}

// A clock that moves on by a millisecond each time it is read.
SearchClock stepping_clock(std::chrono::nanoseconds& now) {
    return [&now] { return now += milliseconds(1); };
}

TEST(ComplexPositions, ASearchLooksAtItsClockWhileGeneratingTheMovesBelowItsRoot) {
    std::chrono::nanoseconds now{0};
    Searcher searcher(1, stepping_clock(now));
    const Position before = position_from_code(two_foxes(), kBeforeTwoFoxesLattice);
    SearchLimits limits;
    // Read at the start and at the first node; the next read is past the limit.
    limits.time = milliseconds(2);
    const SearchResult& result = searcher.search(before, history_of(before), limits);
    // That read comes while the first lattice below the root has its moves
    // generated, not 1,024 nodes later.
    EXPECT_LT(result.nodes, 16u);
    ASSERT_TRUE(result.has_move());
    EXPECT_TRUE(is_legal(before, result.best_move()));
}

TEST(ComplexPositions, AnAnalysisKeepsItsTimeLimit) {
    const Position lattice = position_from_code(two_foxes(), kTwoFoxesLattice);
    AnalysisLimits limits;
    limits.time = milliseconds(1);
    std::vector<AnalysedLine> lines;
    const auto spent = cpu_time_of([&] { lines = analyze(lattice, limits, 3); });
    // The analysis's 16 MB table is set up within this too.
    EXPECT_LT(spent, cpu_bound(milliseconds(150)));
    ASSERT_FALSE(lines.empty());
    EXPECT_TRUE(is_legal(lattice, lines[0].pv[0]));
}

TEST(ComplexPositions, TheExactSolverKeepsItsTimeLimit) {
    ForwardSolver solver(1);
    for (const char* code : {kStandardLattice, kBeforeStandardLattice}) {
        SCOPED_TRACE(code);
        const Position pos = position_from_code(forward_only_17(), code);
        // Nothing is solved in the time, so each call starts again.
        const auto spent = cpu_time_of([&] {
            for (int i = 0; i < 5; ++i) {
                EXPECT_FALSE(solver.winning_move(pos, {.time = milliseconds(1)}));
                EXPECT_FALSE(solver.solve(pos, {.time = milliseconds(1)}));
            }
        });
        EXPECT_LT(spent, cpu_bound(milliseconds(150)));
    }
}

}  // namespace
}  // namespace foxgeese
