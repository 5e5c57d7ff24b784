// Search speed: nodes per second on one core from each variant's start
// position (a fixed node budget, a cleared table each time), and the depth a
// one-second search completes from there. See bench/README.md.
#include <benchmark/benchmark.h>

#include <chrono>

#include "engine/rules/position.h"
#include "engine/rules/repetition_history.h"
#include "engine/rules/variant.h"
#include "engine/search/search.h"

namespace foxgeese {
namespace {

const Variant& variant(const char* name) {
    return *Variant::find(name, {}).value();
}

// Searches the start position within `limits` per iteration, from a cleared table.
void search_start(benchmark::State& state, const char* name, const SearchLimits& limits) {
    const Position start(variant(name));
    RepetitionHistory history;
    history.record(start);
    Searcher searcher(16);
    std::uint64_t total = 0;
    const SearchResult* result = nullptr;
    for (auto _ : state) {
        state.PauseTiming();
        searcher.clear();
        state.ResumeTiming();
        result = &searcher.search(start, history, limits);
        total += result->nodes;
    }
    state.counters["depth"] = result->depth;
    state.counters["nodes"] = static_cast<double>(result->nodes);
    state.counters["nodes_per_second"] =
        benchmark::Counter(static_cast<double>(total), benchmark::Counter::kIsRate);
}

void search_nodes(benchmark::State& state, const char* name) {
    SearchLimits limits;
    limits.nodes = static_cast<std::uint64_t>(state.range(0));
    search_start(state, name, limits);
}

void search_one_second(benchmark::State& state, const char* name) {
    SearchLimits limits;
    limits.time = std::chrono::seconds(1);
    search_start(state, name, limits);
}

void BM_SearchNodesStandard(benchmark::State& state) {
    search_nodes(state, "standard");
}
void BM_SearchNodesBigCross(benchmark::State& state) {
    search_nodes(state, "big_cross");
}
void BM_SearchNodesTwoFoxes(benchmark::State& state) {
    search_nodes(state, "two_foxes");
}
BENCHMARK(BM_SearchNodesStandard)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SearchNodesBigCross)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SearchNodesTwoFoxes)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

void BM_SearchOneSecondStandard(benchmark::State& state) {
    search_one_second(state, "standard");
}
void BM_SearchOneSecondBigCross(benchmark::State& state) {
    search_one_second(state, "big_cross");
}
void BM_SearchOneSecondTwoFoxes(benchmark::State& state) {
    search_one_second(state, "two_foxes");
}
BENCHMARK(BM_SearchOneSecondStandard)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SearchOneSecondBigCross)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SearchOneSecondTwoFoxes)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace foxgeese

BENCHMARK_MAIN();
