#include "tablebase_commands.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "engine/rules/board.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "engine/tablebase/layer_file.h"
#include "engine/tablebase/retrograde_builder.h"
#include "engine/tablebase/tablebase_build.h"
#include "engine/tablebase/tablebase_files.h"
#include "engine/tablebase/tablebase_stats.h"

namespace foxgeese::cli {
namespace {

namespace tb = tablebase;
using SteadyClock = std::chrono::steady_clock;

struct TablebaseArgs {
    std::vector<std::string> positional;
    int geese = 13;
    std::string dir;
    std::string position;
};

constexpr const char* kUsage =
    "tablebase build --geese N --dir DIR | stats --dir DIR | probe --dir DIR --position CODE";

std::string minutes_seconds(double seconds) {
    const long s = static_cast<long>(seconds + 0.5);
    return std::to_string(s / 60) + "m" + (s % 60 < 10 ? "0" : "") + std::to_string(s % 60) + "s";
}

// The build's progress on standard error: a bar redrawn in place on a
// terminal, a line per tenth otherwise (a log keeps them all).
class ProgressBar {
  public:
    explicit ProgressBar(std::ostream& err) : err_(err), terminal_(isatty(STDERR_FILENO) == 1) {}

    void update(int geese, std::string_view step, std::uint64_t done, std::uint64_t total) {
        const auto now = SteadyClock::now();
        const std::string name = std::to_string(geese) + " geese, " + std::string(step);
        if (name != name_) {
            if (terminal_ && !name_.empty()) err_ << '\n';
            name_ = name;
            started_ = now;
            last_tenth_ = -1;
        }
        const double fraction = total ? static_cast<double>(done) / static_cast<double>(total) : 1;
        const int tenth = static_cast<int>(fraction * 10);
        if (terminal_) {
            if (done != total && now - drawn_ < std::chrono::milliseconds(200)) return;
            drawn_ = now;
        } else if (tenth == last_tenth_) {
            return;
        }
        last_tenth_ = tenth;
        const int filled = static_cast<int>(fraction * 30);
        const double spent = std::chrono::duration<double>(now - started_).count();
        std::string line = name + " [" + std::string(filled, '#') + std::string(30 - filled, '.') +
                           "] " + std::to_string(static_cast<int>(fraction * 100)) + "%";
        if (fraction > 0.01 && done != total)
            line += ", " + minutes_seconds(spent / fraction - spent) + " left";
        if (done == total) line += ", " + minutes_seconds(spent);
        err_ << (terminal_ ? "\r" : "") << line << (terminal_ ? "" : "\n") << std::flush;
    }
    void finish() {
        if (terminal_ && !name_.empty()) err_ << '\n';
    }

  private:
    std::ostream& err_;
    bool terminal_;
    std::string name_;
    SteadyClock::time_point started_;
    SteadyClock::time_point drawn_;
    int last_tenth_ = -1;
};

int run_build(const TablebaseArgs& args, Io& io) {
    if (args.geese < tb::kFewestGeese || args.geese > tb::kMostGeese)
        return usage_error(io.err, "--geese takes 4 to 17");
    ProgressBar bar(io.err);
    const auto report =
        tb::build_tablebase(args.dir, args.geese,
                            [&](int geese, std::string_view step, std::uint64_t done,
                                std::uint64_t total) { bar.update(geese, step, done, total); });
    bar.finish();
    std::uint64_t bytes = 0;
    for (const tb::LayerBuilt& layer : report) {
        io.out << layer.geese << " geese: " << layer.positions << " positions, " << layer.file_bytes
               << " bytes, " << (layer.kept ? "kept" : "built in " + minutes_seconds(layer.seconds))
               << '\n';
        bytes += layer.file_bytes;
    }
    io.out << "tablebase of 4 to " << args.geese << " geese in " << args.dir << ": " << bytes
           << " bytes\n";
    return 0;
}

// The layers present in the directory, from four geese up to the first gap.
int layers_present(const std::string& dir) {
    int top = tb::kFewestGeese - 1;
    while (top < tb::kMostGeese && std::filesystem::exists(tb::layer_file_path(dir, top + 1)))
        ++top;
    return top;
}

std::string position_code_of(Bitboard geese, int fox, Side side) {
    const Variant& variant = **Variant::find("standard", {});
    return format_position_code(Position(variant, bit(fox), geese, side, 0, 0));
}

void print_side(std::ostream& out, const char* side_name, const tb::SideToMoveStats& s, Side side) {
    out << "  " << side_name << ": " << s.positions << " positions, fox wins " << s.fox_wins
        << ", geese win " << s.geese_wins << "; longest " << s.longest << " plies ("
        << position_code_of(s.longest_geese, s.longest_fox, side) << ")\n";
}

std::string describe(const tb::ExactValue& v) {
    return std::string(v.mover_wins ? "win" : "loss") + " in " + std::to_string(v.plies) + " plies";
}

int run_stats(const TablebaseArgs& args, Io& io) {
    const int top = layers_present(args.dir);
    if (top < tb::kFewestGeese) return usage_error(io.err, "no tablebase layers in " + args.dir);
    for (int geese = tb::kFewestGeese; geese <= top; ++geese) {
        tb::LayerFileReader reader(tb::layer_file_path(args.dir, geese), geese);
        const tb::LayerStats stats = tb::layer_stats(reader);
        io.out << geese << " geese\n";
        print_side(io.out, "fox to move", stats.fox_to_move, Side::kFox);
        print_side(io.out, "geese to move", stats.geese_to_move, Side::kGeese);
    }
    // The start of the 13-geese configuration, and each first move of the fox.
    tb::TablebaseFiles probe(args.dir);
    Position start(**Variant::find("standard", {}));
    if (const auto v = probe.value(start)) {
        io.out << "start (" << format_position_code(start) << "): fox to move, " << describe(*v)
               << '\n';
        for_each_legal_move(start, [&](const Move& move) {
            UndoInfo undo;
            start.make(move, undo);
            const auto after = probe.value(start);
            start.unmake(move, undo);
            if (after)
                io.out << "  " << format_move(start.board(), move) << ": the fox's "
                       << describe(tb::ExactValue{!after->mover_wins, after->plies + 1}) << '\n';
        });
    }
    return 0;
}

int run_probe(const TablebaseArgs& args, Io& io) {
    const Variant& variant = **Variant::find("standard", {});
    Result<Position> parsed = parse_position_code(variant, args.position);
    if (!parsed) return usage_error(io.err, parsed.error().message);
    Position pos = *parsed;
    if (won_outright(pos)) {
        io.out << "the game is over: the fox has won\n";
        return 0;
    }
    tb::TablebaseFiles probe(args.dir);
    const auto value = probe.value(pos);
    if (!value)
        return usage_error(io.err, "not in the tablebase (its layer of " +
                                       std::to_string(pos.geese_count()) +
                                       " geese is not built in " + args.dir + ")");
    const char* mover = pos.side_to_move() == Side::kFox ? "fox" : "geese";
    io.out << mover << " to move: " << describe(*value) << '\n';
    for_each_legal_move(pos, [&](const Move& move) {
        UndoInfo undo;
        pos.make(move, undo);
        std::optional<tb::ExactValue> after =
            won_outright(pos) ? std::optional(tb::ExactValue{false, 0}) : probe.value(pos);
        pos.unmake(move, undo);
        io.out << "  " << format_move(pos.board(), move) << ": "
               << (after ? describe(tb::ExactValue{!after->mover_wins, after->plies + 1})
                         : std::string("not in the tablebase"))
               << '\n';
    });
    return 0;
}

int run_tablebase(const TablebaseArgs& args, Io& io) {
    int status = 0;
    if (wrong_count(args.positional, 1, kUsage, io.err, status)) return status;
    if (args.dir.empty()) return usage_error(io.err, "--dir is required");
    const std::string& action = args.positional[0];
    if (action == "build") return run_build(args, io);
    if (action == "stats") return run_stats(args, io);
    if (action == "probe") {
        if (args.position.empty()) return usage_error(io.err, "--position is required");
        return run_probe(args, io);
    }
    return usage_error(io.err, "usage: foxgeese " + std::string(kUsage));
}

}  // namespace

void add_tablebase_commands(CommandLine& line) {
    auto args = std::make_shared<TablebaseArgs>();
    CLI::App& command = line.add("tablebase", args->positional, [args, &line] {
        try {
            return run_tablebase(*args, line.io());
        } catch (const std::exception& e) {
            line.io().err << "foxgeese: " << e.what() << '\n';
            return 1;
        }
    });
    command.add_option("--geese", args->geese);
    command.add_option("--dir", args->dir);
    command.add_option("--position", args->position);
}

}  // namespace foxgeese::cli
