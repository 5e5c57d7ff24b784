#include "service/core/database_errors.h"

namespace foxgeese::service {

ServiceError database_error(const char* rpc, const storage::DatabaseFailure& failure) {
    using Kind = storage::DatabaseFailure::Kind;
    const bool unknown = failure.outcome() == storage::WriteOutcome::kUnknown;
    const std::string outcome =
        unknown ? "; the change may have been applied: retry with the same request_id (or read "
                  "the game) before trying anything new"
                : "; nothing was written";
    StatusCode code = StatusCode::kUnavailable;
    std::string reason;
    std::string message;
    switch (failure.kind()) {
        case Kind::kBusy:
            reason = "DATABASE_BUSY";
            message = "the database is busy; retry shortly";
            break;
        case Kind::kUnavailable:
            reason = "DATABASE_UNAVAILABLE";
            message = "the database is unreachable; retry shortly";
            break;
        case Kind::kTimedOut:
            reason = "DATABASE_TIMEOUT";
            message = "the database did not answer in time; retry shortly";
            break;
        case Kind::kDeadlinePassed:
            code = StatusCode::kDeadlineExceeded;
            reason = "DEADLINE_EXCEEDED";
            message = "the call's deadline passed before the database answered";
            break;
        case Kind::kAbandoned:
            code = StatusCode::kCancelled;
            reason = "CANCELLED";
            message = "the call was cancelled";
            break;
        case Kind::kShuttingDown:
            reason = "SHUTTING_DOWN";
            message = "this server is shutting down; retry (another replica answers)";
            break;
    }
    // A caller's own deadline or departure says nothing about the server,
    // and a client could flood the log with them: debug. The rest are the
    // database's doing and worth an operator's eye.
    const bool callers_doing =
        failure.kind() == Kind::kDeadlinePassed || failure.kind() == Kind::kAbandoned;
    spdlog::log(callers_doing ? spdlog::level::debug : spdlog::level::warn, "{}: {} ({})", rpc,
                reason, failure.what());
    return make_error(code, reason, message + outcome,
                      {{"write_outcome", unknown ? "UNKNOWN" : "NOT_APPLIED"}});
}

}  // namespace foxgeese::service
