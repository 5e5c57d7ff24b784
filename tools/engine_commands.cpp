#include "engine_commands.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "command_input.h"
#include "engine/record/game_record.h"
#include "engine/rules/game.h"
#include "engine/rules/game_status.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/perft.h"
#include "engine/rules/position_code.h"
#include "engine/search/analysis.h"
#ifdef FOXGEESE_CLIENT_COMMANDS
#include "client_commands.h"
#endif

namespace foxgeese::cli {
namespace {

constexpr int kMaxAnalyzeDepth = SearchLimits::kMaxDepth;
constexpr int kMaxAnalyzeLines = 32;
constexpr double kDefaultAnalyzeSeconds = 1.0;

std::optional<int> parse_int(std::string_view text) {
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

struct EngineArgs {
    VariantFlags variant;
    bool divide = false;
    std::vector<std::string> positional;
    // analyze's limits and line count, checked by run_analyze().
    std::string depth;
    std::string time;
    std::string lines;
    const CLI::Option* depth_given = nullptr;
    const CLI::Option* time_given = nullptr;
    const CLI::Option* lines_given = nullptr;
};

bool given(const CLI::Option* option) {
    return option && option->count() > 0;
}

// The variant and the position to start from, or an error message.
struct Setup {
    const Variant* variant = nullptr;
    std::optional<Position> position;
};

std::string make_setup(const VariantFlags& flags, Setup& setup) {
    if (flags.variant.empty()) return "--variant is required (standard, big_cross or two_foxes)";
    VariantOptions options;
    if (std::string e = variant_options(flags, options); !e.empty()) return e;
    Result<const Variant*> variant = Variant::find(flags.variant, options);
    if (!variant) return variant.error().message;
    setup.variant = *variant;
    if (!flags.position_given || flags.position_given->count() == 0) {
        setup.position.emplace(**variant);
        return "";
    }
    Result<Position> pos = parse_position_code(**variant, flags.position);
    if (!pos) return pos.error().message;
    setup.position.emplace(*pos);
    return "";
}

int run_perft(const EngineArgs& args, Io& io) {
    if (args.positional.size() != 1)
        return usage_error(io.err, "perft takes one DEPTH (a number from 0 to 20)");
    const auto depth = parse_int(args.positional[0]);
    if (!depth || *depth < 0 || *depth > 20) {
        return usage_error(io.err,
                           "DEPTH must be a number from 0 to 20, not '" + args.positional[0] + "'");
    }
    Setup setup;
    if (std::string e = make_setup(args.variant, setup); !e.empty()) return usage_error(io.err, e);
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
            io.out << move << " " << nodes << "\n";
        io.out << (*depth == 0 ? 1 : total) << "\n";
        return 0;
    }
    io.out << perft(pos, *depth) << "\n";
    return 0;
}

int run_moves(const EngineArgs& args, Io& io) {
    if (!args.positional.empty())
        return usage_error(io.err, "unexpected argument '" + args.positional[0] + "'");
    if (!args.variant.position_given || args.variant.position_given->count() == 0)
        return usage_error(io.err, "moves needs --position CODE");
    Setup setup;
    if (std::string e = make_setup(args.variant, setup); !e.empty()) return usage_error(io.err, e);
    const Position& pos = *setup.position;
    std::vector<std::string> moves;
    // A game that has ended has no legal moves, whatever the placement allows.
    if (!evaluate_status(pos, 0).over()) {
        for_each_legal_move(pos,
                            [&](const Move& m) { moves.push_back(format_move(pos.board(), m)); });
    }
    std::sort(moves.begin(), moves.end());
    for (const std::string& m : moves)
        io.out << m << "\n";
    return 0;
}

// One line of replay's output: the ply, the move, the position code after
// it and the rules' verdict there.
void write_ply(const Position& after, const std::string& notation, const GameStatus& status,
               std::ostream& out) {
    out << after.ply() << '\t' << notation << '\t' << format_position_code(after) << '\t'
        << outcome_name(status.outcome) << '\t' << end_reason_name(status.reason) << '\n';
}

bool blank(const std::string& line) {
    return line.find_first_not_of(" \t\r") == std::string::npos;
}

// Bare moves, one a line from `line` (line `line_number`) on: each is
// printed as it is played, so the plies before a refused one are out.
int replay_moves(const EngineArgs& args, std::string line, int line_number, std::istream& in,
                 Io& io) {
    Setup setup;
    if (std::string e = make_setup(args.variant, setup); !e.empty()) return usage_error(io.err, e);
    Game game(*setup.position);
    while (true) {
        if (!blank(line)) {
            Result<Move> move = game.play(line);
            if (!move) {
                const std::string shown = line.size() > 40 ? line.substr(0, 40) + "..." : line;
                return usage_error(io.err, "line " + std::to_string(line_number) + ": move '" +
                                               shown + "' rejected: " + move.error().message);
            }
            write_ply(game.position(), format_move(game.position().board(), *move), game.status(),
                      io.out);
        }
        if (!std::getline(in, line)) return 0;
        ++line_number;
    }
}

// A record, read whole and replayed by the parser before anything is
// printed: it names its own variant, options and start.
int replay_record(const EngineArgs& args, std::string text, std::istream& in, Io& io) {
    const VariantFlags& flags = args.variant;
    if (!flags.variant.empty() || given(flags.geese_given) || flags.sideways ||
        given(flags.position_given)) {
        return usage_error(io.err,
                           "a record names its variant, options and start: leave out "
                           "--variant, --geese, --sideways and --position");
    }
    // One byte over the limit is enough for the parser to refuse it.
    read_at_most(in, kMaxRecordBytes + 1, text);
    const auto parsed = parse_record(text);
    if (!parsed.ok()) {
        const RecordError& e = parsed.error();
        return usage_error(io.err, "line " + std::to_string(e.line) + ", column " +
                                       std::to_string(e.column) + ": " + e.message);
    }
    const ParsedRecord& record = parsed.value();
    for (std::size_t i = 0; i < record.played.size(); ++i) {
        write_ply(record.played[i].after, record.record.moves[i].notation, record.played[i].status,
                  io.out);
    }
    return 0;
}

// Moves from standard input or FILE: a game record (its first line that is
// not blank is a tag) or bare moves, one a line.
int run_replay(const EngineArgs& args, Io& io) {
    if (args.positional.size() > 1)
        return usage_error(io.err, "unexpected argument '" + args.positional[1] + "'");
    CommandInput input(args.positional.empty() ? "-" : args.positional[0], io.in);
    if (!input.error().empty()) return usage_error(io.err, input.error());
    std::istream& in = input.stream();
    std::string skipped;
    std::string line;
    int line_number = 1;
    while (std::getline(in, line) && blank(line)) {
        skipped += line + '\n';
        ++line_number;
    }
    if (!blank(line) && line[line.find_first_not_of(" \t\r")] == '[')
        return replay_record(args, skipped + line + '\n', in, io);
    return replay_moves(args, line, line_number, in, io);
}

// The best moves by the engine's search: per line its rank, score, depth
// and principal variation. With --depth the output depends on the
// arguments alone; --time (default 1 s) depends on the machine.
int run_analyze(const EngineArgs& args, Io& io) {
    if (!args.positional.empty())
        return usage_error(io.err, "unexpected argument '" + args.positional[0] + "'");
    if (!given(args.variant.position_given))
        return usage_error(io.err, "analyze needs --position CODE");
    if (given(args.depth_given) && given(args.time_given))
        return usage_error(io.err, "give --depth or --time, not both");
    AnalysisLimits limits;
    if (given(args.depth_given)) {
        const auto depth = parse_int(args.depth);
        if (!depth || *depth < 1 || *depth > kMaxAnalyzeDepth) {
            return usage_error(io.err, "--depth must be a number from 1 to " +
                                           std::to_string(kMaxAnalyzeDepth) + ", not '" +
                                           args.depth + "'");
        }
        limits.depth = *depth;
    } else {
        double seconds = kDefaultAnalyzeSeconds;
        if (given(args.time_given)) {
            const char* begin = args.time.data();
            const char* end = begin + args.time.size();
            const auto [stop, ec] = std::from_chars(begin, end, seconds);
            if (ec != std::errc() || stop != end || !(seconds > 0) || seconds > 3600) {
                return usage_error(io.err, "--time must be seconds above 0, at most 3600, not '" +
                                               args.time + "'");
            }
        }
        limits.time = std::chrono::duration_cast<std::chrono::nanoseconds>(
            std::chrono::duration<double>(seconds));
    }
    int line_count = 1;
    if (given(args.lines_given)) {
        const auto n = parse_int(args.lines);
        if (!n || *n < 1 || *n > kMaxAnalyzeLines) {
            return usage_error(io.err, "--lines must be a number from 1 to " +
                                           std::to_string(kMaxAnalyzeLines) + ", not '" +
                                           args.lines + "'");
        }
        line_count = *n;
    }
    Setup setup;
    if (std::string e = make_setup(args.variant, setup); !e.empty()) return usage_error(io.err, e);
    const Position& pos = *setup.position;
    const GameStatus status = evaluate_status(pos, 0);
    if (status.over()) {
        io.out << "game over: " << outcome_name(status.outcome) << " ("
               << end_reason_name(status.reason) << ")\n";
        return 0;
    }
    const std::vector<AnalysedLine> lines = analyze(pos, limits, line_count);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const AnalysedLine& line = lines[i];
        io.out << i + 1 << ". " << describe_score(line.score) << " (depth " << line.depth << "):";
        for (const Move& move : line.pv)
            io.out << ' ' << format_move(pos.board(), move);
        io.out << '\n';
    }
    return 0;
}

#ifdef FOXGEESE_CLIENT_COMMANDS
// Whether any of the variant flags was given.
bool any_variant_flag(const CLI::App& command) {
    for (const char* flag : {"--variant", "--geese", "--sideways", "--position", "--divide"}) {
        if (const CLI::Option* option = command.get_option_no_throw(flag);
            option && option->count())
            return true;
    }
    return false;
}
#endif

}  // namespace

void add_variant_flags(CLI::App& command, VariantFlags& flags) {
    command.add_option("--variant", flags.variant);
    flags.geese_given = command.add_option("--geese", flags.geese);
    command.add_flag("--sideways", flags.sideways);
    flags.position_given = command.add_option("--position", flags.position);
}

std::string variant_options(const VariantFlags& flags, VariantOptions& options) {
    if (flags.geese_given && flags.geese_given->count() > 0) {
        const auto n = parse_int(flags.geese);
        if (!n) return "--geese takes a number (13, 15 or 17), not '" + flags.geese + "'";
        options.geese = *n;
    }
    if (flags.sideways) options.geese_sideways = true;
    return "";
}

void add_engine_commands(CommandLine& line) {
    auto perft = std::make_shared<EngineArgs>();
    CLI::App& perft_command = line.add("perft", perft->positional,
                                       [perft, &line] { return run_perft(*perft, line.io()); });
    add_variant_flags(perft_command, perft->variant);
    perft_command.add_flag("--divide", perft->divide);

    // `moves` is both the engine's (--variant ... --position CODE) and the
    // client's (GAME_ID): any engine flag, or no argument at all, keeps the
    // engine command, so its behaviour does not change.
    auto moves = std::make_shared<EngineArgs>();
    CLI::App& moves_command = line.add("moves", moves->positional, [] { return 0; });
#ifdef FOXGEESE_CLIENT_COMMANDS
    auto server = std::make_shared<ServerFlags>();
    add_server_flags(moves_command, *server);
    line.replace_run("moves", [moves, server, &line, &moves_command] {
        if (!any_variant_flag(moves_command) && moves->positional.size() == 1)
            return run_game_moves(moves->positional[0], *server, line.io());
        return run_moves(*moves, line.io());
    });
#else
    line.replace_run("moves", [moves, &line] { return run_moves(*moves, line.io()); });
#endif
    add_variant_flags(moves_command, moves->variant);

    auto replay = std::make_shared<EngineArgs>();
    CLI::App& replay_command = line.add("replay", replay->positional,
                                        [replay, &line] { return run_replay(*replay, line.io()); });
    add_variant_flags(replay_command, replay->variant);

    auto analysis = std::make_shared<EngineArgs>();
    CLI::App& analyze_command = line.add("analyze", analysis->positional, [analysis, &line] {
        return run_analyze(*analysis, line.io());
    });
    add_variant_flags(analyze_command, analysis->variant);
    analysis->depth_given = analyze_command.add_option("--depth", analysis->depth);
    analysis->time_given = analyze_command.add_option("--time", analysis->time);
    analysis->lines_given = analyze_command.add_option("--lines", analysis->lines);
}

}  // namespace foxgeese::cli
