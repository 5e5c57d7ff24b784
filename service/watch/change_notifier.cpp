#include "service/watch/change_notifier.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <pqxx/pqxx>

#include "storage/postgres_game_store.h"

namespace foxgeese::service {
namespace {

// PostgreSQL refuses a payload of 8,000 bytes or more.
constexpr std::size_t kMaxPayloadBytes = 7'900;
// How long one notification may take before its connection is cancelled.
constexpr auto kSendTimeout = std::chrono::milliseconds(2'000);
// After a failed send, the ids wait this long before the next try (the
// watch hubs' catch-up covers them meanwhile).
constexpr auto kRetryDelay = std::chrono::milliseconds(500);
// How many ids may wait: beyond it some hints (the lowest ids, not the
// oldest) are dropped and left to the catch-up, so a database that stopped
// answering costs bounded memory.
constexpr std::size_t kMaxPending = 100'000;

}  // namespace

std::vector<std::string> change_payloads(const std::set<std::string>& ids) {
    std::vector<std::string> payloads;
    std::string current;
    for (const std::string& id : ids) {
        if (!current.empty() && current.size() + 1 + id.size() > kMaxPayloadBytes) {
            payloads.push_back(std::move(current));
            current.clear();
        }
        if (!current.empty()) current += ',';
        current += id;
    }
    if (!current.empty()) payloads.push_back(std::move(current));
    return payloads;
}

ChangeNotifier::ChangeNotifier(std::string database_url, std::chrono::milliseconds min_interval)
    : min_interval_(min_interval) {
    storage::PoolOptions options;
    options.size = 1;
    options.acquire_timeout = kSendTimeout;
    options.query_timeout = kSendTimeout;
    options.cancel_grace = std::chrono::milliseconds(200);
    pool_ = std::make_unique<storage::ConnectionPool>(
        std::move(database_url), options,
        [](pqxx::connection& conn) { conn.prepare("notify_changes", "SELECT pg_notify($1, $2)"); });
}

ChangeNotifier::~ChangeNotifier() {
    stop();
}

void ChangeNotifier::start() {
    std::lock_guard lock(mutex_);
    if (thread_.joinable() || stopping_) return;
    thread_ = std::thread([this] { run(); });
}

void ChangeNotifier::stop(std::chrono::milliseconds flush_time) {
    {
        std::unique_lock lock(mutex_);
        if (stopping_) return;
        stopping_ = true;
        wake_.notify_all();
        const bool flushed = !thread_.joinable() ||
                             finished_wake_.wait_for(lock, flush_time, [&] { return finished_; });
        lock.unlock();
        if (!flushed) {
            spdlog::warn("change notifier: stopping with announcements still unsent");
            pool_->close();  // cancels the stuck send; what is left goes unsent
        }
    }
    if (thread_.joinable()) thread_.join();
    pool_->close();
}

void ChangeNotifier::changed(const std::string& game_id) {
    bool first = false;
    {
        std::lock_guard lock(mutex_);
        first = pending_.empty();
        if (pending_.size() >= kMaxPending) pending_.erase(pending_.begin());
        pending_.insert(game_id);
    }
    // The sender waits for a first id; with ids already pending it is
    // waiting out the interval or sending, and takes this one with them (a
    // wake-up per move would cost a thread switch for nothing).
    if (first) wake_.notify_one();
}

std::size_t ChangeNotifier::notifications_sent() const {
    std::lock_guard lock(mutex_);
    return sent_;
}

void ChangeNotifier::run() {
    run_sends();
    std::lock_guard lock(mutex_);
    finished_ = true;
    finished_wake_.notify_all();
}

void ChangeNotifier::run_sends() {
    std::unique_lock lock(mutex_);
    // Long ago: the first id goes out at once.
    auto last_send = std::chrono::steady_clock::now() - min_interval_;
    while (true) {
        wake_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
        if (pending_.empty()) return;  // stopping, nothing left
        // Too soon after the last one: more ids join this notification.
        wake_.wait_until(lock, last_send + min_interval_, [&] { return stopping_; });
        last_send = std::chrono::steady_clock::now();
        std::set<std::string> ids;
        ids.swap(pending_);
        const bool last = stopping_;
        lock.unlock();
        bool ok = true;
        std::size_t sent = 0;
        try {
            sent = send(ids);
        } catch (const std::exception& e) {
            ok = false;
            // Once per outage, not twice a second.
            if (!failing_) {
                spdlog::warn("change notifier: could not announce {} changed game(s), retrying: {}",
                             ids.size(), e.what());
            }
            failing_ = true;
        }
        lock.lock();
        if (ok) {
            if (failing_) spdlog::info("change notifier: announcing again");
            failing_ = false;
            sent_ += sent;
        } else if (!last) {
            pending_.merge(ids);
            wake_.wait_for(lock, kRetryDelay, [&] { return stopping_; });
        }
        if (last) return;
    }
}

std::size_t ChangeNotifier::send(const std::set<std::string>& ids) {
    storage::ConnectionPool::Lease lease = pool_->acquire();
    try {
        // Each payload in a statement of its own, committed at once: one
        // round trip, and no transaction holding the notify lock longer.
        pqxx::nontransaction tx(*lease);
        const std::vector<std::string> payloads = change_payloads(ids);
        for (const std::string& payload : payloads)
            tx.exec_prepared("notify_changes", storage::kEventsChannel, payload);
        return payloads.size();
    } catch (...) {
        lease.discard();
        throw;
    }
}

}  // namespace foxgeese::service
