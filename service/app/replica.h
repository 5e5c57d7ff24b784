// One running server: the database pool, the game store and logic, and the
// gRPC server with health and reflection. main() runs one; tests run several
// in one process, each on its own port.
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

#include "service/core/game_service.h"
#include "service/grpc/grpc_game_service.h"
#include "service/rest/http_server.h"
#include "service/runtime/metrics.h"
#include "service/watch/watch_hub.h"
#include "storage/connection_pool.h"
#include "storage/postgres_game_store.h"

namespace foxgeese::service {

struct ReplicaOptions {
    std::string database_url;
    std::string listen_address = "127.0.0.1";
    int grpc_port = 0;  // 0: pick a free port (see Replica::grpc_port)
    int http_port = 0;  // 0: pick a free port (see Replica::http_port)
    std::vector<std::string> cors_origins;
    int db_pool_size = 8;
    std::chrono::seconds drain_timeout{20};
    WatchHubOptions watch;
    // How often readiness (database reachable, schema current) is re-checked.
    std::chrono::milliseconds readiness_interval{2'000};
};

// The largest request message accepted; every request is small.
constexpr int kMaxRequestBytes = 64 * 1024;

class Replica {
  public:
    // Builds and starts everything; throws std::runtime_error when the port
    // cannot be bound.
    explicit Replica(const ReplicaOptions& options);
    ~Replica();
    Replica(const Replica&) = delete;
    Replica& operator=(const Replica&) = delete;

    int grpc_port() const { return grpc_port_; }
    int http_port() const { return http_->port(); }
    storage::ConnectionPool& pool() { return *pool_; }
    Metrics& metrics() { return metrics_; }
    WatchHub& hub() { return *hub_; }
    GameService& logic() { return *logic_; }
    // Database reachable and every migration applied, as last checked.
    bool ready() const { return ready_.load(); }

    // Stops taking calls, lets the ones in flight finish (up to the drain
    // timeout), then cancels what is left. Safe to call twice.
    void shutdown();

  private:
    void check_readiness();

    ReplicaOptions options_;
    Metrics metrics_;
    std::unique_ptr<storage::ConnectionPool> pool_;
    std::unique_ptr<storage::PostgresGameStore> store_;
    std::unique_ptr<GameService> logic_;
    std::unique_ptr<WatchHub> hub_;
    std::unique_ptr<GrpcGameService> grpc_service_;
    std::unique_ptr<HttpServer> http_;
    std::unique_ptr<grpc::Server> server_;
    int grpc_port_ = 0;
    std::atomic<bool> ready_{false};
    std::mutex stop_mutex_;
    std::condition_variable stop_wake_;
    bool stopped_ = false;
    std::thread readiness_;
};

}  // namespace foxgeese::service
