// Games that end with nobody asking: each replica's sweeper ends overdue
// games (a flag, a missed first move, an open game's expiry) and watchers
// get GameEnded. Two replicas racing on one database: sweeper_pgtest.cpp.
#include "tests/service/core/sweeper.h"

#include <chrono>
#include <string>

#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;

using Sweeper = SweeperOn<MemoryServiceTest>;

TEST_F(Sweeper, EndsAGameOnTimeWithNoRequestAtAll) {
    const SeatedGame game = start_game_with(blitz());
    ASSERT_TRUE(IsOk(play_any(game)));
    ASSERT_TRUE(IsOk(play_any(game)));
    WatchStream watch(server().grpc_port(), game.id);
    ASSERT_TRUE(watch.next());  // the snapshot
    clock().advance(21s);
    // Nobody calls anything: the sweeper notices within its interval.
    const auto ended =
        watch.wait_for_event([](const v1::WatchGameResponse& e) { return e.has_game_ended(); });
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
        const auto ended =
            w->wait_for_event([](const v1::WatchGameResponse& e) { return e.has_game_ended(); });
        ASSERT_TRUE(ended) << w->describe_received();
        EXPECT_EQ(ended->game_ended().game().end_reason(),
                  w == &first ? v1::END_REASON_ABORTED : v1::END_REASON_EXPIRED);
        EXPECT_EQ(ended->game_ended().game().result(), v1::GAME_RESULT_NONE);
    }
}

}  // namespace
}  // namespace foxgeese::test
