// The JSON face of the REST API: responses in protobuf's JSON mapping, and
// errors as the JSON of the same google.rpc.Status the gRPC side sends, with
// the HTTP status that belongs to its code.
#pragma once

#include <google/protobuf/message.h>

#include <string>
#include <string_view>

#include "service/core/service_error.h"
#include "service/runtime/text_encoding.h"

namespace foxgeese::service {

// Errors of the HTTP layer itself. Their reasons select an HTTP status other
// than the code's (see http_status_of).
inline constexpr const char* kReasonRouteNotFound = "ROUTE_NOT_FOUND";
inline constexpr const char* kReasonMethodNotAllowed = "METHOD_NOT_ALLOWED";
inline constexpr const char* kReasonMalformedRequest = "MALFORMED_REQUEST";
inline constexpr const char* kReasonPayloadTooLarge = "PAYLOAD_TOO_LARGE";
inline constexpr const char* kReasonHeadersTooLarge = "HEADERS_TOO_LARGE";
inline constexpr const char* kReasonUnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE";
inline constexpr const char* kReasonNotReady = "NOT_READY";
inline constexpr const char* kReasonUnsupportedTransferCoding = "UNSUPPORTED_TRANSFER_CODING";

// A message in the proto3 JSON mapping on one line: lowerCamelCase names,
// enums by name, Timestamps in RFC 3339, and every primitive field printed
// even when it holds its default, so clients always see zeros and falses.
// Throws std::runtime_error for a message JSON cannot hold (a Timestamp out
// of range).
std::string message_to_json(const google::protobuf::Message& message);

// {"code": ..., "message": ..., "details": [ErrorInfo, BadRequest?]}: the
// google.rpc.Status of status_of() in JSON.
std::string error_to_json(const ServiceError& error);

// The HTTP status for an error: by reason for the HTTP layer's own errors,
// otherwise by code (INVALID_ARGUMENT 400, NOT_FOUND 404, ABORTED 409, ...).
int http_status_of(const ServiceError& error);
int http_status_of(StatusCode code);

}  // namespace foxgeese::service
