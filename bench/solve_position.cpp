// foxgeese-solve: the exact result of a standard position whose geese only
// step forward (engine/search/forward_solver.h), by default the start position of
// the chosen configuration. Prints which side wins with best play from both
// sides, or "unknown" when the time runs out first, and what the search
// cost. Solving a start position takes hours and gigabytes: see
// bench/README.md, "Exact solver".
//
//   foxgeese-solve --geese 13 --table-mb 12288 --seconds 7200
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"
#include "engine/search/forward_solver.h"

int main(int argc, char** argv) {
    int geese = 13;
    std::string code;
    std::size_t table_mb = 1024;
    long seconds = 3600;
    CLI::App app{"Solve a forward-only standard position exactly"};
    app.add_option("--geese", geese, "13, 15 or 17")->check(CLI::IsMember({13, 15, 17}));
    app.add_option("--position", code, "a position code (default: the configuration's start)");
    app.add_option("--table-mb", table_mb, "the solver's table, rounded down to a power of two")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20));
    app.add_option("--seconds", seconds, "give up after this long (0: never)")
        ->check(CLI::NonNegativeNumber);
    CLI11_PARSE(app, argc, argv);

    using namespace foxgeese;
    const Variant& variant =
        *Variant::find("standard", VariantOptions{.geese = geese, .geese_sideways = false}).value();
    const Result<Position> parsed =
        code.empty() ? Result<Position>(Position(variant)) : parse_position_code(variant, code);
    if (!parsed) {
        std::fprintf(stderr, "foxgeese-solve: %s\n", parsed.error().message.c_str());
        return 2;
    }
    ForwardSolver solver(table_mb);
    const auto began = std::chrono::steady_clock::now();
    const std::optional<Side> winner =
        solver.solve(*parsed, SolverLimits{.time = std::chrono::seconds(seconds)});
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    const ForwardSolver::Stats& stats = solver.stats();
    std::printf(
        "%s (%d geese): %s after %.0f s; %llu positions searched, %llu stored, %llu "
        "overwritten\n",
        format_position_code(*parsed).c_str(), geese,
        !winner ? "unknown" : (*winner == Side::kFox ? "the fox wins" : "the geese win"), elapsed,
        static_cast<unsigned long long>(stats.nodes), static_cast<unsigned long long>(stats.stored),
        static_cast<unsigned long long>(stats.replaced));
    return 0;
}
