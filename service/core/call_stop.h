// A stop flag for a search that a call runs: raised when the caller goes
// away. The transports only let the service ask whether a call was
// cancelled (CallContext::cancelled), while the engine's search polls an
// atomic flag, so a thread asks for it while the search runs.
#pragma once

#include <atomic>
#include <chrono>
#include <thread>

#include "service/core/call_context.h"

namespace foxgeese::service {

class CallStop {
  public:
    // How often the call is asked; a cancelled search ends within about this.
    static constexpr std::chrono::milliseconds kPollInterval{20};

    // Starts asking, unless the call cannot tell (then the flag stays down).
    explicit CallStop(const CallContext& call);
    // Stops asking.
    ~CallStop();
    CallStop(const CallStop&) = delete;
    CallStop& operator=(const CallStop&) = delete;

    const std::atomic<bool>* flag() const { return &stop_; }
    bool raised() const { return stop_.load(); }

  private:
    std::atomic<bool> stop_{false};
    std::jthread poller_;
};

}  // namespace foxgeese::service
