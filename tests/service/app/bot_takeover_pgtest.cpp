// A replica dies while it thinks about a bot's move: a real foxgeese-server
// process claims the move (made slow by its test-only delay), is killed
// with SIGKILL, and a replica in this process takes the move over once the
// dead one's lease has lapsed. The move is made once, and the game goes on.
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <pqxx/pqxx>
#include <string>
#include <thread>

#include "tests/service/harness/bot_games.h"
#include "tests/service/harness/service_harness.h"
#include "tests/support/child_process.h"

#ifndef FOXGEESE_SERVER_BINARY
#error "FOXGEESE_SERVER_BINARY must name the foxgeese-server executable"
#endif

namespace foxgeese::test {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;

// The dying process's lease: the takeover comes this long after its last
// renewal (at most a third of it before the kill), plus a poll and a search.
constexpr int kLeaseSeconds = 2;

class BotTakeover : public ScratchServiceTest {
  protected:
    void SetUp() override {
        ScratchServiceTest::SetUp();
        dir_ = make_temp_dir("foxgeese-bot-takeover");
        ASSERT_FALSE(dir_.empty()) << std::strerror(errno);
        log_ = dir_ / "foxgeese-server.log";
    }

    void TearDown() override {
        process_.kill_now();
        if (HasFailure()) std::cerr << log_for_failure(log_.string());
        if (!HasFailure()) fs::remove_all(dir_);
        ScratchServiceTest::TearDown();
    }

    // The game's claim: holder and whether it is live, from the database.
    std::optional<std::string> claim_holder(const std::string& id) {
        pqxx::connection connection(database_url());
        pqxx::nontransaction tx(connection);
        const pqxx::row row = tx.exec_params1(
            "SELECT coalesce(bot_claimed_by, '') FROM games WHERE game_id = $1::uuid", id);
        const std::string holder = row[0].as<std::string>();
        if (holder.empty()) return std::nullopt;
        return holder;
    }

    fs::path dir_;
    fs::path log_;
    ChildProcess process_;
};

TEST_F(BotTakeover, AnotherReplicaTakesOverTheMoveOfAReplicaKilledWhileThinking) {
    // The process thinks for ten minutes before each search: it is caught
    // thinking for sure. This process's replica (the harness's) makes no
    // bot moves yet.
    const std::vector<int> ports = free_ports(2);
    ASSERT_EQ(ports.size(), 2u);
    ASSERT_EQ(
        process_.start({FOXGEESE_SERVER_BINARY, "--database-url", database_url(), "--grpc-port",
                        std::to_string(ports[0]), "--http-port", std::to_string(ports[1]),
                        "--listen-address", "127.0.0.1", "--migrate-on-start", "false",
                        "--log-level", "info", "--bot-threads", "1", "--bot-lease-seconds",
                        std::to_string(kLeaseSeconds), "--bot-test-delay-ms", "600000"},
                       log_.string()),
        "");
    // The bot is the fox side and moves first: the move is owed at once.
    const v1::CreateGameResponse created =
        create_game(bot_game_request("standard", v1::SEAT_CHOICE_GEESE, 1));
    const std::string id = created.game().game_id();

    // The process claims the move once it is up.
    std::optional<std::string> holder;
    for (const auto deadline = SteadyClock::now() + 60s;
         !holder && SteadyClock::now() < deadline && !process_.exited();
         std::this_thread::sleep_for(50ms))
        holder = claim_holder(id);
    ASSERT_TRUE(holder) << "the process never claimed the bot's move";

    // A second replica with a bot worker, and a watcher on it.
    service::ReplicaOptions options = test_replica_options(database_url(), &clock());
    options.db_pool_size = 4;
    options.bot.threads = 1;
    options.bot.poll = 100ms;
    service::Replica survivor(options);
    ASSERT_NE(survivor.bots().server_id(), *holder);
    WatchStream watch(survivor.grpc_port(), id, 0);
    ASSERT_TRUE(watch.next());  // the snapshot

    // While the process lives it renews its lease: after more than a lease
    // the move is still its own. (The process's lease runs on real time.)
    std::this_thread::sleep_for(std::chrono::seconds(kLeaseSeconds) + 500ms);
    EXPECT_EQ(client().get(id)->game().ply(), 0);
    EXPECT_EQ(claim_holder(id), holder);
    EXPECT_EQ(survivor.bots().moves_made(), 0);

    const auto killed = SteadyClock::now();
    process_.kill_now();
    const auto made =
        watch.wait_for_event([](const v1::WatchGameResponse& e) { return e.has_move_made(); }, 20s);
    const double takeover_s = std::chrono::duration<double>(SteadyClock::now() - killed).count();
    ASSERT_TRUE(made) << watch.describe_received();
    std::cout << "bot move taken over " << takeover_s << " s after the kill (lease "
              << kLeaseSeconds << " s)\n";
    RecordProperty("takeover_seconds", std::to_string(takeover_s));
    EXPECT_LT(takeover_s, kLeaseSeconds + 3.0);
    EXPECT_EQ(made->move_made().move().ply(), 1);
    EXPECT_EQ(made->move_made().move().side(), v1::SIDE_FOX);
    EXPECT_EQ(survivor.bots().takeovers(), 1);
    EXPECT_EQ(settled_count([&] { return survivor.bots().moves_made(); }, 1), 1);
    EXPECT_FALSE(claim_holder(id)) << "a move clears the claim";

    // The game goes on: the person answers and the survivor's bot moves again.
    const v1::Game game = made->move_made().game();
    ASSERT_TRUE(IsOk(client().move(id, persons_move(game), created.seat_token())));
    const auto next = watch.wait_for_event([](const v1::WatchGameResponse& e) {
        return e.has_move_made() && e.move_made().move().side() == v1::SIDE_FOX;
    });
    ASSERT_TRUE(next) << watch.describe_received();
    EXPECT_EQ(next->move_made().move().ply(), 3);
    // Each ply once, in order: nothing was moved twice.
    const Reply<v1::ListMovesResponse> moves = client().list_moves(id);
    ASSERT_TRUE(IsOk(moves));
    ASSERT_EQ(moves->moves_size(), 3);
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(moves->moves(i).ply(), i + 1);
    EXPECT_EQ(settled_count([&] { return survivor.bots().moves_made(); }, 2), 2);
    survivor.shutdown();
}

}  // namespace
}  // namespace foxgeese::test
