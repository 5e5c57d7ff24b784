#include "service/core/call_stop.h"

#include <condition_variable>
#include <mutex>

namespace foxgeese::service {

CallStop::CallStop(const CallContext& call) {
    if (!call.cancelled) return;
    poller_ = std::jthread([this, cancelled = call.cancelled](std::stop_token done) {
        std::mutex mutex;
        std::condition_variable_any wake;
        std::unique_lock lock(mutex);
        // Woken early by the destructor's stop request.
        while (!wake.wait_for(lock, done, kPollInterval, [] { return false; }) &&
               !done.stop_requested()) {
            if (cancelled()) {
                stop_.store(true);
                return;
            }
        }
    });
}

CallStop::~CallStop() {
    poller_.request_stop();
}

}  // namespace foxgeese::service
