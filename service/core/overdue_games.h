// Games that end by themselves: a clock that ran out (a loss on time), a
// first move not made (an abort), an open game nobody joined (expired). They
// end whoever notices first: any read or write of the game settles it, and
// every replica runs a GameSweeper that ends overdue games nobody touches,
// each claimed with FOR UPDATE SKIP LOCKED so that two replicas never both
// end one game.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "service/core/clock.h"
#include "storage/game_records.h"
#include "storage/game_store.h"

namespace foxgeese::service {

// Ends a game overdue at `now_us`, recording its events (a pending draw
// offer dies, then GameEnded); false, changing nothing, when it is not.
bool settle_overdue(storage::GameWithLastMove& current, std::int64_t now_us,
                    std::vector<std::string>& events);

class GameSweeper {
  public:
    GameSweeper(storage::GameStore& store, Clock& clock,
                std::chrono::milliseconds interval = std::chrono::milliseconds(250));
    ~GameSweeper();
    GameSweeper(const GameSweeper&) = delete;
    GameSweeper& operator=(const GameSweeper&) = delete;

    // Ends every game overdue now (at most `limit`, one transaction each);
    // returns how many this replica ended.
    int sweep_once(int limit = 100);

    void start();
    void stop();

  private:
    storage::GameStore& store_;
    Clock& clock_;
    const std::chrono::milliseconds interval_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace foxgeese::service
