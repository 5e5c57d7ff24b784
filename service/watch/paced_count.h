// A number that changes often but goes out at most once per interval of the
// service's Clock, and only when it changed: the spectator count, as each
// server writes its own to the database and as watchers are sent the total.
// A change waits until an interval has passed since the last one went out;
// what goes out then is the latest value, so the changes in between
// coalesce, and a value that came back to the last one sent never goes.
#pragma once

#include <cstdint>
#include <optional>

namespace foxgeese::service {

class PacedCount {
  public:
    // `already_out`: a value that counts as sent long ago (the writer's zero:
    // no row), so that it is never sent itself.
    explicit PacedCount(std::int64_t interval_us, std::optional<int> already_out = std::nullopt)
        : interval_us_(interval_us), last_(already_out) {}

    // Whether `value` goes out at `now_us`: it is not the last one sent, and
    // that one went out an interval ago or more (or the clock went back).
    bool due(int value, std::int64_t now_us) const {
        if (last_ == value) return false;
        return !last_at_us_ || now_us >= *last_at_us_ + interval_us_ || now_us < *last_at_us_;
    }
    // Whether a change would have to wait at `now_us`.
    bool holding(std::int64_t now_us) const { return !due(last_.value_or(0) + 1, now_us); }
    // When a change held back may go out.
    std::int64_t next_us() const { return last_at_us_ ? *last_at_us_ + interval_us_ : 0; }
    void sent(int value, std::int64_t now_us) {
        last_ = value;
        last_at_us_ = now_us;
    }
    // The value sent last (or counted as sent); none before the first.
    std::optional<int> last() const { return last_; }

  private:
    std::int64_t interval_us_;
    std::optional<int> last_;
    std::optional<std::int64_t> last_at_us_;
};

}  // namespace foxgeese::service
