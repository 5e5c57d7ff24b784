// A database that stops acknowledging commits (here: a synchronous standby
// that does not exist; to a client a full disk or a stuck lock looks the
// same) must not take the server with it: calls are answered within their
// bound with a reason and whether the write may have happened, readiness says
// so at once, and SIGTERM ends the process within its drain time.
#include <spdlog/spdlog.h>
#include <sys/wait.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <pqxx/pqxx>
#include <thread>

#include "service/runtime/embedded_postgres.h"
#include "storage/migrations.h"
#include "tests/service/harness/http_test_client.h"
#include "tests/service/harness/service_harness.h"
#include "tests/support/child_process.h"

namespace foxgeese::test {
namespace {

using C = grpc::StatusCode;
using SteadyClock = std::chrono::steady_clock;

// A cluster of its own (the setting is cluster-wide), migrated, then told
// to wait for a synchronous standby that never comes.
class StalledDatabase : public ::testing::Test {
  protected:
    void SetUp() override {
        spdlog::set_level(spdlog::level::warn);
        dir_ = std::filesystem::temp_directory_path() /
               ("foxgeese-stall-" + std::to_string(getpid()) + "-" +
                std::to_string(SteadyClock::now().time_since_epoch().count()));
        service::EmbeddedPostgresOptions options;
        options.data_dir = (dir_ / "data").string();
        options.port = 5433;
        pg_ = service::EmbeddedPostgres::start(options);
        storage::apply_migrations(pg_->url());
    }
    void TearDown() override {
        if (pg_) pg_->stop();
        pg_.reset();
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }

    // From now on every commit that writes waits for the missing standby.
    // pg_reload_conf only signals the postmaster, which re-reads the file
    // and signals its backends later: until then a server's pooled
    // connection can still commit at once. A new connection forked after
    // the reload sees the setting, and the backends were signalled before
    // it was forked, so the stall is in force once one does.
    void stall_commits() {
        {
            pqxx::connection connection(pg_->url());
            pqxx::nontransaction tx(connection);
            tx.exec("ALTER SYSTEM SET synchronous_standby_names = '*'");
            tx.exec("SELECT pg_reload_conf()");
        }
        const auto deadline = SteadyClock::now() + std::chrono::seconds(30);
        for (;;) {
            pqxx::connection connection(pg_->url());
            pqxx::nontransaction tx(connection);
            if (tx.exec1("SHOW synchronous_standby_names")[0].as<std::string>() == "*") return;
            ASSERT_LT(SteadyClock::now(), deadline) << "the reload never took effect";
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }

    std::filesystem::path dir_;
    std::unique_ptr<service::EmbeddedPostgres> pg_;
};

double seconds_since(SteadyClock::time_point start) {
    return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

TEST_F(StalledDatabase, CallsAreAnsweredWithinTheirBoundAndReadinessSaysNo) {
    service::ReplicaOptions options = test_replica_options(pg_->url());
    options.db_pool_size = 4;
    options.db_timeout = std::chrono::milliseconds(1'000);
    options.drain_timeout = std::chrono::seconds(1);
    options.readiness_interval = std::chrono::milliseconds(200);
    service::Replica replica(options);
    ServiceClient client(replica.grpc_port());
    v1::CreateGameRequest create;
    create.set_variant("standard");
    create.set_seat(v1::SEAT_CHOICE_BOTH);
    const auto created = client.create(create);
    ASSERT_TRUE(IsOk(created));
    const std::string id = created->game().game_id();
    ASSERT_TRUE(replica.ready());

    ASSERT_NO_FATAL_FAILURE(stall_commits());
    // The server's own bound: UNAVAILABLE, and the move may be on the
    // primary (its commit record was written), so the client must retry
    // with its request_id rather than as new.
    v1::MakeMoveRequest move;
    move.set_game_id(id);
    move.set_move("d4-d5");
    move.set_request_id("stall-1");
    auto start = SteadyClock::now();
    const auto moved = client.move(move, created->seat_token());
    EXPECT_LT(seconds_since(start), 4.0) << "the bound is 1 s plus a 1 s grace";
    EXPECT_TRUE(IsError(moved, C::UNAVAILABLE, "DATABASE_TIMEOUT"));
    const auto info = error_info(moved.status);
    ASSERT_TRUE(info.has_value());
    EXPECT_EQ(info->metadata().at("write_outcome"), "UNKNOWN");

    // A caller's shorter deadline is the bound.
    {
        auto stub = v1::FoxGeeseService::NewStub(new_channel(replica.grpc_port()));
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(400));
        context.AddMetadata("authorization", "Bearer " + created->seat_token());
        v1::OfferDrawRequest offer;
        offer.set_game_id(id);
        v1::OfferDrawResponse response;
        start = SteadyClock::now();
        const grpc::Status status = stub->OfferDraw(&context, offer, &response);
        EXPECT_EQ(status.error_code(), C::DEADLINE_EXCEEDED);
        EXPECT_LT(seconds_since(start), 1.0);
    }

    // Readiness turns within a few seconds, and /readyz answers at once.
    const auto deadline = SteadyClock::now() + std::chrono::seconds(10);
    while (replica.ready() && SteadyClock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(replica.ready());
    start = SteadyClock::now();
    const HttpReply readyz = http_call(replica.http_port(), "GET", "/readyz");
    EXPECT_EQ(readyz.status, 503);
    EXPECT_LT(seconds_since(start), 0.5) << "/readyz waited on something";
    EXPECT_EQ(http_call(replica.http_port(), "GET", "/healthz").status, 200);

    // Reads still work.
    EXPECT_TRUE(IsOk(client.get(id)));
    replica.shutdown();
}

TEST_F(StalledDatabase, SigtermEndsTheProcessWithinItsDrainTime) {
    const std::vector<int> ports = free_ports(2);
    ChildProcess server;
    const std::string log = (dir_ / "server.log").string();
    ASSERT_EQ(server.start({FOXGEESE_SERVER_BINARY, "--database-url", pg_->url(), "--grpc-port",
                            std::to_string(ports[0]), "--http-port", std::to_string(ports[1]),
                            "--listen-address", "127.0.0.1", "--drain-seconds", "2",
                            "--db-timeout-ms", "60000", "--migrate-on-start", "false"},
                           log),
              "");
    ServiceClient client(ports[0]);
    std::optional<Reply<v1::CreateGameResponse>> created;
    for (int i = 0; i < 200 && !(created && created->ok()); ++i) {
        v1::CreateGameRequest create;
        create.set_variant("standard");
        create.set_seat(v1::SEAT_CHOICE_BOTH);
        created = client.create(create);
        if (!created->ok()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_TRUE(created && IsOk(*created));
    ASSERT_NO_FATAL_FAILURE(stall_commits());
    // Calls that will hang on their commits (the database bound is a minute).
    std::vector<std::future<grpc::Status>> stuck;
    for (int i = 0; i < 6; ++i) {
        stuck.push_back(std::async(std::launch::async, [&, i] {
            v1::MakeMoveRequest move;
            move.set_game_id((*created)->game().game_id());
            move.set_move(i % 2 == 0 ? "d4-d5" : "d4-c4");
            return client.move(move, (*created)->seat_token()).status;
        }));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const auto start = SteadyClock::now();
    server.send(SIGTERM);
    const std::optional<int> status = server.wait_exit(std::chrono::seconds(15));
    ASSERT_TRUE(status.has_value()) << "still running 15 s after SIGTERM with a 2 s drain";
    EXPECT_LT(seconds_since(start), 2.0 + 3.0) << "drain 2 s, then cancel and a 1 s grace";
    EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << describe_wait_status(*status);
    for (auto& call : stuck) {
        const grpc::Status answer = call.get();
        EXPECT_FALSE(answer.ok());
    }
}

}  // namespace
}  // namespace foxgeese::test
