#include "service/core/clock.h"

#include <chrono>

namespace foxgeese::service {
namespace {

class SystemClock final : public Clock {
  public:
    std::int64_t now_us() const override {
        return std::chrono::duration_cast<std::chrono::microseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
            .count();
    }
};

}  // namespace

Clock& system_clock() {
    static SystemClock clock;
    return clock;
}

}  // namespace foxgeese::service
