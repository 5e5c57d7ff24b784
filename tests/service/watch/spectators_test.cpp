// Spectator counts without a database: the pace that holds their changes to
// one a second (PacedCount), and a watch hub on the in-memory store whose
// clock stands still until the test moves it, so that "once a second" is
// the test's second, never a wait.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "service/watch/paced_count.h"
#include "tests/service/core/set_clock.h"
#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;
using service::PacedCount;
using Event = v1::WatchGameResponse;

constexpr std::int64_t kSecondUs = 1'000'000;

// ---------------------------------------------------------------------------
// The pace.

TEST(PacedCount, TheFirstValueGoesAtOnceAndTheSameValueNeverGoesAgain) {
    PacedCount count(kSecondUs);
    EXPECT_FALSE(count.last());
    EXPECT_TRUE(count.due(0, 100));
    count.sent(3, 100);
    EXPECT_EQ(count.last(), 3);
    EXPECT_FALSE(count.due(3, 100));
    EXPECT_FALSE(count.due(3, 100 + 10 * kSecondUs));
}

TEST(PacedCount, AChangeWithinTheIntervalWaitsAndTheLatestGoesWhenItIsUp) {
    PacedCount count(kSecondUs);
    count.sent(1, 0);
    EXPECT_TRUE(count.holding(0));
    for (int value : {2, 3, 4})
        EXPECT_FALSE(count.due(value, kSecondUs - 1)) << value;
    EXPECT_EQ(count.next_us(), kSecondUs);
    EXPECT_TRUE(count.due(4, kSecondUs));
    count.sent(4, kSecondUs);
    EXPECT_FALSE(count.due(5, kSecondUs + kSecondUs / 2));
    EXPECT_TRUE(count.due(5, 2 * kSecondUs));
}

TEST(PacedCount, AValueBackToTheLastSentIsNoChange) {
    PacedCount count(kSecondUs);
    count.sent(2, 0);
    // 3 then 2 again within the second: nothing is owed once it is up.
    EXPECT_FALSE(count.due(3, kSecondUs / 2));
    EXPECT_FALSE(count.due(2, 5 * kSecondUs));
}

TEST(PacedCount, AValueCountedAsSentLongAgoIsNeverSentButAChangeGoesAtOnce) {
    PacedCount written(kSecondUs, 0);  // no row yet: zero
    EXPECT_FALSE(written.due(0, 0));
    EXPECT_FALSE(written.holding(0));
    EXPECT_TRUE(written.due(1, 0));
}

TEST(PacedCount, AClockThatWentBackHoldsNothingBack) {
    PacedCount count(kSecondUs);
    count.sent(1, 10 * kSecondUs);
    EXPECT_TRUE(count.due(2, 5 * kSecondUs));
}

// ---------------------------------------------------------------------------
// The hub.

// One replica on a MemoryStore with a clock that stands still.
class Spectators : public ::testing::Test {
  protected:
    void SetUp() override {
        service::ReplicaOptions options = test_replica_options("", &clock_);
        replica_ = std::make_unique<MemoryReplica>(options, store_);
        client_ = std::make_unique<ServiceClient>(replica_->grpc_port());
        Reply<v1::CreateGameResponse> created = client_->create(create_request("standard"));
        ASSERT_TRUE(IsOk(created));
        game_id_ = created->game().game_id();
        fox_token_ = created->seat_token();
    }
    void TearDown() override { replica_->shutdown(); }

    std::unique_ptr<WatchStream> watch(const Auth& auth = Auth::none()) {
        return std::make_unique<WatchStream>(replica_->grpc_port(), game_id_, std::nullopt, auth);
    }

    // Waits until the hub has taken the streams cancelled off its lists (a
    // cancel returns before the server has heard of it).
    ::testing::AssertionResult WatchersLeft(int n) {
        for (int i = 0; i < 400 && replica_->hub().active_watchers() != n; ++i)
            std::this_thread::sleep_for(25ms);
        if (replica_->hub().active_watchers() == n) return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure()
               << replica_->hub().active_watchers() << " watchers, expected " << n;
    }

    // The spectator counts of the presence events the stream received.
    static std::vector<int> counts(const WatchStream& stream) {
        std::vector<int> seen;
        for (const Event& e : stream.received()) {
            if (e.has_presence()) seen.push_back(e.presence().spectators());
        }
        return seen;
    }

    // The presence a new spectator is sent first: the count as it is.
    std::optional<Event> first_presence(WatchStream& stream) {
        return stream.wait_for_event([](const Event& e) { return e.has_presence(); });
    }

    service::SetClock clock_;
    MemoryStore store_;
    std::unique_ptr<MemoryReplica> replica_;
    std::unique_ptr<ServiceClient> client_;
    std::string game_id_;
    std::string fox_token_;
};

WatchStream::Match spectators_are(int n) {
    return [n](const Event& e) { return e.has_presence() && e.presence().spectators() == n; };
}

TEST_F(Spectators, AWatcherSeesOneChangeASecondWithTheLatestCount) {
    std::unique_ptr<WatchStream> first = watch();
    ASSERT_TRUE(first->wait_for_event(spectators_are(1))) << first->describe_received();

    // Two more within the same second: each newcomer is told the count as
    // it is, the first watcher nothing until the second is up.
    std::unique_ptr<WatchStream> second = watch();
    ASSERT_TRUE(second->wait_for_event(spectators_are(2))) << second->describe_received();
    std::unique_ptr<WatchStream> third = watch();
    ASSERT_TRUE(third->wait_for_event(spectators_are(3))) << third->describe_received();

    clock_.advance(1s);
    ASSERT_TRUE(first->wait_for_event(spectators_are(3))) << first->describe_received();
    ASSERT_TRUE(second->wait_for_event(spectators_are(3))) << second->describe_received();

    // Both leave within the next second: one change to 1, once it is up.
    second->cancel();
    third->cancel();
    ASSERT_TRUE(WatchersLeft(1));
    clock_.advance(1s);
    ASSERT_TRUE(first->wait_for_event(spectators_are(1))) << first->describe_received();
    EXPECT_EQ(counts(*first), (std::vector<int>{1, 3, 1})) << first->describe_received();
}

TEST_F(Spectators, ASeatHoldersStreamIsNotASpectator) {
    std::unique_ptr<WatchStream> fox = watch(fox_token_);
    const std::optional<Event> alone = first_presence(*fox);
    ASSERT_TRUE(alone) << fox->describe_received();
    EXPECT_TRUE(alone->presence().fox().connected());
    EXPECT_EQ(alone->presence().spectators(), 0);

    std::unique_ptr<WatchStream> spectator = watch();
    const std::optional<Event> counted = first_presence(*spectator);
    ASSERT_TRUE(counted) << spectator->describe_received();
    EXPECT_EQ(counted->presence().spectators(), 1);

    clock_.advance(1s);
    ASSERT_TRUE(fox->wait_for_event(spectators_are(1))) << fox->describe_received();
    spectator->cancel();
    ASSERT_TRUE(WatchersLeft(1));
    clock_.advance(1s);
    // Back to nobody.
    ASSERT_TRUE(fox->wait_for_event(spectators_are(0))) << fox->describe_received();
}

TEST_F(Spectators, ACrowdComingInCostsOneWriteASecondNotOneAWatcher) {
    std::unique_ptr<WatchStream> first = watch();
    ASSERT_TRUE(first->wait_for_event(spectators_are(1))) << first->describe_received();
    // The first count is written on the hub's next tick.
    const auto written = [&] { return store_.spectators(game_id_, "", clock_.now_us()); };
    for (int i = 0; i < 400 && written() != 1; ++i)
        std::this_thread::sleep_for(25ms);
    ASSERT_EQ(written(), 1);
    EXPECT_EQ(store_.spectator_writes(), 1);

    std::vector<std::unique_ptr<WatchStream>> crowd;
    for (int i = 0; i < 20; ++i) {
        crowd.push_back(watch());
        ASSERT_TRUE(first_presence(*crowd.back())) << crowd.back()->describe_received();
    }
    // The clock stood still: nothing more may be written, however many
    // ticks (250 ms each) pass.
    for (int i = 0; i < 30 && store_.spectator_writes() == 1; ++i)
        std::this_thread::sleep_for(25ms);
    EXPECT_EQ(store_.spectator_writes(), 1);
    clock_.advance(1s);
    for (int i = 0; i < 400 && written() != 21; ++i)
        std::this_thread::sleep_for(25ms);
    EXPECT_EQ(written(), 21);
    EXPECT_EQ(store_.spectator_writes(), 2);

    // All of them gone: the row goes with the next second's write.
    first->cancel();
    for (auto& stream : crowd)
        stream->cancel();
    ASSERT_TRUE(WatchersLeft(0));
    clock_.advance(1s);
    for (int i = 0; i < 400 && store_.spectator_writes() != 3; ++i)
        std::this_thread::sleep_for(25ms);
    EXPECT_EQ(written(), 0);
    EXPECT_EQ(store_.spectator_writes(), 3);
}

}  // namespace
}  // namespace foxgeese::test
