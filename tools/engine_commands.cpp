#include "engine_commands.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "engine/analysis.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "engine/position_code.h"
#include "engine/variant.h"

namespace foxgeese::cli {
namespace {

constexpr int kMaxAnalyzeDepth = SearchLimits::kMaxDepth;
constexpr int kMaxAnalyzeLines = 32;
constexpr double kDefaultAnalyzeSeconds = 1.0;

// Which command the arguments are for: some take options the others do not.
enum class Command { kPerft, kMoves, kReplay, kAnalyze };

// The arguments every engine command shares, plus the ones some take.
struct EngineArgs {
    std::string variant;
    VariantOptions options;
    std::optional<std::string> position;
    bool divide = false;
    // analyze's limits and line count, checked by run_analyze().
    std::optional<std::string_view> depth;
    std::optional<std::string_view> time;
    std::optional<std::string_view> lines;
    std::vector<std::string_view> positional;
};

std::optional<int> parse_int(std::string_view text) {
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// Parses flags in "--name value" or "--name=value" form. Returns an error message or "".
std::string parse_args(std::span<const std::string_view> args, Command command, EngineArgs& out) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view arg = args[i];
        std::optional<std::string_view> inline_value;
        if (arg.starts_with("--") && arg.find('=') != std::string_view::npos) {
            inline_value = arg.substr(arg.find('=') + 1);
            arg = arg.substr(0, arg.find('='));
        }
        auto value = [&]() -> std::optional<std::string_view> {
            if (inline_value) return inline_value;
            if (i + 1 < args.size()) return args[++i];
            return std::nullopt;
        };
        if (arg == "--variant" || arg == "--geese" || arg == "--position") {
            const auto v = value();
            if (!v) return std::string(arg) + " needs a value";
            if (arg == "--variant") {
                out.variant = std::string(*v);
            } else if (arg == "--position") {
                out.position = std::string(*v);
            } else {
                const auto n = parse_int(*v);
                if (!n)
                    return "--geese takes a number (13, 15 or 17), not '" + std::string(*v) + "'";
                out.options.geese = *n;
            }
        } else if (arg == "--sideways" && !inline_value) {
            out.options.geese_sideways = true;
        } else if (arg == "--divide" && command == Command::kPerft && !inline_value) {
            out.divide = true;
        } else if ((arg == "--depth" || arg == "--time" || arg == "--lines") &&
                   command == Command::kAnalyze) {
            const auto v = value();
            if (!v) return std::string(arg) + " needs a value";
            (arg == "--depth" ? out.depth : arg == "--time" ? out.time : out.lines) = *v;
        } else if (arg.starts_with("--")) {
            return "unknown option " + std::string(arg);
        } else {
            out.positional.push_back(arg);
        }
    }
    if (out.variant.empty()) return "--variant is required (standard, big_cross or two_foxes)";
    return "";
}

// The variant and the position to start from, or an error message.
struct Setup {
    const Variant* variant = nullptr;
    std::optional<Position> position;
};

std::string make_setup(const EngineArgs& args, Setup& setup) {
    Result<const Variant*> variant = Variant::find(args.variant, args.options);
    if (!variant) return variant.error().message;
    setup.variant = *variant;
    if (!args.position) {
        setup.position.emplace(**variant);
        return "";
    }
    Result<Position> pos = parse_position_code(**variant, *args.position);
    if (!pos) return pos.error().message;
    setup.position.emplace(*pos);
    return "";
}

int fail(std::ostream& err, std::string_view message) {
    err << "foxgeese: " << message << "\n";
    return kUsageError;
}

}  // namespace

int run_perft(std::span<const std::string_view> argv, std::ostream& out, std::ostream& err) {
    EngineArgs args;
    if (std::string e = parse_args(argv, Command::kPerft, args); !e.empty()) return fail(err, e);
    if (args.positional.size() != 1)
        return fail(err, "perft takes one DEPTH (a number from 0 to 20)");
    const auto depth = parse_int(args.positional[0]);
    if (!depth || *depth < 0 || *depth > 20) {
        return fail(err, "DEPTH must be a number from 0 to 20, not '" +
                             std::string(args.positional[0]) + "'");
    }
    Setup setup;
    if (std::string e = make_setup(args, setup); !e.empty()) return fail(err, e);
    Position& pos = *setup.position;
    if (args.divide) {
        std::vector<std::pair<std::string, std::uint64_t>> lines;
        std::uint64_t total = 0;
        for (const auto& [move, nodes] : perft_divide(pos, *depth)) {
            lines.emplace_back(format_move(pos.board(), move), nodes);
            total += nodes;
        }
        std::sort(lines.begin(), lines.end());
        for (const auto& [move, nodes] : lines)
            out << move << " " << nodes << "\n";
        out << (*depth == 0 ? 1 : total) << "\n";
        return 0;
    }
    out << perft(pos, *depth) << "\n";
    return 0;
}

int run_moves(std::span<const std::string_view> argv, std::ostream& out, std::ostream& err) {
    EngineArgs args;
    if (std::string e = parse_args(argv, Command::kMoves, args); !e.empty()) return fail(err, e);
    if (!args.positional.empty()) {
        return fail(err, "unexpected argument '" + std::string(args.positional[0]) + "'");
    }
    if (!args.position) return fail(err, "moves needs --position CODE");
    Setup setup;
    if (std::string e = make_setup(args, setup); !e.empty()) return fail(err, e);
    const Position& pos = *setup.position;
    std::vector<std::string> moves;
    // A game that has ended has no legal moves, whatever the placement allows.
    if (!evaluate_status(pos, 0).over()) {
        for_each_legal_move(pos,
                            [&](const Move& m) { moves.push_back(format_move(pos.board(), m)); });
    }
    std::sort(moves.begin(), moves.end());
    for (const std::string& m : moves)
        out << m << "\n";
    return 0;
}

int run_replay(std::span<const std::string_view> argv, std::istream& in, std::ostream& out,
               std::ostream& err) {
    EngineArgs args;
    if (std::string e = parse_args(argv, Command::kReplay, args); !e.empty()) return fail(err, e);
    if (!args.positional.empty()) {
        return fail(err, "unexpected argument '" + std::string(args.positional[0]) + "'");
    }
    Setup setup;
    if (std::string e = make_setup(args, setup); !e.empty()) return fail(err, e);
    Game game(*setup.position);
    std::string line;
    int line_number = 0;
    while (std::getline(in, line)) {
        ++line_number;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        Result<Move> move = game.play(line);
        if (!move) {
            const std::string shown = line.size() > 40 ? line.substr(0, 40) + "..." : line;
            return fail(err, "line " + std::to_string(line_number) + ": move '" + shown +
                                 "' rejected: " + move.error().message);
        }
        const Position& pos = game.position();
        out << pos.ply() << '\t' << format_move(pos.board(), *move) << '\t'
            << format_position_code(pos) << '\t' << outcome_name(game.status().outcome) << '\t'
            << end_reason_name(game.status().reason) << '\n';
    }
    return 0;
}

int run_analyze(std::span<const std::string_view> argv, std::ostream& out, std::ostream& err) {
    EngineArgs args;
    if (std::string e = parse_args(argv, Command::kAnalyze, args); !e.empty()) return fail(err, e);
    if (!args.positional.empty()) {
        return fail(err, "unexpected argument '" + std::string(args.positional[0]) + "'");
    }
    if (!args.position) return fail(err, "analyze needs --position CODE");
    if (args.depth && args.time) return fail(err, "give --depth or --time, not both");
    AnalysisLimits limits;
    if (args.depth) {
        const auto depth = parse_int(*args.depth);
        if (!depth || *depth < 1 || *depth > kMaxAnalyzeDepth) {
            return fail(err, "--depth must be a number from 1 to " +
                                 std::to_string(kMaxAnalyzeDepth) + ", not '" +
                                 std::string(*args.depth) + "'");
        }
        limits.depth = *depth;
    } else {
        double seconds = kDefaultAnalyzeSeconds;
        if (args.time) {
            const char* begin = args.time->data();
            const char* end = begin + args.time->size();
            const auto [stop, ec] = std::from_chars(begin, end, seconds);
            if (ec != std::errc() || stop != end || !(seconds > 0) || seconds > 3600) {
                return fail(err, "--time must be seconds above 0, at most 3600, not '" +
                                     std::string(*args.time) + "'");
            }
        }
        limits.time = std::chrono::duration_cast<std::chrono::nanoseconds>(
            std::chrono::duration<double>(seconds));
    }
    int line_count = 1;
    if (args.lines) {
        const auto n = parse_int(*args.lines);
        if (!n || *n < 1 || *n > kMaxAnalyzeLines) {
            return fail(err, "--lines must be a number from 1 to " +
                                 std::to_string(kMaxAnalyzeLines) + ", not '" +
                                 std::string(*args.lines) + "'");
        }
        line_count = *n;
    }
    Setup setup;
    if (std::string e = make_setup(args, setup); !e.empty()) return fail(err, e);
    const Position& pos = *setup.position;

    const GameStatus status = evaluate_status(pos, 0);
    if (status.over()) {
        out << "game over: " << outcome_name(status.outcome) << " ("
            << end_reason_name(status.reason) << ")\n";
        return 0;
    }
    const std::vector<AnalysedLine> lines = analyze(pos, limits, line_count);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const AnalysedLine& line = lines[i];
        out << i + 1 << ". " << describe_score(line.score) << " (depth " << line.depth << "):";
        for (const Move& move : line.pv)
            out << ' ' << format_move(pos.board(), move);
        out << '\n';
    }
    return 0;
}

}  // namespace foxgeese::cli
