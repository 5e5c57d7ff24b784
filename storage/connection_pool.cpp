#include "storage/connection_pool.h"

#include <sys/socket.h>

#include <algorithm>
#include <pqxx/pqxx>

#include "storage/database_failure.h"

namespace foxgeese::storage {

struct ConnectionPool::Watch {
    Clock::time_point deadline;
    Verdict on_expiry = Verdict::kTimedOut;  // what passing `deadline` means
    int backend_pid = 0;
    int socket = -1;
    // 0 running, 1 cancel requested, 2 socket cut; guarded by watch_mutex_.
    int stage = 0;
    Clock::time_point cut_at;
    Verdict verdict = Verdict::kNone;
    bool done = false;  // the lease ended
};

namespace {

using Kind = DatabaseFailure::Kind;

std::string millis(std::chrono::milliseconds ms) {
    return std::to_string(ms.count()) + " ms";
}

}  // namespace

ConnectionPool::ConnectionPool(std::string database_url, PoolOptions options, OnConnect on_connect)
    : url_(std::move(database_url)), options_(options), on_connect_(std::move(on_connect)) {
    watchdog_ = std::thread([this] { watchdog_loop(); });
    canceller_ = std::thread([this] { canceller_loop(); });
}

ConnectionPool::~ConnectionPool() {
    {
        std::lock_guard lock(watch_mutex_);
        stopping_ = true;
    }
    watch_wake_.notify_all();
    cancel_wake_.notify_all();
    watchdog_.join();
    canceller_.join();
}

ConnectionPool::Lease::Lease(ConnectionPool* pool, std::unique_ptr<pqxx::connection> conn,
                             std::shared_ptr<Watch> watch)
    : pool_(pool), conn_(std::move(conn)), watch_(std::move(watch)) {}

ConnectionPool::Lease::Lease(Lease&& other) noexcept
    : pool_(other.pool_),
      conn_(std::move(other.conn_)),
      watch_(std::move(other.watch_)),
      discard_(other.discard_) {
    other.pool_ = nullptr;
}

ConnectionPool::Lease::~Lease() {
    if (pool_ && conn_) pool_->give_back(std::move(conn_), discard_, watch_);
}

ConnectionPool::Verdict ConnectionPool::Lease::verdict() const {
    if (!watch_) return Verdict::kNone;
    std::lock_guard lock(pool_->watch_mutex_);
    return watch_->verdict;
}

ConnectionPool::Lease ConnectionPool::acquire(const CallBudget& budget) {
    std::unique_lock lock(mutex_);
    if (closed_) {
        throw DatabaseFailure(Kind::kShuttingDown, WriteOutcome::kNotApplied,
                              "the server is shutting down");
    }
    auto until = Clock::now() + options_.acquire_timeout;
    const bool deadline_first = budget.deadline && *budget.deadline < until;
    if (deadline_first) until = *budget.deadline;
    if (idle_.empty() && open_ >= options_.size) {
        if (waiting_++ == 0) last_progress_ = Clock::now();
        const bool got = available_.wait_until(
            lock, until, [&] { return closed_ || !idle_.empty() || open_ < options_.size; });
        --waiting_;
        if (closed_) {
            throw DatabaseFailure(Kind::kShuttingDown, WriteOutcome::kNotApplied,
                                  "the server is shutting down");
        }
        if (!got) {
            if (deadline_first) {
                throw DatabaseFailure(Kind::kDeadlinePassed, WriteOutcome::kNotApplied,
                                      "the deadline passed while waiting for a connection");
            }
            throw DatabaseFailure(
                Kind::kBusy, WriteOutcome::kNotApplied,
                "no database connection free after " + millis(options_.acquire_timeout));
        }
    }
    last_progress_ = Clock::now();
    ++leased_;
    std::unique_ptr<pqxx::connection> conn;
    if (!idle_.empty()) {
        conn = std::move(idle_.back());
        idle_.pop_back();
        lock.unlock();
    } else {
        // Open outside the lock: connecting takes a round trip or more (and
        // libpq's connect_timeout bounds it).
        ++open_;
        lock.unlock();
        try {
            conn = std::make_unique<pqxx::connection>(url_);
            if (on_connect_) on_connect_(*conn);
        } catch (const std::exception& e) {
            lock.lock();
            --open_;
            --leased_;
            available_.notify_one();
            throw DatabaseFailure(Kind::kUnavailable, WriteOutcome::kNotApplied,
                                  std::string("cannot open a database connection: ") + e.what());
        }
    }
    auto watch = watch_lease(*conn, budget);
    return Lease(this, std::move(conn), std::move(watch));
}

std::shared_ptr<ConnectionPool::Watch> ConnectionPool::watch_lease(pqxx::connection& conn,
                                                                   const CallBudget& budget) {
    auto watch = std::make_shared<Watch>();
    watch->deadline = Clock::now() + options_.query_timeout;
    if (budget.deadline && *budget.deadline < watch->deadline) {
        watch->deadline = *budget.deadline;
        watch->on_expiry = Verdict::kDeadlinePassed;
    }
    watch->backend_pid = conn.backendpid();
    watch->socket = conn.sock();
    bool sooner = false;
    {
        std::lock_guard lock(watch_mutex_);
        watched_.push_back(watch);
        sooner = watch->deadline < watchdog_wakes_at_;
    }
    if (sooner) watch_wake_.notify_one();
    return watch;
}

void ConnectionPool::give_back(std::unique_ptr<pqxx::connection> conn, bool discard,
                               const std::shared_ptr<Watch>& watch) {
    bool touched = false;
    if (watch) {
        std::lock_guard lock(watch_mutex_);
        watch->done = true;
        touched = watch->stage > 0;
        watched_.erase(std::remove(watched_.begin(), watched_.end(), watch), watched_.end());
    }
    std::lock_guard lock(mutex_);
    --leased_;
    // A connection the watchdog touched may still receive its cancel, which
    // would hit the next caller's query: it is not lent again.
    if (discard || touched || closed_ || !conn->is_open()) {
        --open_;
        conn.reset();
    } else {
        idle_.push_back(std::move(conn));
    }
    available_.notify_one();
}

void ConnectionPool::close() {
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
        idle_.clear();
        open_ = leased_;
    }
    available_.notify_all();
    {
        std::lock_guard lock(watch_mutex_);
        const auto now = Clock::now();
        for (auto& watch : watched_) {
            if (watch->stage != 0) continue;
            watch->stage = 1;
            watch->verdict = Verdict::kShuttingDown;
            watch->cut_at = now + options_.cancel_grace;
            to_cancel_.push_back(watch->backend_pid);
        }
    }
    watch_wake_.notify_all();
    cancel_wake_.notify_all();
}

int ConnectionPool::in_use() const {
    std::lock_guard lock(mutex_);
    return leased_;
}

std::chrono::milliseconds ConnectionPool::starved_for() const {
    std::lock_guard lock(mutex_);
    if (waiting_ == 0) return std::chrono::milliseconds(0);
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - last_progress_);
}

void ConnectionPool::watchdog_loop() {
    std::unique_lock lock(watch_mutex_);
    while (!stopping_) {
        const auto now = Clock::now();
        auto next = Clock::time_point::max();
        for (auto& watch : watched_) {
            if (watch->stage == 0 && now >= watch->deadline) {
                watch->stage = 1;
                watch->verdict = watch->on_expiry;
                watch->cut_at = now + options_.cancel_grace;
                to_cancel_.push_back(watch->backend_pid);
                cancel_wake_.notify_one();
            }
            if (watch->stage == 1 && now >= watch->cut_at) {
                // The backend ignored the cancel (or cannot be reached): the
                // caller gets a broken connection now instead of a hang.
                watch->stage = 2;
                ::shutdown(watch->socket, SHUT_RDWR);
            }
            if (watch->stage == 0) next = std::min(next, watch->deadline);
            if (watch->stage == 1) next = std::min(next, watch->cut_at);
        }
        watchdog_wakes_at_ = next;
        if (next == Clock::time_point::max()) {
            watch_wake_.wait(lock);
        } else {
            watch_wake_.wait_until(lock, next);
        }
        watchdog_wakes_at_ = Clock::time_point::min();  // awake: it looks at every lease
    }
}

void ConnectionPool::canceller_loop() {
    // Cancels go through a connection of their own, with SQL, so that a slow
    // or unreachable server delays only this thread, never the watchdog.
    std::unique_ptr<pqxx::connection> control;
    std::unique_lock lock(watch_mutex_);
    while (true) {
        cancel_wake_.wait(lock, [&] { return stopping_ || !to_cancel_.empty(); });
        if (stopping_) return;
        const int pid = to_cancel_.front();
        to_cancel_.pop_front();
        lock.unlock();
        try {
            if (!control || !control->is_open()) control = std::make_unique<pqxx::connection>(url_);
            pqxx::nontransaction tx(*control);
            tx.exec_params("SELECT pg_cancel_backend($1)", pid);
        } catch (const std::exception&) {
            // The socket cut after the grace still frees the caller.
            control.reset();
        }
        lock.lock();
    }
}

}  // namespace foxgeese::storage
