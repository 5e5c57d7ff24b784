#include "service/rest/http_dispatch.h"

#include <spdlog/spdlog.h>

#include <boost/beast/http.hpp>

#include "service/rest/http_connection.h"
#include "service/rest/request_checks.h"
#include "service/rest/rest_json.h"

namespace foxgeese::service {

namespace http = boost::beast::http;

HttpDispatch::HttpDispatch(const HttpServerOptions& options, GameService& logic, WatchHub& hub,
                           Metrics& metrics, WorkQueue& work, const AccessLog& access_log,
                           std::function<bool()> ready, std::function<std::string()> metrics_text)
    : options_(options),
      hub_(hub),
      envelope_("http", logic, metrics, work, access_log),
      ready_(std::move(ready)),
      metrics_text_(std::move(metrics_text)),
      static_content_(server_static_content(options.pages.get())),
      previews_(logic, options.previews) {}

void HttpDispatch::handle(const std::shared_ptr<HttpConnection>& connection, HttpRequest request) {
    HttpExchange& exchange = connection->exchange();
    exchange.origin = allowed_origin(request);
    if (exchange.version != 10 && exchange.version != 11) {
        exchange.version = 11;
        exchange.keep_alive = false;
        return connection->send(
            error_reply(transport_error(StatusCode::kInvalidArgument, kReasonMalformedRequest,
                                        "only HTTP/1.0 and HTTP/1.1 are served here"),
                        kNoRpc, exchange.version));
    }
    const std::string_view target = request.target();
    if (target.empty() || target.front() != '/') {
        return connection->send(
            error_reply(transport_error(StatusCode::kInvalidArgument, kReasonMalformedRequest,
                                        "the request target must be a path such as /v1/games"),
                        kNoRpc, exchange.version));
    }
    const auto [path, query] = split_target(target);
    const std::string_view method =
        exchange.head ? std::string_view("GET") : request.method_string();
    exchange.entry.bytes_in = request.body().size();

    // Fixed paths (probes, metrics, static pages) answer GET from memory.
    if (path == "/healthz" || path == "/readyz" || path == "/metrics" ||
        static_content_.find(path) != nullptr) {
        return serve_operational(*connection, method, path, request);
    }
    if (auto route = preview::Previews::route_of(path))
        return preview(connection, method, request, std::move(*route), path, query);
    if (request.method() == http::verb::options) {
        exchange.entry.method = "OPTIONS (preflight)";
        const auto methods = routes_.methods_at(path);
        if (methods.empty()) {
            return connection->send(error_reply(route_not_found(path), kNoRpc, exchange.version));
        }
        return send_preflight(*connection, methods);
    }

    auto match = routes_.match(method, path);
    if (!match.ok()) return connection->send(error_reply(match.error(), kNoRpc, exchange.version));
    const RestRoute& route = *match.value().route;
    const std::string& rpc = route.method->name();
    exchange.entry.method = route.http_method + " " + route.pattern;
    exchange.entry.rpc = rpc;
    if (route.has_body && !request.body().empty()) {
        if (auto refused = check_json_content_type(request))
            return connection->send(error_reply(*refused, rpc, exchange.version));
    }
    CallContext context = envelope_.context(exchange.headers, exchange.entry.peer);
    context.cancelled = connection->client_gone();

    if (route.rpc->streaming()) {
        if (exchange.head) {
            ServiceError error =
                transport_error(StatusCode::kUnimplemented, kReasonMethodNotAllowed,
                                "HEAD is not served for a watch stream; use GET");
            error.metadata["allow"] = "GET, OPTIONS";
            return connection->send(error_reply(error, rpc, exchange.version));
        }
        return watch(connection, std::move(match.value()), query, std::move(context));
    }
    call(connection, std::move(match.value()), query, std::move(request.body()),
         std::move(context));
}

// The request message is built, the RPC called and its answer written as
// JSON on the work queue, never on an io thread.
void HttpDispatch::call(const std::shared_ptr<HttpConnection>& connection, RouteMatch match,
                        std::string query, std::string body, CallContext context) {
    const unsigned version = connection->exchange().version;
    const std::string& rpc = match.route->method->name();
    const bool queued =
        envelope_.post([this, connection, match = std::move(match), query = std::move(query),
                        body = std::move(body), context = std::move(context), version, &rpc] {
            try {
                auto built = routes_.build_request(match, query, body);
                if (!built.ok())
                    return connection->send_from_worker(error_reply(built.error(), rpc, version));
                // The answer may come later, from another thread (SeekGame).
                envelope_.call(*match.route->rpc, *built.value(), context,
                               [connection, version, &rpc](RpcOutcome outcome) {
                                   Reply reply =
                                       outcome.response.ok()
                                           ? message_reply(*outcome.response.value(), rpc, version)
                                           : error_reply(outcome.response.error(), rpc, version);
                                   reply.game_id = std::move(outcome.game_id);
                                   connection->send_from_worker(std::move(reply));
                               });
            } catch (const std::exception& e) {
                spdlog::error("http: request failed: {}", e.what());
                connection->send_from_worker(error_reply(
                    transport_error(StatusCode::kInternal, "INTERNAL", "internal error"), kNoRpc,
                    version));
            }
        });
    if (!queued) connection->send(error_reply(server_busy(), rpc, version));
}

// Subscribing reads the database: on the work queue too.
void HttpDispatch::watch(const std::shared_ptr<HttpConnection>& connection, RouteMatch match,
                         std::string query, CallContext context) {
    const bool queued = envelope_.post([this, connection, match = std::move(match),
                                        query = std::move(query), context = std::move(context)] {
        WatchStart started;
        try {
            auto built = routes_.build_request(match, query, "");
            if (!built.ok()) {
                started.error = built.error();
            } else {
                const auto& request = static_cast<const v1::WatchGameRequest&>(*built.value());
                started.game_id = loggable_game_id(request.game_id());
                auto sink = connection->new_watch_stream(hub_.options().stream_queue_events);
                auto subscribed = hub_.subscribe(request, context, sink);
                if (subscribed.ok()) {
                    started.sink = std::move(sink);
                    started.subscription = std::move(subscribed.value());
                } else {
                    started.error = subscribed.error();
                }
            }
        } catch (const std::exception& e) {
            spdlog::error("http: watch failed to start: {}", e.what());
            started = WatchStart{};
            started.error = transport_error(StatusCode::kInternal, "INTERNAL", "internal error");
        }
        connection->begin_watch_from_worker(std::move(started));
    });
    if (!queued)
        connection->send(error_reply(server_busy(), "WatchGame", connection->exchange().version));
}

void HttpDispatch::serve_operational(HttpConnection& connection, std::string_view method,
                                     const std::string& path, const HttpRequest& request) const {
    HttpExchange& exchange = connection.exchange();
    // Only fixed paths get here, so the path is no client's text.
    exchange.entry.method = std::string(method) + " " + path;
    exchange.entry.routine = path == "/healthz" || path == "/readyz" || path == "/metrics";
    if (method == "OPTIONS") return send_preflight(connection, {"GET"});
    if (method != "GET") {
        ServiceError error =
            transport_error(StatusCode::kUnimplemented, kReasonMethodNotAllowed,
                            std::string(method) + " is not served at " + path + "; use GET");
        error.metadata["allow"] = "GET, OPTIONS";
        return connection.send(error_reply(error, kNoRpc, exchange.version));
    }
    if (const StaticFile* file = static_content_.find(path))
        return serve_static(connection, *file, request);
    // All three answer from memory at once, on the io thread: readiness is
    // kept current by the replica's own checks, so a stalled database or a
    // full work queue can never make a probe wait.
    if (path == "/healthz")
        return connection.send(text_reply("ok", "text/plain", exchange.version));
    if (path == "/metrics") {
        return connection.send(text_reply(
            metrics_text_(), "text/plain; version=0.0.4; charset=utf-8", exchange.version));
    }
    if (ready_()) return connection.send(text_reply("ready", "text/plain", exchange.version));
    connection.send(error_reply(transport_error(StatusCode::kUnavailable, kReasonNotReady,
                                                "the server is not ready to serve"),
                                "", exchange.version));
}

// /openapi.json, the docs page, the web client (static_content.h): from
// memory on the io thread, revalidated by ETag.
void HttpDispatch::serve_static(HttpConnection& connection, const StaticFile& file,
                                const HttpRequest& request) const {
    const unsigned version = connection.exchange().version;
    if (!file.location.empty()) {
        Reply reply = empty_reply(http::status::permanent_redirect, version);
        reply.response.set(http::field::location, file.location);
        return connection.send(std::move(reply));
    }
    const bool unchanged = request[http::field::if_none_match] == file.etag;
    Reply reply = text_reply(unchanged ? "" : std::string(file.body), file.content_type, version);
    if (unchanged) reply.response.result(http::status::not_modified);
    reply.response.set(http::field::etag, file.etag);
    reply.response.set(http::field::cache_control, "no-cache");
    reply.response.set("X-Content-Type-Options", "nosniff");
    if (!file.content_security_policy.empty())
        reply.response.set("Content-Security-Policy", file.content_security_policy);
    connection.send(std::move(reply));
}

void HttpDispatch::send_preflight(HttpConnection& connection,
                                  std::vector<std::string> methods) const {
    methods.push_back("OPTIONS");
    std::string allow;
    for (const auto& m : methods)
        allow += (allow.empty() ? "" : ", ") + m;
    Reply reply = empty_reply(http::status::no_content, connection.exchange().version);
    reply.response.set(http::field::allow, allow);
    if (connection.exchange().origin) {
        reply.response.set(http::field::access_control_allow_methods, "GET, POST, OPTIONS");
        reply.response.set(http::field::access_control_allow_headers,
                           "authorization, content-type, x-request-id");
        reply.response.set(http::field::access_control_max_age, "600");
    }
    connection.send(std::move(reply));
}

std::optional<std::string> HttpDispatch::allowed_origin(const http::fields& request) const {
    const auto it = request.find(http::field::origin);
    if (it == request.end()) return std::nullopt;
    const std::string origin(it->value());
    for (const auto& allowed : options_.cors_allowed_origins) {
        if (allowed == "*" || allowed == origin) return origin;
    }
    return std::nullopt;
}

}  // namespace foxgeese::service
