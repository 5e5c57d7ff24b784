#include "service/core/seek_waiters.h"

namespace foxgeese::service {

void SeekWaiters::add(SeekWaiter waiter) {
    std::lock_guard lock(mutex_);
    std::string id = waiter.seek_id;
    held_.insert_or_assign(std::move(id), Held{std::move(waiter), false});
}

void SeekWaiters::activate(const std::string& seek_id) {
    std::lock_guard lock(mutex_);
    if (auto it = held_.find(seek_id); it != held_.end()) it->second.active = true;
}

std::optional<SeekWaiter> SeekWaiters::take(const std::string& seek_id) {
    std::lock_guard lock(mutex_);
    const auto it = held_.find(seek_id);
    if (it == held_.end()) return std::nullopt;
    SeekWaiter waiter = std::move(it->second.waiter);
    held_.erase(it);
    return waiter;
}

std::vector<SeekWaiter> SeekWaiters::take_due(std::int64_t now_us) {
    const auto steady_now = std::chrono::steady_clock::now();
    std::vector<SeekWaiter> due;
    // Asked under the lock: a caller's `cancelled` is only valid until it
    // is answered, and only whoever takes a waiter out answers it.
    std::lock_guard lock(mutex_);
    for (auto it = held_.begin(); it != held_.end();) {
        const SeekWaiter& w = it->second.waiter;
        const bool over = now_us >= w.until_us || (w.deadline && steady_now >= *w.deadline) ||
                          (w.cancelled && w.cancelled());
        if (it->second.active && over) {
            due.push_back(std::move(it->second.waiter));
            it = held_.erase(it);
        } else {
            ++it;
        }
    }
    return due;
}

std::size_t SeekWaiters::size() const {
    std::lock_guard lock(mutex_);
    return held_.size();
}

}  // namespace foxgeese::service
