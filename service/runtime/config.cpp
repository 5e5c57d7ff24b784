#include "service/runtime/config.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <map>
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

// Where a value came from, for error messages: "--grpc-port" or
// "environment variable FOXGEESE_GRPC_PORT".
using Apply = void (*)(ServerConfig&, const std::string& value, const std::string& source);

struct Option {
    std::string_view flag;
    std::string_view env;
    std::string_view value_name;
    std::string_view help;
    Apply apply;
};

[[noreturn]] void bad_value(const std::string& source, const std::string& value,
                            std::string_view expected) {
    throw ConfigError(source + ": '" + value + "' " + std::string(expected));
}

long parse_integer(const std::string& source, const std::string& value, long min, long max,
                   std::string_view what) {
    long number = 0;
    const char* end = value.data() + value.size();
    const auto [ptr, ec] = std::from_chars(value.data(), end, number);
    if (value.empty() || ec != std::errc() || ptr != end || number < min || number > max) {
        bad_value(source, value,
                  "is not " + std::string(what) + " (" + std::to_string(min) + ".." +
                      std::to_string(max) + ")");
    }
    return number;
}

std::uint16_t parse_port(const std::string& source, const std::string& value) {
    return static_cast<std::uint16_t>(parse_integer(source, value, 1, 65535, "a port number"));
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::string parse_choice(const std::string& source, const std::string& value,
                         std::initializer_list<std::string_view> choices) {
    const std::string canonical = lower(value);
    std::string list;
    for (const std::string_view choice : choices) {
        if (canonical == choice) return canonical;
        list += (list.empty() ? "" : ", ") + std::string(choice);
    }
    bad_value(source, value, "is not one of " + list);
}

bool parse_bool(const std::string& source, const std::string& value) {
    const std::string canonical = lower(value);
    if (canonical == "true" || canonical == "1" || canonical == "yes" || canonical == "on") {
        return true;
    }
    if (canonical == "false" || canonical == "0" || canonical == "no" || canonical == "off") {
        return false;
    }
    bad_value(source, value, "is not a boolean (true or false)");
}

std::string parse_nonempty(const std::string& source, const std::string& value) {
    if (value.empty() || std::any_of(value.begin(), value.end(),
                                     [](unsigned char c) { return std::isspace(c) != 0; })) {
        bad_value(source, value, "must be non-empty and without spaces");
    }
    return value;
}

const std::vector<Option>& options() {
    static const std::vector<Option> kOptions = {
        {"--database-url", "DATABASE_URL", "URL",
         "PostgreSQL URL or key=value string; empty runs the embedded PostgreSQL",
         [](ServerConfig& c, const std::string& v, const std::string&) { c.database_url = v; }},
        {"--data-dir", "FOXGEESE_DATA_DIR", "DIR", "where the embedded PostgreSQL keeps its data",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             if (v.empty()) bad_value(source, v, "must not be empty");
             c.data_dir = v;
         }},
        {"--grpc-port", "FOXGEESE_GRPC_PORT", "PORT", "gRPC port (1..65535)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.grpc_port = parse_port(source, v);
         }},
        {"--http-port", "FOXGEESE_HTTP_PORT", "PORT", "HTTP/JSON port (1..65535)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.http_port = parse_port(source, v);
         }},
        {"--listen-address", "FOXGEESE_LISTEN_ADDRESS", "ADDR", "address both ports listen on",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.listen_address = parse_nonempty(source, v);
         }},
        {"--db-pool-size", "FOXGEESE_DB_POOL_SIZE", "N", "database connections (1..256)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.db_pool_size = static_cast<int>(parse_integer(source, v, 1, 256, "a pool size"));
         }},
        {"--db-timeout-ms", "FOXGEESE_DB_TIMEOUT_MS", "MS",
         "the longest one database call may take before it is cancelled (100..600000)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.db_timeout_ms = static_cast<int>(
                 parse_integer(source, v, 100, 600'000, "a number of milliseconds"));
         }},
        {"--log-level", "FOXGEESE_LOG_LEVEL", "LEVEL", "trace, debug, info, warn or error",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.log_level = parse_choice(source, v, {"trace", "debug", "info", "warn", "error"});
         }},
        {"--log-format", "FOXGEESE_LOG_FORMAT", "FORMAT", "text, or json (one object per line)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.log_format = parse_choice(source, v, {"text", "json"});
         }},
        {"--access-log", "FOXGEESE_ACCESS_LOG", "BOOL",
         "write a line per request and finished stream at info, in the log format (true or false)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.access_log = parse_bool(source, v);
         }},
        {"--drain-seconds", "FOXGEESE_DRAIN_SECONDS", "N",
         "on shutdown, seconds to let calls and streams finish (0..600)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.drain_seconds =
                 static_cast<int>(parse_integer(source, v, 0, 600, "a number of seconds"));
         }},
        {"--migrate-on-start", "FOXGEESE_MIGRATE_ON_START", "BOOL",
         "apply database migrations when serve starts (true or false)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.migrate_on_start = parse_bool(source, v);
         }},
        {"--cors-origins", "FOXGEESE_CORS_ORIGINS", "LIST",
         "origins (comma-separated, or *) whose browser pages may call the HTTP/JSON API",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.cors_origins.clear();
             std::size_t start = 0;
             while (start <= v.size()) {
                 std::size_t end = v.find(',', start);
                 if (end == std::string::npos) end = v.size();
                 std::string origin = v.substr(start, end - start);
                 origin.erase(0, origin.find_first_not_of(' '));
                 origin.erase(origin.find_last_not_of(' ') + 1);
                 if (!origin.empty()) {
                     if (origin != "*" && origin.rfind("http://", 0) != 0 &&
                         origin.rfind("https://", 0) != 0) {
                         bad_value(source, v, "lists an origin that is not * or http(s)://host");
                     }
                     c.cors_origins.push_back(origin);
                 }
                 start = end + 1;
             }
         }},
        {"--first-move-seconds", "FOXGEESE_FIRST_MOVE_SECONDS", "N",
         "real-time games: seconds each side has for its first move before the game is aborted "
         "(5..3600)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.first_move_seconds =
                 static_cast<int>(parse_integer(source, v, 5, 3600, "a number of seconds"));
         }},
        {"--open-game-ttl-seconds", "FOXGEESE_OPEN_GAME_TTL_SECONDS", "N",
         "seconds a game waits for an opponent before it expires (60..2592000)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.open_game_ttl_seconds =
                 static_cast<int>(parse_integer(source, v, 60, 2592000, "a number of seconds"));
         }},
        {"--opponent-gone-seconds", "FOXGEESE_OPPONENT_GONE_SECONDS", "N",
         "real-time games: seconds a seat holder must be gone on their turn before the opponent "
         "may claim (5..3600)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.opponent_gone_seconds =
                 static_cast<int>(parse_integer(source, v, 5, 3600, "a number of seconds"));
         }},
        {"--rematch-linger-seconds", "FOXGEESE_REMATCH_LINGER_SECONDS", "N",
         "seconds a watch stream stays open after the game for a rematch offer (0..3600)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.rematch_linger_seconds =
                 static_cast<int>(parse_integer(source, v, 0, 3600, "a number of seconds"));
         }},
        {"--create-per-minute", "FOXGEESE_CREATE_PER_MINUTE", "N",
         "CreateGame calls per client address per minute, half of them at once (0: no limit; "
         "..100000)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.create_per_minute = static_cast<int>(parse_integer(source, v, 0, 100000, "a rate"));
         }},
        {"--import-per-minute", "FOXGEESE_IMPORT_PER_MINUTE", "N",
         "ImportGame calls per client address per minute, half of them at once (0: no limit; "
         "..100000)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.import_per_minute = static_cast<int>(parse_integer(source, v, 0, 100000, "a rate"));
         }},
        {"--join-per-minute", "FOXGEESE_JOIN_PER_MINUTE", "N",
         "JoinGame calls per client address per minute, a third of them at once (0: no limit; "
         "..100000)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.join_per_minute = static_cast<int>(parse_integer(source, v, 0, 100000, "a rate"));
         }},
        {"--moves-per-second", "FOXGEESE_MOVES_PER_SECOND", "N",
         "MakeMove calls per seat token per second, four times that at once (0: no limit; ..10000)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.moves_per_second = static_cast<int>(parse_integer(source, v, 0, 10000, "a rate"));
         }},
        {"--seat-actions-per-minute", "FOXGEESE_SEAT_ACTIONS_PER_MINUTE", "N",
         "draw and rematch offers and answers, claims, resignations and aborts per seat token per "
         "minute, a third of them at once (0: no limit; ..100000)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.seat_actions_per_minute =
                 static_cast<int>(parse_integer(source, v, 0, 100000, "a rate"));
         }},
        {"--watch-streams-per-token", "FOXGEESE_WATCH_STREAMS_PER_TOKEN", "N",
         "WatchGame streams open at once per seat token (0: no limit; ..100000)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.watch_streams_per_token =
                 static_cast<int>(parse_integer(source, v, 0, 100000, "a number of streams"));
         }},
        {"--watch-streams-per-address", "FOXGEESE_WATCH_STREAMS_PER_ADDRESS", "N",
         "WatchGame streams without a seat token open at once per client address (0: no limit; "
         "..100000)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.watch_streams_per_address =
                 static_cast<int>(parse_integer(source, v, 0, 100000, "a number of streams"));
         }},
        {"--watch-opens-per-minute", "FOXGEESE_WATCH_OPENS_PER_MINUTE", "N",
         "WatchGame streams opened per seat token per minute, a third of them at once; twenty "
         "times that per client address for streams without a token (0: no limit; ..100000)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.watch_opens_per_minute =
                 static_cast<int>(parse_integer(source, v, 0, 100000, "a rate"));
         }},
        {"--http-connections-per-address", "FOXGEESE_HTTP_CONNECTIONS_PER_ADDRESS", "N",
         "HTTP connections open at once per client address, the one over it closed at once (0: no cap; ..1000000; not applied behind --trusted-proxy-hops)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.http_connections_per_address = static_cast<int>(parse_integer(source, v, 0, 1000000, "a number of connections"));
         }},
        {"--watch-walk-threads", "FOXGEESE_WATCH_WALK_THREADS", "N",
         "threads that share the delivery of one event to a game's watchers, the watch hub's own "
         "included (0: one per core; ..64)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.watch_walk_threads =
                 static_cast<int>(parse_integer(source, v, 0, 64, "a number of threads"));
         }},
        {"--trusted-proxy-hops", "FOXGEESE_TRUSTED_PROXY_HOPS", "N",
         "proxies in front that append to X-Forwarded-For (the gateway: 1); 0 limits by the "
         "connection's peer (0..10)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.trusted_proxy_hops =
                 static_cast<int>(parse_integer(source, v, 0, 10, "a number of hops"));
         }},
        {"--analysis-concurrency", "FOXGEESE_ANALYSIS_CONCURRENCY", "N",
         "AnalyzePosition and AnalyzeGame searches running at once on this server; more are "
         "refused with ANALYSIS_BUSY (1..64)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.analysis_concurrency =
                 static_cast<int>(parse_integer(source, v, 1, 64, "a number of analyses"));
         }},
        {"--analyses-per-address", "FOXGEESE_ANALYSES_PER_ADDRESS", "N",
         "analyses running at once per client address (0: no limit; ..64)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.analyses_per_address =
                 static_cast<int>(parse_integer(source, v, 0, 64, "a number of analyses"));
         }},
        {"--analysis-wait-ms", "FOXGEESE_ANALYSIS_WAIT_MS", "MS",
         "how long an analysis waits in line for a place when all are taken; a freed place goes to the waiting client that used the least analysis time lately (0: refused at once with ANALYSIS_BUSY; ..60000)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.analysis_wait_ms = static_cast<int>(parse_integer(source, v, 0, 60'000, "a number of milliseconds"));
         }},
        {"--move-cache-games", "FOXGEESE_MOVE_CACHE_GAMES", "N",
         "games this server keeps a copy of after moving in them, so that their next move skips a "
         "database read (0: read every time; ..1000000)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.move_cache_games =
                 static_cast<int>(parse_integer(source, v, 0, 1000000, "a number of games"));
         }},
        {"--web-client", "FOXGEESE_WEB_CLIENT", "BOOL",
         "serve the reference web client at /play/ on the HTTP port (true or false)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.web_client = parse_bool(source, v);
         }},
        {"--bot-threads", "FOXGEESE_BOT_THREADS", "N",
         "bot searches at once on this server; more owed bot moves wait for a free one here or on "
         "another server (0: none here; ..64)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.bot_threads =
                 static_cast<int>(parse_integer(source, v, 0, 64, "a number of threads"));
         }},
        {"--bot-games-per-address", "FOXGEESE_BOT_GAMES_PER_ADDRESS", "N",
         "bot games in progress at once per client address; CreateGame with a bot beyond is RATE_LIMITED (0: no limit; ..10000)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.bot_games_per_address = static_cast<int>(parse_integer(source, v, 0, 10'000, "a number of games"));
         }},
        {"--bot-lease-seconds", "FOXGEESE_BOT_LEASE_SECONDS", "N",
         "how long a server's claim on a bot move holds unless renewed: another server takes the "
         "move over this long after the claimant died (1..60)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.bot_lease_seconds =
                 static_cast<int>(parse_integer(source, v, 1, 60, "a number of seconds"));
         }},
        {"--bot-test-delay-ms", "FOXGEESE_BOT_TEST_DELAY_MS", "MS",
         "tests only: wait this long before each bot search, to catch a server thinking "
         "(0..600000)",
         [](ServerConfig& c, const std::string& v, const std::string& source) {
             c.bot_test_delay_ms =
                 static_cast<int>(parse_integer(source, v, 0, 600'000, "a number of milliseconds"));
         }},
    };
    return kOptions;
}

std::string default_text(const Option& option) {
    ServerConfig defaults;
    defaults.data_dir = EmbeddedPostgres::default_data_dir();
    const std::string_view flag = option.flag;
    if (flag == "--database-url") return "(empty: embedded)";
    if (flag == "--data-dir") return defaults.data_dir;
    if (flag == "--grpc-port") return std::to_string(defaults.grpc_port);
    if (flag == "--http-port") return std::to_string(defaults.http_port);
    if (flag == "--listen-address") return defaults.listen_address;
    if (flag == "--db-pool-size") return std::to_string(defaults.db_pool_size);
    if (flag == "--db-timeout-ms") return std::to_string(defaults.db_timeout_ms);
    if (flag == "--log-level") return defaults.log_level;
    if (flag == "--log-format") return defaults.log_format;
    if (flag == "--access-log") return defaults.access_log ? "true" : "false";
    if (flag == "--drain-seconds") return std::to_string(defaults.drain_seconds);
    if (flag == "--migrate-on-start") return defaults.migrate_on_start ? "true" : "false";
    if (flag == "--cors-origins") return "(empty: no cross-origin access)";
    if (flag == "--first-move-seconds") return std::to_string(defaults.first_move_seconds);
    if (flag == "--open-game-ttl-seconds") return std::to_string(defaults.open_game_ttl_seconds);
    if (flag == "--opponent-gone-seconds") return std::to_string(defaults.opponent_gone_seconds);
    if (flag == "--rematch-linger-seconds") return std::to_string(defaults.rematch_linger_seconds);
    if (flag == "--create-per-minute") return std::to_string(defaults.create_per_minute);
    if (flag == "--import-per-minute") return std::to_string(defaults.import_per_minute);
    if (flag == "--join-per-minute") return std::to_string(defaults.join_per_minute);
    if (flag == "--moves-per-second") return std::to_string(defaults.moves_per_second);
    if (flag == "--seat-actions-per-minute")
        return std::to_string(defaults.seat_actions_per_minute);
    if (flag == "--watch-streams-per-token")
        return std::to_string(defaults.watch_streams_per_token);
    if (flag == "--watch-streams-per-address")
        return std::to_string(defaults.watch_streams_per_address);
    if (flag == "--watch-opens-per-minute") return std::to_string(defaults.watch_opens_per_minute);
    if (flag == "--watch-walk-threads")
        return "one per core (here " +
               std::to_string(std::max(1u, std::thread::hardware_concurrency())) + ")";
    if (flag == "--http-connections-per-address")
        return std::to_string(defaults.http_connections_per_address);
    if (flag == "--trusted-proxy-hops") return std::to_string(defaults.trusted_proxy_hops);
    if (flag == "--analysis-concurrency") return std::to_string(defaults.analysis_concurrency);
    if (flag == "--analyses-per-address") return std::to_string(defaults.analyses_per_address);
    if (flag == "--analysis-wait-ms") return std::to_string(defaults.analysis_wait_ms);
    if (flag == "--move-cache-games") return std::to_string(defaults.move_cache_games);
    if (flag == "--web-client") return defaults.web_client ? "true" : "false";
    if (flag == "--bot-threads")
        return "half the cores, at least 1 (here " + std::to_string(defaults.bot_threads) + ")";
    if (flag == "--bot-games-per-address") return std::to_string(defaults.bot_games_per_address);
    if (flag == "--bot-lease-seconds") return std::to_string(defaults.bot_lease_seconds);
    if (flag == "--bot-test-delay-ms") return std::to_string(defaults.bot_test_delay_ms);
    return {};
}

const Option* find_option(std::string_view flag) {
    for (const Option& option : options()) {
        if (option.flag == flag) return &option;
    }
    return nullptr;
}

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

}  // namespace

namespace {

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

}  // namespace

ServerConfig parse_server_config(int argc, const char* const* argv) {
    ServerConfig config;
    config.data_dir = EmbeddedPostgres::default_data_dir();
    // CLI11 reads the command line and the environment (an empty variable
    // counts as unset, a flag beats its variable, the last flag wins); the
    // values are then checked here, with messages that name their source.
    CLI::App app("foxgeese-server");
    app.set_help_flag();  // --help prints server_help_text(), not CLI11's
    app.add_flag("--help,-h", config.show_help);
    app.add_flag("--version", config.show_version);
    app.allow_extras();
    std::map<std::string_view, std::string> values;
    std::vector<std::pair<const Option*, const CLI::Option*>> bound;
    for (const Option& option : options()) {
        const CLI::Option* parsed = app.add_option(std::string(option.flag), values[option.flag])
                                        ->envname(std::string(option.env))
                                        ->type_name(std::string(option.value_name))
                                        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
        bound.emplace_back(&option, parsed);
    }
    CLI::App* serve = app.add_subcommand("serve")->fallthrough()->allow_extras();
    CLI::App* migrate = app.add_subcommand("migrate")->fallthrough()->allow_extras();
    app.require_subcommand(0, 1);
    // CLI11 2.1 reads "--flag=" as a flag given no value; here an empty value
    // means something ("--database-url=" picks the embedded PostgreSQL over
    // DATABASE_URL), so it is passed as a separate empty argument.
    std::vector<std::string> args;
    for (int i = argc - 1; i >= 1; --i) {
        const std::string arg = argv[i];
        if (arg.size() > 3 && arg.rfind("--", 0) == 0 && arg.back() == '=') {
            args.push_back("");
            args.push_back(arg.substr(0, arg.size() - 1));
        } else {
            args.push_back(arg);
        }
    }
    try {
        app.parse(args);  // CLI11 takes the arguments in reverse order
    } catch (const CLI::ArgumentMismatch& e) {
        // "--grpc-port: 1 required TEXT missing": the flag is the prefix.
        const std::string what = e.what();
        const std::string flag = what.substr(0, what.find(':'));
        const Option* option = find_option(flag);
        const std::string value = option ? std::string(option->value_name) : "VALUE";
        throw ConfigError(flag + " needs a value (" + flag + " " + value + " or " + flag + "=" +
                          value + ")");
    } catch (const CLI::ParseError& e) {
        throw ConfigError(e.what());
    }
    if (config.show_help || config.show_version) return config;
    const std::string command = migrate->parsed() ? "migrate" : serve->parsed() ? "serve" : "";
    refuse_extras(serve->remaining(), "serve");
    refuse_extras(migrate->remaining(), "migrate");
    refuse_extras(app.remaining(), command);
    if (migrate->parsed()) config.command = ServerCommand::kMigrate;
    for (const auto& [option, parsed] : bound) {
        if (parsed->count() == 0) continue;
        const std::string source = on_command_line(argc, argv, option->flag)
                                       ? std::string(option->flag)
                                       : "environment variable " + std::string(option->env);
        option->apply(config, values[option->flag], source);
    }
    return config;
}

std::string server_help_text() {
    std::string text =
        "usage: foxgeese-server [serve|migrate] [flags]\n"
        "\n"
        "Commands:\n"
        "  serve    run the gRPC and HTTP/JSON server (the default)\n"
        "  migrate  apply the database migrations and exit\n"
        "\n"
        "Flags (--flag=value or --flag value; a flag beats its environment variable,\n"
        "an empty environment variable counts as unset):\n";
    for (const Option& option : options()) {
        text += "  " + std::string(option.flag) + " " + std::string(option.value_name) + "\n";
        text += "      " + std::string(option.help) + "\n";
        text += "      env " + std::string(option.env) + ", default " + default_text(option) + "\n";
    }
    text +=
        "  --help     print this text and exit\n"
        "  --version  print the version and exit\n";
    return text;
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
            " move_cache_games=" + std::to_string(config.move_cache_games);
    text += std::string(" migrate_on_start=") + (config.migrate_on_start ? "true" : "false");
    std::string origins;
    for (const std::string& o : config.cors_origins)
        origins += (origins.empty() ? "" : ",") + o;
    text += " cors_origins=" + (origins.empty() ? std::string("none") : origins);
    text += std::string(" web_client=") + (config.web_client ? "true" : "false");
    text += " bot_threads=" + std::to_string(config.bot_threads) +
            " bot_games_per_address=" + std::to_string(config.bot_games_per_address) +
            " bot_lease_seconds=" + std::to_string(config.bot_lease_seconds);
    if (config.bot_test_delay_ms > 0)
        text += " bot_test_delay_ms=" + std::to_string(config.bot_test_delay_ms);
    return text;
}

}  // namespace foxgeese::service
