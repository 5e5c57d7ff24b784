// Live game events for watchers on every replica. One LISTEN connection per
// process receives the database's NOTIFY for every change; the hub re-reads a
// changed game once and fans the resulting events out to all of its local
// watchers, so a thousand watchers of a game cost one read per change, and a
// watcher needs no thread of its own. Each watcher tracks the last ply it was
// sent, so a resumed stream gets every move after its from_ply exactly once.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "foxgeese/v1/game_service.pb.h"
#include "service/core/service_error.h"
#include "storage/game_records.h"
#include "storage/postgres_game_store.h"

namespace foxgeese::service {

// Why a watch stream ends.
enum class WatchEnd {
    kGameEnded,  // GameEnded was the last event delivered
    kShutdown,   // the server is stopping; the client should reconnect elsewhere
};

// A transport's end of one watch stream (a gRPC reactor, an HTTP response).
// The hub calls these from its own threads; they must queue and return
// without blocking. After close() the hub calls nothing more.
// One event, built once and shared by every watcher it goes to, with its
// wire form serialized once (a thousand watchers must not mean a thousand
// serializations).
struct WatchEvent {
    explicit WatchEvent(v1::WatchGameResponse m) : message(std::move(m)) {
        message.SerializeToString(&bytes);
    }
    // An event whose serialized form is already at hand (as recorded).
    WatchEvent(v1::WatchGameResponse m, std::string serialized)
        : message(std::move(m)), bytes(std::move(serialized)) {}
    v1::WatchGameResponse message;
    std::string bytes;  // protobuf binary form of `message`
};

// A transport's end of one watch stream (a gRPC reactor, an HTTP response).
// The hub calls these from its own threads; they must queue and return
// without blocking. After close() the hub calls nothing more.
class WatchSink {
  public:
    virtual ~WatchSink() = default;
    virtual void deliver(const v1::WatchGameResponse& event) = 0;
    // Transports that can use the shared serialized form override this.
    virtual void deliver_event(const std::shared_ptr<const WatchEvent>& event) {
        deliver(event->message);
    }
    virtual void close(WatchEnd why) = 0;
};

struct WatchHubOptions {
    std::chrono::milliseconds heartbeat_interval{15'000};
    // How often this server refreshes its watchers' presence rows and re-reads
    // the presence of the games it serves.
    std::chrono::milliseconds presence_interval{5'000};
    // How long a presence row counts after each refresh: past it, the seat
    // counts as gone (its server died). Longer than presence_interval.
    std::chrono::milliseconds presence_ttl{20'000};
};

class WatchHub {
  public:
    WatchHub(std::string database_url, storage::PostgresGameStore& store,
             WatchHubOptions options = {});
    ~WatchHub();
    WatchHub(const WatchHub&) = delete;
    WatchHub& operator=(const WatchHub&) = delete;

    // Starts the listener and timer threads.
    void start();
    // Closes every stream with kShutdown and stops the threads.
    void stop();

    // A registered watcher; unsubscribing (idempotent) removes it and, if it
    // held a seat, marks that seat's presence gone.
    class Subscription {
      public:
        virtual ~Subscription() = default;
        virtual void unsubscribe() = 0;
    };

    // Checks the request (game id, from_ply, an optional seat token), then
    // registers the sink and delivers the snapshot and (for a game in
    // progress) the current presence before returning. A finished game gets
    // the snapshot and close(kGameEnded) right away.
    ServiceResult<std::shared_ptr<Subscription>> subscribe(
        const v1::WatchGameRequest& request, const std::optional<std::string>& authorization,
        std::shared_ptr<WatchSink> sink);

    int active_watchers() const;

  private:
    struct Watcher;
    struct WatchedGame;
    class SubscriptionImpl;

    void listen_loop();
    void refresh_loop();
    void timer_loop();
    // What a refresh of a watched game reads: its recorded events after the
    // watchers' last, and/or its seats' presence.
    static constexpr int kEvents = 1;
    static constexpr int kPresence = 2;

    // Queues a refresh of a watched game (coalesced with pending ones).
    void mark_dirty(const std::string& game_id, int what);
    void mark_all_dirty(int what);
    void run_later(std::function<void()> task);
    void refresh_game(const std::string& game_id, int what);
    // Sends each watcher the recorded events it has not had, in order. The
    // caller holds game.mutex.
    void send_events_locked(WatchedGame& game, const std::string& game_id);
    void send_presence_locked(WatchedGame& game, const std::string& game_id,
                              const std::shared_ptr<Watcher>& only_new);
    // How long this server's presence rows count after each refresh.
    std::int64_t presence_ttl_us() const {
        return std::chrono::duration_cast<std::chrono::microseconds>(options_.presence_ttl).count();
    }
    void remove(const std::shared_ptr<Watcher>& watcher);

    const std::string database_url_;
    storage::PostgresGameStore& store_;
    const WatchHubOptions options_;
    const std::string server_id_;

    // Lock order: mutex_, then a WatchedGame's mutex; queue_mutex_ alone.
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<WatchedGame>> games_;
    std::atomic<int> watcher_count_{0};
    std::atomic<bool> stopping_{false};

    std::mutex queue_mutex_;
    std::condition_variable queue_wake_;
    std::map<std::string, int> dirty_;  // game id -> kEvents | kPresence
    std::deque<std::function<void()>> tasks_;
    std::mutex timer_mutex_;
    std::condition_variable timer_wake_;

    std::vector<std::thread> threads_;
};

}  // namespace foxgeese::service
