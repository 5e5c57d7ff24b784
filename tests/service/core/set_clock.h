// A clock that stands still until the test moves it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "service/core/clock.h"

namespace foxgeese::service {

class SetClock : public Clock {
  public:
    std::int64_t now_us() const override { return now_; }
    void advance(std::chrono::microseconds by) { now_ += by.count(); }

  private:
    std::atomic<std::int64_t> now_{1'700'000'000'000'000};
};

}  // namespace foxgeese::service
