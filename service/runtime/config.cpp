#include "service/runtime/config.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <memory>
#include <string_view>
#include <thread>
#include <vector>

#include "service/runtime/embedded_postgres.h"
#include "service/runtime/listen_address.h"
#include "service/runtime/text_encoding.h"

#ifndef FOXGEESE_VERSION
#define FOXGEESE_VERSION "unknown"
#endif

namespace foxgeese::service {

int default_bot_threads() {
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency() / 2));
}

namespace {

constexpr std::string_view kRedacted = "REDACTED";

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// The checks below run in CLI11 on every value, a flag's or its environment
// variable's. A failure reads "'<value>' <what was expected>"; CLI11 puts the
// flag's name in front. They have no description of their own: --help shows
// the range in the flag's text.
std::string bad(const std::string& value, const std::string& expected) {
    return "'" + value + "' " + expected;
}

// A whole decimal number within CLI::Range(min, max), passed on in canonical
// form: CLI11's own conversion would read 010 as octal and 0x50 as hex.
CLI::Validator integer_in(long min, long max, const std::string& what) {
    const std::string expected =
        "is not " + what + " (" + std::to_string(min) + ".." + std::to_string(max) + ")";
    return CLI::Validator(
        [in_range = CLI::Range(min, max), expected](std::string& value) {
            long number = 0;
            const char* end = value.data() + value.size();
            const auto [ptr, ec] = std::from_chars(value.data(), end, number);
            const std::string canonical = std::to_string(number);
            if (value.empty() || ec != std::errc() || ptr != end || !in_range(canonical).empty())
                return bad(value, expected);
            value = canonical;
            return std::string();
        },
        "");
}

// One of `choices` in any case (CLI::IsMember), passed on as the choice.
CLI::Validator one_of(const std::vector<std::string>& choices, const std::string& expected) {
    return CLI::Validator(
        [member = CLI::IsMember(choices, CLI::ignore_case), expected](std::string& value) {
            std::string choice = value;
            if (!member(choice).empty()) return bad(value, expected);
            value = choice;
            return std::string();
        },
        "");
}

CLI::Validator boolean() {
    return one_of({"true", "1", "yes", "on", "false", "0", "no", "off"},
                  "is not a boolean (true or false)");
}

CLI::Validator non_empty() {
    return CLI::Validator(
        [](std::string& value) { return value.empty() ? bad(value, "must not be empty") : ""; },
        "");
}

CLI::Validator one_word() {
    return CLI::Validator(
        [](std::string& value) {
            const bool spaced = std::any_of(value.begin(), value.end(),
                                            [](unsigned char c) { return std::isspace(c) != 0; });
            return value.empty() || spaced ? bad(value, "must be non-empty and without spaces")
                                           : "";
        },
        "");
}

// "https://a.example, http://b.example" or "*" as a list, blanks dropped.
std::vector<std::string> split_origins(const std::string& list) {
    std::vector<std::string> origins;
    std::size_t start = 0;
    while (start <= list.size()) {
        std::size_t end = list.find(',', start);
        if (end == std::string::npos) end = list.size();
        std::string origin = list.substr(start, end - start);
        origin.erase(0, origin.find_first_not_of(' '));
        origin.erase(origin.find_last_not_of(' ') + 1);
        if (!origin.empty()) origins.push_back(origin);
        start = end + 1;
    }
    return origins;
}

CLI::Validator origin_list() {
    return CLI::Validator(
        [](std::string& value) {
            for (const std::string& origin : split_origins(value)) {
                if (origin != "*" && origin.rfind("http://", 0) != 0 &&
                    origin.rfind("https://", 0) != 0)
                    return bad(value, "lists an origin that is not * or http(s)://host");
            }
            return std::string();
        },
        "");
}

// An http(s) origin without a path, its trailing slash dropped; empty is
// allowed (the request's Host is used then).
CLI::Validator public_url() {
    return CLI::Validator(
        [](std::string& value) {
            if (value.empty()) return std::string();
            while (value.size() > 1 && value.back() == '/')
                value.pop_back();
            const std::size_t scheme = value.rfind("https://", 0) == 0  ? 8
                                       : value.rfind("http://", 0) == 0 ? 7
                                                                        : 0;
            const std::string host = value.substr(scheme);
            const bool plain = !host.empty() && host.find_first_not_of(
                                                    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRST"
                                                    "UVWXYZ0123456789.-:[]") == std::string::npos;
            if (scheme == 0 || !plain)
                return bad(value, "is not an origin such as https://host[:port]");
            return std::string();
        },
        "");
}

// A flag with a value, read into `field` (whose value now is the default),
// with its environment variable; the last of repeated flags wins.
template <class T>
CLI::Option* add(CLI::App& app, const char* flag, T& field, const char* env, const char* value_name,
                 const char* help) {
    return app.add_option(flag, field, help)
        ->envname(env)
        ->type_name(value_name)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)
        ->capture_default_str();
}

// A boolean flag: alone it means true; it also takes a value (--flag=false,
// --flag false).
CLI::Option* add_switch(CLI::App& app, const char* flag, bool& field, const char* env,
                        const char* help) {
    return app.add_flag(flag, field, help)
        ->expected(0, 1)
        ->envname(env)
        ->type_name("BOOL")
        ->transform(boolean())
        ->default_str(field ? "true" : "false");
}

// Every flag of the server, each in one place.
void add_flags(CLI::App& app, ServerConfig& c, std::string& cors_origins) {
    add(app, "--database-url", c.database_url, "DATABASE_URL", "URL",
        "PostgreSQL URL or key=value string; empty runs the embedded PostgreSQL")
        ->default_str("(empty: embedded)");
    add(app, "--data-dir", c.data_dir, "FOXGEESE_DATA_DIR", "DIR",
        "where the embedded PostgreSQL keeps its data")
        ->check(non_empty());
    add(app, "--grpc-port", c.grpc_port, "FOXGEESE_GRPC_PORT", "PORT", "gRPC port (1..65535)")
        ->transform(integer_in(1, 65535, "a port number"));
    add(app, "--http-port", c.http_port, "FOXGEESE_HTTP_PORT", "PORT", "HTTP/JSON port (1..65535)")
        ->transform(integer_in(1, 65535, "a port number"));
    add(app, "--listen-address", c.listen_address, "FOXGEESE_LISTEN_ADDRESS", "ADDR",
        "address both ports listen on")
        ->check(one_word());
    add(app, "--db-pool-size", c.db_pool_size, "FOXGEESE_DB_POOL_SIZE", "N",
        "database connections (1..256)")
        ->transform(integer_in(1, 256, "a pool size"));
    add(app, "--move-batch-size", c.move_batch_size, "FOXGEESE_MOVE_BATCH_SIZE", "N",
        "the most moves of different games committed together (1..256; 1: each alone)")
        ->transform(integer_in(1, 256, "a number of moves"));
    add(app, "--move-commits-in-flight", c.move_commits_in_flight,
        "FOXGEESE_MOVE_COMMITS_IN_FLIGHT", "N",
        "commits of moves that may be in flight at once (1..64; the pool bounds them too)")
        ->transform(integer_in(1, 64, "a number of commits"));
    add(app, "--db-timeout-ms", c.db_timeout_ms, "FOXGEESE_DB_TIMEOUT_MS", "MS",
        "the longest one database call may take before it is cancelled (100..600000)")
        ->transform(integer_in(100, 600'000, "a number of milliseconds"));
    add(app, "--log-level", c.log_level, "FOXGEESE_LOG_LEVEL", "LEVEL",
        "trace, debug, info, warn or error")
        ->transform(one_of({"trace", "debug", "info", "warn", "error"},
                           "is not one of trace, debug, info, warn, error"));
    add(app, "--log-format", c.log_format, "FOXGEESE_LOG_FORMAT", "FORMAT",
        "text, or json (one object per line)")
        ->transform(one_of({"text", "json"}, "is not one of text, json"));
    add_switch(app, "--access-log", c.access_log, "FOXGEESE_ACCESS_LOG",
               "write a line per request and finished stream at info, in the log format (true or "
               "false)");
    add(app, "--drain-seconds", c.drain_seconds, "FOXGEESE_DRAIN_SECONDS", "N",
        "on shutdown, seconds to let calls and streams finish (0..600)")
        ->transform(integer_in(0, 600, "a number of seconds"));
    add_switch(app, "--migrate-on-start", c.migrate_on_start, "FOXGEESE_MIGRATE_ON_START",
               "apply database migrations when serve starts (true or false)");
    add(app, "--cors-origins", cors_origins, "FOXGEESE_CORS_ORIGINS", "LIST",
        "origins (comma-separated, or *) whose browser pages may call the HTTP/JSON API")
        ->check(origin_list())
        ->default_str("(empty: no cross-origin access)");
    add(app, "--first-move-seconds", c.first_move_seconds, "FOXGEESE_FIRST_MOVE_SECONDS", "N",
        "real-time games: seconds each side has for its first move before the game is aborted "
        "(5..3600)")
        ->transform(integer_in(5, 3600, "a number of seconds"));
    add(app, "--open-game-ttl-seconds", c.open_game_ttl_seconds, "FOXGEESE_OPEN_GAME_TTL_SECONDS",
        "N", "seconds a game waits for an opponent before it expires (60..2592000)")
        ->transform(integer_in(60, 2'592'000, "a number of seconds"));
    add(app, "--opponent-gone-seconds", c.opponent_gone_seconds, "FOXGEESE_OPPONENT_GONE_SECONDS",
        "N",
        "real-time games: seconds a seat holder must be gone on their turn before the opponent "
        "may claim (5..3600)")
        ->transform(integer_in(5, 3600, "a number of seconds"));
    add(app, "--rematch-linger-seconds", c.rematch_linger_seconds,
        "FOXGEESE_REMATCH_LINGER_SECONDS", "N",
        "seconds a watch stream stays open after the game for a rematch offer (0..3600)")
        ->transform(integer_in(0, 3600, "a number of seconds"));
    add(app, "--create-per-minute", c.create_per_minute, "FOXGEESE_CREATE_PER_MINUTE", "N",
        "CreateGame calls per client address per minute, half of them at once (0: no limit; "
        "..100000)")
        ->transform(integer_in(0, 100'000, "a rate"));
    add(app, "--import-per-minute", c.import_per_minute, "FOXGEESE_IMPORT_PER_MINUTE", "N",
        "ImportGame calls per client address per minute, half of them at once (0: no limit; "
        "..100000)")
        ->transform(integer_in(0, 100'000, "a rate"));
    add(app, "--join-per-minute", c.join_per_minute, "FOXGEESE_JOIN_PER_MINUTE", "N",
        "JoinGame calls per client address per minute, a third of them at once (0: no limit; "
        "..100000)")
        ->transform(integer_in(0, 100'000, "a rate"));
    add(app, "--moves-per-second", c.moves_per_second, "FOXGEESE_MOVES_PER_SECOND", "N",
        "MakeMove calls per seat token per second, four times that at once (0: no limit; ..10000)")
        ->transform(integer_in(0, 10'000, "a rate"));
    add(app, "--seat-actions-per-minute", c.seat_actions_per_minute,
        "FOXGEESE_SEAT_ACTIONS_PER_MINUTE", "N",
        "draw and rematch offers and answers, claims, resignations and aborts per seat token per "
        "minute, a third of them at once (0: no limit; ..100000)")
        ->transform(integer_in(0, 100'000, "a rate"));
    add(app, "--watch-streams-per-token", c.watch_streams_per_token,
        "FOXGEESE_WATCH_STREAMS_PER_TOKEN", "N",
        "WatchGame streams open at once per seat token (0: no limit; ..100000)")
        ->transform(integer_in(0, 100'000, "a number of streams"));
    add(app, "--watch-streams-per-address", c.watch_streams_per_address,
        "FOXGEESE_WATCH_STREAMS_PER_ADDRESS", "N",
        "WatchGame streams without a seat token open at once per client address (0: no limit; "
        "..100000)")
        ->transform(integer_in(0, 100'000, "a number of streams"));
    add(app, "--watch-opens-per-minute", c.watch_opens_per_minute,
        "FOXGEESE_WATCH_OPENS_PER_MINUTE", "N",
        "WatchGame streams opened per seat token per minute, a third of them at once; twenty "
        "times that per client address for streams without a token (0: no limit; ..100000)")
        ->transform(integer_in(0, 100'000, "a rate"));
    add(app, "--http-connections-per-address", c.http_connections_per_address,
        "FOXGEESE_HTTP_CONNECTIONS_PER_ADDRESS", "N",
        "HTTP connections open at once per client address, the one over it closed at once (0: no "
        "cap; ..1000000; not applied behind --trusted-proxy-hops)")
        ->transform(integer_in(0, 1'000'000, "a number of connections"));
    add(app, "--watch-walk-threads", c.watch_walk_threads, "FOXGEESE_WATCH_WALK_THREADS", "N",
        "threads that share the delivery of one event to a game's watchers, the watch hub's own "
        "included (0: one per core; ..64)")
        ->transform(integer_in(0, 64, "a number of threads"))
        ->default_str("one per core (here " +
                      std::to_string(std::max(1u, std::thread::hardware_concurrency())) + ")");
    add(app, "--trusted-proxy-hops", c.trusted_proxy_hops, "FOXGEESE_TRUSTED_PROXY_HOPS", "N",
        "proxies in front that append to X-Forwarded-For (the gateway: 1); 0 limits by the "
        "connection's peer (0..10)")
        ->transform(integer_in(0, 10, "a number of hops"));
    add(app, "--analysis-concurrency", c.analysis_concurrency, "FOXGEESE_ANALYSIS_CONCURRENCY", "N",
        "AnalyzePosition and AnalyzeGame searches running at once on this server; more are "
        "refused with ANALYSIS_BUSY (1..64)")
        ->transform(integer_in(1, 64, "a number of analyses"));
    add(app, "--analyses-per-address", c.analyses_per_address, "FOXGEESE_ANALYSES_PER_ADDRESS", "N",
        "analyses running at once per client address (0: no limit; ..64)")
        ->transform(integer_in(0, 64, "a number of analyses"));
    add(app, "--analysis-wait-ms", c.analysis_wait_ms, "FOXGEESE_ANALYSIS_WAIT_MS", "MS",
        "how long an analysis waits in line for a place when all are taken; a freed place goes to "
        "the waiting client that used the least analysis time lately (0: refused at once with "
        "ANALYSIS_BUSY; ..60000)")
        ->transform(integer_in(0, 60'000, "a number of milliseconds"));
    add(app, "--tablebase-dir", c.tablebase_dir, "FOXGEESE_TABLEBASE_DIR", "DIR",
        "the tablebase's layer files (foxgeese tablebase build), mapped read-only: exact values "
        "for GetTablebase, analysis and the bot in standard with forward-only geese")
        ->default_str("(empty: no tablebase)");
    add(app, "--tablebase-per-minute", c.tablebase_per_minute, "FOXGEESE_TABLEBASE_PER_MINUTE", "N",
        "GetTablebase calls per client address per minute, a sixth of them at once (0: no limit; "
        "..1000000)")
        ->transform(integer_in(0, 1'000'000, "a rate"));
    add(app, "--move-cache-games", c.move_cache_games, "FOXGEESE_MOVE_CACHE_GAMES", "N",
        "games this server keeps a copy of after moving in them, so that their next move skips a "
        "database read (0: read every time; ..1000000)")
        ->transform(integer_in(0, 1'000'000, "a number of games"));
    add_switch(app, "--web-client", c.web_client, "FOXGEESE_WEB_CLIENT",
               "serve the reference web client on the HTTP port; false for an API-only deployment");
    add(app, "--previews-per-minute", c.previews_per_minute, "FOXGEESE_PREVIEWS_PER_MINUTE", "N",
        "board images and share pages per client address per minute; more are RATE_LIMITED (0: "
        "no limit; ..100000)")
        ->transform(integer_in(0, 100'000, "a number of requests"));
    add(app, "--animations-per-minute", c.animations_per_minute, "FOXGEESE_ANIMATIONS_PER_MINUTE",
        "N",
        "game animations (GIF) per client address per minute; more are RATE_LIMITED (0: no limit; "
        "..10000)")
        ->transform(integer_in(0, 10'000, "a number of requests"));
    add(app, "--public-url", c.public_url, "FOXGEESE_PUBLIC_URL", "URL",
        "the site's address as shared cards link it (https://host[:port], no path); empty: the "
        "request's Host header")
        ->transform(public_url());
    add(app, "--bot-threads", c.bot_threads, "FOXGEESE_BOT_THREADS", "N",
        "bot searches at once on this server; more owed bot moves wait for a free one here or on "
        "another server (0: none here; ..64)")
        ->transform(integer_in(0, 64, "a number of threads"))
        ->default_str("half the cores, at least 1 (here " + std::to_string(c.bot_threads) + ")");
    add(app, "--bot-games-per-address", c.bot_games_per_address, "FOXGEESE_BOT_GAMES_PER_ADDRESS",
        "N",
        "bot games in progress at once per client address; CreateGame with a bot beyond is "
        "RATE_LIMITED (0: no limit; ..10000)")
        ->transform(integer_in(0, 10'000, "a number of games"));
    add(app, "--bot-lease-seconds", c.bot_lease_seconds, "FOXGEESE_BOT_LEASE_SECONDS", "N",
        "how long a server's claim on a bot move holds unless renewed: another server takes the "
        "move over this long after the claimant died (1..60)")
        ->transform(integer_in(1, 60, "a number of seconds"));
    add(app, "--bot-test-delay-ms", c.bot_test_delay_ms, "FOXGEESE_BOT_TEST_DELAY_MS", "MS",
        "tests only: wait this long before each bot search, to catch a server thinking (0..600000)")
        ->transform(integer_in(0, 600'000, "a number of milliseconds"));
}

// --help in the form the deploy checks read (tests/deploy/lib.mjs):
//   --grpc-port PORT
//       gRPC port (1..65535)
//       env FOXGEESE_GRPC_PORT, default 50051
class HelpFormatter : public CLI::Formatter {
  public:
    std::string make_help(const CLI::App* app, std::string, CLI::AppFormatMode) const override {
        std::string text =
            "usage: foxgeese-server [serve|migrate] [flags]\n"
            "\n"
            "Commands:\n";
        for (const CLI::App* command : app->get_subcommands({})) {
            text += "  " + command->get_name() + std::string(9 - command->get_name().size(), ' ') +
                    command->get_description() + "\n";
        }
        text +=
            "\n"
            "Flags (--flag=value or --flag value; a BOOL flag alone means true; a flag beats\n"
            "its environment variable, an empty environment variable counts as unset):\n";
        std::string plain;  // --help and --version, last
        for (const CLI::Option* option : app->get_options()) {
            if (option->get_envname().empty()) {
                plain += "  " + option->get_name() +
                         std::string(11 - option->get_name().size(), ' ') +
                         option->get_description() + "\n";
                continue;
            }
            text += "  " + option->get_name() + " " + option->get_type_name() + "\n";
            text += "      " + option->get_description() + "\n";
            text += "      env " + option->get_envname() + ", default " +
                    option->get_default_str() + "\n";
        }
        return text + plain;
    }
};

// The server's command line: flags bound to `config`, their defaults taken
// from it, and the two commands.
struct CommandLine {
    CLI::App app{"foxgeese-server"};
    CLI::App* serve = nullptr;
    CLI::App* migrate = nullptr;
    std::string cors_origins;

    explicit CommandLine(ServerConfig& config) {
        app.set_help_flag();  // ours below, which asking for help with a bad value does not stop
        app.add_flag("--help,-h", config.show_help, "print this text and exit");
        app.add_flag("--version", config.show_version, "print the version and exit");
        app.allow_extras();
        add_flags(app, config, cors_origins);
        serve = app.add_subcommand("serve", "run the gRPC and HTTP/JSON server (the default)")
                    ->fallthrough()
                    ->allow_extras();
        migrate = app.add_subcommand("migrate", "apply the database migrations and exit")
                      ->fallthrough()
                      ->allow_extras();
        app.require_subcommand(0, 1);
        app.formatter(std::make_shared<HelpFormatter>());
    }

    bool asked_for_help() const {
        return app.get_option("--help")->count() > 0 || app.get_option("--version")->count() > 0;
    }
};

// Redaction reads the two forms of a connection string itself, not through
// libpq's PQconninfoParse: that refuses an unterminated quote, a key in
// capitals or an unencoded '@' in a URL's password, and the start-up line
// must mask those too (it is logged before libpq sees the URL).
bool is_secret_key(std::string_view key) {
    // A key that does not decode is checked as it stands.
    const std::string decoded = percent_decode(key, false).value_or(std::string(key));
    return lower(decoded).find("password") != std::string::npos;
}

// postgresql://user:password@host/db?password=...&sslpassword=...
std::string redact_uri(const std::string& url, std::size_t authority_start) {
    std::string result = url.substr(0, authority_start);
    std::string_view rest = std::string_view(url).substr(authority_start);
    // The last '@' ends the user info even when the password holds an unencoded '@'.
    if (const std::size_t at = rest.rfind('@'); at != std::string_view::npos) {
        const std::string_view userinfo = rest.substr(0, at);
        if (const std::size_t colon = userinfo.find(':'); colon != std::string_view::npos) {
            result += userinfo.substr(0, colon + 1);
            result += kRedacted;
            rest = rest.substr(at);
        }
    }
    const std::size_t query = rest.find('?');
    result += rest.substr(0, query);
    if (query == std::string_view::npos) return result;
    result += '?';
    const std::string_view params = rest.substr(query + 1);
    for (std::size_t pos = 0;;) {
        const std::size_t amp = params.find('&', pos);
        const std::string_view param =
            params.substr(pos, amp == std::string_view::npos ? amp : amp - pos);
        const std::size_t eq = param.find('=');
        if (eq != std::string_view::npos && is_secret_key(param.substr(0, eq))) {
            result += param.substr(0, eq + 1);
            result += kRedacted;
        } else {
            result += param;
        }
        if (amp == std::string_view::npos) break;
        result += '&';
        pos = amp + 1;
    }
    return result;
}

// host=/tmp password='it''s' dbname=x: values are bare words or single-quoted
// with backslash escapes, as libpq reads them.
std::string redact_keywords(const std::string& text) {
    std::string result;
    std::size_t i = 0;
    const auto is_space = [&](std::size_t at) {
        return at < text.size() && std::isspace(static_cast<unsigned char>(text[at])) != 0;
    };
    while (i < text.size()) {
        const std::size_t start = i;
        while (is_space(i))
            ++i;
        const std::size_t key_start = i;
        while (i < text.size() && text[i] != '=' && !is_space(i))
            ++i;
        const std::string key = text.substr(key_start, i - key_start);
        while (is_space(i))
            ++i;
        if (i >= text.size() || text[i] != '=') {
            result += text.substr(start, i - start);
            continue;
        }
        ++i;
        while (is_space(i))
            ++i;
        result += text.substr(start, i - start);
        const std::size_t value_start = i;
        if (i < text.size() && text[i] == '\'') {
            for (++i; i < text.size() && text[i] != '\''; ++i) {
                if (text[i] == '\\') ++i;
            }
            if (i < text.size()) ++i;
        } else {
            for (; i < text.size() && !is_space(i); ++i) {
                if (text[i] == '\\') ++i;
            }
        }
        i = std::min(i, text.size());
        if (is_secret_key(key)) {
            result += kRedacted;
        } else {
            result += text.substr(value_start, i - value_start);
        }
    }
    return result;
}

// Whether a flag was given on the command line (else its value came from its
// environment variable), for error messages that say where a bad value is.
bool on_command_line(int argc, const char* const* argv, std::string_view flag) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == flag || (arg.size() > flag.size() && arg.substr(0, flag.size()) == flag &&
                            arg[flag.size()] == '='))
            return true;
    }
    return false;
}

// What CLI11 leaves unparsed, in this program's words.
void refuse_extras(const std::vector<std::string>& extras, const std::string& command) {
    if (extras.empty()) return;
    const std::string& first = extras.front();
    if (first.size() > 1 && first[0] == '-')
        throw ConfigError("unknown flag '" + first.substr(0, first.find('=')) + "' (see --help)");
    if (command.empty())
        throw ConfigError("unknown command '" + first +
                          "': expected serve or migrate (see --help)");
    throw ConfigError("unexpected argument '" + first + "' after the command '" + command + "'");
}

// The arguments as CLI11 takes them: reversed, and "--flag=" as "--flag" and
// an empty value. CLI11 2.1 reads "--flag=" as a flag given no value; here an
// empty value means something ("--database-url=" picks the embedded
// PostgreSQL over DATABASE_URL). A BOOL flag keeps CLI11's reading (true).
std::vector<std::string> cli11_arguments(const CLI::App& app, int argc, const char* const* argv) {
    std::vector<std::string> args;
    for (int i = argc - 1; i >= 1; --i) {
        const std::string arg = argv[i];
        const CLI::Option* option = arg.size() > 3 && arg.rfind("--", 0) == 0 && arg.back() == '='
                                        ? app.get_option_no_throw(arg.substr(0, arg.size() - 1))
                                        : nullptr;
        if (option != nullptr && option->get_expected_min() > 0) {
            args.push_back("");
            args.push_back(arg.substr(0, arg.size() - 1));
        } else {
            args.push_back(arg);
        }
    }
    return args;
}

// A value CLI11 refused ("--grpc-port: '0' is not a port number (1..65535)"),
// under its environment variable when it came from there.
ConfigError refused_value(const CLI::App& app, const std::string& what, int argc,
                          const char* const* argv) {
    const std::string flag = what.substr(0, what.find(':'));
    const CLI::Option* option = app.get_option_no_throw(flag);
    if (option == nullptr || option->get_envname().empty() || on_command_line(argc, argv, flag))
        return ConfigError(what);
    return ConfigError("environment variable " + option->get_envname() + what.substr(flag.size()));
}

}  // namespace

ServerConfig parse_server_config(int argc, const char* const* argv) {
    ServerConfig config;
    config.data_dir = EmbeddedPostgres::default_data_dir();
    CommandLine line(config);
    try {
        line.app.parse(cli11_arguments(line.app, argc, argv));
    } catch (const CLI::ArgumentMismatch& e) {
        // "--grpc-port: 1 required PORT missing": the flag is the prefix.
        const std::string what = e.what();
        const std::string flag = what.substr(0, what.find(':'));
        const CLI::Option* option = line.app.get_option_no_throw(flag);
        const std::string value = option ? option->get_type_name() : "VALUE";
        throw ConfigError(flag + " needs a value (" + flag + " " + value + " or " + flag + "=" +
                          value + ")");
    } catch (const CLI::ValidationError& e) {
        if (line.asked_for_help()) return config;
        throw refused_value(line.app, e.what(), argc, argv);
    } catch (const CLI::ParseError& e) {
        if (line.asked_for_help()) return config;
        throw ConfigError(e.what());
    }
    if (config.show_help || config.show_version) return config;
    const std::string command = line.migrate->parsed() ? "migrate"
                                : line.serve->parsed() ? "serve"
                                                       : "";
    refuse_extras(line.serve->remaining(), "serve");
    refuse_extras(line.migrate->remaining(), "migrate");
    refuse_extras(line.app.remaining(), command);
    if (line.migrate->parsed()) config.command = ServerCommand::kMigrate;
    config.cors_origins = split_origins(line.cors_origins);
    return config;
}

std::string server_help_text() {
    ServerConfig defaults;
    defaults.data_dir = EmbeddedPostgres::default_data_dir();
    CommandLine line(defaults);
    return line.app.help();
}

std::string server_version_text() {
    return std::string("foxgeese-server ") + FOXGEESE_VERSION;
}

std::string redact_database_url(const std::string& url) {
    const std::string head = lower(url.substr(0, std::min<std::size_t>(url.size(), 16)));
    for (const std::string_view scheme : {"postgresql://", "postgres://"}) {
        if (head.rfind(scheme, 0) == 0) return redact_uri(url, scheme.size());
    }
    if (url.find('=') != std::string::npos) return redact_keywords(url);
    return url;
}

std::string to_string(ServerCommand command) {
    return command == ServerCommand::kMigrate ? "migrate" : "serve";
}

std::string describe_config(const ServerConfig& config) {
    std::string text = "command=" + to_string(config.command);
    if (config.database_url.empty()) {
        text += " database=embedded data_dir=" + config.data_dir;
    } else {
        text += " database_url=" + redact_database_url(config.database_url);
    }
    text += " grpc=" + host_port(config.listen_address, config.grpc_port);
    text += " http=" + host_port(config.listen_address, config.http_port);
    text += " db_pool_size=" + std::to_string(config.db_pool_size);
    text += " db_timeout_ms=" + std::to_string(config.db_timeout_ms);
    text += " move_batch_size=" + std::to_string(config.move_batch_size) +
            " move_commits_in_flight=" + std::to_string(config.move_commits_in_flight);
    text += " log_level=" + config.log_level + " log_format=" + config.log_format;
    text += std::string(" access_log=") + (config.access_log ? "true" : "false");
    text += " drain_seconds=" + std::to_string(config.drain_seconds);
    text += " first_move_seconds=" + std::to_string(config.first_move_seconds) +
            " open_game_ttl_seconds=" + std::to_string(config.open_game_ttl_seconds) +
            " opponent_gone_seconds=" + std::to_string(config.opponent_gone_seconds) +
            " rematch_linger_seconds=" + std::to_string(config.rematch_linger_seconds) +
            " create_per_minute=" + std::to_string(config.create_per_minute) +
            " import_per_minute=" + std::to_string(config.import_per_minute) +
            " join_per_minute=" + std::to_string(config.join_per_minute) +
            " moves_per_second=" + std::to_string(config.moves_per_second) +
            " seat_actions_per_minute=" + std::to_string(config.seat_actions_per_minute) +
            " watch_streams_per_token=" + std::to_string(config.watch_streams_per_token) +
            " watch_streams_per_address=" + std::to_string(config.watch_streams_per_address) +
            " watch_opens_per_minute=" + std::to_string(config.watch_opens_per_minute) +
            " http_connections_per_address=" + std::to_string(config.http_connections_per_address) +
            " watch_walk_threads=" + std::to_string(config.watch_walk_threads) +
            " trusted_proxy_hops=" + std::to_string(config.trusted_proxy_hops) +
            " analysis_concurrency=" + std::to_string(config.analysis_concurrency) +
            " analyses_per_address=" + std::to_string(config.analyses_per_address) +
            " analysis_wait_ms=" + std::to_string(config.analysis_wait_ms) +
            " move_cache_games=" + std::to_string(config.move_cache_games) +
            " tablebase_dir=" + (config.tablebase_dir.empty() ? "none" : config.tablebase_dir) +
            " tablebase_per_minute=" + std::to_string(config.tablebase_per_minute);
    text += std::string(" migrate_on_start=") + (config.migrate_on_start ? "true" : "false");
    std::string origins;
    for (const std::string& o : config.cors_origins)
        origins += (origins.empty() ? "" : ",") + o;
    text += " cors_origins=" + (origins.empty() ? std::string("none") : origins);
    text += std::string(" web_client=") + (config.web_client ? "true" : "false");
    text +=
        " previews_per_minute=" + std::to_string(config.previews_per_minute) +
        " animations_per_minute=" + std::to_string(config.animations_per_minute) +
        " public_url=" + (config.public_url.empty() ? std::string("(Host)") : config.public_url);
    text += " bot_threads=" + std::to_string(config.bot_threads) +
            " bot_games_per_address=" + std::to_string(config.bot_games_per_address) +
            " bot_lease_seconds=" + std::to_string(config.bot_lease_seconds);
    if (config.bot_test_delay_ms > 0)
        text += " bot_test_delay_ms=" + std::to_string(config.bot_test_delay_ms);
    return text;
}

}  // namespace foxgeese::service
