// The engine promises no heap allocation per node in perft, move generation
// and search. This binary replaces the global operator new with a counting one
// and checks that the count does not move during perft, generation and a
// search (the Searcher allocates everything when it is built).
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>

#include "engine/rules/movegen.h"
#include "engine/rules/perft.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"
#include "engine/search/search.h"
#include "variant_configs.h"

namespace {
long g_allocations = 0;
}

// malloc/free on both sides; g++ cannot see that.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t size) {
    ++g_allocations;
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}

namespace foxgeese {
namespace {

class NoAllocation : public ::testing::TestWithParam<const Variant*> {};

TEST_P(NoAllocation, PerftAndMoveGenerationNeverAllocate) {
    Position pos(*GetParam());
    MoveList list;
    const long before = g_allocations;
    const std::uint64_t nodes = perft(pos, 5);
    generate_legal_moves(pos, list);
    std::uint64_t visited = 0;
    for_each_legal_move(pos, [&](const Move&) { ++visited; });
    const long after = g_allocations;
    EXPECT_GT(nodes, 0u);
    EXPECT_EQ(visited, list.size());
    EXPECT_EQ(after - before, 0) << "heap allocations during perft / move generation";
}

TEST_P(NoAllocation, SearchNeverAllocates) {
    const Position pos(*GetParam());
    RepetitionHistory history;
    history.record(pos);
    Searcher searcher(1);
    SearchLimits limits;
    limits.nodes = 50'000;
    limits.multipv = 3;
    const long before = g_allocations;
    const SearchResult& result = searcher.search(pos, history, limits);
    const long after = g_allocations;
    EXPECT_TRUE(result.has_move());
    EXPECT_EQ(result.nodes, limits.nodes);
    EXPECT_EQ(after - before, 0) << "heap allocations during a search";
}

INSTANTIATE_TEST_SUITE_P(AllStarts, NoAllocation, ::testing::ValuesIn(Variant::all()),
                         [](const auto& p) { return testing::config_name(*p.param); });

TEST(NoAllocationSearch, AJumpHeavyPositionBeyondTheMoveBufferAllocatesNothing) {
    // 375 distinct fox moves: more than one ply's buffer holds.
    const Variant& standard = *Variant::find("standard", {}).value();
    const Position pos =
        parse_position_code(standard, "3/GGG/2FG1G1/1GGG2G/1G1G3/GG1/3 f 0 10").value();
    RepetitionHistory history;
    history.record(pos);
    Searcher searcher(1);
    // A geese position whose every reply is the jump-heavy one is searched too:
    // the overflow pass below the root is what matters here.
    SearchLimits limits;
    limits.nodes = 20'000;
    searcher.search(pos, history, limits);  // the root keeps its 375 moves: grows once
    const long before = g_allocations;
    searcher.search(pos, history, limits);
    EXPECT_EQ(g_allocations - before, 0);
}

}  // namespace
}  // namespace foxgeese
