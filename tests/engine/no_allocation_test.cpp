// The engine promises no heap allocation per node in perft and move
// generation. This binary replaces the global operator new with a counting one
// and checks that the count does not move during perft and generation.
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>

#include "engine/movegen.h"
#include "engine/perft.h"
#include "engine/variant.h"
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

INSTANTIATE_TEST_SUITE_P(AllStarts, NoAllocation, ::testing::ValuesIn(Variant::all()),
                         [](const auto& p) { return testing::config_name(*p.param); });

}  // namespace
}  // namespace foxgeese
