// One running server: the database pool, the game store and logic, and the
// gRPC server with health and reflection. main() runs one; tests run several
// in one process, each on its own port.
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <string>

#include "service/game_service.h"
#include "service/grpc_game_service.h"
#include "storage/connection_pool.h"
#include "storage/postgres_game_store.h"

namespace foxgeese::service {

struct GameServerOptions {
    std::string database_url;
    std::string listen_address = "127.0.0.1";
    int grpc_port = 0;  // 0: pick a free port (see GameServer::grpc_port)
    int db_pool_size = 8;
    std::chrono::seconds drain_timeout{20};
};

// The largest request message accepted; every request is small.
constexpr int kMaxRequestBytes = 64 * 1024;

class GameServer {
  public:
    // Builds and starts everything; throws std::runtime_error when the port
    // cannot be bound.
    explicit GameServer(const GameServerOptions& options);
    ~GameServer();
    GameServer(const GameServer&) = delete;
    GameServer& operator=(const GameServer&) = delete;

    int grpc_port() const { return grpc_port_; }
    storage::ConnectionPool& pool() { return *pool_; }

    // Stops taking calls, lets the ones in flight finish (up to the drain
    // timeout), then cancels what is left. Safe to call twice.
    void shutdown();

  private:
    GameServerOptions options_;
    std::unique_ptr<storage::ConnectionPool> pool_;
    std::unique_ptr<storage::PostgresGameStore> store_;
    std::unique_ptr<GameService> logic_;
    std::unique_ptr<GrpcGameService> grpc_service_;
    std::unique_ptr<grpc::Server> server_;
    int grpc_port_ = 0;
    bool stopped_ = false;
};

}  // namespace foxgeese::service
