// WalkPool: every part of a walk runs exactly once, the caller returns only
// after all of them, concurrent walks never wait for each other, and an
// exception in a part reaches the caller.
#include "service/watch/walk_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

namespace foxgeese::service {
namespace {

TEST(WalkPool, EveryPartRunsOnceAndTheCallerReturnsAfterTheLast) {
    WalkPool pool(3);
    for (const int parts : {0, 1, 2, 4, 7, 64}) {
        std::vector<std::atomic<int>> runs(static_cast<std::size_t>(parts));
        pool.run(parts, [&](int i) {
            // A slow part: the caller must still wait for it.
            if (i == parts - 1) std::this_thread::sleep_for(std::chrono::milliseconds(5));
            runs[static_cast<std::size_t>(i)].fetch_add(1);
        });
        for (int i = 0; i < parts; ++i)
            EXPECT_EQ(runs[static_cast<std::size_t>(i)].load(), 1) << parts << " parts, part " << i;
    }
}

TEST(WalkPool, PartsRunOnTheHelpersAsWellAsTheCaller) {
    WalkPool pool(1);
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<int> on_caller{0};
    std::atomic<int> elsewhere{0};
    std::atomic<int> started{0};
    pool.run(2, [&](int) {
        // Each part waits for the other to start, so neither thread can take
        // both: the walk is done by two threads at once.
        started.fetch_add(1);
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (started.load() < 2 && std::chrono::steady_clock::now() < give_up)
            std::this_thread::yield();
        (std::this_thread::get_id() == caller ? on_caller : elsewhere).fetch_add(1);
    });
    EXPECT_EQ(on_caller.load(), 1);
    EXPECT_EQ(elsewhere.load(), 1);
}

TEST(WalkPool, WithoutHelpersTheCallerRunsEveryPart) {
    WalkPool pool(0);
    const std::thread::id caller = std::this_thread::get_id();
    int runs = 0;
    pool.run(5, [&](int) {
        EXPECT_EQ(std::this_thread::get_id(), caller);
        ++runs;
    });
    EXPECT_EQ(runs, 5);
}

TEST(WalkPool, AWalkStartedWhileAnotherHoldsTheHelpersRunsOnItsCaller) {
    WalkPool pool(2);
    std::atomic<bool> release{false};
    std::atomic<bool> first_started{false};
    std::thread first([&] {
        pool.run(3, [&](int) {
            first_started = true;
            while (!release.load())
                std::this_thread::yield();
        });
    });
    while (!first_started.load())
        std::this_thread::yield();
    // The first walk holds every helper until released; this one must not
    // wait for it.
    const std::thread::id caller = std::this_thread::get_id();
    int runs = 0;
    pool.run(4, [&](int) {
        EXPECT_EQ(std::this_thread::get_id(), caller);
        ++runs;
    });
    EXPECT_EQ(runs, 4);
    release = true;
    first.join();
}

TEST(WalkPool, AnExceptionInAPartReachesTheCallerAfterTheOtherPartsRan) {
    WalkPool pool(2);
    std::atomic<int> runs{0};
    EXPECT_THROW(pool.run(6,
                          [&](int i) {
                              runs.fetch_add(1);
                              if (i == 3) throw std::runtime_error("part 3");
                          }),
                 std::runtime_error);
    EXPECT_EQ(runs.load(), 6);
    // The pool is usable afterwards.
    runs = 0;
    pool.run(6, [&](int) { runs.fetch_add(1); });
    EXPECT_EQ(runs.load(), 6);
}

}  // namespace
}  // namespace foxgeese::service
