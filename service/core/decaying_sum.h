// A sum that forgets: each amount added loses half its weight every
// half-life. What a client used lately, for the schedulers that share the
// analysis places (analysis_slots.h) and the bot threads (bot_fairness.h).
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>

namespace foxgeese::service {

class DecayingSum {
  public:
    explicit DecayingSum(std::chrono::microseconds half_life)
        : half_life_us_(static_cast<double>(half_life.count())) {}

    // The sum at `now_us` (a time before the last update counts as then).
    double at(std::int64_t now_us) const {
        if (now_us <= at_us_ || value_ <= 0) return value_;
        return value_ * std::exp2(-static_cast<double>(now_us - at_us_) / half_life_us_);
    }
    void add(double amount, std::int64_t now_us) {
        value_ = at(now_us) + amount;
        if (now_us > at_us_) at_us_ = now_us;
    }

  private:
    double half_life_us_;
    double value_ = 0;
    std::int64_t at_us_ = 0;
};

}  // namespace foxgeese::service
