// The game service end to end without a database: a replica's game service,
// watch hub, sweeper and bot worker on a MemoryStore (tests/support), served
// by a real gRPC server on a free port, and the same client and helpers as
// ServiceTest. For the tests of the API's rules; what only PostgreSQL can
// show (races it decides, SQL, a restart of the database) stays on
// ServiceTest.
#pragma once

#include <memory>
#include <string>

#include "service/app/replica.h"
#include "tests/service/harness/service_harness.h"
#include "tests/support/memory_store.h"

namespace foxgeese::test {

// One replica on a MemoryStore, wired as service::Replica wires its parts
// (ReplicaOptions' game, watch, bot, sweep, worker and clock settings apply;
// the database ones do not). Several may share one store, as replicas share
// a database: each hears the store's changes.
class MemoryReplica {
  public:
    MemoryReplica(const service::ReplicaOptions& options, MemoryStore& store);
    ~MemoryReplica();
    MemoryReplica(const MemoryReplica&) = delete;
    MemoryReplica& operator=(const MemoryReplica&) = delete;

    int grpc_port() const { return grpc_port_; }
    service::GameService& logic() { return *logic_; }
    service::WatchHub& hub() { return *hub_; }
    service::GameSweeper& sweeper() { return *sweeper_; }
    service::BotWorker& bots() { return *bots_; }
    service::Metrics& metrics() { return metrics_; }
    service::Clock& clock() { return clock_; }

    // Stops the threads and the server (as Replica::shutdown, less the
    // database). Safe to call twice.
    void shutdown();

  private:
    const service::ReplicaOptions options_;
    service::Clock& clock_;
    MemoryStore& store_;
    service::Metrics metrics_;
    std::unique_ptr<service::GameService> logic_;
    std::unique_ptr<service::GameSweeper> sweeper_;
    std::unique_ptr<service::WatchHub> hub_;
    int listening_ = 0;  // the hub's handle on the store's changes
    std::unique_ptr<service::BotWorker> bots_;
    std::unique_ptr<service::WorkQueue> work_;
    std::shared_ptr<const service::AccessLog> access_log_;
    std::unique_ptr<service::GrpcGameService> grpc_service_;
    std::unique_ptr<grpc::Server> server_;
    int grpc_port_ = 0;
    bool stopped_ = false;
};

// A ServiceTest on a MemoryStore of its own: every test starts empty.
class MemoryServiceTest : public ServiceTestBase {
  protected:
    void SetUp() override;
    void TearDown() override;

    // Adjusts the options of every server this test starts (after the
    // harness's own: see test_replica_options).
    virtual void configure(service::ReplicaOptions&) {}
    // A new server on the same store, as after a deploy or a crash.
    void restart_server();
    // The options test_replica_options gives, on this test's clock.
    service::ReplicaOptions replica_options();
    // The running server (its port, hub and metrics).
    MemoryReplica& server() { return *server_; }
    MemoryStore& store() { return store_; }
    // Rows of one of the store's tables (MemoryStore::count_rows).
    long count_rows(const std::string& table) const { return store_.count_rows(table); }

  private:
    void start_server();

    MemoryStore store_;
    std::unique_ptr<MemoryReplica> server_;
};

}  // namespace foxgeese::test
