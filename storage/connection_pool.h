// A fixed-size pool of PostgreSQL connections. Connections open lazily, get
// their prepared statements on open, and are dropped (and reopened on a later
// acquire) when they break, so a database restart heals by itself.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <pqxx/connection>
#include <stdexcept>
#include <string>
#include <vector>

namespace foxgeese::storage {

// No connection became free in time: the database is overloaded or down.
class PoolExhausted : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class ConnectionPool {
  public:
    using OnConnect = std::function<void(pqxx::connection&)>;

    ConnectionPool(std::string database_url, int size, OnConnect on_connect,
                   std::chrono::milliseconds acquire_timeout = std::chrono::seconds(5));
    ~ConnectionPool();
    ConnectionPool(const ConnectionPool&) = delete;
    ConnectionPool& operator=(const ConnectionPool&) = delete;

    // A connection on loan; returned to the pool when the lease ends.
    class Lease {
      public:
        Lease(ConnectionPool* pool, std::unique_ptr<pqxx::connection> conn);
        Lease(Lease&& other) noexcept;
        Lease& operator=(Lease&&) = delete;
        ~Lease();
        pqxx::connection& operator*() const { return *conn_; }
        pqxx::connection* operator->() const { return conn_.get(); }
        // The connection broke or is in an unknown state: close it instead
        // of returning it.
        void discard() { discard_ = true; }

      private:
        ConnectionPool* pool_;
        std::unique_ptr<pqxx::connection> conn_;
        bool discard_ = false;
    };

    // Waits up to the acquire timeout for a connection; throws PoolExhausted,
    // or pqxx::broken_connection when a new connection cannot be opened.
    Lease acquire();

    int size() const { return size_; }
    int in_use() const;
    const std::string& database_url() const { return url_; }

  private:
    void give_back(std::unique_ptr<pqxx::connection> conn, bool discard);

    const std::string url_;
    const int size_;
    const OnConnect on_connect_;
    const std::chrono::milliseconds acquire_timeout_;
    mutable std::mutex mutex_;
    std::condition_variable available_;
    std::vector<std::unique_ptr<pqxx::connection>> idle_;
    int open_ = 0;    // connections that exist (idle or leased)
    int leased_ = 0;  // connections on loan
};

}  // namespace foxgeese::storage
