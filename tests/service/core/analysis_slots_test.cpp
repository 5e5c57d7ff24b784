// The places analyses run in, on a clock the test sets: each keeps its
// searcher whichever thread uses it, a call that finds them taken waits in
// line, a freed place goes to the waiting client that used least, a full
// line lets a lighter client in, and a wait ends at its time or when the
// caller leaves.
#include "service/core/analysis_slots.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <set>
#include <string>
#include <thread>

#include "tests/service/core/set_clock.h"

namespace foxgeese::service {
namespace {

using namespace std::chrono_literals;
using Refusal = AnalysisSlots::Refusal;

AnalysisOptions places(int concurrency, std::chrono::milliseconds max_wait,
                       int waiting_per_place = 2) {
    AnalysisOptions options;
    options.concurrency = concurrency;
    options.per_address = 1;
    options.max_wait = max_wait;
    options.waiting_per_place = waiting_per_place;
    return options;
}

// Waits (a generous bound) until `slots` has `count` calls in line.
bool line_reaches(const AnalysisSlots& slots, int count) {
    const auto until = std::chrono::steady_clock::now() + 10s;
    while (slots.waiting() != count) {
        if (std::chrono::steady_clock::now() > until) return false;
        std::this_thread::sleep_for(1ms);
    }
    return true;
}

TEST(AnalysisSlots, EachPlaceKeepsItsSearcherWhicheverThreadUsesIt) {
    SetClock clock;
    AnalysisSlots slots(clock, places(2, 0ms), 100);
    std::set<const Searcher*> searchers;
    for (int i = 0; i < 8; ++i) {
        // Each call on a thread of its own, as work-queue threads take them.
        std::async(std::launch::async, [&] {
            auto a = slots.acquire("a").lease;
            auto b = slots.acquire("b").lease;
            ASSERT_TRUE(a && b);
            searchers.insert(&a->searcher());
            searchers.insert(&b->searcher());
        }).get();
    }
    EXPECT_EQ(searchers.size(), 2u);
    EXPECT_EQ(slots.running(), 0);
}

TEST(AnalysisSlots, WithoutAWaitAFullServerOrAddressIsRefusedAtOnce) {
    SetClock clock;
    AnalysisSlots slots(clock, places(2, 0ms), 100);
    const auto first = slots.acquire("a");
    ASSERT_TRUE(first.lease);
    const auto same_address = slots.acquire("a");
    EXPECT_FALSE(same_address.lease);
    EXPECT_EQ(same_address.refusal, Refusal::kAddressBusy);
    const auto second = slots.acquire("b");
    ASSERT_TRUE(second.lease);
    const auto full = slots.acquire("c");
    EXPECT_FALSE(full.lease);
    EXPECT_EQ(full.refusal, Refusal::kServerBusy);
    EXPECT_EQ(slots.waiting(), 0);
}

TEST(AnalysisSlots, AFreedPlaceGoesToTheWaitingClientThatUsedLeast) {
    SetClock clock;
    AnalysisSlots slots(clock, places(1, 10s), 100);
    // "heavy" has run 5 s of analyses; it holds the place and waits again.
    {
        auto lease = slots.acquire("heavy").lease;
        clock.advance(5s);
    }
    auto holder = std::make_unique<AnalysisSlots::Grant>(slots.acquire("other"));
    ASSERT_TRUE(holder->lease);
    auto heavy = std::async(std::launch::async, [&] { return slots.acquire("heavy"); });
    ASSERT_TRUE(line_reaches(slots, 1));
    auto light = std::async(std::launch::async, [&] { return slots.acquire("light"); });
    ASSERT_TRUE(line_reaches(slots, 2));
    holder.reset();  // the place comes free: the light client, who came later, gets it
    AnalysisSlots::Grant light_grant = light.get();
    ASSERT_TRUE(light_grant.lease);
    EXPECT_EQ(slots.waiting(), 1);
    light_grant.lease.reset();
    EXPECT_TRUE(heavy.get().lease);
}

TEST(AnalysisSlots, AFullLineLetsALighterClientInAndRefusesTheHeaviest) {
    SetClock clock;
    AnalysisSlots slots(clock, places(1, 10s, 1), 100);
    {
        auto lease = slots.acquire("heavy").lease;
        clock.advance(5s);
    }
    auto holder = slots.acquire("other").lease;
    ASSERT_TRUE(holder);
    auto heavy = std::async(std::launch::async, [&] { return slots.acquire("heavy"); });
    ASSERT_TRUE(line_reaches(slots, 1));
    // The line holds one: a client that used nothing takes the heavy one's place.
    auto light = std::async(std::launch::async, [&] { return slots.acquire("light"); });
    const AnalysisSlots::Grant displaced = heavy.get();
    EXPECT_FALSE(displaced.lease);
    EXPECT_EQ(displaced.refusal, Refusal::kDisplaced);
    ASSERT_TRUE(line_reaches(slots, 1));
    // The heavy client again: the heaviest in the line is itself.
    const AnalysisSlots::Grant again = slots.acquire("heavy");
    EXPECT_FALSE(again.lease);
    EXPECT_EQ(again.refusal, Refusal::kDisplaced);
    holder.reset();
    EXPECT_TRUE(light.get().lease);
}

TEST(AnalysisSlots, AWaitEndsWhenItsTimeIsUpOrTheCallerLeaves) {
    SetClock clock;
    AnalysisSlots slots(clock, places(1, 50ms), 100);
    auto holder = slots.acquire("a").lease;
    const auto timed_out = slots.acquire("b");
    EXPECT_FALSE(timed_out.lease);
    EXPECT_EQ(timed_out.refusal, Refusal::kServerBusy);
    const auto own_address = slots.acquire("a");
    EXPECT_EQ(own_address.refusal, Refusal::kAddressBusy);
    // The caller's own deadline comes first.
    AnalysisSlots patient(clock, places(1, 30s), 100);
    auto held = patient.acquire("a").lease;
    const auto deadline = patient.acquire("b", std::chrono::steady_clock::now() + 50ms);
    EXPECT_EQ(deadline.refusal, Refusal::kServerBusy);
    std::atomic<bool> gone{false};
    auto leaving = std::async(std::launch::async, [&] {
        return patient.acquire("c", std::nullopt, [&] { return gone.load(); });
    });
    ASSERT_TRUE(line_reaches(patient, 1));
    gone = true;
    EXPECT_EQ(leaving.get().refusal, Refusal::kCancelled);
    EXPECT_EQ(patient.waiting(), 0);
    EXPECT_EQ(patient.running(), 1);
}

}  // namespace
}  // namespace foxgeese::service
