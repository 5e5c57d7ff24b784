// Engine speed: perft from the start positions (leaf nodes per second, last
// ply counted in bulk), legal moves of a middle-game position, and the cost of
// validating one move the way the service does. See bench/README.md.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "engine/rules/game_status.h"
#include "engine/rules/legal_move.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/perft.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"

// Counts heap allocations so each benchmark can report them per iteration
// (the engine promises none in perft and move generation).
namespace {
std::atomic<long> g_allocations{0};
}

// The replacement pair below is malloc/free on both sides; g++ cannot see that.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t size) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
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

const Variant& variant(const char* name, VariantOptions options = {}) {
    return *Variant::find(name, options).value();
}

void report_allocations(benchmark::State& state, long before) {
    state.counters["allocs_per_iter"] =
        benchmark::Counter(static_cast<double>(g_allocations.load() - before) /
                           static_cast<double>(state.iterations()));
}

void perft_from_start(benchmark::State& state, const Variant& v) {
    const int depth = static_cast<int>(state.range(0));
    Position pos(v);
    std::uint64_t nodes = 0;
    const long before = g_allocations.load();
    for (auto _ : state) {
        nodes = perft(pos, depth);
        benchmark::DoNotOptimize(nodes);
    }
    report_allocations(state, before);
    state.counters["leaves"] = static_cast<double>(nodes);
    state.counters["leaves_per_second"] =
        benchmark::Counter(static_cast<double>(nodes) * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
}

void BM_PerftStandard13(benchmark::State& state) {
    perft_from_start(state, variant("standard"));
}
void BM_PerftBigCross(benchmark::State& state) {
    perft_from_start(state, variant("big_cross"));
}
void BM_PerftTwoFoxes(benchmark::State& state) {
    perft_from_start(state, variant("two_foxes"));
}
BENCHMARK(BM_PerftStandard13)->Arg(7)->Arg(8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PerftBigCross)->Arg(7)->Arg(8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PerftTwoFoxes)->Arg(7)->Unit(benchmark::kMillisecond);

// Typical middle games: geese advanced a few ranks, some captured, the fox
// among them with steps and jumps; both sides to move.
struct Midgame {
    const char* variant;
    const char* code;
};
const Midgame kMidgames[] = {
    {"standard", "3/3/G1G1G1G/2GF1G1/1G1G1G1/1G1/1G1 f 4 26"},          // 6 moves, 2 jumps
    {"standard", "3/3/2G4/1G1F1G1/G1G1G1G/1G1/G1G g 5 21"},             // 14 goose steps
    {"big_cross", "3/3/1F1/9/1G1G1G1G1/GG1G1G1GG/1G1/G1G/1GG g 2 25"},  // 38 goose steps
    {"two_foxes", "F2/1G1/G2G1GG/1F1G1G1/GGGGGGG/G1G/GGG g 3 13"},      // 32 goose steps
    {"two_foxes", "3/F2/G1G2F1/1GG1GG1/GG3GG/G1G/GGG f 2 22"},          // one forced triple jump
};

void BM_LegalMovesMidgame(benchmark::State& state) {
    const int which = static_cast<int>(state.range(0));
    const Midgame& m = kMidgames[which];
    const Position pos = parse_position_code(variant(m.variant), m.code).value();
    MoveList list;
    const long before = g_allocations.load();
    for (auto _ : state) {
        generate_legal_moves(pos, list);
        benchmark::DoNotOptimize(list.size());
    }
    report_allocations(state, before);
    state.counters["moves"] = static_cast<double>(list.size());
    state.SetLabel(m.variant);
}
BENCHMARK(BM_LegalMovesMidgame)->DenseRange(0, 4)->Unit(benchmark::kNanosecond);

// What MakeMove costs in the engine: parse the notation, check it against the
// position, play it, and decide the status.
void BM_ValidateAndPlayMove(benchmark::State& state) {
    const Variant& v = variant("standard");
    const Position start = parse_position_code(v, kMidgames[0].code).value();
    for (auto _ : state) {
        Position pos = start;
        Result<MovePath> path = parse_move(v.board(), "d4xb4xd6");
        Result<Move> move = find_legal_move(pos, *path);
        UndoInfo undo;
        pos.make(*move, undo);
        benchmark::DoNotOptimize(evaluate_status(pos, 0));
    }
}
BENCHMARK(BM_ValidateAndPlayMove)->Unit(benchmark::kNanosecond);

void BM_ParsePositionCode(benchmark::State& state) {
    const Variant& v = variant("standard");
    for (auto _ : state) {
        benchmark::DoNotOptimize(parse_position_code(v, kMidgames[0].code));
    }
}
BENCHMARK(BM_ParsePositionCode)->Unit(benchmark::kNanosecond);

}  // namespace
}  // namespace foxgeese

BENCHMARK_MAIN();
