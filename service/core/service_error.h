// The one error type of the service layer: a status code (gRPC's numbering,
// mapped to HTTP by the REST side), a stable UPPER_SNAKE_CASE reason, a message
// a person can act on, and optional metadata and offending field.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace foxgeese::service {

// gRPC status codes by number (the service layer does not include gRPC).
enum class StatusCode {
    kOk = 0,
    kCancelled = 1,
    kInvalidArgument = 3,
    kDeadlineExceeded = 4,
    kNotFound = 5,
    kAlreadyExists = 6,
    kPermissionDenied = 7,
    kResourceExhausted = 8,
    kFailedPrecondition = 9,
    kAborted = 10,
    kOutOfRange = 11,
    kUnimplemented = 12,
    kInternal = 13,
    kUnavailable = 14,
    kUnauthenticated = 16,
};

struct ServiceError {
    StatusCode code;
    std::string reason;
    std::string message;
    std::map<std::string, std::string> metadata;
    std::string field;  // the request field at fault, for INVALID_ARGUMENT-class errors
    // How long to wait before retrying (google.rpc.RetryInfo over gRPC,
    // Retry-After over HTTP); set for RATE_LIMITED and load shedding.
    std::optional<std::chrono::milliseconds> retry_after = std::nullopt;
};

// Either a response or a ServiceError.
template <class T>
class [[nodiscard]] ServiceResult {
  public:
    ServiceResult(T value) : state_(std::move(value)) {}
    ServiceResult(ServiceError error) : state_(std::move(error)) {}
    bool ok() const { return state_.index() == 0; }
    const T& value() const& { return std::get<0>(state_); }
    T& value() & { return std::get<0>(state_); }
    const ServiceError& error() const { return std::get<1>(state_); }

  private:
    std::variant<T, ServiceError> state_;
};

// The canonical gRPC name of a code ("NOT_FOUND"), for logs and metrics.
inline const char* status_code_name(StatusCode code) {
    switch (code) {
        case StatusCode::kOk:
            return "OK";
        case StatusCode::kCancelled:
            return "CANCELLED";
        case StatusCode::kInvalidArgument:
            return "INVALID_ARGUMENT";
        case StatusCode::kDeadlineExceeded:
            return "DEADLINE_EXCEEDED";
        case StatusCode::kNotFound:
            return "NOT_FOUND";
        case StatusCode::kAlreadyExists:
            return "ALREADY_EXISTS";
        case StatusCode::kPermissionDenied:
            return "PERMISSION_DENIED";
        case StatusCode::kResourceExhausted:
            return "RESOURCE_EXHAUSTED";
        case StatusCode::kFailedPrecondition:
            return "FAILED_PRECONDITION";
        case StatusCode::kAborted:
            return "ABORTED";
        case StatusCode::kOutOfRange:
            return "OUT_OF_RANGE";
        case StatusCode::kUnimplemented:
            return "UNIMPLEMENTED";
        case StatusCode::kInternal:
            return "INTERNAL";
        case StatusCode::kUnavailable:
            return "UNAVAILABLE";
        case StatusCode::kUnauthenticated:
            return "UNAUTHENTICATED";
    }
    return "UNKNOWN";
}

// A wait in whole seconds, rounded up and at least 1: retrying after it
// succeeds (HTTP's Retry-After, and the messages that state the wait).
inline std::int64_t whole_seconds_up(std::chrono::milliseconds wait) {
    return std::max<std::int64_t>(1, (wait.count() + 999) / 1000);
}

inline ServiceError make_error(StatusCode code, std::string reason, std::string message,
                               std::map<std::string, std::string> metadata = {}) {
    return ServiceError{code, std::move(reason), std::move(message), std::move(metadata), ""};
}

inline ServiceError invalid_argument(std::string field, std::string message) {
    return ServiceError{
        StatusCode::kInvalidArgument, "INVALID_ARGUMENT", std::move(message), {}, std::move(field)};
}

}  // namespace foxgeese::service
