#include "service/watch/walk_pool.h"

namespace foxgeese::service {

WalkPool::WalkPool(int helpers) {
    for (int i = 0; i < helpers; ++i)
        threads_.emplace_back([this] { helper_loop(); });
}

WalkPool::~WalkPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_)
        t.join();
}

void WalkPool::take_parts(std::unique_lock<std::mutex>& lock) {
    while (part_ != nullptr && next_ < parts_) {
        const int index = next_++;
        ++running_;
        const std::function<void(int)>& part = *part_;
        lock.unlock();
        std::exception_ptr error;
        try {
            part(index);
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        if (error && !error_) error_ = error;
        if (--running_ == 0 && next_ == parts_) done_.notify_one();
    }
}

void WalkPool::helper_loop() {
    std::unique_lock lock(mutex_);
    while (true) {
        wake_.wait(lock, [&] { return stopping_ || (part_ != nullptr && next_ < parts_); });
        if (stopping_) return;
        take_parts(lock);
    }
}

void WalkPool::run(int parts, const std::function<void(int)>& part) {
    std::unique_lock busy(busy_, std::try_to_lock);
    if (parts <= 1 || threads_.empty() || !busy.owns_lock()) {
        for (int i = 0; i < parts; ++i)
            part(i);
        return;
    }
    std::unique_lock lock(mutex_);
    part_ = &part;
    parts_ = parts;
    next_ = 0;
    running_ = 0;
    error_ = nullptr;
    // Only as many helpers as there are parts beyond the caller's.
    if (parts - 1 >= helpers()) {
        wake_.notify_all();
    } else {
        for (int i = 1; i < parts; ++i)
            wake_.notify_one();
    }
    take_parts(lock);
    done_.wait(lock, [&] { return running_ == 0 && next_ == parts_; });
    part_ = nullptr;
    std::exception_ptr error = error_;
    error_ = nullptr;
    lock.unlock();
    if (error) std::rethrow_exception(error);
}

}  // namespace foxgeese::service
