// tablebase_probe: what a lookup in the mapped tablebase costs a server, cold
// (the files' pages dropped from the page cache first) and warm (the same
// positions again). Positions come from random games of standard from the
// 13-geese start, every ply kept that the tablebase answers for. Per
// position it times a value (one probe), the ranking of every move that
// GetTablebase answers with (a probe per move, and per reply of a losing
// move), and perfect play to the end of the game (AnalyzePosition's line).
// Prints the median, 90th and 99th percentile in microseconds, and checks
// that each perfect line ends exactly when and as the position's value says.
//
//   tablebase_probe --dir DIR --positions 20000
#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <vector>

#include "engine/rules/movegen.h"
#include "engine/tablebase/layer_file.h"
#include "engine/tablebase/mapped_tablebase.h"
#include "engine/tablebase/tablebase_moves.h"

namespace {

using namespace foxgeese;
using Clock = std::chrono::steady_clock;

// Asks the kernel to drop the layer files' cached pages (clean pages go).
void drop_cached_pages(const std::string& dir) {
    for (int geese = tablebase::kFewestGeese; geese <= tablebase::kMostGeese; ++geese) {
        const auto path = tablebase::layer_file_path(dir, geese);
        const int fd = ::open(path.c_str(), O_RDONLY);
        if (fd < 0) continue;
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        ::close(fd);
    }
}

struct Timings {
    std::vector<double> value, moves, line;
};

void print(const char* pass, const char* what, std::vector<double> us) {
    std::sort(us.begin(), us.end());
    auto at = [&](double q) { return us[static_cast<std::size_t>(q * (us.size() - 1))]; };
    std::printf("%-5s %-22s median %9.1f  p90 %9.1f  p99 %9.1f us\n", pass, what, at(0.5), at(0.9),
                at(0.99));
}

}  // namespace

int main(int argc, char** argv) {
    std::string dir;
    std::size_t wanted = 20'000;
    std::uint64_t seed = 1;
    CLI::App app{"The cost of lookups in the mapped tablebase"};
    app.add_option("--dir", dir, "the tablebase's directory")->required();
    app.add_option("--positions", wanted, "positions to look up");
    app.add_option("--seed", seed, "the games' seed");
    CLI11_PARSE(app, argc, argv);

    const auto table = tablebase::MappedTablebase::open(dir);
    const tablebase::ValueSource values = [&](const Position& p) { return table->value(p); };
    const Variant& variant = *Variant::find("standard", {}).value();
    std::mt19937_64 random(seed);
    std::vector<Position> positions;
    while (positions.size() < wanted) {
        Position pos(variant);
        while (!won_outright(pos) && has_legal_move(pos) && positions.size() < wanted) {
            if (table->answers(pos)) positions.push_back(pos);
            MoveList moves;
            generate_legal_moves(pos, moves);
            UndoInfo undo;
            pos.make(moves[random() % moves.size()], undo);
        }
    }
    std::printf("%zu positions of %d to %d geese from random games; %.1f GB mapped\n",
                positions.size(), tablebase::kFewestGeese, table->max_geese(),
                static_cast<double>(table->mapped_bytes()) / 1e9);

    for (const char* pass : {"cold", "warm"}) {
        if (pass[0] == 'c') drop_cached_pages(dir);
        Timings t;
        std::size_t sink = 0;
        std::size_t wrong_lines = 0;
        auto timed = [](auto&& work) {
            const auto start = Clock::now();
            work();
            return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
        };
        for (const Position& pos : positions) {
            t.value.push_back(timed([&] { sink += table->value(pos)->plies; }));
            t.moves.push_back(timed([&] { sink += tablebase::rank_moves(pos, values)->size(); }));
            Position p = pos;
            int plies = 0;
            t.line.push_back(timed([&] {
                for (auto ranked = tablebase::rank_moves(p, values); ranked && !ranked->empty();
                     ranked = tablebase::rank_moves(p, values)) {
                    UndoInfo undo;
                    p.make(ranked->front().move, undo);
                    ++plies;
                }
            }));
            // Perfect play (level 8's moves against the longest defence) must
            // end exactly when, and as, the value says.
            const auto value = table->value(pos);
            const bool fox_side_won = won_outright(p) || p.side_to_move() == Side::kGeese;
            const bool mover_won = fox_side_won == (pos.side_to_move() == Side::kFox);
            if (plies != value->plies || mover_won != value->mover_wins) ++wrong_lines;
            sink += static_cast<std::size_t>(plies);
        }
        print(pass, "value (one probe)", t.value);
        print(pass, "every move ranked", t.moves);
        print(pass, "perfect line to end", t.line);
        std::printf("%-5s perfect lines that ended otherwise than the value says: %zu of %zu\n",
                    pass, wrong_lines, positions.size());
        if (sink == 0) std::printf("(nothing looked up)\n");
    }
    return 0;
}
