// How long one database call may take and whether its caller still waits.
// Every store method takes one: the pool bounds the call by the earlier of
// the caller's deadline and its own query timeout, and a write is not sent
// once the caller has gone (nothing is committed that nobody will hear of).
#pragma once

#include <chrono>
#include <functional>
#include <optional>

namespace foxgeese::storage {

struct CallBudget {
    using Clock = std::chrono::steady_clock;

    // When the caller stops waiting; none: only the pool's query timeout.
    std::optional<Clock::time_point> deadline;
    // True once the caller went away (a cancelled call); may be empty.
    std::function<bool()> abandoned;

    bool caller_gone() const { return abandoned && abandoned(); }
    // Whether the deadline has passed, or will before `margin` is over.
    bool deadline_passed(Clock::duration margin = Clock::duration::zero()) const {
        return deadline && Clock::now() + margin >= *deadline;
    }
};

}  // namespace foxgeese::storage
