// The server's configuration: command-line flags with environment fallbacks,
// read by CLI11. A flag beats its environment variable, which beats the
// default; an empty environment variable counts as unset; a boolean flag
// alone means true. Bad input throws ConfigError naming the flag (or
// variable) and the value.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace foxgeese::service {

enum class ServerCommand { kServe, kMigrate };

// Half the machine's cores, at least one: bot searches must leave room for
// the calls.
int default_bot_threads();

struct ServerConfig {
    ServerCommand command = ServerCommand::kServe;
    // Empty: run the embedded PostgreSQL in data_dir.
    std::string database_url;
    std::string data_dir;
    std::uint16_t grpc_port = 50051;
    std::uint16_t http_port = 8080;
    std::string listen_address = "0.0.0.0";
    int db_pool_size = 8;
    // Group commit: the most moves one commit carries, and how many commits
    // may be in flight at once (storage/move_batcher.h).
    int move_batch_size = 16;
    int move_commits_in_flight = 3;
    // The longest one database call may take (the caller's deadline may cut
    // it shorter); then it is cancelled and answered UNAVAILABLE.
    int db_timeout_ms = 5'000;
    std::string log_level = "info";   // trace, debug, info, warn, error
    std::string log_format = "text";  // text, json
    bool access_log = true;           // a line per request (access_log.h)
    int drain_seconds = 20;
    bool migrate_on_start = true;
    // Origins allowed to call the HTTP/JSON API from a browser ("*" = any).
    std::vector<std::string> cors_origins;
    // The game lifecycle (see GameServiceOptions and WatchHubOptions).
    int first_move_seconds = 30;
    int open_game_ttl_seconds = 24 * 3600;
    int opponent_gone_seconds = 60;
    int rematch_linger_seconds = 120;
    // Rate limits per replica (0 turns one off) and the proxies whose
    // X-Forwarded-For is believed (see RateLimitOptions).
    // Sized for a shared address: a school or a mobile network puts hundreds
    // of players behind one (docs/operations.md, "Behind a shared address").
    int create_per_minute = 120;
    int import_per_minute = 30;
    int join_per_minute = 240;
    int moves_per_second = 5;
    int seat_actions_per_minute = 30;
    int watch_streams_per_token = 8;
    int watch_streams_per_address = 256;
    int watch_opens_per_minute = 60;
    int trusted_proxy_hops = 0;
    // HTTP connections open at once per client address (HttpServerOptions).
    int http_connections_per_address = 512;
    // Threads that deliver one event to a game's watchers together (0: as
    // many as the machine has cores).
    int watch_walk_threads = 0;
    // AnalyzePosition / AnalyzeGame running at once per replica and per
    // client address (0: no limit per address).
    int analysis_concurrency = 2;
    int analyses_per_address = 1;
    // How long an analysis waits in line for a place when all are taken (0:
    // refused at once).
    int analysis_wait_ms = 6'000;
    // The tablebase's directory (docs/tablebase.md), mapped read-only; empty:
    // none, and GetTablebase answers NOT_IN_TABLEBASE.
    std::string tablebase_dir;
    // GetTablebase calls per client address per minute (0: no limit).
    int tablebase_per_minute = 1200;
    // Games this replica keeps a copy of for their next move (0: none).
    int move_cache_games = 10000;
    // Serve the reference web client (web/) on the HTTP port; false for an
    // API-only deployment.
    bool web_client = true;
    // Share-link previews (docs/previews.md): images and share pages, and
    // animations, per client address per minute (0: no limit); the site's
    // address for the cards' links (empty: the request's Host).
    int previews_per_minute = 300;
    int animations_per_minute = 30;
    std::string public_url;
    // Bot moves (see BotWorkerOptions): searches at once on this server (0:
    // none here), how long a claim on a move holds unless renewed, and a
    // wait before each search that only tests use.
    int bot_threads = default_bot_threads();
    // Bot games in progress at once per client address (0: no limit).
    int bot_games_per_address = 20;
    int bot_lease_seconds = 3;
    int bot_test_delay_ms = 0;
    // --help / --version: print server_help_text() / server_version_text() and exit 0.
    bool show_help = false;
    bool show_version = false;
};

class ConfigError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Reads argv (argv[0] is the program name) and the process environment.
// Throws ConfigError.
ServerConfig parse_server_config(int argc, const char* const* argv);

// Every flag with its environment variable and default.
std::string server_help_text();
std::string server_version_text();

// The database URL with any password replaced by REDACTED; handles URLs
// (postgresql://user:pass@host/db?password=...) and key=value strings.
std::string redact_database_url(const std::string& url);

// One line for the start-up log; secrets redacted.
std::string describe_config(const ServerConfig& config);

std::string to_string(ServerCommand command);

}  // namespace foxgeese::service
