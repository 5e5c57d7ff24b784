// The seekers this replica holds while they wait for an opponent
// (SeekGame, seek_game.cpp). A waiter is a callback, not a thread: it stays
// here until its seek is paired (a notification names it), its wait is over
// on the service's Clock, or its caller leaves, and whoever takes it out
// answers it. Nothing here touches the database.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "foxgeese/v1/game_service.pb.h"
#include "service/core/service_error.h"

namespace foxgeese::service {

struct SeekWaiter {
    std::string seek_id;
    // The seat token its seeker gets when paired (only its digest is stored).
    std::string seat_token;
    // When the wait is over, on the service's Clock.
    std::int64_t until_us = 0;
    // The call's own deadline, if it has one.
    std::optional<std::chrono::steady_clock::time_point> deadline;
    // Whether the caller went away; may be empty.
    std::function<bool()> cancelled;
    std::function<void(ServiceResult<v1::SeekGameResponse>)> done;
};

class SeekWaiters {
  public:
    // Holds a waiter whose seek is being placed: not due until activate(),
    // so that no one withdraws a seek before it is stored.
    void add(SeekWaiter waiter);
    // Its seek is stored and waits.
    void activate(const std::string& seek_id);
    // A waiter taken out; nothing when it is not here (another replica's
    // seek, or one answered already).
    std::optional<SeekWaiter> take(const std::string& seek_id);
    // The active waiters whose wait is over at `now_us` (or whose call's
    // deadline passed), or whose caller left, taken out.
    std::vector<SeekWaiter> take_due(std::int64_t now_us);
    std::size_t size() const;

  private:
    struct Held {
        SeekWaiter waiter;
        bool active = false;
    };
    mutable std::mutex mutex_;
    std::map<std::string, Held> held_;
};

}  // namespace foxgeese::service
