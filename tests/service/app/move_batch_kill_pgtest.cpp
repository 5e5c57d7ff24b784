// A replica dies with a commit of many games' moves in flight (the group
// commit, storage/move_batcher.h). A real foxgeese-server process is made
// to hold five games' moves in one commit (a row lock of the test's keeps
// the statement waiting in PostgreSQL), and is killed with SIGKILL. Every
// move it acknowledged before is stored; the five were acknowledged to no
// one, and are stored all together or not at all; each player's retry
// with its request_id on another replica gets one answer and the game
// moves once.
#include <signal.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <future>
#include <iostream>
#include <memory>
#include <optional>
#include <pqxx/pqxx>
#include <string>
#include <thread>
#include <vector>

#include "tests/service/harness/http_test_client.h"
#include "tests/service/harness/service_harness.h"
#include "tests/support/child_process.h"
#include "tests/support/row_lock.h"

#ifndef FOXGEESE_SERVER_BINARY
#error "FOXGEESE_SERVER_BINARY must name the foxgeese-server executable"
#endif

namespace foxgeese::test {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;

// Games whose moves go into the commit cut by the kill.
constexpr int kCut = 5;

class MoveBatchKill : public ScratchServiceTest {
  protected:
    void SetUp() override {
        ScratchServiceTest::SetUp();
        dir_ = make_temp_dir("foxgeese-batch-kill");
        ASSERT_FALSE(dir_.empty()) << std::strerror(errno);
        log_ = dir_ / "foxgeese-server.log";
    }

    void TearDown() override {
        process_.kill_now();
        if (HasFailure()) std::cerr << log_for_failure(log_.string());
        if (!HasFailure()) fs::remove_all(dir_);
        ScratchServiceTest::TearDown();
    }

    // A gauge of the process's /metrics (nullopt when it cannot be read).
    std::optional<double> gauge(const std::string& name) {
        try {
            HttpClient http(http_port_, 2s);
            const HttpReply reply = http.request("GET", "/metrics");
            const std::string prefix = "\n" + name + " ";
            const std::size_t at = reply.body.find(prefix);
            if (at == std::string::npos) return std::nullopt;
            return std::stod(reply.body.substr(at + prefix.size()));
        } catch (const std::exception&) {
            return std::nullopt;
        }
    }

    bool wait_gauge(const std::string& name, double value) {
        for (const auto until = SteadyClock::now() + 20s; SteadyClock::now() < until;
             std::this_thread::sleep_for(5ms)) {
            if (gauge(name) == value) return true;
        }
        return false;
    }

    // The number of moves stored of a game.
    long moves_of(const std::string& id) {
        pqxx::connection c(database_url());
        pqxx::nontransaction tx(c);
        return tx.exec_params1("SELECT count(*) FROM moves WHERE game_id = $1::uuid", id)[0]
            .as<long>();
    }

    fs::path dir_;
    fs::path log_;
    int http_port_ = 0;
    ChildProcess process_;
};

v1::MakeMoveRequest move_request(const std::string& id, const std::string& notation,
                                 const std::string& request_id) {
    v1::MakeMoveRequest r;
    r.set_game_id(id);
    r.set_move(notation);
    r.set_request_id(request_id);
    return r;
}

TEST_F(MoveBatchKill, AReplicaKilledWithACommitOfManyMovesInFlightLosesNothingAcknowledged) {
    const std::vector<int> ports = free_ports(2);
    ASSERT_EQ(ports.size(), 2u);
    http_port_ = ports[1];
    ASSERT_EQ(process_.start({FOXGEESE_SERVER_BINARY, "--database-url", database_url(),
                              "--grpc-port", std::to_string(ports[0]), "--http-port",
                              std::to_string(ports[1]), "--listen-address", "127.0.0.1",
                              "--migrate-on-start", "false", "--log-level", "info", "--bot-threads",
                              "0", "--move-batch-size", "16", "--move-commits-in-flight", "1"},
                             log_.string()),
              "");
    ServiceClient dying(ports[0]);
    bool up = false;
    for (const auto until = SteadyClock::now() + 60s;
         !up && SteadyClock::now() < until && !process_.exited(); std::this_thread::sleep_for(50ms))
        up = IsOk(dying.list_variants());
    ASSERT_TRUE(up) << "the process never served";

    // Games started here; their first moves made on the process and
    // acknowledged.
    std::vector<SeatedGame> games;
    std::vector<v1::MakeMoveResponse> acknowledged;
    for (int i = 0; i < kCut + 1; ++i) {
        games.push_back(start_game());
        const Reply<v1::MakeMoveResponse> moved =
            dying.move(move_request(games[i].id, "d4-d5", random_request_id()), games[i].fox_token);
        ASSERT_TRUE(IsOk(moved));
        acknowledged.push_back(moved.response);
    }

    // Game 0's reply move is held in PostgreSQL by a lock on its row; the
    // other games' replies queue behind it for the next commit, which a
    // lock on the last game's row holds in turn.
    const std::string& blocker = games[0].id;
    const std::string& last = games[kCut].id;
    RowLock first_lock(database_url(), blocker);
    RowLock second_lock(database_url(), last);
    auto held = std::async(std::launch::async, [&] {
        return dying.move(move_request(blocker, "c3-c4", random_request_id()),
                          games[0].geese_token);
    });
    ASSERT_TRUE(wait_gauge("foxgeese_moves_committing", 1));
    std::vector<std::string> request_ids;
    std::vector<std::future<Reply<v1::MakeMoveResponse>>> cut;
    for (int i = 1; i <= kCut; ++i) {
        request_ids.push_back(random_request_id());
        cut.push_back(std::async(std::launch::async, [&, i] {
            ServiceClient own(ports[0]);
            return own.move(move_request(games[i].id, "c3-c4", request_ids[i - 1]),
                            games[i].geese_token);
        }));
        ASSERT_TRUE(wait_gauge("foxgeese_moves_waiting_for_commit", i));
    }
    first_lock.release();
    const Reply<v1::MakeMoveResponse> blocker_moved = held.get();
    ASSERT_TRUE(IsOk(blocker_moved));
    acknowledged.push_back(blocker_moved.response);
    // The five now wait in one commit, in PostgreSQL, on the last game's row.
    ASSERT_TRUE(wait_gauge("foxgeese_moves_committing", kCut));
    EXPECT_EQ(gauge("foxgeese_moves_waiting_for_commit"), 0);

    process_.kill_now();
    for (auto& f : cut)
        EXPECT_FALSE(IsOk(f.get())) << "a move of the cut commit was acknowledged";
    second_lock.release();
    // The dead process's backend finishes (or is ended) on its own.
    long stored = -1;
    for (const auto until = SteadyClock::now() + 20s; SteadyClock::now() < until;
         std::this_thread::sleep_for(20ms)) {
        pqxx::connection c(database_url());
        pqxx::nontransaction tx(c);
        const long running =
            tx.exec(
                  "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%unnest%'"
                  " AND pid <> pg_backend_pid() AND state = 'active'")[0][0]
                .as<long>();
        if (running == 0) {
            stored = 0;
            for (int i = 1; i <= kCut; ++i)
                stored += moves_of(games[i].id) - 1;
            break;
        }
    }
    EXPECT_TRUE(stored == 0 || stored == kCut)
        << stored << " of the cut commit's " << kCut << " moves are stored: not one commit";
    std::cout << "the cut commit's moves stored after the kill: " << stored << " of " << kCut
              << "\n";

    // Every acknowledged move is stored, as it was acknowledged.
    for (const v1::MakeMoveResponse& ack : acknowledged) {
        const Reply<v1::ListMovesResponse> moves = client().list_moves(ack.game().game_id());
        ASSERT_TRUE(IsOk(moves));
        ASSERT_GE(moves->moves_size(), ack.move().ply());
        EXPECT_EQ(moves->moves(ack.move().ply() - 1).SerializeAsString(),
                  ack.move().SerializeAsString());
    }
    // Each retry on this replica gets one answer, and each game moved once.
    for (int i = 1; i <= kCut; ++i) {
        const Reply<v1::MakeMoveResponse> retried = client().move(
            move_request(games[i].id, "c3-c4", request_ids[i - 1]), games[i].geese_token);
        ASSERT_TRUE(IsOk(retried));
        EXPECT_EQ(retried->move().ply(), 2);
        const Reply<v1::MakeMoveResponse> again = client().move(
            move_request(games[i].id, "c3-c4", request_ids[i - 1]), games[i].geese_token);
        ASSERT_TRUE(IsOk(again));
        EXPECT_EQ(again->move().SerializeAsString(), retried->move().SerializeAsString());
        EXPECT_EQ(moves_of(games[i].id), 2);
    }
    EXPECT_EQ(moves_of(blocker), 2);
}

}  // namespace
}  // namespace foxgeese::test
