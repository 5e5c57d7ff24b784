#include "service/rest/http_acceptor.h"

#include <spdlog/spdlog.h>

#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/error.hpp>
#include <future>

#include "service/core/rate_limits.h"
#include "service/rest/http_connection.h"
#include "service/runtime/listen_address.h"

namespace foxgeese::service {

namespace beast = boost::beast;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using SteadyClock = std::chrono::steady_clock;

HttpAcceptor::HttpAcceptor(const HttpServerOptions& options, HttpDispatch& dispatch)
    : options_(options),
      dispatch_(dispatch),
      work_guard_(net::make_work_guard(ioc_)),
      acceptor_(net::make_strand(ioc_)),
      accept_retry_(acceptor_.get_executor()) {
    const std::string where = host_port(options_.listen_address, options_.port);
    try {
        tcp::resolver resolver(ioc_);
        const auto results =
            resolver.resolve(listen_host(options_.listen_address), std::to_string(options_.port),
                             tcp::resolver::passive | tcp::resolver::numeric_service);
        const tcp::endpoint endpoint = results.begin()->endpoint();
        acceptor_.open(endpoint.protocol());
        acceptor_.set_option(net::socket_base::reuse_address(true));
        // "::" takes IPv4 clients too, whatever the system's default.
        if (endpoint.address().is_v6() && endpoint.address().is_unspecified())
            acceptor_.set_option(net::ip::v6_only(false));
        acceptor_.bind(endpoint);
        acceptor_.listen(net::socket_base::max_listen_connections);
        port_ = acceptor_.local_endpoint().port();
    } catch (const std::exception& e) {
        throw std::runtime_error("cannot listen for HTTP on " + where + ": " + e.what());
    }
    accept();
    for (int i = 0; i < std::max(1, options_.io_threads); ++i)
        io_threads_.emplace_back([this] { ioc_.run(); });
}

HttpAcceptor::~HttpAcceptor() {
    shutdown();
}

void HttpAcceptor::accept() {
    acceptor_.async_accept(net::make_strand(ioc_), [this](beast::error_code ec,
                                                          tcp::socket socket) {
        if (ec == net::error::operation_aborted || stopping_) return;
        if (ec) {
            // Out of file descriptors and the like: back off instead of
            // spinning.
            spdlog::warn("http: accept failed: {}", ec.message());
            accept_retry_.expires_after(std::chrono::milliseconds(100));
            accept_retry_.async_wait([this](beast::error_code wait_ec) {
                if (!wait_ec && !stopping_) accept();
            });
            return;
        }
        beast::error_code ignored;
        const tcp::endpoint peer = socket.remote_endpoint(ignored);
        const std::string peer_text = ignored ? "" : peer.address().to_string();
        // Rate limits' key: an IPv4 address, or an IPv6 address's /64.
        std::string address = client_address(peer_text, {}, 0);
        if (!admit(address)) {
            // Reset at once: nothing of it stays queued in the kernel.
            spdlog::debug("http: refused a connection from {}: {} open from that address", address,
                          options_.connections_per_address);
            socket.set_option(net::socket_base::linger(true, 0), ignored);
            socket.close(ignored);
            return accept();
        }
        socket.set_option(tcp::no_delay(true), ignored);
        // A socket that refuses keeps its default.
        socket.set_option(net::socket_base::send_buffer_size(options_.send_buffer_bytes), ignored);
        auto connection = std::make_shared<HttpConnection>(*this, dispatch_, std::move(socket),
                                                           peer_text, std::move(address));
        {
            std::lock_guard lock(mutex_);
            connections_[connection.get()] = connection;
        }
        connection->start();
        accept();
    });
}

bool HttpAcceptor::admit(const std::string& address) {
    std::lock_guard lock(mutex_);
    int& open = per_address_[address];
    if (options_.connections_per_address > 0 && open >= options_.connections_per_address)
        return false;
    ++open;
    return true;
}

void HttpAcceptor::remove(HttpConnection* connection, const std::string& address) {
    std::lock_guard lock(mutex_);
    connections_.erase(connection);
    if (const auto it = per_address_.find(address); it != per_address_.end() && --it->second <= 0)
        per_address_.erase(it);
    if (connections_.empty()) connections_gone_.notify_all();
}

void HttpAcceptor::stop_connections(bool force) {
    std::vector<std::shared_ptr<HttpConnection>> live;
    {
        std::lock_guard lock(mutex_);
        for (auto& [raw, weak] : connections_) {
            if (auto connection = weak.lock()) live.push_back(std::move(connection));
        }
    }
    for (auto& connection : live)
        force ? connection->force_close() : connection->stop();
}

bool HttpAcceptor::wait_for_connections(SteadyClock::time_point deadline) {
    std::unique_lock lock(mutex_);
    return connections_gone_.wait_until(lock, deadline, [this] { return connections_.empty(); });
}

void HttpAcceptor::shutdown() {
    {
        std::lock_guard lock(shutdown_mutex_);
        if (stopped_) return;
        stopped_ = true;
    }
    stopping_ = true;
    std::promise<void> closed;
    net::post(acceptor_.get_executor(), [this, &closed] {
        beast::error_code ignored;
        acceptor_.close(ignored);
        accept_retry_.cancel();
        closed.set_value();
    });
    closed.get_future().wait();

    stop_connections(false);
    if (!wait_for_connections(SteadyClock::now() + options_.drain_timeout)) {
        spdlog::warn("http: requests still running after the drain time; closing them");
        stop_connections(true);
    }
    // Calls still on the work queue post their replies to closed connections;
    // the queue itself belongs to the replica, which stops it.
    stop_connections(true);
    // A connection left now is held by a call still on the work queue: its
    // owner must stop the queue before this server is destroyed (the replica
    // does), since closing the connection needs the io_context.
    if (!wait_for_connections(SteadyClock::now() + std::chrono::seconds(5)))
        spdlog::warn("http: connections left at shutdown");
    work_guard_.reset();
    ioc_.stop();
    for (auto& thread : io_threads_)
        thread.join();
    io_threads_.clear();
}

}  // namespace foxgeese::service
