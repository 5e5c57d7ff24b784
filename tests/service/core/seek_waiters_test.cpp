// The seekers a replica holds (service/core/seek_waiters.h): a waiter is
// due when its wait is over on the given time, its call's deadline passed
// or its caller left, but never before its seek is stored (activate), and
// whoever takes one out is the only one to have it.
#include "service/core/seek_waiters.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>

namespace foxgeese::service {
namespace {

SeekWaiter waiter(const std::string& id, std::int64_t until_us) {
    SeekWaiter w;
    w.seek_id = id;
    w.until_us = until_us;
    return w;
}

TEST(SeekWaiters, DueWhenTheWaitIsOverTheCallerLeftOrTheDeadlinePassed) {
    SeekWaiters waiters;
    auto gone = std::make_shared<std::atomic<bool>>(false);
    SeekWaiter leaves = waiter("leaves", 1'000);
    leaves.cancelled = [gone] { return gone->load(); };
    SeekWaiter late = waiter("late", 1'000);
    late.deadline = std::chrono::steady_clock::now() - std::chrono::milliseconds(1);
    for (SeekWaiter* w : {&leaves, &late})
        waiters.add(*w);
    waiters.add(waiter("short", 100));
    waiters.add(waiter("long", 500));
    for (const char* id : {"leaves", "late", "short", "long"})
        waiters.activate(id);

    std::vector<SeekWaiter> due = waiters.take_due(100);
    ASSERT_EQ(due.size(), 2u);
    EXPECT_EQ(due[0].seek_id, "late");
    EXPECT_EQ(due[1].seek_id, "short");
    EXPECT_TRUE(waiters.take_due(499).empty());
    gone->store(true);
    due = waiters.take_due(499);
    ASSERT_EQ(due.size(), 1u);
    EXPECT_EQ(due[0].seek_id, "leaves");
    EXPECT_EQ(waiters.size(), 1u);
    EXPECT_EQ(waiters.take_due(500).size(), 1u);
    EXPECT_EQ(waiters.size(), 0u);
}

TEST(SeekWaiters, NotDueBeforeItsSeekIsStored) {
    SeekWaiters waiters;
    SeekWaiter placing = waiter("placing", 0);
    placing.cancelled = [] { return true; };
    waiters.add(placing);
    EXPECT_TRUE(waiters.take_due(1'000).empty()) << "its seek is being stored";
    waiters.activate("placing");
    EXPECT_EQ(waiters.take_due(1'000).size(), 1u);
}

TEST(SeekWaiters, OnlyOneTakerGetsAWaiter) {
    SeekWaiters waiters;
    waiters.add(waiter("a", 100));
    waiters.activate("a");
    EXPECT_TRUE(waiters.take("a").has_value());
    EXPECT_FALSE(waiters.take("a").has_value());
    EXPECT_TRUE(waiters.take_due(1'000).empty());
    EXPECT_FALSE(waiters.take("someone else's").has_value());
}

}  // namespace
}  // namespace foxgeese::service
