// One replica of the stateless service: the database pool, the stores, the
// game service, the watch hub, the work queue and both transports (gRPC with
// health and reflection, REST/JSON). main() runs one; tests run several in
// one process, each on its own ports.
#pragma once

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "service/core/bot_moves.h"
#include "service/core/clock.h"
#include "service/core/game_service.h"
#include "service/core/overdue_games.h"
#include "service/grpc/grpc_game_service.h"
#include "service/rest/http_server.h"
#include "service/runtime/access_log.h"
#include "service/runtime/metrics.h"
#include "service/runtime/work_queue.h"
#include "service/watch/change_notifier.h"
#include "service/watch/seek_listener.h"
#include "service/watch/watch_hub.h"
#include "storage/connection_pool.h"
#include "storage/move_batcher.h"
#include "storage/postgres_game_store.h"
#include "storage/postgres_presence_store.h"

namespace foxgeese::service {

struct ReplicaOptions {
    std::string database_url;
    std::string listen_address = "127.0.0.1";
    int grpc_port = 0;  // 0: pick a free port (see Replica::grpc_port)
    int http_port = 0;  // 0: pick a free port (see Replica::http_port)
    std::vector<std::string> cors_origins;
    // Serve the reference web client at /play/ (the docs at /docs always).
    bool web_client = false;
    int db_pool_size = 8;
    // The group commit of moves (storage/move_batcher.h); its on_commit is
    // the replica's own (metrics).
    storage::MoveBatchOptions move_batching;
    // The longest one database call may take (see storage::PoolOptions).
    std::chrono::milliseconds db_timeout{5'000};
    // Threads for calls that block on the database (0: twice the pool).
    int worker_threads = 0;
    std::chrono::seconds drain_timeout{20};
    WatchHubOptions watch;
    GameServiceOptions game;
    HttpServerOptions http;  // its address, port, origins, drain and pages are set from the above
    // How often readiness (commits acknowledged, pool not starved, schema
    // current) is re-checked.
    std::chrono::milliseconds readiness_interval{1'000};
    // The time of day; the system's when null (tests pass their own).
    Clock* clock = nullptr;
    // How often this replica ends overdue games (0: never; tests that drive
    // the sweeper themselves call sweeper().sweep_once()).
    std::chrono::milliseconds sweep_interval{250};
    // Where each request and finished stream gets its line (access_log.h);
    // null: the process's access logger, enabled.
    std::shared_ptr<const AccessLog> access_log;

    // The bot worker: searches at once (0: this replica makes no bot
    // moves), lease, poll (see BotWorkerOptions).
    BotWorkerOptions bot;
};

// The largest request message accepted; every request is small.
constexpr int kMaxRequestBytes = 64 * 1024;

class Replica {
  public:
    // Builds and starts everything; throws std::runtime_error when a port
    // cannot be bound.
    explicit Replica(const ReplicaOptions& options);
    ~Replica();
    Replica(const Replica&) = delete;
    Replica& operator=(const Replica&) = delete;

    int grpc_port() const { return grpc_port_; }
    int http_port() const { return http_->port(); }
    storage::ConnectionPool& pool() { return *pool_; }
    Metrics& metrics() { return metrics_; }
    const AccessLog& access_log() const { return *access_log_; }
    WatchHub& hub() { return *hub_; }
    GameService& logic() { return *logic_; }
    WorkQueue& work() { return *work_; }
    GameSweeper& sweeper() { return *sweeper_; }
    BotWorker& bots() { return *bots_; }
    Clock& clock() { return clock_; }
    // Commits acknowledged, the pool not starved and every migration
    // applied, as last checked.
    bool ready() const { return ready_.load(); }

    // Stops taking calls, lets the ones in flight finish until the drain
    // timeout, then cancels the database calls still running so that the
    // rest end at once. Safe to call twice.
    void shutdown();

  private:
    void check_readiness();
    void readiness_loop();
    void register_gauges();

    ReplicaOptions options_;
    Clock& clock_;
    Metrics metrics_;
    std::shared_ptr<const AccessLog> access_log_;
    std::unique_ptr<storage::ConnectionPool> pool_;
    // Readiness has a connection of its own: a starved pool must not hide
    // behind its own starvation.
    std::unique_ptr<storage::ConnectionPool> probe_pool_;
    // Announces the games store_ changed, after their commits.
    std::unique_ptr<ChangeNotifier> notifier_;
    std::unique_ptr<storage::PostgresGameStore> store_;
    std::unique_ptr<storage::PostgresGameStore> probe_store_;
    std::unique_ptr<storage::PostgresPresenceStore> presence_;
    std::unique_ptr<GameService> logic_;
    std::unique_ptr<WatchHub> hub_;
    std::unique_ptr<GameSweeper> sweeper_;
    std::unique_ptr<BotWorker> bots_;
    std::unique_ptr<WorkQueue> work_;
    // Wakes the seekers waiting here (SeekGame).
    std::unique_ptr<SeekListener> seeks_;
    std::unique_ptr<GrpcGameService> grpc_service_;
    std::unique_ptr<HttpServer> http_;
    std::unique_ptr<grpc::Server> server_;
    int grpc_port_ = 0;
    std::atomic<bool> ready_{false};
    // foxgeese_games{state} and foxgeese_games_stored_estimate, counted by
    // the readiness thread now and then so that a scrape never waits on the
    // database.
    mutable std::mutex games_mutex_;
    storage::GameCounts game_counts_;
    std::chrono::steady_clock::time_point games_counted_{};
    bool probes_pruned_ = false;  // readiness thread only
    std::mutex stop_mutex_;
    std::condition_variable stop_wake_;
    bool stopped_ = false;
    std::thread readiness_;
};

}  // namespace foxgeese::service
