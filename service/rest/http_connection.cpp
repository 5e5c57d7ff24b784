#include "service/rest/http_connection.h"

#include <poll.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <mutex>

#include "service/rest/http_acceptor.h"
#include "service/rest/http_dispatch.h"
#include "service/rest/request_checks.h"
#include "service/rest/rest_json.h"

namespace foxgeese::service {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using SteadyClock = std::chrono::steady_clock;

// Whether the client of a request being worked on has gone, for the
// service's CallContext::cancelled (a search then stops): its socket reads
// as closed by the peer (POLLRDHUP: a FIN or a reset), which poll() tells
// without taking a byte of a pipelined request. A client that half-closes
// after its request counts as gone too; HTTP clients keep both halves open
// while they wait. Asked from worker threads while the connection's strand
// may close the socket, hence the lock: a closed descriptor may be reused.
class PeerGone {
  public:
    explicit PeerGone(int fd) : fd_(fd) {}

    bool operator()() {
        std::lock_guard lock(mutex_);
        if (fd_ < 0) return true;
        pollfd watched{fd_, POLLRDHUP, 0};
        return ::poll(&watched, 1, 0) > 0 &&
               (watched.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
    }
    // The connection is about to close its socket.
    void closing() {
        std::lock_guard lock(mutex_);
        fd_ = -1;
    }

  private:
    std::mutex mutex_;
    int fd_;
};

namespace {

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

bool is_parse_error(const beast::error_code& ec) {
    return ec.category() == http::make_error_code(http::error::bad_method).category();
}

}  // namespace

HttpConnection::Registration::~Registration() {
    acceptor.remove(connection, address);
}

HttpConnection::HttpConnection(HttpAcceptor& acceptor, HttpDispatch& dispatch, tcp::socket socket,
                               std::string peer, std::string address)
    : registration_{acceptor, this, std::move(address)},
      dispatch_(dispatch),
      peer_(std::move(peer)),
      stream_(std::move(socket)),
      peer_gone_(std::make_shared<PeerGone>(stream_.socket().native_handle())) {}

HttpConnection::~HttpConnection() {
    peer_gone_->closing();
}

const HttpServerOptions& HttpConnection::options() const {
    return registration_.acceptor.options();
}

void HttpConnection::start() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->next_request(); });
}

void HttpConnection::stop() {
    net::post(stream_.get_executor(), [self = shared_from_this()] { self->on_stop(); });
}

void HttpConnection::force_close() {
    net::post(stream_.get_executor(), [self = shared_from_this()] { self->close(); });
}

std::function<bool()> HttpConnection::client_gone() const {
    return [gone = peer_gone_] { return (*gone)(); };
}

std::shared_ptr<RestWatchStream> HttpConnection::new_watch_stream(std::size_t max_queued) {
    return std::make_shared<RestWatchStream>(stream_, shared_from_this(),
                                             dispatch_.envelope().metrics(),
                                             options().request_timeout, max_queued);
}

void HttpConnection::send_from_worker(Reply reply) {
    net::post(stream_.get_executor(),
              [self = shared_from_this(), reply = std::move(reply)]() mutable {
                  self->send(std::move(reply));
              });
}

void HttpConnection::begin_watch_from_worker(WatchStart started) {
    net::post(stream_.get_executor(),
              [self = shared_from_this(), started = std::move(started)]() mutable {
                  self->begin_watch(std::move(started));
              });
}

void HttpConnection::on_stop() {
    stopping_ = true;
    if (state_ == State::kIdle || state_ == State::kClosed) close();
    if (state_ == State::kWatching && watch_) watch_->finish();
}

void HttpConnection::next_request() {
    if (stopping_) return close();
    state_ = State::kIdle;
    if (buffer_.size() > 0) return read_header();  // pipelined
    // Idle keep-alive time is measured until the first byte arrives; the
    // request timeout runs from there.
    stream_.expires_after(options().idle_timeout);
    stream_.async_read_some(buffer_.prepare(4096),
                            [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                                if (ec) return self->close();
                                self->buffer_.commit(n);
                                self->read_header();
                            });
}

void HttpConnection::read_header() {
    state_ = State::kReading;
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(options().max_header_bytes));
    // Any route's limit until the header names the route (Beast checks a
    // Content-Length against it as it reads the header).
    parser_->body_limit(dispatch_.routes().largest_body_limit(options().max_body_bytes));
    stream_.expires_after(options().request_timeout);
    http::async_read_header(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_header(ec); });
}

void HttpConnection::on_header(beast::error_code ec) {
    if (ec) return on_read_error(ec);
    const auto& header = parser_->get();
    begin_entry(&header);
    if (auto refused = check_request_header(header, header.version())) {
        // The body is left unread: the connection closes after the answer.
        exchange_.received = SteadyClock::now();
        exchange_.version = header.version() == 10 ? 10 : 11;
        exchange_.keep_alive = false;
        unread_input_ = true;
        exchange_.head = header.method() == http::verb::head;
        exchange_.origin = dispatch_.allowed_origin(header);
        return send(error_reply(*refused, kNoRpc, exchange_.version));
    }
    const std::size_t body_limit = body_limit_of(header);
    if (parser_->content_length().value_or(0) > body_limit)
        return on_read_error(http::error::body_limit);
    parser_->body_limit(body_limit);
    const bool has_body = header.chunked() || header.has_content_length();
    if (has_body && iequals(header[http::field::expect], "100-continue")) {
        // curl and others wait for this before sending a larger body.
        static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
        net::async_write(stream_, net::buffer(kContinue.data(), kContinue.size()),
                         [self = shared_from_this()](beast::error_code ec2, std::size_t) {
                             if (ec2) return self->close();
                             self->read_body();
                         });
        return;
    }
    read_body();
}

void HttpConnection::read_body() {
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) {
                         if (ec) return self->on_read_error(ec);
                         self->stream_.expires_never();
                         HttpRequest request = self->parser_->release();
                         HttpExchange& exchange = self->exchange_;
                         exchange.received = SteadyClock::now();
                         exchange.version = request.version();
                         exchange.keep_alive = request.keep_alive();
                         // HEAD is GET without the body (RFC 9110 9.3.2).
                         exchange.head = request.method() == http::verb::head;
                         self->state_ = State::kBusy;
                         self->dispatch_.handle(self, std::move(request));
                     });
}

void HttpConnection::on_read_error(beast::error_code ec) {
    // A client that closes between requests, or after half a request with
    // no way to answer, simply goes; a timeout already closed the socket.
    // Everything else is a malformed request: a JSON 4xx, then close, since
    // the byte stream cannot be trusted to resync.
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == net::error::operation_aborted || !is_parse_error(ec)) {
        return close();
    }
    exchange_.received = SteadyClock::now();
    exchange_.keep_alive = false;
    unread_input_ = true;
    if (!parser_ || !parser_->is_header_done()) begin_entry(nullptr);
    const ServiceError error = read_error(ec);
    spdlog::debug("http: {} from {}", error.message, peer());
    send(error_reply(error, kNoRpc));
}

ServiceError HttpConnection::read_error(beast::error_code ec) const {
    if (ec == http::error::body_limit) {
        const std::size_t limit =
            parser_ ? body_limit_of(parser_->get()) : options().max_body_bytes;
        return transport_error(
            StatusCode::kInvalidArgument, kReasonPayloadTooLarge,
            "the request body is larger than " + std::to_string(limit) + " bytes");
    }
    if (ec == http::error::header_limit) {
        return transport_error(StatusCode::kInvalidArgument, kReasonHeadersTooLarge,
                               "the request line and headers are larger than " +
                                   std::to_string(options().max_header_bytes) + " bytes");
    }
    if (ec == http::error::partial_message) {
        return transport_error(StatusCode::kInvalidArgument, kReasonMalformedRequest,
                               "the connection ended in the middle of the request");
    }
    return transport_error(StatusCode::kInvalidArgument, kReasonMalformedRequest,
                           "malformed HTTP request: " + ec.message());
}

std::size_t HttpConnection::body_limit_of(const http::request_header<>& header) const {
    return dispatch_.routes().body_limit(header.method_string(), header.target(),
                                         options().max_body_bytes);
}

void HttpConnection::begin_entry(const HttpRequest* request) {
    exchange_.headers = CallHeaders{};
    if (request) {
        for (const auto& field : *request)
            exchange_.headers.add(field.name_string(), field.value());
    }
    const CallEnvelope& envelope = dispatch_.envelope();
    exchange_.entry = envelope.entry(request ? "(no route)" : "(malformed)", exchange_.headers,
                                     envelope.client_address(exchange_.headers, peer_));
}

void HttpConnection::begin_watch(WatchStart started) {
    static const std::string kRpc = "WatchGame";
    exchange_.entry.game_id = std::move(started.game_id);
    if (started.error) return send(error_reply(*started.error, kRpc, exchange_.version));
    if (state_ == State::kClosed) {
        // Force-closed while subscribing.
        started.subscription->unsubscribe();
        return;
    }
    dispatch_.envelope().count(kRpc, StatusCode::kOk, exchange_.received);
    state_ = State::kWatching;
    watch_ = started.sink;
    RestWatchStream::Header header(http::status::ok, exchange_.version);
    header.set(http::field::content_type, "application/x-ndjson");
    header.set(http::field::cache_control, "no-store");
    // Proxies such as nginx must pass each line on at once.
    header.set("X-Accel-Buffering", "no");
    add_common_headers(header);
    header.keep_alive(false);
    header.chunked(true);
    watch_->start(std::move(started.subscription), std::move(header),
                  [self = shared_from_this()](bool clean) {
                      self->log_watch_end(clean);
                      self->watch_.reset();
                      self->close();
                  });
    if (stopping_ && watch_) watch_->finish();
}

template <class Message>
void HttpConnection::add_common_headers(Message& message) const {
    message.set(http::field::server, "foxgeese");
    message.set("X-Request-Id", exchange_.entry.request_id);
    if (!options().cors_allowed_origins.empty()) message.set(http::field::vary, "Origin");
    if (exchange_.origin) {
        message.set(http::field::access_control_allow_origin, *exchange_.origin);
        message.set(http::field::access_control_expose_headers, "Retry-After, X-Request-Id");
    }
}

// The line of a watch stream that ran: written when it ends. A clean end
// sent the terminating chunk; otherwise the client went or stalled.
void HttpConnection::log_watch_end(bool clean) {
    exchange_.entry.http_status = 200;
    exchange_.entry.events = watch_ ? watch_->events_sent() : 0;
    dispatch_.envelope().log(exchange_.entry, clean ? StatusCode::kOk : StatusCode::kCancelled, "",
                             exchange_.received, watch_ ? watch_->bytes_sent() : 0);
}

void HttpConnection::send(Reply reply) {
    if (state_ == State::kClosed) return;
    state_ = State::kWriting;
    response_ = std::make_shared<HttpResponse>(std::move(reply.response));
    HttpResponse& res = *response_;
    add_common_headers(res);
    if (res[http::field::content_type] == kJson) res.set(http::field::cache_control, "no-store");
    res.keep_alive(exchange_.keep_alive && !stopping_ && !registration_.acceptor.stopping());
    res.prepare_payload();
    // A HEAD answer has the headers GET's would have, Content-Length
    // included, and no body.
    if (exchange_.head) res.body().clear();
    AccessEntry& entry = exchange_.entry;
    entry.http_status = static_cast<int>(res.result_int());
    if (!reply.game_id.empty()) entry.game_id = std::move(reply.game_id);
    dispatch_.envelope().finish(entry, reply.rpc, reply.code, reply.reason, exchange_.received,
                                res.body().size());
    entry.reason = {};  // it pointed into the reply
    serializer_.emplace(res);
    write_deadline_ = SteadyClock::now() + options().request_timeout;
    // Until the reply is out, a close (a stalled write's timeout above all)
    // resets the connection and drops what the kernel still holds.
    beast::error_code ignored;
    stream_.socket().set_option(net::socket_base::linger(true, 0), ignored);
    write_some();
}

// Writes the reply a piece at a time: each piece must be taken within the
// stall timeout, the whole reply within the request timeout.
void HttpConnection::write_some() {
    stream_.expires_at(
        std::min(SteadyClock::now() + options().write_stall_timeout, write_deadline_));
    http::async_write_some(stream_, *serializer_,
                           [self = shared_from_this()](beast::error_code ec, std::size_t) {
                               if (!ec && !self->serializer_->is_done()) return self->write_some();
                               self->on_written(ec);
                           });
}

void HttpConnection::on_written(beast::error_code ec) {
    serializer_.reset();
    const bool keep = response_->keep_alive();
    response_.reset();
    if (ec) return close();
    beast::error_code ignored;
    stream_.socket().set_option(net::socket_base::linger(false, 0), ignored);
    if (keep) return next_request();
    if (unread_input_ || buffer_.size() > 0 || stream_.socket().available(ignored) > 0)
        return linger_close();
    close();
}

// Closes after a response without throwing away what the client is still
// sending (a too large body, pipelined requests): closing with unread input
// makes the kernel reset the connection, and the client could lose the
// response.
void HttpConnection::linger_close() {
    state_ = State::kClosed;
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(std::chrono::seconds(2));
    drain(0);
}

void HttpConnection::drain(std::size_t total) {
    stream_.async_read_some(net::buffer(discard_), [self = shared_from_this(), total](
                                                       beast::error_code ec, std::size_t n) {
        if (ec || total + n > (1u << 20)) return self->close();
        self->drain(total + n);
    });
}

void HttpConnection::close() {
    state_ = State::kClosed;
    if (watch_) watch_->stop_direct_sends();
    peer_gone_->closing();
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
}

}  // namespace foxgeese::service
