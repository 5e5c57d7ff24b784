#include "tests/service/harness/memory_service_harness.h"

#include <spdlog/spdlog.h>

#include <stdexcept>

namespace foxgeese::test {

MemoryReplica::MemoryReplica(const service::ReplicaOptions& options, MemoryStore& store)
    : options_(options),
      clock_(options.clock ? *options.clock : service::system_clock()),
      store_(store) {
    logic_ = std::make_unique<service::GameService>(store, store, clock_, &metrics_, options.game);
    sweeper_ = std::make_unique<service::GameSweeper>(store, clock_, options.sweep_interval);
    hub_ = std::make_unique<service::WatchHub>("", store, store, clock_, options.watch);
    listening_ = store.listen([hub = hub_.get()](const std::string& game_id, bool presence) {
        hub->heard(game_id, presence);
    });
    bots_ = std::make_unique<service::BotWorker>(*logic_, store, clock_, hub_->server_id(),
                                                 options.bot, &metrics_);
    logic_->set_bot_turn_listener([this] { bots_->wake(); });
    // The last replica started hears the pairings (one listener per store).
    store.listen_for_seeks(
        [logic = logic_.get()](const std::string& id) { logic->seek_paired(id); });
    const int workers =
        options.worker_threads > 0 ? options.worker_threads : 2 * options.db_pool_size;
    work_ = std::make_unique<service::WorkQueue>(workers, 4096);
    access_log_ =
        options.access_log ? options.access_log : std::make_shared<service::AccessLog>(false);
    grpc_service_ =
        std::make_unique<service::GrpcGameService>(*logic_, *hub_, metrics_, *work_, *access_log_);
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &grpc_port_);
    builder.RegisterService(grpc_service_.get());
    builder.SetMaxReceiveMessageSize(service::kMaxRequestBytes);
    // As the Replica: the service's own metadata limit is the one that fires.
    builder.AddChannelArgument(GRPC_ARG_MAX_METADATA_SIZE, 64 * 1024);
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    server_ = builder.BuildAndStart();
    if (!server_ || grpc_port_ == 0) throw std::runtime_error("cannot listen for gRPC");
    hub_->start();
    if (options.sweep_interval.count() > 0) sweeper_->start();
    bots_->start();
}

MemoryReplica::~MemoryReplica() {
    shutdown();
}

void MemoryReplica::shutdown() {
    if (stopped_) return;
    stopped_ = true;
    sweeper_->stop();
    store_.listen_for_seeks(nullptr);
    logic_->end_all_seeks();
    bots_->stop();
    hub_->stop();
    server_->Shutdown(std::chrono::system_clock::now() + options_.drain_timeout);
    work_->stop();
    server_->Wait();
    store_.unlisten(listening_);
}

service::ReplicaOptions MemoryServiceTest::replica_options() {
    service::ReplicaOptions options = test_replica_options("", &clock());
    options.drain_timeout = std::chrono::seconds(2);
    return options;
}

void MemoryServiceTest::SetUp() {
    // Warnings and errors only: a failing test's output stays readable.
    spdlog::set_level(spdlog::level::warn);
    start_server();
}

void MemoryServiceTest::TearDown() {
    connect_client(std::nullopt);
    if (server_) server_->shutdown();
    server_.reset();
}

void MemoryServiceTest::start_server() {
    connect_client(std::nullopt);
    if (server_) server_->shutdown();
    server_.reset();
    service::ReplicaOptions options = replica_options();
    configure(options);
    server_ = std::make_unique<MemoryReplica>(options, store_);
    connect_client(server_->grpc_port());
}

void MemoryServiceTest::restart_server() {
    start_server();
}

}  // namespace foxgeese::test
