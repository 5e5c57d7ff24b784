#include "storage/connection_pool.h"

#include <pqxx/pqxx>

namespace foxgeese::storage {

ConnectionPool::ConnectionPool(std::string database_url, int size, OnConnect on_connect,
                               std::chrono::milliseconds acquire_timeout)
    : url_(std::move(database_url)),
      size_(size),
      on_connect_(std::move(on_connect)),
      acquire_timeout_(acquire_timeout) {}

ConnectionPool::~ConnectionPool() = default;

ConnectionPool::Lease::Lease(ConnectionPool* pool, std::unique_ptr<pqxx::connection> conn)
    : pool_(pool), conn_(std::move(conn)) {}

ConnectionPool::Lease::Lease(Lease&& other) noexcept
    : pool_(other.pool_), conn_(std::move(other.conn_)), discard_(other.discard_) {
    other.pool_ = nullptr;
}

ConnectionPool::Lease::~Lease() {
    if (pool_ && conn_) pool_->give_back(std::move(conn_), discard_);
}

ConnectionPool::Lease ConnectionPool::acquire() {
    std::unique_lock lock(mutex_);
    const bool got = available_.wait_for(lock, acquire_timeout_,
                                         [&] { return !idle_.empty() || open_ < size_; });
    if (!got) {
        throw PoolExhausted("no database connection free after " +
                            std::to_string(acquire_timeout_.count()) + " ms");
    }
    if (!idle_.empty()) {
        std::unique_ptr<pqxx::connection> conn = std::move(idle_.back());
        idle_.pop_back();
        ++leased_;
        return Lease(this, std::move(conn));
    }
    // Open outside the lock: connecting takes a round trip or more.
    ++open_;
    ++leased_;
    lock.unlock();
    try {
        auto conn = std::make_unique<pqxx::connection>(url_);
        if (on_connect_) on_connect_(*conn);
        return Lease(this, std::move(conn));
    } catch (...) {
        lock.lock();
        --open_;
        --leased_;
        available_.notify_one();
        throw;
    }
}

void ConnectionPool::give_back(std::unique_ptr<pqxx::connection> conn, bool discard) {
    std::lock_guard lock(mutex_);
    --leased_;
    if (discard || !conn->is_open()) {
        --open_;
    } else {
        idle_.push_back(std::move(conn));
    }
    available_.notify_one();
}

int ConnectionPool::in_use() const {
    std::lock_guard lock(mutex_);
    return leased_;
}

}  // namespace foxgeese::storage
