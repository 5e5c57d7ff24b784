#include "storage/move_batcher.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace foxgeese::storage {

MoveBatcher::MoveBatcher(MoveBatchOptions options, Commit commit)
    : options_(options), commit_(std::move(commit)) {
    if (options_.max_moves < 1 || options_.max_in_flight < 1)
        throw std::invalid_argument("a move batch carries at least one move, one at a time");
}

std::optional<AppliedMove> MoveBatcher::apply(const MoveWrite& write, const CallBudget& budget) {
    PendingMove me(write, budget);
    if (options_.max_moves == 1) {
        // No group commit: each move commits on its own at once, as many
        // at a time as arrive (the pool bounds them).
        {
            std::lock_guard lock(mutex_);
            ++stats_.in_flight;
        }
        run({&me});
        std::lock_guard lock(mutex_);
        --stats_.in_flight;
        ++stats_.commits;
        ++stats_.moves;
        if (options_.on_commit) options_.on_commit(1);
        if (me.error) std::rethrow_exception(me.error);
        return me.applied;
    }
    std::unique_lock lock(mutex_);
    queue_.push_back(&me);
    ++stats_.waiting;
    while (!me.done) {
        if (commits_in_flight_ < options_.max_in_flight && !queue_.empty()) {
            std::vector<PendingMove*> batch = take_batch();
            ++commits_in_flight_;
            stats_.in_flight += static_cast<int>(batch.size());
            lock.unlock();
            run(batch);
            lock.lock();
            --commits_in_flight_;
            stats_.in_flight -= static_cast<int>(batch.size());
            ++stats_.commits;
            stats_.moves += static_cast<std::int64_t>(batch.size());
            if (options_.on_commit) options_.on_commit(static_cast<int>(batch.size()));
            for (PendingMove* p : batch) {
                p->done = true;
                if (p != &me) p->wake.notify_one();
            }
            // The next commit is led by the move that has waited longest;
            // this caller has its own answer to take back.
            if (!queue_.empty() && queue_.front() != &me) queue_.front()->wake.notify_one();
            continue;
        }
        me.wake.wait(lock);
    }
    lock.unlock();
    if (me.error) std::rethrow_exception(me.error);
    return me.applied;
}

std::vector<PendingMove*> MoveBatcher::take_batch() {
    std::vector<PendingMove*> batch;
    for (auto it = queue_.begin();
         it != queue_.end() && batch.size() < static_cast<std::size_t>(options_.max_moves);) {
        const std::string& game_id = (*it)->write.game_after.game_id;
        const bool same_game = std::any_of(batch.begin(), batch.end(), [&](const PendingMove* p) {
            return p->write.game_after.game_id == game_id;
        });
        if (same_game) {
            ++it;  // waits for the next commit
            continue;
        }
        batch.push_back(*it);
        it = queue_.erase(it);
    }
    stats_.waiting -= static_cast<int>(batch.size());
    return batch;
}

void MoveBatcher::run(const std::vector<PendingMove*>& batch) {
    try {
        commit_(batch);
    } catch (...) {
        const std::exception_ptr error = std::current_exception();
        for (PendingMove* p : batch) {
            p->applied.reset();
            p->error = error;
        }
    }
}

MoveBatcher::Stats MoveBatcher::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

}  // namespace foxgeese::storage
