// Database failures as API errors, mapped in one place for every RPC and
// watch stream: UNAVAILABLE or DEADLINE_EXCEEDED with a stable reason, and
// ErrorInfo metadata "write_outcome" (NOT_APPLIED or UNKNOWN) so that a
// client knows whether to retry as new or with the same request_id.
#pragma once

#include <spdlog/spdlog.h>

#include <exception>

#include "service/core/service_error.h"
#include "storage/database_failure.h"

namespace foxgeese::service {

ServiceError database_error(const char* rpc, const storage::DatabaseFailure& failure);

// Runs a storage-touching body; a DatabaseFailure becomes its API error and
// anything else (a bug) INTERNAL, logged.
template <class T, class Body>
ServiceResult<T> guarded(const char* rpc, Body&& body) {
    try {
        return body();
    } catch (const storage::DatabaseFailure& e) {
        return database_error(rpc, e);
    } catch (const std::exception& e) {
        spdlog::error("{}: {}", rpc, e.what());
        return make_error(StatusCode::kInternal, "INTERNAL", "internal error");
    }
}

}  // namespace foxgeese::service
