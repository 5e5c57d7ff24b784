#include "service/app/replica.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <spdlog/spdlog.h>

#include <stdexcept>

#include "service/app/web_pages.h"
#include "service/runtime/listen_address.h"
#include "storage/migrations.h"
#include "storage/statements.h"

namespace foxgeese::service {
namespace {

using SteadyClock = std::chrono::steady_clock;

// The gRPC health service name a liveness probe asks for.
constexpr const char* kLivenessService = "liveness";

// gRPC's own limit on a call's metadata, far above kMaxCallMetadataBytes:
// gRPC 1.51 answers a call over its limit by also ending the other streams
// of the same HTTP/2 connection, so the service's own per-call check must be
// the one that fires. The gateway in front refuses headers above 16 KiB.
constexpr int kGrpcMetadataLimitBytes = 64 * 1024;

// What gRPC 1.51 lets a server bound per connection (see docs/operations.md,
// "Security", for what it does not): a ping every minute that must be
// answered within 20 s, so a connection whose client went away or stopped
// reading (it cannot answer) is closed, and what it held freed; a connection
// with no call for 5 minutes is closed (clients reconnect when they next
// call); and streams at once on one connection, each of which may hold a
// reply waiting for the client to take it.
constexpr int kGrpcKeepaliveMs = 60'000;
constexpr int kGrpcKeepaliveTimeoutMs = 20'000;
constexpr int kGrpcMaxConnectionIdleMs = 300'000;
constexpr int kGrpcMaxStreamsPerConnection = 1024;

// How long callers may wait for a connection before readiness says no.
constexpr auto kStarvedPool = std::chrono::milliseconds(1'000);
// The readiness check's own bound on its database round trips.
constexpr auto kProbeTimeout = std::chrono::milliseconds(1'500);
// How often foxgeese_games is recounted.
constexpr auto kGamesCountInterval = std::chrono::seconds(30);

}  // namespace

Replica::Replica(const ReplicaOptions& options)
    : options_(options), clock_(options.clock ? *options.clock : system_clock()) {
    storage::PoolOptions pool;
    pool.size = options.db_pool_size;
    pool.query_timeout = options.db_timeout;
    pool_ = std::make_unique<storage::ConnectionPool>(options.database_url, pool,
                                                      &storage::prepare_statements);
    storage::PoolOptions probe;
    probe.size = 1;
    probe.acquire_timeout = std::chrono::milliseconds(500);
    probe.query_timeout = kProbeTimeout;
    probe_pool_ = std::make_unique<storage::ConnectionPool>(options.database_url, probe,
                                                            &storage::prepare_statements);
    notifier_ = std::make_unique<ChangeNotifier>(options.database_url);
    notifier_->start();
    storage::MoveBatchOptions batching = options.move_batching;
    batching.on_commit = [this](int moves) {
        metrics_.move_commit_moves.observe({}, static_cast<double>(moves));
    };
    store_ = std::make_unique<storage::PostgresGameStore>(*pool_, batching);
    store_->announce_changes_with(
        [notifier = notifier_.get()](const std::string& game_id) { notifier->changed(game_id); });
    probe_store_ = std::make_unique<storage::PostgresGameStore>(*probe_pool_);
    presence_ = std::make_unique<storage::PostgresPresenceStore>(*pool_);
    logic_ = std::make_unique<GameService>(*store_, *presence_, clock_, &metrics_, options.game);
    sweeper_ = std::make_unique<GameSweeper>(*store_, clock_, options.sweep_interval);
    hub_ = std::make_unique<WatchHub>(options.database_url, *store_, *presence_, clock_,
                                      options.watch);
    bots_ = std::make_unique<BotWorker>(*logic_, *store_, clock_, hub_->server_id(), options.bot,
                                        &metrics_);
    logic_->set_bot_turn_listener([this] { bots_->wake(); });
    const int workers =
        options.worker_threads > 0 ? options.worker_threads : 2 * options.db_pool_size;
    work_ = std::make_unique<WorkQueue>(workers, 4096);
    logic_->set_seek_runner(
        [work = work_.get()](std::function<void()> task) { return work->post(std::move(task)); });
    seeks_ = std::make_unique<SeekListener>(
        options.database_url, [this](const std::string& id) { logic_->seek_paired(id); },
        [this] { logic_->end_due_seeks(); });
    access_log_ = options.access_log ? options.access_log : std::make_shared<AccessLog>(true);
    grpc_service_ =
        std::make_unique<GrpcGameService>(*logic_, *hub_, metrics_, *work_, *access_log_);
    register_gauges();

    grpc::EnableDefaultHealthCheckService(true);
    grpc::reflection::InitProtoReflectionServerBuilderPlugin();
    grpc::ServerBuilder builder;
    const std::string grpc_address = host_port(options.listen_address, options.grpc_port);
    builder.AddListeningPort(grpc_address, grpc::InsecureServerCredentials(), &grpc_port_);
    builder.RegisterService(grpc_service_.get());
    builder.SetMaxReceiveMessageSize(kMaxRequestBytes);
    builder.AddChannelArgument(GRPC_ARG_MAX_METADATA_SIZE, kGrpcMetadataLimitBytes);
    // gRPC sets SO_REUSEPORT by default: a second server on a port already
    // held would start without an error and take part of its connections
    // (in a parallel test run, clients of one test reached another's
    // server). Without it, that start fails: "cannot listen for gRPC".
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIME_MS, kGrpcKeepaliveMs);
    builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, kGrpcKeepaliveTimeoutMs);
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS, kGrpcMaxConnectionIdleMs);
    builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, kGrpcMaxStreamsPerConnection);
    server_ = builder.BuildAndStart();
    if (!server_ || grpc_port_ == 0) {
        throw std::runtime_error("cannot listen for gRPC on " + grpc_address);
    }
    hub_->start();
    seeks_->start();
    if (options.sweep_interval.count() > 0) sweeper_->start();
    bots_->start();
    HttpServerOptions http = options.http;
    http.listen_address = options.listen_address;
    http.port = options.http_port;
    http.cors_allowed_origins = options.cors_origins;
    http.drain_timeout = options.drain_timeout;
    http.pages = web_pages(options.web_client);
    http.previews.web_client = options.web_client;
    http.previews.trusted_proxy_hops = options.game.limits.trusted_proxy_hops;
    // Behind trusted proxies every connection comes from a proxy's address;
    // the proxies bound their own clients' connections.
    if (options.game.limits.trusted_proxy_hops > 0) http.connections_per_address = 0;
    http_ = std::make_unique<HttpServer>(
        http, *logic_, *hub_, metrics_, *work_, *access_log_, [this] { return ready(); },
        [this] { return metrics_.render(); });
    check_readiness();
    readiness_ = std::thread([this] { readiness_loop(); });
}

Replica::~Replica() {
    shutdown();
}

void Replica::register_gauges() {
    using Samples = std::vector<std::pair<LabelValues, double>>;
    metrics_.add_gauge({"foxgeese_db_pool_connections_in_use",
                        "Database connections currently lent out by the pool.",
                        {},
                        [this] {
                            return Samples{{{}, static_cast<double>(pool_->in_use())}};
                        }});
    metrics_.add_gauge(
        {"foxgeese_db_pool_size", "Size of the database connection pool.", {}, [this] {
             return Samples{{{}, static_cast<double>(pool_->size())}};
         }});
    metrics_.add_gauge(
        {"foxgeese_active_watchers", "Watch streams open on this server.", {}, [this] {
             return Samples{{{}, static_cast<double>(hub_->active_watchers())}};
         }});
    metrics_.add_gauge(
        {"foxgeese_moves_waiting_for_commit",
         "Moves waiting for the next commit of moves.",
         {},
         [this] {
             return Samples{{{}, static_cast<double>(store_->move_batches().waiting)}};
         }});
    metrics_.add_gauge(
        {"foxgeese_moves_committing", "Moves in commits in flight.", {}, [this] {
             return Samples{{{}, static_cast<double>(store_->move_batches().in_flight)}};
         }});
    metrics_.add_gauge(
        {"foxgeese_work_queue_length", "Calls waiting for a worker thread.", {}, [this] {
             return Samples{{{}, static_cast<double>(work_->queued())}};
         }});
    metrics_.add_gauge({"foxgeese_seeks_waiting",
                        "SeekGame callers waiting for an opponent on this server.",
                        {},
                        [this] {
                            return Samples{{{}, static_cast<double>(logic_->seeks_waiting())}};
                        }});
    metrics_.add_gauge({"foxgeese_bot_searches_running",
                        "Bot searches running on this server (at most its --bot-threads).",
                        {},
                        [this] {
                            return Samples{{{}, static_cast<double>(bots_->searches_running())}};
                        }});
    metrics_.add_gauge({"foxgeese_analyses_running",
                        "AnalyzePosition and AnalyzeGame searches running on this server.",
                        {},
                        [this] {
                            return Samples{{{}, static_cast<double>(logic_->analyses_running())}};
                        }});
    metrics_.add_gauge({"foxgeese_analyses_waiting",
                        "AnalyzePosition and AnalyzeGame calls waiting in line for a place.",
                        {},
                        [this] {
                            return Samples{{{}, static_cast<double>(logic_->analyses_waiting())}};
                        }});
    metrics_.add_gauge({"foxgeese_games",
                        "Games waiting for an opponent and in progress (recounted every 30 s).",
                        {"state"},
                        [this] {
                            std::lock_guard lock(games_mutex_);
                            return Samples{{{"waiting"}, static_cast<double>(game_counts_.waiting)},
                                           {{"active"}, static_cast<double>(game_counts_.active)}};
                        }});
    metrics_.add_gauge({"foxgeese_games_stored_estimate",
                        "Games stored, finished ones included, as PostgreSQL's statistics "
                        "estimate them (no count: the table only grows).",
                        {},
                        [this] {
                            std::lock_guard lock(games_mutex_);
                            return Samples{{{}, static_cast<double>(game_counts_.estimated_total)}};
                        }});
}

void Replica::readiness_loop() {
    std::unique_lock lock(stop_mutex_);
    while (!stopped_) {
        stop_wake_.wait_for(lock, options_.readiness_interval);
        if (stopped_) break;
        lock.unlock();
        check_readiness();
        lock.lock();
    }
}

void Replica::check_readiness() {
    bool ready = false;
    std::string why;
    try {
        if (pool_->starved_for() > kStarvedPool) {
            why = "no database connection came free for over a second";
        } else if (probe_store_->schema_version() < storage::embedded_migrations().back().version) {
            why = "the schema is not migrated";
        } else {
            // A read alone would pass while commits hang (a synchronous
            // standby gone, a full disk): commit something.
            probe_store_->commit_probe(hub_->server_id(), !probes_pruned_);
            probes_pruned_ = true;
            ready = true;
        }
        if (ready && SteadyClock::now() - games_counted_ > kGamesCountInterval) {
            const storage::GameCounts counts = probe_store_->count_games();
            std::lock_guard lock(games_mutex_);
            game_counts_ = counts;
            games_counted_ = SteadyClock::now();
        }
    } catch (const std::exception& e) {
        why = std::string("database check failed: ") + e.what();
    }
    const bool was = ready_.exchange(ready);
    if (was != ready) {
        if (ready) {
            spdlog::info("readiness: ready");
        } else {
            spdlog::warn("readiness: not ready: {}", why);
        }
    }
    std::lock_guard lock(stop_mutex_);
    // gRPC health mirrors readiness (not after shutdown began); the
    // "liveness" service only says the process answers.
    if (!stopped_) {
        server_->GetHealthCheckService()->SetServingStatus(ready);
        server_->GetHealthCheckService()->SetServingStatus(kLivenessService, true);
    }
}

void Replica::shutdown() {
    {
        std::lock_guard lock(stop_mutex_);
        if (stopped_) return;
        stopped_ = true;
        // Load balancers see NOT_SERVING first.
        server_->GetHealthCheckService()->SetServingStatus(false);
    }
    stop_wake_.notify_all();
    if (readiness_.joinable()) readiness_.join();
    ready_ = false;
    // Watch streams end first (they would otherwise hold the drain to its
    // deadline); calls in flight on both transports share one drain time.
    sweeper_->stop();
    // Seekers waiting here would hold the drain to its deadline.
    seeks_->stop();
    logic_->end_all_seeks();
    // The bot's moves being thought about go back to the other replicas.
    bots_->stop();
    hub_->stop();
    const auto deadline = SteadyClock::now() + options_.drain_timeout;
    // At the deadline, database calls still running are cancelled, so that
    // calls stuck on a database that stopped answering end now.
    std::mutex drained_mutex;
    std::condition_variable drained_wake;
    bool drained = false;
    std::thread guard([&] {
        std::unique_lock lock(drained_mutex);
        if (!drained_wake.wait_until(lock, deadline, [&] { return drained; })) {
            spdlog::warn("drain time over: cancelling the database calls still running");
            pool_->close();
        }
    });
    std::thread http_stop([this] { http_->shutdown(); });
    server_->Shutdown(std::chrono::system_clock::now() + options_.drain_timeout);
    http_stop.join();
    work_->stop();
    {
        std::lock_guard lock(drained_mutex);
        drained = true;
    }
    drained_wake.notify_all();
    guard.join();
    server_->Wait();
    // Every write is done: what they changed is announced before the end.
    notifier_->stop();
    pool_->close();
    probe_pool_->close();
}

}  // namespace foxgeese::service
