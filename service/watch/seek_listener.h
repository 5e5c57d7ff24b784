// Wakes this replica's waiting seekers (SeekGame, service/core/seek_game.cpp):
// one LISTEN connection hears the id of every seek claimed on any replica
// (storage::kSeeksChannel, notified by the claim's own transaction at its
// commit), and the same thread ticks every `interval` so that waits that
// are over, or whose callers left, end at once. While the database is out
// of reach the ticks go on; a pairing missed meanwhile is answered when its
// wait ends (the removal finds the seek claimed), never lost.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace foxgeese::service {

class SeekListener {
  public:
    SeekListener(std::string database_url, std::function<void(const std::string&)> paired,
                 std::function<void()> tick,
                 std::chrono::milliseconds interval = std::chrono::milliseconds(100));
    ~SeekListener();
    SeekListener(const SeekListener&) = delete;
    SeekListener& operator=(const SeekListener&) = delete;

    void start();
    // Stops hearing and ticking; returns within about one interval.
    void stop();

  private:
    void run();
    // Ticks for `time`, or until stopping.
    void tick_for(std::chrono::milliseconds time);

    const std::string database_url_;
    const std::function<void(const std::string&)> paired_;
    const std::function<void()> tick_;
    const std::chrono::milliseconds interval_;
    std::atomic<bool> stopping_{false};
    std::mutex mutex_;
    std::condition_variable wake_;
    std::thread thread_;
};

}  // namespace foxgeese::service
