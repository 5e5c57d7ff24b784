// The REST/JSON side of the server over HTTP/1.1 (Boost.Beast): the API
// routes of rest_routes.h, NDJSON watch streams, and the operational
// endpoints /healthz, /readyz and /metrics. Sockets are served by a few io
// threads; every GameService call, which may block on the database, runs on
// the replica's work queue, so a slow query never stalls other connections.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "service/core/game_service.h"
#include "service/preview/preview_options.h"
#include "service/rest/static_content.h"
#include "service/runtime/access_log.h"
#include "service/runtime/metrics.h"
#include "service/runtime/work_queue.h"
#include "service/watch/watch_hub.h"

namespace foxgeese::service {

struct HttpServerOptions {
    std::string listen_address = "127.0.0.1";
    int port = 0;  // 0: pick a free port (see HttpServer::port)
    int io_threads = 2;
    std::size_t max_body_bytes = 64 * 1024;
    std::size_t max_header_bytes = 8 * 1024;
    // A keep-alive connection with no request for this long is closed.
    std::chrono::milliseconds idle_timeout{std::chrono::seconds(60)};
    // The longest a client may take to send one whole request (and to take
    // one response or watch event off the socket).
    std::chrono::milliseconds request_timeout{std::chrono::seconds(30)};
    // A reply of which the client takes nothing for this long (it stopped
    // reading) drops the connection with a reset, which frees at once what
    // the kernel still holds for it; a graceful close would leave the unsent
    // bytes queued for minutes.
    std::chrono::milliseconds write_stall_timeout{std::chrono::seconds(10)};
    // The kernel's send buffer of every connection: this size, not left to
    // autotuning, which may grow it to megabytes per connection that a
    // client that stopped reading pins (ten thousand of them: gigabytes). A
    // watch stream needs a few KiB a move, so the default holds dozens; a
    // large reply goes out in pieces of it.
    int send_buffer_bytes = 64 * 1024;
    // Connections open at once from one client address (an IPv6 /64): the
    // one over it is closed at once. Sized for many players behind one NAT
    // address, each with a watch stream and a call or two. 0: no cap.
    int connections_per_address = 512;
    // Origins allowed to call from a browser; "*" allows any.
    std::vector<std::string> cors_allowed_origins;
    // How long shutdown() waits for requests in flight before closing them.
    std::chrono::milliseconds drain_timeout{std::chrono::seconds(20)};
    // Pages served besides the API (the docs, the web client); /openapi.json
    // is always served.
    std::shared_ptr<const StaticContent> pages;
    // The share-link previews: images, animations, share pages (service/preview).
    preview::PreviewOptions previews;
};

class HttpAcceptor;
class HttpDispatch;

// The server: the dispatch (http_dispatch.h) answers what the connections
// (http_connection.h) that the acceptor (http_acceptor.h) accepts read.
class HttpServer {
  public:
    // Binds and starts serving; throws std::runtime_error when the address
    // cannot be bound. `ready` answers /readyz and `metrics_text` is
    // /metrics: both must answer from memory, at once.
    // Every request and finished watch stream gets a line in `access_log`.
    // Requests run on `work`: stop it before destroying this server when a
    // call may still be on it (a connection's close needs the server).
    HttpServer(HttpServerOptions options, GameService& logic, WatchHub& hub, Metrics& metrics,
               WorkQueue& work, const AccessLog& access_log, std::function<bool()> ready,
               std::function<std::string()> metrics_text);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    // The bound port (the chosen one when options.port was 0).
    int port() const;

    // Stops accepting, closes idle keep-alive connections, ends watch streams
    // cleanly, lets requests in flight finish (up to drain_timeout), then
    // stops the threads. Safe to call twice.
    void shutdown();

  private:
    const HttpServerOptions options_;
    std::unique_ptr<HttpDispatch> dispatch_;
    // Declared last: destroyed first, it stops every connection before the
    // dispatch they use goes.
    std::unique_ptr<HttpAcceptor> acceptor_;
};

}  // namespace foxgeese::service
