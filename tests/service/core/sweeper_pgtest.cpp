// Games that end with nobody asking: each replica's sweeper ends overdue
// games (a flag, a missed first move, an open game's expiry) and watchers
// get GameEnded; with two replicas sweeping the same database at once, each
// game is ended exactly once. On scratch databases: the sweepers here would
// otherwise end other tests' games, whose clocks run differently.
#include <pqxx/pqxx>

#include <atomic>
#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "tests/service/harness/service_harness.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;

class Sweeper : public ScratchServiceTest {
  protected:
    void configure(service::ReplicaOptions& options) override {
        options.sweep_interval = sweep_interval_;
    }
    std::chrono::milliseconds sweep_interval_{100};

    v1::CreateGameRequest blitz() {
        v1::CreateGameRequest request = create_request("standard");
        request.mutable_time_control()->mutable_real_time()->mutable_initial()->set_seconds(20);
        return request;
    }

    // Events recorded per game.
    std::map<std::string, long> events_per_game() {
        pqxx::connection connection(database_url());
        pqxx::nontransaction tx(connection);
        std::map<std::string, long> counts;
        for (const auto& row : tx.exec("SELECT game_id::text, count(*) FROM game_events GROUP BY 1"))
            counts[row[0].as<std::string>()] = row[1].as<long>();
        return counts;
    }
};

TEST_F(Sweeper, EndsAGameOnTimeWithNoRequestAtAll) {
    const SeatedGame game = start_game_with(blitz());
    ASSERT_TRUE(IsOk(play_any(game)));
    ASSERT_TRUE(IsOk(play_any(game)));
    WatchStream watch(server().grpc_port(), game.id);
    ASSERT_TRUE(watch.next());  // the snapshot
    clock().advance(21s);
    // Nobody calls anything: the sweeper notices within its interval.
    const auto ended = watch.wait_for_event(
        [](const v1::WatchGameResponse& e) { return e.has_game_ended(); });
    ASSERT_TRUE(ended) << watch.describe_received();
    EXPECT_EQ(ended->game_ended().game().end_reason(), v1::END_REASON_TIMEOUT);
    ASSERT_TRUE(watch.wait_for_end());
}

TEST_F(Sweeper, EndsMissedFirstMovesAndExpiredOpenGames) {
    const SeatedGame unplayed = start_game_with(blitz());
    const v1::CreateGameResponse open = create_game(create_request("two_foxes"));
    WatchStream first(server().grpc_port(), unplayed.id);
    WatchStream lobby(server().grpc_port(), open.game().game_id());
    // The snapshots first: a watch that opened after the sweep would see the
    // ended game in its snapshot, with no GameEnded event to follow.
    for (WatchStream* w : {&first, &lobby}) {
        const auto snapshot = w->next();
        ASSERT_TRUE(snapshot && snapshot->has_snapshot()) << w->describe_received();
    }
    clock().advance(25h);
    for (WatchStream* w : {&first, &lobby}) {
        const auto ended = w->wait_for_event(
            [](const v1::WatchGameResponse& e) { return e.has_game_ended(); });
        ASSERT_TRUE(ended) << w->describe_received();
        EXPECT_EQ(ended->game_ended().game().end_reason(),
                  w == &first ? v1::END_REASON_ABORTED : v1::END_REASON_EXPIRED);
        EXPECT_EQ(ended->game_ended().game().result(), v1::GAME_RESULT_NONE);
    }
}

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
        while (!go) std::this_thread::yield();
        ended_here = server().sweeper().sweep_once(1'000);
    });
    std::thread b([&] {
        while (!go) std::this_thread::yield();
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
