// The preview routes over HTTP (service/preview/previews.h): GET and HEAD
// only, drawn on the work queue like an RPC, answered with the file and its
// validators, or 304, or the API's JSON error.
#include <spdlog/spdlog.h>

#include <boost/beast/http.hpp>

#include "service/rest/http_connection.h"
#include "service/rest/http_dispatch.h"
#include "service/rest/rest_json.h"

namespace foxgeese::service {

namespace http = boost::beast::http;

namespace {

// The metrics label of every preview route.
constexpr const char* kPreviewLabel = "Preview";

Reply preview_reply(const preview::PreviewReply& file, unsigned version) {
    Reply reply =
        empty_reply(file.not_modified ? http::status::not_modified : http::status::ok, version);
    reply.rpc = kPreviewLabel;
    HttpResponse& res = reply.response;
    if (!file.not_modified) {
        res.set(http::field::content_type, file.content_type);
        res.body() = *file.body;
    }
    res.set(http::field::etag, file.etag);
    res.set(http::field::cache_control, file.cache_control);
    res.set("X-Content-Type-Options", "nosniff");
    if (!file.content_security_policy.empty())
        res.set("Content-Security-Policy", file.content_security_policy);
    reply.game_id = file.game_id;
    return reply;
}

}  // namespace

void HttpDispatch::preview(const std::shared_ptr<HttpConnection>& connection,
                           std::string_view method, const HttpRequest& request, std::string route,
                           std::string_view path, std::string_view query) {
    HttpExchange& exchange = connection->exchange();
    const unsigned version = exchange.version;
    // The route's name, with the method the request used ("GET /g/{game_id}").
    exchange.entry.method = std::string(method) + route.substr(route.find(' '));
    if (method == "OPTIONS") return send_preflight(*connection, {"GET"});
    if (method != "GET") {
        ServiceError error = transport_error(StatusCode::kUnimplemented, kReasonMethodNotAllowed,
                                             std::string(method) + " is not served here; use GET");
        error.metadata["allow"] = "GET, OPTIONS";
        return connection->send(error_reply(error, kPreviewLabel, version));
    }
    CallContext context = envelope_.context(exchange.headers, exchange.entry.peer);
    context.cancelled = connection->client_gone();
    // What the worker reads of the request, copied: the request goes away.
    struct Copy {
        std::string path, query, if_none_match, host, forwarded_proto;
    };
    Copy copy{std::string(path), std::string(query),
              std::string(request[http::field::if_none_match]),
              std::string(request[http::field::host]), std::string(request["X-Forwarded-Proto"])};
    const bool queued = envelope_.post([this, connection, copy = std::move(copy),
                                        context = std::move(context), version] {
        Reply reply;
        try {
            const auto served =
                previews_.serve(preview::PreviewRequest{copy.path, copy.query, copy.if_none_match,
                                                        copy.host, copy.forwarded_proto, context});
            reply = served.ok() ? preview_reply(served.value(), version)
                                : error_reply(served.error(), kPreviewLabel, version);
        } catch (const std::exception& e) {
            spdlog::error("http: preview failed: {}", e.what());
            reply =
                error_reply(transport_error(StatusCode::kInternal, "INTERNAL", "internal error"),
                            kPreviewLabel, version);
        }
        connection->send_from_worker(std::move(reply));
    });
    if (!queued) connection->send(error_reply(server_busy(), kPreviewLabel, version));
}

}  // namespace foxgeese::service
