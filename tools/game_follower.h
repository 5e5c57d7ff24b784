// Follows one game over WatchGame on a thread of its own, for `foxgeese
// play`: every event in order, and when the stream breaks (the server
// restarted, the network dropped) a new stream resumes with from_ply, the
// last ply passed on, so no move is missed or told twice. Waits between
// attempts grow from a quarter of a second to four seconds.
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "client_connection.h"

namespace foxgeese::cli {

class GameFollower {
  public:
    using OnEvent = std::function<void(const v1::WatchGameResponse&)>;
    // The stream broke. `final` when the server refused the watch in a way a
    // retry cannot mend (an unknown game, a bad request): the follower stops.
    // Otherwise it tries again after `retry_in`.
    using OnBreak =
        std::function<void(const grpc::Status&, bool final, std::chrono::milliseconds retry_in)>;

    // Starts following from `from_ply`, the ply the caller has already seen.
    // The callbacks run on the follower's thread.
    GameFollower(ClientConnection& connection, std::string game_id, int from_ply, OnEvent on_event,
                 OnBreak on_break);
    // Stops and joins the thread.
    ~GameFollower();
    GameFollower(const GameFollower&) = delete;
    GameFollower& operator=(const GameFollower&) = delete;

    // Ends the stream and the retries; the callbacks are not called after it
    // returns. Any thread but the follower's own.
    void stop();

  private:
    void run();
    // One stream: its final status (OK when it ended at the game's end).
    grpc::Status follow_once(bool& saw_event);
    bool wait_or_stop(std::chrono::milliseconds wait);

    ClientConnection& connection_;
    const std::string game_id_;
    int last_ply_;
    const OnEvent on_event_;
    const OnBreak on_break_;

    std::mutex mutex_;
    std::condition_variable stopped_changed_;
    bool stopped_ = false;
    grpc::ClientContext* context_ = nullptr;  // the open stream's, to cancel it
    std::thread thread_;
};

}  // namespace foxgeese::cli
