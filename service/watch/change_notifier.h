// Announces changed games on the events channel (LISTEN/NOTIFY) outside the
// transactions that changed them. A NOTIFY inside a transaction takes a
// database-wide lock through that transaction's commit, so notifying from
// every move would commit moves one at a time; instead each replica hands the
// ids of games it changed to its notifier, which sends them on its own
// connection, many ids to a notification, at most one notification every
// `min_interval`: idle, an id goes out at once; under load, the ids that
// arrive in between go out together in the next. Each notification is a
// transaction with a commit of its own, so this bounds what announcing costs
// the database (at 5 ms, 200 a second however many moves) for at most that
// much more delay to watchers on other replicas.
//
// A notification is a hint, never the record: watchers read the events
// themselves by sequence number, and a hint lost with a dying replica is made
// up by the watch hub's periodic catch-up (watch_hub.h).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "storage/connection_pool.h"

namespace foxgeese::service {

// The payloads announcing `ids`: the ids joined by commas, each payload
// within PostgreSQL's 8,000-byte limit.
std::vector<std::string> change_payloads(const std::set<std::string>& ids);

class ChangeNotifier {
  public:
    static constexpr std::chrono::milliseconds kDefaultMinInterval{5};
    explicit ChangeNotifier(std::string database_url,
                            std::chrono::milliseconds min_interval = kDefaultMinInterval);
    ~ChangeNotifier();
    ChangeNotifier(const ChangeNotifier&) = delete;
    ChangeNotifier& operator=(const ChangeNotifier&) = delete;

    void start();
    // Sends what is still pending, giving it up to `flush_time`; a send still
    // stuck then (a database that stopped answering) is cancelled, so that
    // stopping never waits on the database longer than that and a short grace.
    void stop(std::chrono::milliseconds flush_time = std::chrono::milliseconds(500));

    // Game `game_id` has new recorded events: announce it soon. Never blocks
    // on the database.
    void changed(const std::string& game_id);

    // Notifications sent since start (each carries one or more ids).
    std::size_t notifications_sent() const;

  private:
    void run();
    void run_sends();
    std::size_t send(const std::set<std::string>& ids);  // notifications sent

    std::unique_ptr<storage::ConnectionPool> pool_;  // one connection, with the pool's time bounds
    const std::chrono::milliseconds min_interval_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::set<std::string> pending_;
    bool stopping_ = false;
    bool finished_ = false;  // run() has returned
    std::condition_variable finished_wake_;
    std::size_t sent_ = 0;
    bool failing_ = false;  // the last send failed (run()'s thread only)
    std::thread thread_;
};

}  // namespace foxgeese::service
