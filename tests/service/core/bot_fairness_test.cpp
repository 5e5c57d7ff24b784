// How the bot threads share their time, on a clock the test sets: the
// order of owed moves (urgent ones, then the client served least) and when a
// running search gives way.
#include "service/core/bot_fairness.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "tests/service/core/set_clock.h"

namespace foxgeese::service {
namespace {

using namespace std::chrono_literals;

storage::OwedBotMove owed(const std::string& game, const std::string& client,
                          std::int64_t deadline_us = 0, int searches = 0) {
    return storage::OwedBotMove{game, 0, client, deadline_us, 0, searches};
}

TEST(BotFairness, UrgentMovesFirstThenTheClientServedLeast) {
    SetClock clock;
    BotFairness fairness(clock);
    const std::int64_t now = clock.now_us();
    fairness.served("heavy", now - 5'000'000);  // 5 s of searches
    fairness.served("some", now - 500'000);
    const std::vector<storage::OwedBotMove> moves = {
        owed("heavy-1", "heavy", now + 20'000'000),  // as the store lists them: by deadline
        owed("some-1", "some", now + 25'000'000),
        owed("busy-1", "busy", 0, 1),  // its client searches elsewhere already
        owed("new-1", "new"),
        owed("late-2", "heavy2", now + 2'000'000),  // urgent, listed later than it should
        owed("late-1", "heavy3", now + 1'000'000),
    };
    const std::vector<std::size_t> order = fairness.order(moves);
    std::vector<std::string> games;
    for (const std::size_t i : order)
        games.push_back(moves[i].game_id);
    EXPECT_EQ(games, (std::vector<std::string>{"late-1", "late-2", "new-1", "some-1", "heavy-1",
                                               "busy-1"}));
}

TEST(BotFairness, ASearchGivesWayToAClientServedLessOrToAnUrgentMove) {
    SetClock clock;
    BotFairness fairness(clock);
    const std::int64_t now = clock.now_us();
    fairness.served("flood", now - 10'000'000);
    const BotFairness::Running flood{"flood", 0, now};
    EXPECT_TRUE(fairness.should_yield(flood, owed("g", "light")));
    EXPECT_FALSE(fairness.should_yield(flood, owed("g", "flood")));        // its own
    EXPECT_FALSE(fairness.should_yield(flood, owed("g", "light", 0, 1)));  // served elsewhere
    // Two clients served alike take turns a search at a time: a new
    // search is not cut until it has had a margin more than the other.
    fairness.served("other", now - 10'000'000);
    EXPECT_FALSE(fairness.should_yield(flood, owed("g", "other")));
    clock.advance(kBotYieldMargin + 100ms);
    EXPECT_TRUE(fairness.should_yield(flood, owed("g", "other")));
    // An urgent move: whoever runs gives way, unless its own is more urgent.
    const std::int64_t later = clock.now_us();
    const BotFairness::Running light{"light", 0, later};
    EXPECT_TRUE(fairness.should_yield(light, owed("g", "flood", later + 1'000'000)));
    const BotFairness::Running pressed{"light", later + 500'000, later};
    EXPECT_FALSE(fairness.should_yield(pressed, owed("g", "flood", later + 1'000'000)));
    EXPECT_FALSE(fairness.should_yield(pressed, owed("g", "new")));
}

}  // namespace
}  // namespace foxgeese::service
