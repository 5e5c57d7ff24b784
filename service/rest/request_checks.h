// What an HTTP/1.1 request must look like before its body is read or its
// route is served, as strictly as RFC 9110 and RFC 9112 ask: one Host (and
// one on HTTP/1.1), no transfer coding but chunked, no content coding, one
// Content-Type that is application/json in UTF-8, no repeated headers that
// two hops could read differently.
#pragma once

#include <boost/beast/http/fields.hpp>
#include <optional>

#include "service/core/service_error.h"

namespace foxgeese::service {

// Framing and Host, checked on the header alone: 400, 415 or 501.
std::optional<ServiceError> check_request_header(const boost::beast::http::fields& header,
                                                 unsigned version);

// The body's media type: application/json, with no charset or UTF-8. 415.
std::optional<ServiceError> check_json_content_type(const boost::beast::http::fields& header);

}  // namespace foxgeese::service
