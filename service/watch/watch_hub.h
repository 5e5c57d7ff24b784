// Live game events for watchers on every replica. One LISTEN connection per
// process receives the database's NOTIFY for every change; the hub re-reads a
// changed game's recorded events once and fans them out to all of its local
// watchers, so a thousand watchers of a game cost one read per change, and a
// watcher needs no thread of its own. Each watcher tracks the sequence number
// of the last event it was sent, so a resumed stream gets every move after its
// from_ply exactly once, in order.
//
// Presence also carries the game's spectators (streams without a seat
// token): each server keeps its own count per game, writes it to the
// database when it changes (at most once per spectators_interval, all games
// in one statement) and adds the other servers' counts to it when it reads
// the presence, so a thousand spectators cost no write each.
//
// No database call happens under a lock: reads run first, and the results are
// delivered under a game's lock (sinks only queue), so a slow query never
// stalls a transport thread that registers or removes a watcher.
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
#include <string>
#include <thread>
#include <vector>

#include "foxgeese/v1/game_service.pb.h"
#include "service/core/call_context.h"
#include "service/core/clock.h"
#include "service/core/rate_limits.h"
#include "service/core/seat_auth.h"
#include "service/core/service_error.h"
#include "service/watch/paced_count.h"
#include "service/watch/walk_pool.h"
#include "service/watch/watch_sink.h"
#include "storage/game_store.h"
#include "storage/presence_store.h"

namespace foxgeese::service {

struct WatchHubOptions {
    std::chrono::milliseconds heartbeat_interval{15'000};
    // How often this server refreshes its watchers' presence rows and re-reads
    // the presence of the games it serves.
    std::chrono::milliseconds presence_interval{5'000};
    // How long a presence row counts after each refresh: past it, the seat
    // counts as gone (its server died). Longer than presence_interval.
    std::chrono::milliseconds presence_ttl{20'000};
    // How long a stream stays open after GameEnded, for a rematch offer and
    // its answer (it ends at the answer); 0 ends it with GameEnded. A watch
    // of a finished game opened within this time after the end stays too.
    std::chrono::milliseconds rematch_linger{120'000};
    // How often this server checks every game it serves for events it has
    // not heard of: a notification lost (its replica died between a commit
    // and the announcement, change_notifier.h) costs a watcher this long.
    std::chrono::milliseconds catch_up_interval{1'000};
    // Watch streams open at once (0: no limit): per seat token for a stream
    // that carries one, so that the many players behind one shared address
    // (a school, a mobile network) never share a limit; per client address
    // for the others, the spectators.
    int streams_per_token = 8;
    int streams_per_address = 256;
    // How often streams may be opened (each open reads the game and may
    // change a seat's presence): per seat token, and per client address for
    // streams without one, sized for a shared address.
    Rate opens_per_token{60, std::chrono::seconds(60), 20};
    Rate opens_per_address{1200, std::chrono::seconds(60), 300};
    // Presence changes go to a game's watchers at most this often once a
    // few have gone at once, with the latest state: one who opens and closes
    // streams in a loop cannot flood the other watchers.
    std::chrono::milliseconds presence_min_interval{1'000};
    // The spectator count changes at most this often (on the service's
    // Clock): this server's write of its own count of a game, and what a
    // game's watchers are sent.
    std::chrono::milliseconds spectators_interval{1'000};
    // A stream is cut off when more events than this wait to be written to
    // it (its client reads slower than the game moves; it can resume with
    // from_ply), on either transport.
    std::size_t stream_queue_events = 1024;
    // Threads that share the walk over a game's watchers with the hub's own
    // (walk_pool.h); -1: one fewer than the machine's cores.
    int walk_helpers = -1;
    // A game's watchers are split into parts of at least this many (a part
    // costs a hand-off to another thread, worth it only for many sends).
    int watchers_per_walk_part = 256;
};

class WatchHub {
  public:
    // Hears of changes through LISTEN on `database_url`; with an empty one,
    // only through heard() (stores in this process) and the catch-up.
    WatchHub(std::string database_url, storage::GameFeed& store, storage::PresenceStore& presence,
             Clock& clock, WatchHubOptions options = {});
    ~WatchHub();
    WatchHub(const WatchHub&) = delete;
    WatchHub& operator=(const WatchHub&) = delete;

    // Starts the listener and timer threads.
    void start();
    // Closes every stream with kShutdown and stops the threads.
    void stop();

    // A registered watcher; unsubscribing (idempotent, any thread, never
    // blocks on the database) removes it and, if it held a seat, marks that
    // seat's presence gone.
    class Subscription {
      public:
        virtual ~Subscription() = default;
        virtual void unsubscribe() = 0;
    };

    // Checks the request (game id, from_ply) and the call's token, reads the
    // game, then registers the sink and delivers the snapshot before
    // returning; the current presence follows at once (a game in progress).
    // A finished game gets the snapshot and close(kGameEnded) right away.
    // Reads the database: call it off transport threads.
    ServiceResult<std::shared_ptr<Subscription>> subscribe(const v1::WatchGameRequest& request,
                                                           const CallContext& call,
                                                           std::shared_ptr<WatchSink> sink);

    // A game's recorded events (or, with `presence`, its seats' presence)
    // changed: its watchers here get what is new. LISTEN's notifications
    // come here too.
    void heard(const std::string& game_id, bool presence);

    int active_watchers() const;
    const WatchHubOptions& options() const { return options_; }
    // This process's id in presence rows (and readiness probes).
    const std::string& server_id() const { return server_id_; }
    // Games with at least one watcher here (for tests: none may linger).
    std::size_t watched_games() const;

  private:
    struct Watcher;
    struct WatchedGame;
    class SubscriptionImpl;

    // What a refresh of a watched game reads: its recorded events after the
    // watchers' last, and/or its seats' presence and spectators.
    static constexpr int kEvents = 1;
    static constexpr int kPresence = 2;

    struct PresenceRead {
        std::pair<storage::SeatPresence, storage::SeatPresence> seats;
        int spectators = 0;  // on every server, this one's as it is now
    };
    // This server's spectators of a game and the count of them written last.
    struct Tally {
        int here = 0;
        PacedCount written;
    };

    void listen_loop();
    void refresh_loop();
    void timer_loop();
    // Queues a refresh of a watched game (coalesced with pending ones).
    void mark_dirty(const std::string& game_id, int what);
    void mark_all_dirty(int what);
    // Marks the watched games whose last recorded event is newer than some
    // watcher's (reads the database; no lock held).
    void catch_up();
    void run_later(std::function<void()> task);
    void refresh_game(const std::string& game_id, int what);
    // Hands events and presence, read without a lock, to the watchers that
    // need them; returns what still has to be read (a watcher that needs
    // older events, or a refresh asked for meanwhile).
    int deliver_locked(WatchedGame& game, std::vector<storage::GameEvent>& events,
                       const std::optional<PresenceRead>& presence);
    // A watcher joined (+1) or left (-1) a game's list here.
    void count_watcher(const Watcher& watcher, int delta);
    int spectators_here(const std::string& game_id) const;
    // Writes the counts of spectators here that changed and may be written
    // (spectators_interval).
    void write_spectators();
    v1::WatchGameResponse snapshot_of(const storage::GameWithLastMove& found,
                                      const v1::WatchGameRequest& request,
                                      const storage::CallBudget& budget);
    void connect_seats(const Watcher& watcher, const storage::CallBudget& budget);
    void register_watcher(const std::string& game_id, const std::shared_ptr<Watcher>& watcher,
                          const std::shared_ptr<const WatchEvent>& snapshot);
    void remove(const std::shared_ptr<Watcher>& watcher);
    // Closes the watchers whose rematch linger has passed; true if any.
    bool close_lingering(WatchedGame& game, std::int64_t now_us);
    std::int64_t linger_us() const {
        return std::chrono::duration_cast<std::chrono::microseconds>(options_.rematch_linger)
            .count();
    }
    void forget_if_unwatched(const std::string& game_id, const std::shared_ptr<WatchedGame>& game);
    std::int64_t spectators_interval_us() const {
        return std::chrono::duration_cast<std::chrono::microseconds>(options_.spectators_interval)
            .count();
    }
    std::int64_t presence_ttl_us() const {
        return std::chrono::duration_cast<std::chrono::microseconds>(options_.presence_ttl).count();
    }

    const std::string database_url_;
    storage::GameFeed& store_;
    storage::PresenceStore& presence_;
    Clock& clock_;
    const WatchHubOptions options_;
    const std::string server_id_;
    ConcurrencyLimiter streams_per_token_;
    ConcurrencyLimiter streams_per_address_;
    RateLimiter opens_per_token_;
    RateLimiter opens_per_address_;
    WalkPool walk_;

    // Lock order: mutex_, then a WatchedGame's mutex, then tally_mutex_;
    // queue_mutex_ alone.
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<WatchedGame>> games_;
    std::atomic<int> watcher_count_{0};
    std::atomic<bool> stopping_{false};
    mutable std::mutex tally_mutex_;
    std::map<std::string, Tally> tallies_;  // by game id

    std::mutex queue_mutex_;
    std::condition_variable queue_wake_;
    std::map<std::string, int> dirty_;  // game id -> kEvents | kPresence
    std::deque<std::function<void()>> tasks_;
    std::mutex timer_mutex_;
    std::condition_variable timer_wake_;

    std::vector<std::thread> threads_;
};

}  // namespace foxgeese::service
