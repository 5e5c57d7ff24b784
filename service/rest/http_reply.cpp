#include "service/rest/http_reply.h"

#include "google/api/httpbody.pb.h"
#include "service/rest/rest_json.h"

namespace foxgeese::service {

namespace http = boost::beast::http;

ServiceError transport_error(StatusCode code, const char* reason, std::string message) {
    return ServiceError{code, reason, std::move(message), {}, ""};
}

Reply error_reply(const ServiceError& error, std::string rpc, unsigned version) {
    Reply reply{HttpResponse(static_cast<http::status>(http_status_of(error)), version),
                std::move(rpc), error.code, error.reason, ""};
    HttpResponse& res = reply.response;
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

Reply message_reply(const google::protobuf::Message& message, std::string rpc, unsigned version) {
    Reply reply{HttpResponse(http::status::ok, version), std::move(rpc), StatusCode::kOk, "", ""};
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
    Reply reply = empty_reply(http::status::ok, version);
    reply.response.set(http::field::content_type, content_type);
    reply.response.body() = std::move(body);
    return reply;
}

Reply empty_reply(http::status status, unsigned version) {
    return Reply{HttpResponse(status, version), "", StatusCode::kOk, "", ""};
}

}  // namespace foxgeese::service
