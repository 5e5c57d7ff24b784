// foxgeese-match: plays two players against each other from varied openings,
// each opening twice with the sides swapped, and reports wins, draws and
// losses with the Elo difference and its 95% margin, overall and per side.
// See bench/README.md for the runs behind the published figures.
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"
#include "eval_weights_file.h"
#include "match_game.h"
#include "match_players.h"
#include "match_statistics.h"

namespace foxgeese::bench {
namespace {

constexpr const char* kUsage = R"(usage: foxgeese-match --a PLAYER --b PLAYER [options]

Players: level1 .. level8 (the bot levels), baseline (Ludii-style alpha-beta,
material only, no transposition table, deepening within --time-ms) or
baseline-d<N> (the same at fixed depth N).

  --variant NAME       standard (default), big_cross or two_foxes
  --geese N            standard only: 13 (default), 15 or 17
  --sideways           standard only: geese may step sideways
  --games N            games, rounded up to a whole number of pairs (default 20)
  --time-ms T          time per move for every player (default: each level's own)
  --nodes N            nodes per move for the engine levels (default: each level's own)
  --contempt C         the engine levels' contempt (default: each level's own)
  --a-time-ms, --b-time-ms, --a-nodes, --b-nodes, --a-contempt, --b-contempt
                       the same for one player only (time or node odds)
  --a-exact 0|1, --b-exact 0|1
                       an engine level with or without the exact solver where it
                       decides the variant (default: the level's own; level 8 has it)
  --a-weights FILE, --b-weights FILE
                       an engine player's evaluation weights for the variant, as
                       foxgeese-tune prints them ({w1, w2, ...})
  --opening-plies P    random plies before a pair's two games (default 4)
  --max-plies M        plies after which a game is a draw (default 1000)
  --seed S             openings and the players' random choices (default 1)
  --verbose            one line per game
  --moves              with --verbose: each game's moves and final position too
  --a-side SIDE        fox or geese: play only the games where A has that side
                       (for probes; the published figures play both)
)";

struct Options {
    std::string a;
    std::string b;
    std::string variant = "standard";
    VariantOptions variant_options;
    int games = 20;
    MatchSettings budget;
    MatchSettings budget_a;  // a player's own overrides of `budget`
    MatchSettings budget_b;
    std::optional<EvalWeights> weights_a;
    std::optional<EvalWeights> weights_b;
    int opening_plies = 4;
    int max_plies = 1000;
    std::uint64_t seed = 1;
    bool verbose = false;
    bool moves = false;
    int a_sides = 3;  // bit 1: A plays the fox, bit 2: A plays the geese
};

template <class T>
bool parse_number(const char* text, T& value) {
    const char* end = text + std::strlen(text);
    const auto [ptr, ec] = std::from_chars(text, end, value);
    return ec == std::errc() && ptr == end && ptr != text;
}

std::optional<Options> parse_options(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string_view flag = argv[i];
        const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
        auto budget_for = [&](std::string_view f) -> MatchSettings& {
            return f.starts_with("--a-")   ? options.budget_a
                   : f.starts_with("--b-") ? options.budget_b
                                           : options.budget;
        };
        auto number = [&](auto& target) {
            ++i;
            return value && parse_number(value, target);
        };
        bool ok = true;
        if (flag == "--a" && value) {
            options.a = argv[++i];
        } else if (flag == "--b" && value) {
            options.b = argv[++i];
        } else if (flag == "--variant" && value) {
            options.variant = argv[++i];
        } else if (flag == "--geese") {
            int geese = 0;
            ok = number(geese);
            options.variant_options.geese = geese;
        } else if (flag == "--sideways") {
            options.variant_options.geese_sideways = true;
        } else if (flag == "--games") {
            ok = number(options.games) && options.games > 0;
        } else if (flag == "--time-ms" || flag == "--a-time-ms" || flag == "--b-time-ms") {
            long ms = 0;
            ok = number(ms) && ms >= 0;
            budget_for(flag).time = std::chrono::milliseconds(ms);
        } else if (flag == "--nodes" || flag == "--a-nodes" || flag == "--b-nodes") {
            ok = number(budget_for(flag).nodes);
        } else if (flag == "--contempt" || flag == "--a-contempt" || flag == "--b-contempt") {
            ok = number(budget_for(flag).contempt) && budget_for(flag).contempt >= 0;
        } else if (flag == "--a-exact" || flag == "--b-exact") {
            ok = number(budget_for(flag).exact) && budget_for(flag).exact >= 0 &&
                 budget_for(flag).exact <= 1;
        } else if (flag == "--opening-plies") {
            ok = number(options.opening_plies) && options.opening_plies >= 0;
        } else if (flag == "--max-plies") {
            ok = number(options.max_plies) && options.max_plies > 0;
        } else if (flag == "--seed") {
            ok = number(options.seed);
        } else if ((flag == "--a-weights" || flag == "--b-weights") && value) {
            auto& weights = flag == "--a-weights" ? options.weights_a : options.weights_b;
            weights = read_eval_weights(argv[++i]);
            ok = weights.has_value();
        } else if (flag == "--verbose") {
            options.verbose = true;
        } else if (flag == "--moves") {
            options.moves = true;
        } else if (flag == "--a-side" && value) {
            const std::string_view side = argv[++i];
            options.a_sides = side == "fox" ? 1 : side == "geese" ? 2 : 0;
            ok = options.a_sides != 0;
        } else {
            ok = false;
        }
        if (!ok) {
            std::fprintf(stderr, "foxgeese-match: bad argument '%s'\n%s", argv[i], kUsage);
            return std::nullopt;
        }
    }
    if (options.a.empty() || options.b.empty()) {
        std::fputs(kUsage, stderr);
        return std::nullopt;
    }
    return options;
}

void print_player_totals(const Player& player) {
    const Player::Totals& t = player.totals();
    if (t.moves == 0) return;
    const double moves = static_cast<double>(t.moves);
    const double seconds = std::chrono::duration<double>(t.time).count();
    std::printf(
        "  %-12s %llu moves, mean depth %.1f, mean nodes %.0f, mean time %.0f ms, %.2f M nodes/s\n",
        player.name().c_str(), static_cast<unsigned long long>(t.moves),
        static_cast<double>(t.depth) / moves, static_cast<double>(t.nodes) / moves,
        1000 * seconds / moves, seconds > 0 ? static_cast<double>(t.nodes) / seconds / 1e6 : 0);
}

int run(const Options& options) {
    const Result<const Variant*> variant = Variant::find(options.variant, options.variant_options);
    if (!variant) {
        std::fprintf(stderr, "foxgeese-match: %s\n", variant.error().message.c_str());
        return 2;
    }
    std::string error;
    auto budget_of = [&](const MatchSettings& own) {
        MatchSettings budget = options.budget;
        if (own.time.count() > 0) budget.time = own.time;
        if (own.nodes > 0) budget.nodes = own.nodes;
        if (own.contempt >= 0) budget.contempt = own.contempt;
        if (own.exact >= 0) budget.exact = own.exact;
        return budget;
    };
    // The players' own random choices get seeds of their own, apart from the openings'.
    std::unique_ptr<Player> a =
        make_player(options.a, budget_of(options.budget_a), options.seed * 2 + 1, error,
                    options.weights_a, (*variant)->id());
    std::unique_ptr<Player> b =
        a ? make_player(options.b, budget_of(options.budget_b), options.seed * 2 + 2, error,
                        options.weights_b, (*variant)->id())
          : nullptr;
    if (!a || !b) {
        std::fprintf(stderr, "foxgeese-match: %s\n", error.c_str());
        return 2;
    }

    const int pairs = (options.games + 1) / 2;
    Tally as_fox;
    Tally as_geese;
    int capped = 0;
    for (int pair = 0; pair < pairs; ++pair) {
        const Position opening =
            random_opening(**variant, options.opening_plies, options.seed * 1000003 + pair);
        for (const bool a_is_fox : {true, false}) {
            if ((options.a_sides & (a_is_fox ? 1 : 2)) == 0) continue;
            Player& fox = a_is_fox ? *a : *b;
            Player& geese = a_is_fox ? *b : *a;
            const GameRecord game = play_game(opening, fox, geese, options.max_plies);
            const double fox_score = fox_side_score(game);
            (a_is_fox ? as_fox : as_geese).add(a_is_fox ? fox_score : 1 - fox_score);
            capped += game.capped();
            if (options.verbose) {
                std::printf(
                    "game %d: %s (fox) - %s (geese): %s %s after %d plies, %d geese left, from "
                    "%s\n",
                    2 * pair + (a_is_fox ? 1 : 2), fox.name().c_str(), geese.name().c_str(),
                    std::string(outcome_name(game.status.outcome)).c_str(),
                    game.capped() ? "ply cap"
                                  : std::string(end_reason_name(game.status.reason)).c_str(),
                    game.plies, game.geese_left, format_position_code(opening).c_str());
                if (options.moves) {
                    std::string line = "  moves:";
                    for (const Move& move : game.moves)
                        line += " " + format_move(opening.board(), move);
                    std::printf("%s\n  final: %s\n", line.c_str(),
                                format_position_code(game.final_position).c_str());
                }
                std::fflush(stdout);
            }
        }
    }

    Tally total = as_fox;
    total.wins += as_geese.wins;
    total.draws += as_geese.draws;
    total.losses += as_geese.losses;
    std::printf("%s: %s vs %s, %d games (%d openings of %d plies, both sides), ",
                std::string((*variant)->name()).c_str(), a->name().c_str(), b->name().c_str(),
                total.games(), pairs, options.opening_plies);
    if (options.budget.time.count() > 0)
        std::printf("%lld ms per move, ", static_cast<long long>(options.budget.time.count()));
    if (options.budget.nodes > 0)
        std::printf("%llu nodes per move, ", static_cast<unsigned long long>(options.budget.nodes));
    std::printf("seed %llu\n", static_cast<unsigned long long>(options.seed));
    std::printf("  %s as fox:   %s\n", a->name().c_str(), format_tally(as_fox).c_str());
    std::printf("  %s as geese: %s\n", a->name().c_str(), format_tally(as_geese).c_str());
    std::printf("  %s total:    %s\n", a->name().c_str(), format_tally(total).c_str());
    if (capped > 0)
        std::printf("  %d games reached the ply cap (%d) and count as draws\n", capped,
                    options.max_plies);
    print_player_totals(*a);
    print_player_totals(*b);
    return 0;
}

}  // namespace
}  // namespace foxgeese::bench

int main(int argc, char** argv) {
    const auto options = foxgeese::bench::parse_options(argc, argv);
    if (!options) return 2;
    try {
        return foxgeese::bench::run(*options);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "foxgeese-match: %s\n", e.what());
        return 1;
    }
}
