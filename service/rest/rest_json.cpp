#include "service/rest/rest_json.h"

#include <google/protobuf/util/json_util.h>

#include <stdexcept>

#include "service/core/error_status.h"
#include "service/rest/proto_json_writer.h"
#include "service/runtime/text_encoding.h"

namespace foxgeese::service {
std::string message_to_json(const google::protobuf::Message& message) {
    std::string out;
    if (write_proto_json(message, out)) return out;
    google::protobuf::util::JsonPrintOptions options;
    options.add_whitespace = false;
    options.always_print_primitive_fields = true;
    options.always_print_enums_as_ints = false;
    options.preserve_proto_field_names = false;
    const auto status = google::protobuf::util::MessageToJsonString(message, &out, options);
    if (!status.ok()) {
        throw std::runtime_error("cannot print " + message.GetTypeName() +
                                 " as JSON: " + std::string(status.message()));
    }
    return out;
}

std::string error_to_json(const ServiceError& error) {
    // Protobuf refuses strings that are not UTF-8, and messages may quote
    // what the client sent.
    ServiceError clean = error;
    clean.message = coerce_utf8(error.message);
    clean.reason = coerce_utf8(error.reason);
    clean.field = coerce_utf8(error.field);
    for (auto& [key, value] : clean.metadata)
        value = coerce_utf8(value);
    const google::rpc::Status status = status_of(clean);
    try {
        return message_to_json(status);
    } catch (const std::exception&) {
        return R"({"code":13,"message":"internal error","details":[]})";
    }
}

int http_status_of(StatusCode code) {
    // By gRPC code number, as google.rpc.Code documents the HTTP mapping.
    static constexpr int kHttp[] = {
        200,  // OK
        499,  // CANCELLED
        500,  // UNKNOWN
        400,  // INVALID_ARGUMENT
        504,  // DEADLINE_EXCEEDED
        404,  // NOT_FOUND
        409,  // ALREADY_EXISTS
        403,  // PERMISSION_DENIED
        429,  // RESOURCE_EXHAUSTED
        400,  // FAILED_PRECONDITION
        409,  // ABORTED
        400,  // OUT_OF_RANGE
        501,  // UNIMPLEMENTED
        500,  // INTERNAL
        503,  // UNAVAILABLE
        500,  // DATA_LOSS
        401,  // UNAUTHENTICATED
    };
    const int n = static_cast<int>(code);
    if (n < 0 || n >= static_cast<int>(std::size(kHttp))) return 500;
    return kHttp[n];
}

int http_status_of(const ServiceError& error) {
    const std::string& reason = error.reason;
    if (reason == kReasonMethodNotAllowed) return 405;
    if (reason == kReasonPayloadTooLarge) return 413;
    if (reason == kReasonUnsupportedMediaType) return 415;
    if (reason == kReasonHeadersTooLarge) return 431;
    return http_status_of(error.code);
}

}  // namespace foxgeese::service
