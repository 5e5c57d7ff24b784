// How a replica's bot threads share their time (bot_moves.h): which owed
// move a free thread takes, and when a running search gives way.
//
// - Urgent first: a move whose bot has less than kUrgentBotMove left before
//   its deadline (its flag, or its first-move deadline) goes before every
//   other, earliest deadline first.
// - Otherwise by client (the address that created the game, as a digest):
//   the move of the client with the fewest searches running on any replica,
//   then of the one this replica has served least lately (search time, a
//   sum that halves every kBotServedHalfLife); within a client its most
//   urgent move first. So a client with many bot games gets the threads'
//   time of one client, not of many.
// - A running search gives way (it stops and its bot plays the best move
//   found so far) to a waiting urgent move when its own is not urgent, and
//   to a waiting client with no search running that has been served less,
//   by more than kBotYieldMargin, than the running search's client counting
//   that search's time so far: a client who has had its share yields.
//   Otherwise one thread busy with one client's 1 s searches would keep
//   every other client waiting for seconds.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "service/core/clock.h"
#include "service/core/decaying_sum.h"
#include "storage/game_records.h"

namespace foxgeese::service {

constexpr std::chrono::seconds kUrgentBotMove{3};
constexpr std::chrono::seconds kBotServedHalfLife{10};
constexpr std::chrono::milliseconds kBotYieldMargin{1'000};

class BotFairness {
  public:
    explicit BotFairness(const Clock& clock) : clock_(clock) {}

    // A search running here.
    struct Running {
        std::string client_key;
        std::int64_t deadline_us = 0;  // 0: none
        std::int64_t started_us = 0;
    };

    // The order to try `owed` in (as the store lists it: most urgent
    // first), as indexes into it.
    std::vector<std::size_t> order(const std::vector<storage::OwedBotMove>& owed) const;
    // Whether `running` should give way to `waiting`.
    bool should_yield(const Running& running, const storage::OwedBotMove& waiting) const;
    // A search for `client_key` that began at `started_us` has ended now.
    void served(const std::string& client_key, std::int64_t started_us);
    // The client's search time served here lately, in microseconds.
    double served_us(const std::string& client_key) const;

  private:
    double served_at(const std::string& client_key, std::int64_t now_us) const;
    bool urgent(std::int64_t deadline_us, std::int64_t now_us) const;

    const Clock& clock_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, DecayingSum> served_;
};

}  // namespace foxgeese::service
