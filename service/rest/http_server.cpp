#include "service/rest/http_server.h"

#include "service/rest/http_acceptor.h"
#include "service/rest/http_dispatch.h"

namespace foxgeese::service {

HttpServer::HttpServer(HttpServerOptions options, GameService& logic, WatchHub& hub,
                       Metrics& metrics, WorkQueue& work, const AccessLog& access_log,
                       std::function<bool()> ready, std::function<std::string()> metrics_text)
    : options_(std::move(options)),
      dispatch_(std::make_unique<HttpDispatch>(options_, logic, hub, metrics, work, access_log,
                                               std::move(ready), std::move(metrics_text))),
      acceptor_(std::make_unique<HttpAcceptor>(options_, *dispatch_)) {}

HttpServer::~HttpServer() = default;

int HttpServer::port() const {
    return acceptor_->port();
}

void HttpServer::shutdown() {
    acceptor_->shutdown();
}

}  // namespace foxgeese::service
