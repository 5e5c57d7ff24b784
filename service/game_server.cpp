#include "service/game_server.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <spdlog/spdlog.h>

#include <stdexcept>

namespace foxgeese::service {

GameServer::GameServer(const GameServerOptions& options) : options_(options) {
    pool_ =
        std::make_unique<storage::ConnectionPool>(options.database_url, options.db_pool_size,
                                                  &storage::PostgresGameStore::prepare_statements);
    store_ = std::make_unique<storage::PostgresGameStore>(*pool_);
    logic_ = std::make_unique<GameService>(*store_);
    grpc_service_ = std::make_unique<GrpcGameService>(*logic_);

    grpc::EnableDefaultHealthCheckService(true);
    grpc::reflection::InitProtoReflectionServerBuilderPlugin();
    grpc::ServerBuilder builder;
    builder.AddListeningPort(options.listen_address + ":" + std::to_string(options.grpc_port),
                             grpc::InsecureServerCredentials(), &grpc_port_);
    builder.RegisterService(grpc_service_.get());
    builder.SetMaxReceiveMessageSize(kMaxRequestBytes);
    // Unary calls block on the database; more threads than connections would
    // only queue on the pool.
    grpc::ResourceQuota quota("foxgeese");
    quota.SetMaxThreads(std::max(4, options.db_pool_size * 2));
    builder.SetResourceQuota(quota);
    server_ = builder.BuildAndStart();
    if (!server_ || grpc_port_ == 0) {
        throw std::runtime_error("cannot listen for gRPC on " + options.listen_address + ":" +
                                 std::to_string(options.grpc_port));
    }
    server_->GetHealthCheckService()->SetServingStatus(true);
}

GameServer::~GameServer() {
    shutdown();
}

void GameServer::shutdown() {
    if (stopped_) return;
    stopped_ = true;
    // Load balancers see NOT_SERVING first; calls in flight get the drain time.
    server_->GetHealthCheckService()->SetServingStatus(false);
    server_->Shutdown(std::chrono::system_clock::now() + options_.drain_timeout);
    server_->Wait();
}

}  // namespace foxgeese::service
