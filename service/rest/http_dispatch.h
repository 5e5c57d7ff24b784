// What the HTTP server answers to a request read whole: the operational
// endpoints and pages from memory (/healthz, /readyz, /metrics, /openapi.json,
// the docs and the web client), CORS preflights, and the API's routes, whose
// calls go through the call envelope to the work queue; WatchGame turns the
// connection into a watch stream.
#pragma once

#include <boost/beast/http/fields.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "service/call/call_envelope.h"
#include "service/preview/previews.h"
#include "service/rest/http_reply.h"
#include "service/rest/http_server.h"
#include "service/rest/rest_routes.h"
#include "service/rest/static_content.h"
#include "service/watch/watch_hub.h"

namespace foxgeese::service {

class HttpConnection;

class HttpDispatch {
  public:
    // `ready` answers /readyz and `metrics_text` is /metrics: both must
    // answer from memory, at once.
    HttpDispatch(const HttpServerOptions& options, GameService& logic, WatchHub& hub,
                 Metrics& metrics, WorkQueue& work, const AccessLog& access_log,
                 std::function<bool()> ready, std::function<std::string()> metrics_text);

    // Answers `request` on `connection` (on its strand): at once, or from the
    // work queue.
    void handle(const std::shared_ptr<HttpConnection>& connection, HttpRequest request);

    // The origin to echo in Access-Control-Allow-Origin, if it is allowed.
    std::optional<std::string> allowed_origin(const boost::beast::http::fields& request) const;

    const RestRoutes& routes() const { return routes_; }
    CallEnvelope& envelope() { return envelope_; }
    const CallEnvelope& envelope() const { return envelope_; }

  private:
    void serve_operational(HttpConnection& connection, std::string_view method,
                           const std::string& path, const HttpRequest& request) const;
    void serve_static(HttpConnection& connection, const StaticFile& file,
                      const HttpRequest& request) const;
    void send_preflight(HttpConnection& connection, std::vector<std::string> methods) const;
    void call(const std::shared_ptr<HttpConnection>& connection, RouteMatch match,
              std::string query, std::string body, CallContext call);
    void watch(const std::shared_ptr<HttpConnection>& connection, RouteMatch match,
               std::string query, CallContext call);
    // A preview route's answer (preview_dispatch.cpp), drawn on the work queue.
    void preview(const std::shared_ptr<HttpConnection>& connection, std::string_view method,
                 const HttpRequest& request, std::string route, std::string_view path,
                 std::string_view query);

    const HttpServerOptions& options_;
    WatchHub& hub_;
    CallEnvelope envelope_;
    const std::function<bool()> ready_;
    const std::function<std::string()> metrics_text_;
    const RestRoutes routes_;
    const StaticContent static_content_;
    preview::Previews previews_;
};

}  // namespace foxgeese::service
