// A ServiceError as the google.rpc.Status both transports send: gRPC in its
// status details, REST as the JSON error body.
#pragma once

#include "google/rpc/status.pb.h"
#include "service/core/service_error.h"

namespace foxgeese::service {

// The ErrorInfo domain of every foxgeese error.
inline constexpr const char* kErrorDomain = "foxgeese.dev";

// code, message, an ErrorInfo (reason, domain, metadata) and, when a field is
// at fault, a BadRequest naming it.
google::rpc::Status status_of(const ServiceError& error);

}  // namespace foxgeese::service
