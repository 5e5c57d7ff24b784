// What a transport knows about one call besides its request message: the
// caller's credentials and language, how long it waits, and whether it is
// still there. Both transports fill one, so the game service treats a gRPC
// call and an HTTP request alike.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "storage/call_budget.h"

namespace foxgeese::service {

struct CallContext {
    // Every `authorization` value the call carried (metadata or header), in
    // order. More than one is refused: a proxy may have checked another copy.
    std::vector<std::string> authorization;
    // The Accept-Language header or metadata, for ListVariants.
    std::string accept_language;
    // When the caller stops waiting (a gRPC deadline); none: no limit of its own.
    std::optional<std::chrono::steady_clock::time_point> deadline;
    // True once the caller went away (a cancelled gRPC call); may be empty.
    std::function<bool()> cancelled;
    // When the call arrived, on the service's Clock (0: unknown). A move's
    // thinking time ends here, not when a worker got to it.
    std::int64_t received_us = 0;
    // The client's address as rate limits key it (see client_address in
    // rate_limits.h); empty when the transport knows none.
    std::string client_address;

    // The database budget of the call: its deadline and its presence.
    storage::CallBudget budget() const { return storage::CallBudget{deadline, cancelled}; }
};

}  // namespace foxgeese::service
