// A fixed-size pool of PostgreSQL connections. Connections open lazily, get
// their prepared statements on open, and are dropped (and reopened on a later
// acquire) when they break, so a database restart heals by itself.
//
// Every lease is bounded in time. A watchdog thread watches the leases: when
// one outlives its bound (the caller's deadline or the pool's query timeout)
// it asks the server to cancel the backend's query, and if the call is still
// stuck after a grace period it cuts the connection's socket, so a database
// that stops answering (a synchronous standby gone, a full disk, a lock held
// forever) never holds a caller longer than its bound plus the grace.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <pqxx/connection>
#include <string>
#include <thread>
#include <vector>

#include "storage/call_budget.h"

namespace foxgeese::storage {

struct PoolOptions {
    int size = 8;
    // How long an acquire waits for a free connection before kBusy.
    std::chrono::milliseconds acquire_timeout{5'000};
    // The longest one call may hold a connection, whatever its caller allows.
    std::chrono::milliseconds query_timeout{5'000};
    // How long a cancelled query may take to give up before its socket is cut.
    std::chrono::milliseconds cancel_grace{1'000};
};

class ConnectionPool {
  public:
    using Clock = std::chrono::steady_clock;
    using OnConnect = std::function<void(pqxx::connection&)>;

    ConnectionPool(std::string database_url, PoolOptions options, OnConnect on_connect);
    ~ConnectionPool();
    ConnectionPool(const ConnectionPool&) = delete;
    ConnectionPool& operator=(const ConnectionPool&) = delete;

    // Why the watchdog stepped in on a lease.
    enum class Verdict { kNone, kDeadlinePassed, kTimedOut, kShuttingDown };

    struct Watch;  // the watchdog's record of one lease

    // A connection on loan; returned to the pool when the lease ends.
    class Lease {
      public:
        Lease(ConnectionPool* pool, std::unique_ptr<pqxx::connection> conn,
              std::shared_ptr<Watch> watch);
        Lease(Lease&& other) noexcept;
        Lease& operator=(Lease&&) = delete;
        ~Lease();
        pqxx::connection& operator*() const { return *conn_; }
        pqxx::connection* operator->() const { return conn_.get(); }
        // The connection broke or is in an unknown state: close it instead
        // of returning it.
        void discard() { discard_ = true; }
        // Whether (and why) the watchdog cancelled this lease's work.
        Verdict verdict() const;

      private:
        ConnectionPool* pool_;
        std::unique_ptr<pqxx::connection> conn_;
        std::shared_ptr<Watch> watch_;
        bool discard_ = false;
    };

    // Waits for a connection until the acquire timeout or the budget's
    // deadline, whichever comes first. Throws DatabaseFailure: kBusy,
    // kDeadlinePassed, kUnavailable (a new connection cannot be opened) or
    // kShuttingDown.
    Lease acquire(const CallBudget& budget = {});

    // Shutdown: no more leases, and every call in flight is cancelled (then
    // cut after the grace), so stuck calls end now rather than never.
    void close();

    int size() const { return options_.size; }
    int in_use() const;
    // How long callers have been waiting with no connection handed out; zero
    // when nobody waits. Readiness reads it: a starved pool is not ready.
    std::chrono::milliseconds starved_for() const;
    const std::string& database_url() const { return url_; }

  private:
    void give_back(std::unique_ptr<pqxx::connection> conn, bool discard,
                   const std::shared_ptr<Watch>& watch);
    std::shared_ptr<Watch> watch_lease(pqxx::connection& conn, const CallBudget& budget);
    void watchdog_loop();
    void canceller_loop();

    const std::string url_;
    const PoolOptions options_;
    const OnConnect on_connect_;

    mutable std::mutex mutex_;
    std::condition_variable available_;
    std::vector<std::unique_ptr<pqxx::connection>> idle_;
    int open_ = 0;    // connections that exist (idle or leased)
    int leased_ = 0;  // connections on loan
    int waiting_ = 0;
    Clock::time_point last_progress_ = Clock::now();
    bool closed_ = false;

    // The watchdog's state: leases in flight, and backends to cancel.
    std::mutex watch_mutex_;
    std::condition_variable watch_wake_;
    std::vector<std::shared_ptr<Watch>> watched_;
    // When the watchdog wakes next by itself: a new lease wakes it only if
    // its deadline comes sooner (one wake-up per lease would cost a thread
    // switch per database call).
    Clock::time_point watchdog_wakes_at_ = Clock::time_point::max();
    std::deque<int> to_cancel_;  // backend process ids
    std::condition_variable cancel_wake_;
    bool stopping_ = false;
    std::thread watchdog_;
    std::thread canceller_;
};

}  // namespace foxgeese::storage
