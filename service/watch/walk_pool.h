// Helper threads that split one walk over a game's watchers. Delivering an
// event to ten thousand streams is ten thousand sends (a gRPC write or a
// socket send each; their cost: bench/README.md, "Watch fan-out"), so on
// one thread the last watcher waits for the whole walk; split into parts,
// the walk uses every core that is free. Each watcher stays in one part, so
// its events keep their order.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace foxgeese::service {

class WalkPool {
  public:
    // `helpers` threads besides each caller (0: every walk runs on its caller).
    explicit WalkPool(int helpers);
    ~WalkPool();
    WalkPool(const WalkPool&) = delete;
    WalkPool& operator=(const WalkPool&) = delete;

    // Calls part(i) once for each i in [0, parts), part 0 and any part no
    // helper has taken on the caller, and returns when every call has
    // returned (rethrowing the first exception one threw). While another
    // caller's walk holds the helpers, this one runs all its parts itself:
    // a caller never waits for someone else's walk.
    void run(int parts, const std::function<void(int)>& part);

    int helpers() const { return static_cast<int>(threads_.size()); }

  private:
    void helper_loop();
    // Takes and runs parts of the current walk until none is left.
    void take_parts(std::unique_lock<std::mutex>& lock);

    std::mutex busy_;  // held by the caller whose walk has the helpers

    std::mutex mutex_;
    std::condition_variable wake_;  // helpers: a walk has parts to take
    std::condition_variable done_;  // the caller: the last part returned
    const std::function<void(int)>* part_ = nullptr;
    int parts_ = 0;
    int next_ = 0;     // the next part not yet taken
    int running_ = 0;  // parts taken and not yet returned
    std::exception_ptr error_;
    bool stopping_ = false;

    std::vector<std::thread> threads_;
};

}  // namespace foxgeese::service
