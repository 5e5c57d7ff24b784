#include "service/app/replica.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <spdlog/spdlog.h>

#include <stdexcept>

#include "storage/migrations.h"

namespace foxgeese::service {
namespace {

// The gRPC health service name a liveness probe asks for.
constexpr const char* kLivenessService = "liveness";

const char* state_name(int state) {
    switch (state) {
        case 1:
            return "waiting";
        case 2:
            return "active";
        case 3:
            return "finished";
    }
    return "unknown";
}

}  // namespace

Replica::Replica(const ReplicaOptions& options) : options_(options) {
    pool_ =
        std::make_unique<storage::ConnectionPool>(options.database_url, options.db_pool_size,
                                                  &storage::PostgresGameStore::prepare_statements);
    store_ = std::make_unique<storage::PostgresGameStore>(*pool_);
    logic_ = std::make_unique<GameService>(*store_, &metrics_);
    hub_ = std::make_unique<WatchHub>(options.database_url, *store_, options.watch);
    grpc_service_ = std::make_unique<GrpcGameService>(*logic_, *hub_, metrics_);

    metrics_.add_gauge({"foxgeese_db_pool_connections_in_use",
                        "Database connections currently lent out by the pool.",
                        {},
                        [this] {
                            return std::vector<std::pair<LabelValues, double>>{
                                {{}, static_cast<double>(pool_->in_use())}};
                        }});
    metrics_.add_gauge(
        {"foxgeese_db_pool_size", "Size of the database connection pool.", {}, [this] {
             return std::vector<std::pair<LabelValues, double>>{
                 {{}, static_cast<double>(pool_->size())}};
         }});
    metrics_.add_gauge(
        {"foxgeese_active_watchers", "Watch streams open on this server.", {}, [this] {
             return std::vector<std::pair<LabelValues, double>>{
                 {{}, static_cast<double>(hub_->active_watchers())}};
         }});
    metrics_.add_gauge({"foxgeese_games", "Games in the database, by state.", {"state"}, [this] {
                            std::vector<std::pair<LabelValues, double>> out;
                            try {
                                for (const auto& [state, n] : store_->games_by_state()) {
                                    out.push_back({{state_name(state)}, static_cast<double>(n)});
                                }
                            } catch (const std::exception& e) {
                                spdlog::warn("metrics: games by state: {}", e.what());
                            }
                            return out;
                        }});

    grpc::EnableDefaultHealthCheckService(true);
    grpc::reflection::InitProtoReflectionServerBuilderPlugin();
    grpc::ServerBuilder builder;
    builder.AddListeningPort(options.listen_address + ":" + std::to_string(options.grpc_port),
                             grpc::InsecureServerCredentials(), &grpc_port_);
    builder.RegisterService(grpc_service_.get());
    builder.SetMaxReceiveMessageSize(kMaxRequestBytes);
    // Unary calls block on the database. gRPC refuses a call outright
    // (RESOURCE_EXHAUSTED) when every thread is busy, so allow enough threads
    // for calls to wait on the pool instead, which answers UNAVAILABLE only
    // after its acquire timeout. Watch streams hold no thread while idle.
    grpc::ResourceQuota quota("foxgeese");
    quota.SetMaxThreads(std::max(64, options.db_pool_size * 8));
    builder.SetResourceQuota(quota);
    server_ = builder.BuildAndStart();
    if (!server_ || grpc_port_ == 0) {
        throw std::runtime_error("cannot listen for gRPC on " + options.listen_address + ":" +
                                 std::to_string(options.grpc_port));
    }
    hub_->start();
    HttpServerOptions http;
    http.listen_address = options.listen_address;
    http.port = options.http_port;
    http.cors_allowed_origins = options.cors_origins;
    http.drain_timeout = options.drain_timeout;
    http_ = std::make_unique<HttpServer>(
        http, *logic_, *hub_, metrics_, [this] { return ready(); },
        [this] { return metrics_.render(); });
    check_readiness();
    readiness_ = std::thread([this] {
        std::unique_lock lock(stop_mutex_);
        while (!stopped_) {
            stop_wake_.wait_for(lock, options_.readiness_interval);
            if (stopped_) break;
            lock.unlock();
            check_readiness();
            lock.lock();
        }
    });
}

Replica::~Replica() {
    shutdown();
}

void Replica::check_readiness() {
    bool ready = false;
    try {
        ready = store_->schema_version() >= storage::embedded_migrations().back().version;
    } catch (const std::exception& e) {
        spdlog::warn("readiness: database check failed: {}", e.what());
    }
    const bool was = ready_.exchange(ready);
    if (was != ready) spdlog::info("readiness: {}", ready ? "ready" : "not ready");
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
    // deadline); calls in flight on both transports get the drain time.
    hub_->stop();
    http_->shutdown();
    server_->Shutdown(std::chrono::system_clock::now() + options_.drain_timeout);
    server_->Wait();
}

}  // namespace foxgeese::service
