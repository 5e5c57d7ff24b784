// The HTTP server's listening socket and io threads: accepts connections
// (each on a strand of its own), caps them per client address, knows every
// open one, and drains them on shutdown.
#pragma once

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "service/rest/http_server.h"

namespace foxgeese::service {

class HttpConnection;
class HttpDispatch;

class HttpAcceptor {
  public:
    // Binds and starts accepting; throws std::runtime_error when the address
    // cannot be bound. Connections hand their requests to `dispatch`.
    HttpAcceptor(const HttpServerOptions& options, HttpDispatch& dispatch);
    ~HttpAcceptor();

    int port() const { return port_; }
    const HttpServerOptions& options() const { return options_; }
    // Shutting down: answers say Connection: close.
    bool stopping() const { return stopping_; }

    // See HttpServer::shutdown.
    void shutdown();

    // The connection has gone; `address` is the key it was counted under.
    void remove(HttpConnection* connection, const std::string& address);

  private:
    void accept();
    // Counts a new connection from `address`; false when it has its
    // connections_per_address already.
    bool admit(const std::string& address);
    void stop_connections(bool force);
    bool wait_for_connections(std::chrono::steady_clock::time_point deadline);

    const HttpServerOptions& options_;
    HttpDispatch& dispatch_;
    std::atomic<bool> stopping_{false};

    std::mutex mutex_;
    std::condition_variable connections_gone_;
    std::map<HttpConnection*, std::weak_ptr<HttpConnection>> connections_;
    // Connections open per client address (connections_per_address).
    std::unordered_map<std::string, int> per_address_;
    std::mutex shutdown_mutex_;
    bool stopped_ = false;

    // Destroyed in reverse: threads first, then the acceptor and finally the
    // io_context, which frees the handlers still queued.
    boost::asio::io_context ioc_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_guard_;
    boost::asio::ip::tcp::acceptor acceptor_;
    boost::asio::steady_timer accept_retry_;
    std::vector<std::thread> io_threads_;
    int port_ = 0;
};

}  // namespace foxgeese::service
