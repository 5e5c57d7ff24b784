// The group commit's queue (storage/move_batcher.h), with a commit function
// of the test's own that records each batch and can be held: which moves
// travel together, which wait, and that each caller gets its own answer.
#include "storage/move_batcher.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace foxgeese::storage {
namespace {

using namespace std::chrono_literals;

MoveWrite write_for(const std::string& game_id, std::int64_t version) {
    MoveWrite w;
    w.game_after.game_id = game_id;
    w.previous_version = version;
    return w;
}

// Records each batch as the game ids it carried, and answers each move with
// its previous_version + 1 as its new version, except the games it is told
// to refuse (no answer) or to fail (an error of their own). While held, a
// commit waits until it is let go.
class Recorder {
  public:
    void commit(const std::vector<PendingMove*>& batch) {
        std::unique_lock lock(mutex_);
        std::vector<std::string> ids;
        for (const PendingMove* p : batch)
            ids.push_back(p->write.game_after.game_id);
        batches_.push_back(ids);
        threads_.push_back(std::this_thread::get_id());
        ++entered_;
        changed_.notify_all();
        changed_.wait(lock, [&] { return !held_; });
        if (throw_next_) {
            throw_next_ = false;
            throw std::runtime_error("the database is gone");
        }
        for (PendingMove* p : batch) {
            const std::string& id = p->write.game_after.game_id;
            if (refused_.count(id)) continue;
            if (failed_.count(id)) {
                p->error = std::make_exception_ptr(std::runtime_error("bad move in " + id));
                continue;
            }
            p->applied = AppliedMove{p->write.previous_version + 1, 0, 1};
        }
    }

    void hold() {
        std::lock_guard lock(mutex_);
        held_ = true;
    }
    void release() {
        std::lock_guard lock(mutex_);
        held_ = false;
        changed_.notify_all();
    }
    // Waits until `n` commits have begun.
    bool wait_entered(int n) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, 10s, [&] { return entered_ >= n; });
    }
    void refuse(const std::string& id) { refused_[id] = true; }
    void fail(const std::string& id) { failed_[id] = true; }
    void throw_next() { throw_next_ = true; }

    std::vector<std::vector<std::string>> batches() {
        std::lock_guard lock(mutex_);
        return batches_;
    }
    std::vector<std::thread::id> threads() {
        std::lock_guard lock(mutex_);
        return threads_;
    }

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    bool held_ = false;
    bool throw_next_ = false;
    int entered_ = 0;
    std::map<std::string, bool> refused_;
    std::map<std::string, bool> failed_;
    std::vector<std::vector<std::string>> batches_;
    std::vector<std::thread::id> threads_;
};

MoveBatchOptions options(int max_moves, int max_in_flight) {
    MoveBatchOptions o;
    o.max_moves = max_moves;
    o.max_in_flight = max_in_flight;
    return o;
}

// One commit in flight at a time unless a test says otherwise.
MoveBatcher batcher_for(Recorder& recorder, MoveBatchOptions options = options(16, 1)) {
    return MoveBatcher(options,
                       [&recorder](const std::vector<PendingMove*>& b) { recorder.commit(b); });
}

// Waits until `n` moves are queued for the next commit.
bool wait_waiting(const MoveBatcher& batcher, int n) {
    for (const auto until = std::chrono::steady_clock::now() + 10s;
         std::chrono::steady_clock::now() < until; std::this_thread::sleep_for(1ms)) {
        if (batcher.stats().waiting == n) return true;
    }
    return false;
}

// A move applied on another thread; its answer (or error's text) later.
struct Caller {
    MoveWrite write;
    CallBudget budget;
    std::future<std::optional<AppliedMove>> answer;

    Caller(MoveBatcher& batcher, const std::string& game_id, std::int64_t version)
        : write(write_for(game_id, version)) {
        answer = std::async(std::launch::async,
                            [&batcher, this] { return batcher.apply(write, budget); });
    }
};

TEST(MoveBatcher, ALoneMoveIsCommittedAloneOnItsCallersThread) {
    Recorder recorder;
    MoveBatcher batcher = batcher_for(recorder);
    const MoveWrite w = write_for("a", 7);
    const std::optional<AppliedMove> applied = batcher.apply(w, {});
    ASSERT_TRUE(applied);
    EXPECT_EQ(applied->version, 8);
    EXPECT_EQ(recorder.batches(), (std::vector<std::vector<std::string>>{{"a"}}));
    EXPECT_EQ(recorder.threads(), std::vector<std::thread::id>{std::this_thread::get_id()});
    const MoveBatcher::Stats stats = batcher.stats();
    EXPECT_EQ(stats.commits, 1);
    EXPECT_EQ(stats.moves, 1);
    EXPECT_EQ(stats.waiting, 0);
    EXPECT_EQ(stats.in_flight, 0);
}

TEST(MoveBatcher, MovesArrivingDuringACommitGoTogetherInTheNextEachWithItsOwnAnswer) {
    Recorder recorder;
    MoveBatcher batcher = batcher_for(recorder);
    recorder.hold();
    Caller first(batcher, "a", 10);
    ASSERT_TRUE(recorder.wait_entered(1));
    EXPECT_EQ(batcher.stats().in_flight, 1);
    Caller b(batcher, "b", 20);
    ASSERT_TRUE(wait_waiting(batcher, 1));
    Caller c(batcher, "c", 30);
    ASSERT_TRUE(wait_waiting(batcher, 2));
    Caller d(batcher, "d", 40);
    ASSERT_TRUE(wait_waiting(batcher, 3));
    recorder.refuse("c");
    recorder.release();

    EXPECT_EQ(first.answer.get()->version, 11);
    EXPECT_EQ(b.answer.get()->version, 21);
    EXPECT_FALSE(c.answer.get()) << "refused: no answer, and only for its own caller";
    EXPECT_EQ(d.answer.get()->version, 41);
    EXPECT_EQ(recorder.batches(), (std::vector<std::vector<std::string>>{{"a"}, {"b", "c", "d"}}));
    EXPECT_EQ(batcher.stats().commits, 2);
    EXPECT_EQ(batcher.stats().moves, 4);
}

TEST(MoveBatcher, TwoMovesOfOneGameNeverShareACommit) {
    Recorder recorder;
    MoveBatcher batcher = batcher_for(recorder);
    recorder.hold();
    Caller first(batcher, "a", 1);
    ASSERT_TRUE(recorder.wait_entered(1));
    Caller x1(batcher, "x", 1);
    ASSERT_TRUE(wait_waiting(batcher, 1));
    Caller x2(batcher, "x", 1);
    ASSERT_TRUE(wait_waiting(batcher, 2));
    Caller y(batcher, "y", 1);
    ASSERT_TRUE(wait_waiting(batcher, 3));
    recorder.release();
    for (Caller* c : {&first, &x1, &x2, &y})
        EXPECT_TRUE(c->answer.get());
    EXPECT_EQ(recorder.batches(),
              (std::vector<std::vector<std::string>>{{"a"}, {"x", "y"}, {"x"}}));
}

TEST(MoveBatcher, ACommitCarriesAtMostMaxMovesTheOldestFirst) {
    Recorder recorder;
    MoveBatchOptions two = options(2, 1);
    std::vector<int> told;  // by on_commit, under the batcher's lock
    two.on_commit = [&told](int moves) { told.push_back(moves); };
    MoveBatcher batcher = batcher_for(recorder, two);
    recorder.hold();
    Caller first(batcher, "a", 1);
    ASSERT_TRUE(recorder.wait_entered(1));
    std::vector<std::unique_ptr<Caller>> callers;
    for (const char* id : {"b", "c", "d", "e", "f"}) {
        callers.push_back(std::make_unique<Caller>(batcher, id, 1));
        ASSERT_TRUE(wait_waiting(batcher, static_cast<int>(callers.size())));
    }
    recorder.release();
    EXPECT_TRUE(first.answer.get());
    for (auto& c : callers)
        EXPECT_TRUE(c->answer.get());
    EXPECT_EQ(recorder.batches(),
              (std::vector<std::vector<std::string>>{{"a"}, {"b", "c"}, {"d", "e"}, {"f"}}));
    EXPECT_EQ(told, (std::vector<int>{1, 2, 2, 1}));
}

TEST(MoveBatcher, OneMovesErrorReachesOnlyItsCallerAndAFailedCommitOnlyItsOwnMoves) {
    Recorder recorder;
    MoveBatcher batcher = batcher_for(recorder);
    recorder.hold();
    Caller first(batcher, "a", 1);
    ASSERT_TRUE(recorder.wait_entered(1));
    Caller bad(batcher, "bad", 1);
    ASSERT_TRUE(wait_waiting(batcher, 1));
    Caller good(batcher, "good", 5);
    ASSERT_TRUE(wait_waiting(batcher, 2));
    recorder.fail("bad");
    recorder.throw_next();  // the first commit fails as a whole
    recorder.release();

    EXPECT_THROW(first.answer.get(), std::runtime_error);
    try {
        bad.answer.get();
        ADD_FAILURE() << "the bad move was applied";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), "bad move in bad");
    }
    EXPECT_EQ(good.answer.get()->version, 6);
    EXPECT_EQ(batcher.stats().commits, 2);
    EXPECT_EQ(batcher.stats().in_flight, 0);
}

TEST(MoveBatcher, TwoCommitsMayBeInFlightWhenAllowed) {
    Recorder recorder;
    MoveBatcher batcher = batcher_for(recorder, options(16, 2));
    recorder.hold();
    Caller a(batcher, "a", 1);
    ASSERT_TRUE(recorder.wait_entered(1));
    Caller b(batcher, "b", 1);
    ASSERT_TRUE(recorder.wait_entered(2)) << "the second commit waited for the first";
    Caller c(batcher, "c", 1);
    ASSERT_TRUE(wait_waiting(batcher, 1)) << "a third commit began";
    EXPECT_EQ(batcher.stats().in_flight, 2);
    recorder.release();
    for (Caller* caller : {&a, &b, &c})
        EXPECT_TRUE(caller->answer.get());
    EXPECT_EQ(recorder.batches(), (std::vector<std::vector<std::string>>{{"a"}, {"b"}, {"c"}}));
}

TEST(MoveBatcher, ManyCallersAtOnceEachGetTheirOwnAnswerExactlyOnce) {
    Recorder recorder;
    MoveBatcher batcher = batcher_for(recorder, options(4, 1));
    constexpr int kThreads = 8;
    constexpr int kMoves = 200;
    std::vector<std::thread> threads;
    std::vector<int> wrong(kThreads, 0);
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < kMoves; ++i) {
                const MoveWrite w = write_for("g" + std::to_string(t), t * 1000 + i);
                const auto applied = batcher.apply(w, {});
                if (!applied || applied->version != t * 1000 + i + 1) ++wrong[t];
            }
        });
    }
    for (std::thread& t : threads)
        t.join();
    EXPECT_EQ(wrong, std::vector<int>(kThreads, 0));
    std::size_t moves = 0;
    for (const auto& batch : recorder.batches()) {
        EXPECT_LE(batch.size(), 4u);
        moves += batch.size();
    }
    EXPECT_EQ(moves, static_cast<std::size_t>(kThreads * kMoves));
    EXPECT_EQ(batcher.stats().moves, kThreads * kMoves);
    EXPECT_EQ(batcher.stats().waiting, 0);
}

TEST(MoveBatcher, WithOneMoveACommitEveryMoveCommitsAtOnceHoweverManyAreInFlight) {
    Recorder recorder;
    MoveBatcher batcher = batcher_for(recorder, options(1, 1));
    recorder.hold();
    Caller a(batcher, "a", 1);
    Caller b(batcher, "b", 1);
    Caller c(batcher, "c", 1);
    ASSERT_TRUE(recorder.wait_entered(3)) << "a move waited for another's commit";
    EXPECT_EQ(batcher.stats().in_flight, 3);
    EXPECT_EQ(batcher.stats().waiting, 0);
    recorder.release();
    for (Caller* caller : {&a, &b, &c})
        EXPECT_TRUE(caller->answer.get());
    EXPECT_EQ(batcher.stats().commits, 3);
    EXPECT_EQ(batcher.stats().in_flight, 0);
}

TEST(MoveBatcher, RefusesANonsenseSize) {
    Recorder recorder;
    EXPECT_THROW(batcher_for(recorder, options(0, 1)), std::invalid_argument);
    EXPECT_THROW(batcher_for(recorder, options(4, 0)), std::invalid_argument);
}

}  // namespace
}  // namespace foxgeese::storage
