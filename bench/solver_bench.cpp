// The exact solver's speed (engine/search/forward_solver.h): positions of standard
// with 13 geese and no sideways steps, fox to move, taken at plies 28 to 32
// from engine games (found with a search of 50,000 to 150,000 nodes a move
// after four random plies), each solved from an empty table: one of 256 MB,
// which holds every position the solves need, and one of 8 MB, which holds
// a few percent of them (as a bot's table does over a long analysis), so
// that what the table gives up decides the count. Reported: the positions
// searched, per second, and how many of the set were decided within 100
// million positions each. See bench/README.md.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <string_view>

#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"
#include "engine/search/forward_solver.h"

namespace foxgeese {
namespace {

constexpr std::array<std::string_view, 13> kPositions = {
    "G2/3/GGG1G2/4F2/G4GG/G1G/G1G f 0 32",  "3/1G1/G6/3G2F/G4GG/G1G/G1G f 0 28",
    "3/1GG/G4F1/7/G4GG/G1G/G1G f 0 32",     "G2/3/1G4G/1G1F3/GG5/G1G/G1G f 0 28",
    "G2/3/GG4G/3F3/GG2G2/G2/G1G f 0 32",    "G2/3/GG5/1G1G3/3G1GG/GFG/G1G f 0 28",
    "G2/G2/GG5/1G5/2F2GG/G1G/G1G f 0 32",   "3/2F/G4GG/7/1GGGGG1/1GG/1G1 f 0 28",
    "3/3/G4GG/3F1G1/1GGGG2/GGG/3 f 0 32",   "3/1F1/G4G1/1G1G3/G3GG1/2G/GGG f 0 28",
    "3/1F1/GG3G1/3G3/G3GG1/1GG/1GG f 0 32", "2G/G2/2G4/2F4/GG2GG1/1GG/1GG f 0 28",
    "G1G/G2/7/3F3/GG2GG1/1GG/1GG f 0 32",
};
constexpr std::uint64_t kNodeLimit = 100'000'000;

void BM_SolveStandardPositions(benchmark::State& state) {
    const Variant& variant =
        *Variant::find("standard", VariantOptions{.geese = 13, .geese_sideways = false}).value();
    std::uint64_t nodes = 0;
    int decided = 0;
    for (auto _ : state) {
        decided = 0;
        for (const std::string_view code : kPositions) {
            state.PauseTiming();
            const Position position = parse_position_code(variant, code).value();
            ForwardSolver solver(static_cast<std::size_t>(state.range(0)));
            state.ResumeTiming();
            decided += solver.solve(position, SolverLimits{.nodes = kNodeLimit}).has_value();
            nodes += solver.stats().nodes;
        }
    }
    state.counters["decided"] = decided;
    state.counters["nodes"] = static_cast<double>(nodes) / static_cast<double>(state.iterations());
    state.counters["nodes_per_second"] =
        benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SolveStandardPositions)
    ->ArgName("table_mb")
    ->Arg(256)
    ->Arg(8)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

}  // namespace
}  // namespace foxgeese

BENCHMARK_MAIN();
