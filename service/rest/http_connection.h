// One client connection of the HTTP server: the socket's state machine. It
// reads requests one at a time (pipelined ones wait in the buffer) within
// the header, body and time limits, hands each whole request to the
// dispatch, writes the answers in order a piece at a time, keeps the
// connection alive or closes it without losing the answer, and may turn
// into a watch stream. Everything runs on the connection's strand except
// what the dispatch runs on the work queue.
#pragma once

#include <array>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/serializer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "service/call/call_envelope.h"
#include "service/rest/http_reply.h"
#include "service/rest/rest_watch_stream.h"
#include "service/runtime/access_log.h"

namespace foxgeese::service {

class HttpAcceptor;
class HttpDispatch;
class PeerGone;
struct HttpServerOptions;

// The request being answered on a connection: what its answer's framing and
// headers depend on, and its line in the access log.
struct HttpExchange {
    unsigned version = 11;
    bool keep_alive = true;
    bool head = false;                  // a HEAD: the answer has no body
    std::optional<std::string> origin;  // echoed in CORS headers when allowed
    std::chrono::steady_clock::time_point received = std::chrono::steady_clock::now();
    CallHeaders headers;  // what the envelope reads of the request's header
    AccessEntry entry;
};

// A watch stream as a worker set it up: subscribed, or refused.
struct WatchStart {
    std::optional<ServiceError> error;
    std::shared_ptr<RestWatchStream> sink;
    std::shared_ptr<WatchHub::Subscription> subscription;
    std::string game_id;  // for the access log
};

class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
  public:
    // `peer` is the socket's remote address (read once: after a reset,
    // remote_endpoint() fails) and `address` the key the acceptor counts the
    // connection under.
    HttpConnection(HttpAcceptor& acceptor, HttpDispatch& dispatch,
                   boost::asio::ip::tcp::socket socket, std::string peer, std::string address);
    ~HttpConnection();

    // For the acceptor, from any thread.
    void start();
    // Server shutdown: idle connections close, requests in flight finish
    // (with Connection: close), watch streams end cleanly.
    void stop();
    // The drain time is over.
    void force_close();

    // For the dispatch, on the strand while a request is answered.
    HttpExchange& exchange() { return exchange_; }
    void send(Reply reply);
    // Whether the client has gone (CallContext::cancelled); any thread.
    std::function<bool()> client_gone() const;
    // A sink for the watch stream this request asks for, on this socket;
    // any thread.
    std::shared_ptr<RestWatchStream> new_watch_stream(std::size_t max_queued);

    // For the dispatch's work on the work queue: back to the strand.
    void send_from_worker(Reply reply);
    void begin_watch_from_worker(WatchStart started);

  private:
    enum class State { kIdle, kReading, kBusy, kWriting, kWatching, kClosed };

    const HttpServerOptions& options() const;
    void on_stop();
    void next_request();
    void read_header();
    void on_header(boost::beast::error_code ec);
    void read_body();
    void on_read_error(boost::beast::error_code ec);
    ServiceError read_error(boost::beast::error_code ec) const;
    std::size_t body_limit_of(const boost::beast::http::request_header<>& header) const;
    // A new access-log entry for the request whose header was read (none:
    // the bytes did not parse as one). The dispatch fills in the route.
    void begin_entry(const HttpRequest* request);
    void begin_watch(WatchStart started);
    template <class Message>
    void add_common_headers(Message& message) const;
    void log_watch_end(bool clean);
    void write_some();
    void on_written(boost::beast::error_code ec);
    void linger_close();
    void drain(std::size_t total);
    void close();
    std::string peer() const { return peer_.empty() ? "?" : peer_; }

    // Tells the acceptor the connection is gone. Declared first so that it
    // is destroyed last: the last reference may go on a work-queue thread,
    // and the server's shutdown, which waits for every connection to go,
    // must not let the io_context go while the stream is still being closed.
    struct Registration {
        HttpAcceptor& acceptor;
        HttpConnection* connection;
        std::string address;
        ~Registration();
    };
    Registration registration_;
    HttpDispatch& dispatch_;
    std::string peer_;  // the connection's remote address, read once
    boost::beast::tcp_stream stream_;
    std::shared_ptr<PeerGone> peer_gone_;
    boost::beast::flat_buffer buffer_;
    std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
    std::shared_ptr<HttpResponse> response_;
    std::optional<boost::beast::http::response_serializer<boost::beast::http::string_body>>
        serializer_;
    std::chrono::steady_clock::time_point write_deadline_;
    std::shared_ptr<RestWatchStream> watch_;
    std::array<char, 4096> discard_{};
    State state_ = State::kIdle;
    bool stopping_ = false;
    bool unread_input_ = false;  // a request was not read to its end
    HttpExchange exchange_;      // the request being answered, or the watch stream
};

}  // namespace foxgeese::service
