#include "service/rest/http_server.h"

#include <poll.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "google/api/httpbody.pb.h"
#include "service/core/rate_limits.h"
#include "service/rest/request_checks.h"
#include "service/rest/rest_json.h"
#include "service/rest/rest_routes.h"
#include "service/rest/rest_watch_stream.h"
#include "service/rest/static_content.h"
#include "service/runtime/listen_address.h"

namespace foxgeese::service {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;
using SteadyClock = std::chrono::steady_clock;

// The metrics label of requests that reach no RPC (unknown routes, malformed
// HTTP); /healthz, /readyz, /metrics and CORS preflights are not counted.
constexpr const char* kNoRpc = "none";
constexpr const char* kJson = "application/json";

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

ServiceError transport_error(StatusCode code, const char* reason, std::string message) {
    return ServiceError{code, reason, std::move(message), {}, ""};
}

// A finished response plus what metrics and the access log need to know
// about it.
struct Reply {
    Response response;
    std::string rpc;  // metrics label; empty: not counted
    StatusCode code = StatusCode::kOk;
    std::string reason;   // the error's, for the access log
    std::string game_id;  // the game the call was about, when known
};

Reply error_reply(const ServiceError& error, std::string rpc, unsigned version = 11) {
    Reply reply{Response(static_cast<http::status>(http_status_of(error)), version), std::move(rpc),
                error.code, error.reason, ""};
    Response& res = reply.response;
    if (res.result_int() == 499) res.reason("Client Closed Request");
    res.set(http::field::content_type, kJson);
    if (const auto allow = error.metadata.find("allow"); allow != error.metadata.end())
        res.set(http::field::allow, allow->second);
    if (error.retry_after) {
        // Whole seconds, rounded up: retrying at the stated time succeeds.
        res.set(http::field::retry_after, std::to_string(whole_seconds_up(*error.retry_after)));
    }
    res.body() = error_to_json(error);
    return reply;
}

// A response in the proto3 JSON mapping; a google.api.HttpBody (a game
// record) is its own body, sent with its own media type.
Reply message_reply(const google::protobuf::Message& message, std::string rpc, unsigned version) {
    Reply reply{Response(http::status::ok, version), std::move(rpc), StatusCode::kOk, "", ""};
    if (const auto* raw = dynamic_cast<const google::api::HttpBody*>(&message)) {
        reply.response.set(http::field::content_type, raw->content_type());
        reply.response.set(http::field::cache_control, "no-store");
        reply.response.set("X-Content-Type-Options", "nosniff");
        reply.response.body() = raw->data();
        return reply;
    }
    reply.response.set(http::field::content_type, kJson);
    reply.response.body() = message_to_json(message);
    return reply;
}

Reply text_reply(std::string body, std::string_view content_type, unsigned version) {
    Reply reply{Response(http::status::ok, version), "", StatusCode::kOk, "", ""};
    reply.response.set(http::field::content_type, content_type);
    reply.response.body() = std::move(body);
    return reply;
}

bool is_parse_error(const beast::error_code& ec) {
    return ec.category() == http::make_error_code(http::error::bad_method).category();
}

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

}  // namespace

class HttpConnection;

class HttpServerImpl {
  public:
    HttpServerImpl(HttpServerOptions options, GameService& logic, WatchHub& hub, Metrics& metrics,
                   WorkQueue& work, const AccessLog& access_log, std::function<bool()> ready,
                   std::function<std::string()> metrics_text);
    ~HttpServerImpl();

    int port() const { return port_; }
    void shutdown();

    // The connection has gone; `address` is the key it was counted under.
    void remove(HttpConnection* session, const std::string& address);
    // The origin to echo in Access-Control-Allow-Origin, if it is allowed.
    std::optional<std::string> allowed_origin(const http::fields& request) const;

    const HttpServerOptions options_;
    GameService& logic_;
    WatchHub& hub_;
    Metrics& metrics_;
    WorkQueue& work_;
    const AccessLog& access_log_;
    const std::function<bool()> ready_;
    const std::function<std::string()> metrics_text_;
    const RestRoutes routes_;
    const StaticContent static_content_ = server_static_content(options_.pages.get());
    std::atomic<bool> stopping_{false};

  private:
    friend class HttpConnection;
    void accept();
    // Counts a new connection from `address`; false when it has its
    // connections_per_address already.
    bool admit(const std::string& address);
    void stop_sessions(bool force);
    bool wait_for_sessions(SteadyClock::time_point deadline);

    std::mutex mutex_;
    std::condition_variable sessions_gone_;
    std::map<HttpConnection*, std::weak_ptr<HttpConnection>> sessions_;
    // Connections open per client address (connections_per_address).
    std::unordered_map<std::string, int> per_address_;
    std::mutex shutdown_mutex_;
    bool stopped_ = false;

    // Destroyed in reverse: threads first, then the acceptor and finally the
    // io_context, which frees the handlers still queued.
    net::io_context ioc_;
    net::executor_work_guard<net::io_context::executor_type> work_guard_;
    tcp::acceptor acceptor_;
    net::steady_timer accept_retry_;
    std::vector<std::thread> io_threads_;
    int port_ = 0;
};

// One client connection: reads requests one at a time (pipelined ones wait
// in the buffer), answers each in order, and may turn into a watch stream.
// Everything runs on the connection's strand except the worker calls.
class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
  public:
    // `peer` is the socket's remote address (read once: after a reset,
    // remote_endpoint() fails) and `address` the key the server counts the
    // connection under.
    HttpConnection(HttpServerImpl& server, tcp::socket socket, std::string peer,
                   std::string address)
        : registration_{server, this, std::move(address)},
          server_(server),
          peer_(std::move(peer)),
          stream_(std::move(socket)),
          peer_gone_(std::make_shared<PeerGone>(stream_.socket().native_handle())) {}
    ~HttpConnection() { peer_gone_->closing(); }

    void start() {
        net::dispatch(stream_.get_executor(),
                      [self = shared_from_this()] { self->next_request(); });
    }
    // Server shutdown: idle connections close, requests in flight finish
    // (with Connection: close), watch streams end cleanly. Any thread.
    void stop() {
        net::post(stream_.get_executor(), [self = shared_from_this()] { self->on_stop(); });
    }
    // The drain time is over. Any thread.
    void force_close() {
        net::post(stream_.get_executor(), [self = shared_from_this()] { self->close(); });
    }

  private:
    enum class State { kIdle, kReading, kBusy, kWriting, kWatching, kClosed };

    const HttpServerOptions& options() const { return server_.options_; }

    void on_stop() {
        stopping_ = true;
        if (state_ == State::kIdle || state_ == State::kClosed) close();
        if (state_ == State::kWatching && watch_) watch_->finish();
    }

    void next_request() {
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

    void read_header() {
        state_ = State::kReading;
        parser_.emplace();
        parser_->header_limit(static_cast<std::uint32_t>(options().max_header_bytes));
        // Any route's limit until the header names the route (Beast checks a
        // Content-Length against it as it reads the header).
        parser_->body_limit(server_.routes_.largest_body_limit(options().max_body_bytes));
        stream_.expires_after(options().request_timeout);
        http::async_read_header(stream_, buffer_, *parser_,
                                [self = shared_from_this()](beast::error_code ec, std::size_t) {
                                    self->on_header(ec);
                                });
    }

    void on_header(beast::error_code ec) {
        if (ec) return on_read_error(ec);
        const auto& header = parser_->get();
        begin_entry(header);
        if (auto refused = check_request_header(header, header.version())) {
            // The body is left unread: the connection closes after the answer.
            received_ = SteadyClock::now();
            version_ = header.version() == 10 ? 10 : 11;
            keep_alive_ = false;
            unread_input_ = true;
            head_ = header.method() == http::verb::head;
            origin_ = server_.allowed_origin(header);
            return send(error_reply(*refused, kNoRpc, version_));
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

    void read_body() {
        http::async_read(stream_, buffer_, *parser_,
                         [self = shared_from_this()](beast::error_code ec, std::size_t) {
                             if (ec) return self->on_read_error(ec);
                             self->stream_.expires_never();
                             self->received_ = SteadyClock::now();
                             self->handle(self->parser_->release());
                         });
    }

    void on_read_error(beast::error_code ec) {
        // A client that closes between requests, or after half a request
        // with no way to answer, simply goes; a timeout already closed the
        // socket. Everything else is a malformed request: a JSON 4xx, then
        // close, since the byte stream cannot be trusted to resync.
        if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
            ec == net::error::operation_aborted || !is_parse_error(ec)) {
            return close();
        }
        received_ = SteadyClock::now();
        keep_alive_ = false;
        unread_input_ = true;
        if (!parser_ || !parser_->is_header_done()) begin_entry(std::nullopt);
        const ServiceError error = read_error(ec);
        spdlog::debug("http: {} from {}", error.message, peer());
        send(error_reply(error, kNoRpc));
    }

    ServiceError read_error(beast::error_code ec) const {
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

    // The body limit of the request's route (RestRoutes::body_limit).
    std::size_t body_limit_of(const http::request_header<>& header) const {
        return server_.routes_.body_limit(header.method_string(), header.target(),
                                          options().max_body_bytes);
    }

    void handle(Request request) {
        state_ = State::kBusy;
        version_ = request.version();
        keep_alive_ = request.keep_alive();
        origin_ = server_.allowed_origin(request);
        // HEAD is GET without the body (RFC 9110 9.3.2).
        head_ = request.method() == http::verb::head;

        if (version_ != 10 && version_ != 11) {
            version_ = 11;
            keep_alive_ = false;
            return send(
                error_reply(transport_error(StatusCode::kInvalidArgument, kReasonMalformedRequest,
                                            "only HTTP/1.0 and HTTP/1.1 are served here"),
                            kNoRpc, version_));
        }
        const std::string_view target = request.target();
        if (target.empty() || target.front() != '/') {
            return send(
                error_reply(transport_error(StatusCode::kInvalidArgument, kReasonMalformedRequest,
                                            "the request target must be a path such as /v1/games"),
                            kNoRpc, version_));
        }
        const auto [path, query] = split_target(target);
        const std::string_view method = head_ ? std::string_view("GET") : request.method_string();
        entry_.bytes_in = request.body().size();

        // Fixed paths (probes, metrics, static pages) answer GET from memory.
        if (path == "/healthz" || path == "/readyz" || path == "/metrics" ||
            server_.static_content_.find(path) != nullptr) {
            return serve_operational(method, path, request);
        }
        if (request.method() == http::verb::options) {
            entry_.method = "OPTIONS (preflight)";
            const auto methods = server_.routes_.methods_at(path);
            if (methods.empty()) return send(error_reply(route_not_found(path), kNoRpc, version_));
            return send_preflight(methods);
        }

        auto match = server_.routes_.match(method, path);
        if (!match.ok()) return send(error_reply(match.error(), kNoRpc, version_));
        const RestRoute& route = *match.value().route;
        const std::string rpc = route.method->name();
        entry_.method = route.http_method + " " + route.pattern;
        entry_.rpc = rpc;
        if (route.has_body && !request.body().empty()) {
            if (auto refused = check_json_content_type(request))
                return send(error_reply(*refused, rpc, version_));
        }
        CallContext call;
        call.received_us = server_.logic_.clock().now_us();
        for (const auto& field : request) {
            if (field.name() == http::field::authorization)
                call.authorization.emplace_back(field.value());
        }
        if (const auto it = request.find(http::field::accept_language); it != request.end())
            call.accept_language = std::string(it->value().substr(0, 256));
        call.client_address = entry_.peer;
        call.cancelled = [gone = peer_gone_] { return (*gone)(); };

        if (route.rpc->streaming()) {
            if (head_) {
                ServiceError error =
                    transport_error(StatusCode::kUnimplemented, kReasonMethodNotAllowed,
                                    "HEAD is not served for a watch stream; use GET");
                error.metadata["allow"] = "GET, OPTIONS";
                return send(error_reply(error, rpc, version_));
            }
            return start_watch(std::move(match.value()), query, std::move(call));
        }
        offload(rpc, [self = shared_from_this(), match = std::move(match.value()), query = query,
                      body = std::move(request.body()), call = std::move(call), rpc]() {
            auto built = self->server_.routes_.build_request(match, query, body);
            if (!built.ok()) return error_reply(built.error(), rpc, self->version_);
            auto outcome = call_rpc(*match.route->rpc, self->server_.logic_, *built.value(), call);
            Reply reply = outcome.ok() ? message_reply(*outcome.value(), rpc, self->version_)
                                       : error_reply(outcome.error(), rpc, self->version_);
            reply.game_id =
                game_id_of_call(*built.value(), outcome.ok() ? outcome.value().get() : nullptr);
            return reply;
        });
    }

    // The client's address, from X-Forwarded-For when proxies are trusted.
    std::string client_address_of(const Request* request) const {
        std::vector<std::string> forwarded;
        if (request) {
            for (const auto& field : *request) {
                // Beast has no enumerator for it: compared by name.
                if (beast::iequals(field.name_string(), "x-forwarded-for"))
                    forwarded.emplace_back(field.value());
            }
        }
        return client_address(peer_, forwarded, server_.logic_.options().limits.trusted_proxy_hops);
    }

    // A new access-log entry for the request whose header was read (none:
    // the bytes did not parse as one). Routing fills in the route.
    void begin_entry(std::optional<std::reference_wrapper<const Request>> request) {
        entry_ = AccessEntry{};
        entry_.transport = "http";
        entry_.method = request ? "(no route)" : "(malformed)";
        entry_.peer = client_address_of(request ? &request->get() : nullptr);
        std::string_view sent;
        if (request) {
            if (const auto it = request->get().find("x-request-id"); it != request->get().end())
                sent = it->value();
        }
        entry_.request_id = request_id_for(sent);
    }

    void serve_operational(std::string_view method, const std::string& path,
                           const Request& request) {
        // Only fixed paths get here, so the path is no client's text.
        entry_.method = std::string(method) + " " + path;
        entry_.routine = path == "/healthz" || path == "/readyz" || path == "/metrics";
        if (method == "OPTIONS") return send_preflight({"GET"});
        if (method != "GET") {
            ServiceError error =
                transport_error(StatusCode::kUnimplemented, kReasonMethodNotAllowed,
                                std::string(method) + " is not served at " + path + "; use GET");
            error.metadata["allow"] = "GET, OPTIONS";
            return send(error_reply(error, kNoRpc, version_));
        }
        if (const StaticFile* file = server_.static_content_.find(path))
            return serve_static(*file, request);
        // All three answer from memory at once, on the io thread: readiness is
        // kept current by the replica's own checks, so a stalled database or a
        // full work queue can never make a probe wait.
        if (path == "/healthz") return send(text_reply("ok", "text/plain", version_));
        if (path == "/metrics") {
            return send(text_reply(server_.metrics_text_(),
                                   "text/plain; version=0.0.4; charset=utf-8", version_));
        }
        if (server_.ready_()) return send(text_reply("ready", "text/plain", version_));
        send(error_reply(transport_error(StatusCode::kUnavailable, kReasonNotReady,
                                         "the server is not ready to serve"),
                         "", version_));
    }

    // /openapi.json, the docs page, the web client (static_content.h): from
    // memory on the io thread, revalidated by ETag.
    void serve_static(const StaticFile& file, const Request& request) {
        if (!file.location.empty()) {
            Reply reply{Response(http::status::permanent_redirect, version_), "", StatusCode::kOk,
                        "", ""};
            reply.response.set(http::field::location, file.location);
            return send(std::move(reply));
        }
        const bool unchanged = request[http::field::if_none_match] == file.etag;
        Reply reply =
            text_reply(unchanged ? "" : std::string(file.body), file.content_type, version_);
        if (unchanged) reply.response.result(http::status::not_modified);
        reply.response.set(http::field::etag, file.etag);
        reply.response.set(http::field::cache_control, "no-cache");
        reply.response.set("X-Content-Type-Options", "nosniff");
        if (!file.content_security_policy.empty())
            reply.response.set("Content-Security-Policy", file.content_security_policy);
        send(std::move(reply));
    }

    void send_preflight(std::vector<std::string> methods) {
        methods.push_back("OPTIONS");
        std::string allow;
        for (const auto& m : methods)
            allow += (allow.empty() ? "" : ", ") + m;
        Reply reply{Response(http::status::no_content, version_), "", StatusCode::kOk, "", ""};
        reply.response.set(http::field::allow, allow);
        if (origin_) {
            reply.response.set(http::field::access_control_allow_methods, "GET, POST, OPTIONS");
            reply.response.set(http::field::access_control_allow_headers,
                               "authorization, content-type, x-request-id");
            reply.response.set(http::field::access_control_max_age, "600");
        }
        send(std::move(reply));
    }

    // Runs `work` (returning a Reply) on the work queue, then sends its reply
    // from the strand; a full queue is answered at once.
    template <class Work>
    void offload(const std::string& rpc, Work work) {
        const bool queued =
            server_.work_.post([self = shared_from_this(), work = std::move(work)]() mutable {
                Reply reply;
                try {
                    reply = work();
                } catch (const std::exception& e) {
                    spdlog::error("http: request failed: {}", e.what());
                    reply = error_reply(
                        transport_error(StatusCode::kInternal, "INTERNAL", "internal error"),
                        kNoRpc, self->version_);
                }
                net::post(self->stream_.get_executor(), [self, reply = std::move(reply)]() mutable {
                    self->send(std::move(reply));
                });
            });
        if (!queued) send(error_reply(server_busy(), rpc, version_));
    }

    static ServiceError server_busy() {
        ServiceError error = transport_error(StatusCode::kUnavailable, "SERVER_BUSY",
                                             "this server has too many calls waiting; retry "
                                             "shortly");
        error.metadata["write_outcome"] = "NOT_APPLIED";
        return error;
    }

    void start_watch(RouteMatch match, std::string query, CallContext call) {
        offload_watch([self = shared_from_this(), match = std::move(match),
                       query = std::move(query), call = std::move(call)]() {
            auto built = self->server_.routes_.build_request(match, query, "");
            if (!built.ok()) return WatchStart{built.error(), nullptr, nullptr, ""};
            std::string game_id = game_id_of_call(*built.value(), nullptr);
            auto sink = std::make_shared<RestWatchStream>(
                self->stream_, self, self->server_.metrics_, self->options().request_timeout,
                self->server_.hub_.options().stream_queue_events);
            auto subscribed = self->server_.hub_.subscribe(
                static_cast<const v1::WatchGameRequest&>(*built.value()), call, sink);
            if (!subscribed.ok())
                return WatchStart{subscribed.error(), nullptr, nullptr, std::move(game_id)};
            return WatchStart{std::nullopt, std::move(sink), std::move(subscribed.value()),
                              std::move(game_id)};
        });
    }

    struct WatchStart {
        std::optional<ServiceError> error;
        std::shared_ptr<RestWatchStream> sink;
        std::shared_ptr<WatchHub::Subscription> subscription;
        std::string game_id;  // for the access log
    };

    template <class Work>
    void offload_watch(Work work) {
        const bool queued = server_.work_.post([self = shared_from_this(),
                                                work = std::move(work)]() mutable {
            WatchStart started;
            try {
                started = work();
            } catch (const std::exception& e) {
                spdlog::error("http: watch failed to start: {}", e.what());
                started.error =
                    transport_error(StatusCode::kInternal, "INTERNAL", "internal error");
            }
            net::post(self->stream_.get_executor(), [self, started = std::move(started)]() mutable {
                self->begin_watch(std::move(started));
            });
        });
        if (!queued) send(error_reply(server_busy(), "WatchGame", version_));
    }

    void begin_watch(WatchStart started) {
        static const std::string kRpc = "WatchGame";
        entry_.game_id = std::move(started.game_id);
        if (started.error) return send(error_reply(*started.error, kRpc, version_));
        if (state_ == State::kClosed) {
            // Force-closed while subscribing.
            started.subscription->unsubscribe();
            return;
        }
        record(kRpc, StatusCode::kOk);
        state_ = State::kWatching;
        watch_ = started.sink;
        RestWatchStream::Header header(http::status::ok, version_);
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
    void add_common_headers(Message& message) const {
        message.set(http::field::server, "foxgeese");
        message.set("X-Request-Id", entry_.request_id);
        if (!server_.options_.cors_allowed_origins.empty())
            message.set(http::field::vary, "Origin");
        if (origin_) {
            message.set(http::field::access_control_allow_origin, *origin_);
            message.set(http::field::access_control_expose_headers, "Retry-After, X-Request-Id");
        }
    }

    // The line of a watch stream that ran: written when it ends. A clean
    // end sent the terminating chunk; otherwise the client went or stalled.
    void log_watch_end(bool clean) {
        entry_.http_status = 200;
        entry_.code = clean ? "OK" : "CANCELLED";
        entry_.duration = SteadyClock::now() - received_;
        entry_.bytes_out = watch_ ? watch_->bytes_sent() : 0;
        entry_.events = watch_ ? watch_->events_sent() : 0;
        server_.access_log_.write(entry_);
    }

    void record(const std::string& rpc, StatusCode code) {
        if (rpc.empty()) return;
        server_.metrics_.requests.add({rpc, "http", status_code_name(code)});
        const std::chrono::duration<double> took = SteadyClock::now() - received_;
        server_.metrics_.request_seconds.observe({rpc, "http"}, took.count());
    }

    void send(Reply reply) {
        if (state_ == State::kClosed) return;
        record(reply.rpc, reply.code);
        state_ = State::kWriting;
        response_ = std::make_shared<Response>(std::move(reply.response));
        Response& res = *response_;
        add_common_headers(res);
        if (res[http::field::content_type] == kJson)
            res.set(http::field::cache_control, "no-store");
        res.keep_alive(keep_alive_ && !stopping_ && !server_.stopping_);
        res.prepare_payload();
        // A HEAD answer has the headers GET's would have, Content-Length
        // included, and no body.
        if (head_) res.body().clear();
        entry_.http_status = static_cast<int>(res.result_int());
        entry_.code = status_code_name(reply.code);
        entry_.reason = reply.reason;
        if (!reply.game_id.empty()) entry_.game_id = std::move(reply.game_id);
        entry_.duration = SteadyClock::now() - received_;
        entry_.bytes_out = res.body().size();
        server_.access_log_.write(entry_);
        entry_.reason = {};  // it pointed into the reply
        serializer_.emplace(res);
        write_deadline_ = SteadyClock::now() + options().request_timeout;
        // Until the reply is out, a close (a stalled write's timeout above
        // all) resets the connection and drops what the kernel still holds.
        beast::error_code ignored;
        stream_.socket().set_option(net::socket_base::linger(true, 0), ignored);
        write_some();
    }

    // Writes the reply a piece at a time: each piece must be taken within
    // the stall timeout, the whole reply within the request timeout.
    void write_some() {
        stream_.expires_at(
            std::min(SteadyClock::now() + options().write_stall_timeout, write_deadline_));
        http::async_write_some(stream_, *serializer_,
                               [self = shared_from_this()](beast::error_code ec, std::size_t) {
                                   if (!ec && !self->serializer_->is_done())
                                       return self->write_some();
                                   self->on_written(ec);
                               });
    }

    void on_written(beast::error_code ec) {
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
    // sending (a too large body, pipelined requests): closing with unread
    // input makes the kernel reset the connection, and the client could lose
    // the response.
    void linger_close() {
        state_ = State::kClosed;
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        stream_.expires_after(std::chrono::seconds(2));
        drain(0);
    }

    void drain(std::size_t total) {
        stream_.async_read_some(net::buffer(discard_), [self = shared_from_this(), total](
                                                           beast::error_code ec, std::size_t n) {
            if (ec || total + n > (1u << 20)) return self->close();
            self->drain(total + n);
        });
    }

    void close() {
        state_ = State::kClosed;
        if (watch_) watch_->stop_direct_sends();
        peer_gone_->closing();
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
        stream_.socket().close(ignored);
    }

    std::string peer() const { return peer_.empty() ? "?" : peer_; }

    // Tells the server the connection is gone. Declared first so that it is
    // destroyed last: the last reference may go on a work-queue thread, and
    // the server's shutdown, which waits for every connection to go, must not
    // let the io_context go while the stream is still being closed.
    struct Registration {
        HttpServerImpl& server;
        HttpConnection* connection;
        std::string address;
        ~Registration() { server.remove(connection, address); }
    };
    Registration registration_;
    HttpServerImpl& server_;
    std::string peer_;  // the connection's remote address, read once
    beast::tcp_stream stream_;
    std::shared_ptr<PeerGone> peer_gone_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    std::shared_ptr<Response> response_;
    std::optional<http::response_serializer<http::string_body>> serializer_;
    SteadyClock::time_point write_deadline_;
    std::shared_ptr<RestWatchStream> watch_;
    std::array<char, 4096> discard_{};
    State state_ = State::kIdle;
    bool stopping_ = false;
    bool keep_alive_ = true;
    bool unread_input_ = false;  // a request was not read to its end
    bool head_ = false;          // the request being answered is a HEAD
    unsigned version_ = 11;
    std::optional<std::string> origin_;
    SteadyClock::time_point received_ = SteadyClock::now();
    AccessEntry entry_;  // the request being answered, or the watch stream
};

HttpServerImpl::HttpServerImpl(HttpServerOptions options, GameService& logic, WatchHub& hub,
                               Metrics& metrics, WorkQueue& work, const AccessLog& access_log,
                               std::function<bool()> ready,
                               std::function<std::string()> metrics_text)
    : options_(std::move(options)),
      logic_(logic),
      hub_(hub),
      metrics_(metrics),
      work_(work),
      access_log_(access_log),
      ready_(std::move(ready)),
      metrics_text_(std::move(metrics_text)),
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

HttpServerImpl::~HttpServerImpl() {
    shutdown();
}

void HttpServerImpl::accept() {
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
        auto session = std::make_shared<HttpConnection>(*this, std::move(socket), peer_text,
                                                        std::move(address));
        {
            std::lock_guard lock(mutex_);
            sessions_[session.get()] = session;
        }
        session->start();
        accept();
    });
}

bool HttpServerImpl::admit(const std::string& address) {
    std::lock_guard lock(mutex_);
    int& open = per_address_[address];
    if (options_.connections_per_address > 0 && open >= options_.connections_per_address)
        return false;
    ++open;
    return true;
}

void HttpServerImpl::remove(HttpConnection* session, const std::string& address) {
    std::lock_guard lock(mutex_);
    sessions_.erase(session);
    if (const auto it = per_address_.find(address); it != per_address_.end() && --it->second <= 0)
        per_address_.erase(it);
    if (sessions_.empty()) sessions_gone_.notify_all();
}

std::optional<std::string> HttpServerImpl::allowed_origin(const http::fields& request) const {
    const auto it = request.find(http::field::origin);
    if (it == request.end()) return std::nullopt;
    const std::string origin(it->value());
    for (const auto& allowed : options_.cors_allowed_origins) {
        if (allowed == "*" || allowed == origin) return origin;
    }
    return std::nullopt;
}

void HttpServerImpl::stop_sessions(bool force) {
    std::vector<std::shared_ptr<HttpConnection>> live;
    {
        std::lock_guard lock(mutex_);
        for (auto& [raw, weak] : sessions_) {
            if (auto session = weak.lock()) live.push_back(std::move(session));
        }
    }
    for (auto& session : live)
        force ? session->force_close() : session->stop();
}

bool HttpServerImpl::wait_for_sessions(SteadyClock::time_point deadline) {
    std::unique_lock lock(mutex_);
    return sessions_gone_.wait_until(lock, deadline, [this] { return sessions_.empty(); });
}

void HttpServerImpl::shutdown() {
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

    stop_sessions(false);
    if (!wait_for_sessions(SteadyClock::now() + options_.drain_timeout)) {
        spdlog::warn("http: requests still running after the drain time; closing them");
        stop_sessions(true);
    }
    // Calls still on the work queue post their replies to closed connections;
    // the queue itself belongs to the replica, which stops it.
    stop_sessions(true);
    // A connection left now is held by a call still on the work queue: its
    // owner must stop the queue before this server is destroyed (the replica
    // does), since closing the connection needs the io_context.
    if (!wait_for_sessions(SteadyClock::now() + std::chrono::seconds(5)))
        spdlog::warn("http: connections left at shutdown");
    work_guard_.reset();
    ioc_.stop();
    for (auto& thread : io_threads_)
        thread.join();
    io_threads_.clear();
}

HttpServer::HttpServer(HttpServerOptions options, GameService& logic, WatchHub& hub,
                       Metrics& metrics, WorkQueue& work, const AccessLog& access_log,
                       std::function<bool()> ready, std::function<std::string()> metrics_text)
    : impl_(std::make_unique<HttpServerImpl>(std::move(options), logic, hub, metrics, work,
                                             access_log, std::move(ready),
                                             std::move(metrics_text))) {}

HttpServer::~HttpServer() = default;

int HttpServer::port() const {
    return impl_->port();
}

void HttpServer::shutdown() {
    impl_->shutdown();
}

}  // namespace foxgeese::service
