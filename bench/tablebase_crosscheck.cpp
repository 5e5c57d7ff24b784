// tablebase_crosscheck: two independent algorithms on the same positions.
// The tablebase (engine/tablebase: backward induction over every position)
// against the forward solver (engine/search/forward_solver.h: a depth-first
// search from the position), on positions sampled at every ply of games
// between the bot levels 1 to 3 (with a random move now and then, so that
// the games differ), and on the start with --solve-start. The solver gets a
// node budget per position; every answer it reaches must be the
// tablebase's winner. Prints the counts by goose count, and each
// disagreement with its position code.
//
//   tablebase_crosscheck --dir DIR --positions 1000000 --nodes 20000
#include <CLI/CLI.hpp>
#include <cstdio>
#include <map>
#include <random>
#include <string>

#include "engine/rules/movegen.h"
#include "engine/rules/position_code.h"
#include "engine/rules/repetition_history.h"
#include "engine/search/bot_level.h"
#include "engine/search/forward_solver.h"
#include "engine/search/search.h"
#include "engine/tablebase/mapped_tablebase.h"

namespace {

using namespace foxgeese;

struct Counts {
    std::uint64_t sampled = 0;  // positions in the tablebase
    std::uint64_t decided = 0;  // of those, solved by the forward solver within its budget
    std::uint64_t agreed = 0;
};

Side winner(const tablebase::ExactValue& value, const Position& pos) {
    return value.mover_wins ? pos.side_to_move() : opponent(pos.side_to_move());
}

}  // namespace

int main(int argc, char** argv) {
    std::string dir;
    std::uint64_t positions = 1'000'000;
    std::uint64_t nodes = 20'000;
    std::size_t table_mb = 1024;
    std::uint64_t seed = 1;
    CLI::App app{"The tablebase against the forward solver"};
    app.add_option("--dir", dir, "the tablebase's directory")->required();
    app.add_option("--positions", positions, "positions to compare");
    app.add_option("--nodes", nodes, "the forward solver's budget per position");
    app.add_option("--table-mb", table_mb, "the forward solver's table");
    app.add_option("--seed", seed, "the games' seed");
    bool solve_start = false;
    app.add_flag("--solve-start", solve_start,
                 "also solve the start without a budget (over an hour; give --table-mb 8192)");
    CLI11_PARSE(app, argc, argv);

    const Variant& variant = *Variant::find("standard", {}).value();
    // Mapped, as a server reads it: a probe is a memory read.
    const auto mapped = tablebase::MappedTablebase::open(dir);
    const tablebase::MappedTablebase& tables = *mapped;
    ForwardSolver solver(table_mb);
    Searcher searcher(16);
    std::mt19937_64 random(seed);
    std::map<int, Counts> by_geese;
    std::uint64_t compared = 0;
    std::uint64_t disagreed = 0;
    std::uint64_t games = 0;

    auto compare = [&](const Position& pos) {
        const auto value = tables.value(pos);
        if (!value) return;
        Counts& counts = by_geese[pos.geese_count()];
        ++counts.sampled;
        ++compared;
        const auto solved = solver.solve(pos, SolverLimits{.nodes = nodes});
        if (!solved) return;
        ++counts.decided;
        if (*solved == winner(*value, pos)) {
            ++counts.agreed;
        } else {
            ++disagreed;
            std::printf("DISAGREE %s: tablebase %s in %d plies, forward solver %s\n",
                        format_position_code(pos).c_str(),
                        winner(*value, pos) == Side::kFox ? "fox" : "geese", value->plies,
                        *solved == Side::kFox ? "fox" : "geese");
        }
    };

    // The start first when asked, with no budget: the whole forward proof
    // (foxgeese-solve took 69 minutes with an 8 GiB table).
    const Position start(variant);
    if (const auto value = tables.value(start); value && solve_start) {
        const auto solved = solver.solve(start);
        std::printf("start %s: tablebase %s in %d plies, forward solver %s\n",
                    format_position_code(start).c_str(),
                    winner(*value, start) == Side::kFox ? "fox" : "geese", value->plies,
                    !solved                 ? "unknown"
                    : *solved == Side::kFox ? "fox"
                                            : "geese");
        if (solved && *solved != winner(*value, start)) ++disagreed;
    }

    while (compared < positions) {
        Position pos(variant);
        RepetitionHistory history;
        history.record(pos);
        const BotLevel& level = bot_level(1 + static_cast<int>(random() % 3));
        ++games;
        while (compared < positions && !won_outright(pos) && has_legal_move(pos)) {
            compare(pos);
            std::optional<Move> move;
            if (random() % 5 == 0) {
                MoveList moves;
                generate_legal_moves(pos, moves);
                move = moves[random() % moves.size()];
            } else {
                move = play_bot_move(searcher, pos, history, level, random());
            }
            if (!move) break;
            UndoInfo undo;
            pos.make(*move, undo);
            history.record(pos);
        }
    }

    std::printf("%llu games, %llu positions compared, %llu disagreements\n",
                static_cast<unsigned long long>(games), static_cast<unsigned long long>(compared),
                static_cast<unsigned long long>(disagreed));
    std::printf("geese  in tablebase  decided forward  agreed\n");
    for (const auto& [geese, counts] : by_geese)
        std::printf("%5d  %11llu  %15llu  %6llu\n", geese,
                    static_cast<unsigned long long>(counts.sampled),
                    static_cast<unsigned long long>(counts.decided),
                    static_cast<unsigned long long>(counts.agreed));
    return disagreed == 0 ? 0 : 1;
}
