// An HTTP answer as the REST side builds it: the response, and what the
// metrics and the access log say of it.
#pragma once

#include <google/protobuf/message.h>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <string>
#include <string_view>

#include "service/core/service_error.h"

namespace foxgeese::service {

using HttpRequest = boost::beast::http::request<boost::beast::http::string_body>;
using HttpResponse = boost::beast::http::response<boost::beast::http::string_body>;

// The metrics label of requests that reach no RPC (unknown routes, malformed
// HTTP); /healthz, /readyz, /metrics and CORS preflights are not counted.
inline constexpr const char* kNoRpc = "none";
inline constexpr const char* kJson = "application/json";

struct Reply {
    HttpResponse response;
    std::string rpc;  // metrics label; empty: not counted
    StatusCode code = StatusCode::kOk;
    std::string reason;   // the error's, for the access log
    std::string game_id;  // the game the call was about, when known
};

// An error of the HTTP layer itself (see the reasons in rest_json.h).
ServiceError transport_error(StatusCode code, const char* reason, std::string message);

// The error as the JSON of its google.rpc.Status, with its HTTP status, and
// Allow and Retry-After when it carries them.
Reply error_reply(const ServiceError& error, std::string rpc, unsigned version = 11);

// A response in the proto3 JSON mapping; a google.api.HttpBody (a game
// record) is its own body, sent with its own media type.
Reply message_reply(const google::protobuf::Message& message, std::string rpc, unsigned version);

// 200 with `body`, or an empty answer with another status (a redirect, a
// preflight); neither is counted in the metrics.
Reply text_reply(std::string body, std::string_view content_type, unsigned version);
Reply empty_reply(boost::beast::http::status status, unsigned version);

}  // namespace foxgeese::service
