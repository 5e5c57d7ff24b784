// foxgeese-server: serves the game API over gRPC and REST/JSON, with health,
// readiness and metrics endpoints. With no database URL it runs its own
// private PostgreSQL. `foxgeese-server migrate` applies the schema migrations
// and exits (for a Kubernetes Job).
#include <absl/synchronization/mutex.h>
#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include "engine/tablebase/layer_file.h"
#include "engine/tablebase/mapped_tablebase.h"
#include "service/app/replica.h"
#include "service/runtime/config.h"
#include "service/runtime/embedded_postgres.h"
#include "service/runtime/listen_address.h"
#include "service/runtime/logging.h"
#include "storage/migrations.h"

using namespace foxgeese::service;

namespace {

// Blocks the stop signals in every thread (threads inherit the mask), so
// main() can wait for them with sigwait and shut down in order.
sigset_t block_stop_signals() {
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    return signals;
}

// The tablebase of --tablebase-dir, or none. A directory that is missing or
// holds a damaged layer stops the start: serving without the table someone
// asked for would hide the mistake. One that holds no layer yet (its build
// still running, as the Kubernetes Job's does) is served without, with a
// warning: a restart after the build picks it up.
std::shared_ptr<const foxgeese::tablebase::MappedTablebase> open_tablebase(const std::string& dir) {
    namespace tb = foxgeese::tablebase;
    if (dir.empty()) {
        spdlog::info(
            "no tablebase (--tablebase-dir not given): GetTablebase answers NOT_IN_TABLEBASE, "
            "analysis and bots search");
        return nullptr;
    }
    if (!std::filesystem::is_directory(dir))
        throw std::runtime_error("--tablebase-dir " + dir + " is not a directory");
    if (!std::filesystem::exists(tb::layer_file_path(dir, tb::kFewestGeese))) {
        spdlog::warn(
            "tablebase: {} holds no layer yet (is its build still running?): serving without "
            "it; restart once it is built",
            dir);
        return nullptr;
    }
    std::shared_ptr<const tb::MappedTablebase> table = tb::MappedTablebase::open(dir);
    spdlog::info(
        "tablebase: standard with forward-only geese, 4 to {} geese, {:.2f} GB mapped from {}",
        table->max_geese(), static_cast<double>(table->mapped_bytes()) / 1e9, dir);
    return table;
}

int run(const ServerConfig& config) {
    setup_logging(config.log_level, config.log_format);
    spdlog::info("foxgeese-server starting: {}", describe_config(config));

    std::unique_ptr<EmbeddedPostgres> embedded;
    std::string url = config.database_url;
    if (url.empty()) {
        EmbeddedPostgresOptions options;
        options.data_dir = config.data_dir;
        embedded = EmbeddedPostgres::start(options);
        url = embedded->url();
        spdlog::info("no database URL given: running an embedded PostgreSQL in {} (socket {})",
                     embedded->data_dir(), embedded->socket_dir());
    }
    if (config.migrate_on_start || config.command == ServerCommand::kMigrate) {
        const foxgeese::storage::MigrationReport report = foxgeese::storage::apply_migrations(url);
        spdlog::info("schema at version {} ({} migration(s) applied now)", report.latest_version,
                     report.applied.size());
    }
    if (config.command == ServerCommand::kMigrate) return 0;

    ReplicaOptions options;
    options.database_url = url;
    options.listen_address = config.listen_address;
    options.grpc_port = config.grpc_port;
    options.http_port = config.http_port;
    options.cors_origins = config.cors_origins;
    options.web_client = config.web_client;
    options.access_log = std::make_shared<AccessLog>(config.access_log);
    options.db_pool_size = config.db_pool_size;
    options.move_batching.max_moves = config.move_batch_size;
    options.move_batching.max_in_flight = config.move_commits_in_flight;
    options.db_timeout = std::chrono::milliseconds(config.db_timeout_ms);
    options.drain_timeout = std::chrono::seconds(config.drain_seconds);
    options.game.first_move_timeout = std::chrono::seconds(config.first_move_seconds);
    options.game.open_game_ttl = std::chrono::seconds(config.open_game_ttl_seconds);
    options.game.opponent_gone = std::chrono::seconds(config.opponent_gone_seconds);
    options.watch.rematch_linger = std::chrono::seconds(config.rematch_linger_seconds);
    options.watch.streams_per_token = config.watch_streams_per_token;
    options.watch.streams_per_address = config.watch_streams_per_address;
    options.watch.opens_per_token = Rate{config.watch_opens_per_minute, std::chrono::seconds(60),
                                         std::max(1, config.watch_opens_per_minute / 3)};
    options.watch.opens_per_address =
        Rate{20 * config.watch_opens_per_minute, std::chrono::seconds(60),
             std::max(1, 20 * config.watch_opens_per_minute / 4)};
    options.http.connections_per_address = config.http_connections_per_address;
    options.watch.walk_helpers = config.watch_walk_threads - 1;  // 0 gives -1: one per core
    RateLimitOptions& limits = options.game.limits;
    limits.create_per_address = Rate{config.create_per_minute, std::chrono::seconds(60),
                                     std::max(1, config.create_per_minute / 2)};
    limits.import_per_address = Rate{config.import_per_minute, std::chrono::seconds(60),
                                     std::max(1, config.import_per_minute / 2)};
    limits.join_per_address = Rate{config.join_per_minute, std::chrono::seconds(60),
                                   std::max(1, config.join_per_minute / 3)};
    limits.moves_per_token =
        Rate{config.moves_per_second, std::chrono::seconds(1), 4 * config.moves_per_second};
    limits.seat_actions_per_token = Rate{config.seat_actions_per_minute, std::chrono::seconds(60),
                                         std::max(1, config.seat_actions_per_minute / 3)};
    limits.trusted_proxy_hops = config.trusted_proxy_hops;
    options.bot.threads = config.bot_threads;
    options.bot.lease = std::chrono::seconds(config.bot_lease_seconds);
    options.bot.think_delay = std::chrono::milliseconds(config.bot_test_delay_ms);
    options.game.analysis.concurrency = config.analysis_concurrency;
    options.game.move_cache_games = static_cast<std::size_t>(config.move_cache_games);
    options.game.analysis.per_address = config.analyses_per_address;
    options.game.analysis.max_wait = std::chrono::milliseconds(config.analysis_wait_ms);
    options.game.bot_games_per_address = config.bot_games_per_address;
    options.http.previews.images_per_address =
        Rate{config.previews_per_minute, std::chrono::seconds(60),
             std::max(1, config.previews_per_minute / 3)};
    options.http.previews.animations_per_address =
        Rate{config.animations_per_minute, std::chrono::seconds(60),
             std::max(1, config.animations_per_minute / 3)};
    options.http.previews.public_url = config.public_url;
    if (auto table = open_tablebase(config.tablebase_dir)) {
        options.game.tablebase = table;
        options.bot.tablebase = table;
    }
    options.game.limits.tablebase_per_address =
        Rate{config.tablebase_per_minute, std::chrono::seconds(60),
             std::max(1, config.tablebase_per_minute / 6)};
    Replica server(options);
    spdlog::info("serving gRPC on {} and HTTP/JSON on {}",
                 host_port(config.listen_address, server.grpc_port()),
                 host_port(config.listen_address, server.http_port()));
    // The last line of the start-up: what a person opens.
    const std::string home = browser_url(config.listen_address, server.http_port());
    if (config.web_client) {
        spdlog::info("open {}", home);
    } else {
        spdlog::info("open {}docs for the API's reference (the web client is off)", home);
    }

    const sigset_t signals = block_stop_signals();
    int signal = 0;
    sigwait(&signals, &signal);
    spdlog::info("{} received: draining calls in flight (up to {} s)",
                 signal == SIGTERM ? "SIGTERM" : "SIGINT", config.drain_seconds);
    server.shutdown();
    if (embedded) embedded->stop();
    spdlog::info("stopped cleanly");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    // Blocked before any thread starts, so no thread takes the signal instead.
    block_stop_signals();
    // A log read through a pipe whose reader went (`run.sh | tee log`, then
    // Ctrl-C) must not kill the server mid-flight, without its shutdown:
    // a write to it fails instead, and the line is lost.
    signal(SIGPIPE, SIG_IGN);
    // gRPC locks with abseil's mutexes, which Debian builds with lock-order
    // tracking on: a graph update on every lock, CPU spent on a debugging aid
    // (bench/history/2026-12-05-machine-floor.md, "abseil's lock-order
    // tracking"). Tests that run replicas inside their own binaries, without
    // this main, keep the tracking.
    absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
    // libpq waits for a connection without end by default; an unreachable
    // database must fail a connect in seconds (a URL's connect_timeout wins).
    setenv("PGCONNECT_TIMEOUT", "5", /*overwrite=*/0);
    ServerConfig config;
    try {
        config = parse_server_config(argc, argv);
    } catch (const ConfigError& e) {
        std::cerr << "foxgeese-server: " << e.what() << "\nTry 'foxgeese-server --help'.\n";
        return 2;
    }
    if (config.show_help) {
        std::cout << server_help_text();
        return 0;
    }
    if (config.show_version) {
        std::cout << server_version_text();
        return 0;
    }
    try {
        return run(config);
    } catch (const std::exception& e) {
        spdlog::critical("foxgeese-server: {}", e.what());
        return 1;
    }
}
