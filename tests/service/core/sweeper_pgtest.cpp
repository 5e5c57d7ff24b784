// Two replicas sweeping the same database at once end each overdue game
// exactly once (FOR UPDATE SKIP LOCKED decides); what one sweeper does:
// sweeper_test.cpp. On a scratch database: the sweepers here would
// otherwise end other tests' games, whose clocks run differently.
#include <atomic>
#include <chrono>
#include <map>
#include <pqxx/pqxx>
#include <string>
#include <thread>
#include <vector>

#include "tests/service/core/sweeper.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;

class Sweeper : public SweeperOn<ScratchServiceTest> {
  protected:
    // Events recorded per game.
    std::map<std::string, long> events_per_game() {
        pqxx::connection connection(database_url());
        pqxx::nontransaction tx(connection);
        std::map<std::string, long> counts;
        for (const auto& row :
             tx.exec("SELECT game_id::text, count(*) FROM game_events GROUP BY 1"))
            counts[row[0].as<std::string>()] = row[1].as<long>();
        return counts;
    }
};

TEST_F(Sweeper, TwoReplicasRacingEndEachGameExactlyOnce) {
    // Both sweep by hand, at the same moment, on the same clock.
    sweep_interval_ = 0ms;
    restart_server();
    service::ReplicaOptions second = test_replica_options(database_url(), &clock());
    second.db_pool_size = 4;
    service::Replica other(second);

    constexpr int kGames = 40;
    std::vector<std::string> ids;
    for (int i = 0; i < kGames; ++i) {
        const SeatedGame game = start_game_with(blitz());
        ASSERT_TRUE(IsOk(play_any(game)));
        ASSERT_TRUE(IsOk(play_any(game)));
        ids.push_back(game.id);
    }
    const std::map<std::string, long> before = events_per_game();
    clock().advance(21s);

    std::atomic<int> ended_here{0}, ended_there{0};
    std::atomic<bool> go{false};
    std::thread a([&] {
        while (!go)
            std::this_thread::yield();
        ended_here = server().sweeper().sweep_once(1'000);
    });
    std::thread b([&] {
        while (!go)
            std::this_thread::yield();
        ended_there = other.sweeper().sweep_once(1'000);
    });
    go = true;
    a.join();
    b.join();
    EXPECT_EQ(ended_here + ended_there, kGames)
        << "here " << ended_here << ", there " << ended_there;

    // One GameEnded each: exactly one event more per game.
    const std::map<std::string, long> after = events_per_game();
    for (const std::string& id : ids) {
        EXPECT_EQ(after.at(id), before.at(id) + 1) << id;
        const Reply<v1::GetGameResponse> got = client().get(id);
        ASSERT_TRUE(IsOk(got));
        EXPECT_EQ(got->game().end_reason(), v1::END_REASON_TIMEOUT);
    }
    // Nothing is left to do.
    EXPECT_EQ(server().sweeper().sweep_once(), 0);
    EXPECT_EQ(other.sweeper().sweep_once(), 0);
    other.shutdown();
}

}  // namespace
}  // namespace foxgeese::test
