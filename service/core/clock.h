// The time of day as the service reads it. Everything that depends on it
// (timestamps of rows and events, retry windows, and later clocks and
// expiries) asks a Clock, so that tests set the time instead of waiting.
#pragma once

#include <cstdint>

namespace foxgeese::service {

class Clock {
  public:
    virtual ~Clock() = default;
    // Microseconds since the Unix epoch.
    virtual std::int64_t now_us() const = 0;
};

// The system's real-time clock.
Clock& system_clock();

}  // namespace foxgeese::service
