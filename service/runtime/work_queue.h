// The threads that run calls which may block on the database, shared by both
// transports so that neither holds I/O threads while PostgreSQL thinks. The
// queue in front of them is bounded: when it is full a call is refused at
// once (the transport answers UNAVAILABLE) instead of waiting without end.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace foxgeese::service {

class WorkQueue {
  public:
    WorkQueue(int threads, std::size_t max_queued);
    ~WorkQueue();
    WorkQueue(const WorkQueue&) = delete;
    WorkQueue& operator=(const WorkQueue&) = delete;

    // Queues a task; false (and the task is dropped) when the queue is full
    // or stopped.
    bool post(std::function<void()> task);
    // Runs what is queued, then joins the threads. Safe to call twice.
    void stop();

    std::size_t queued() const;

  private:
    void run();

    const std::size_t max_queued_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> tasks_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace foxgeese::service
