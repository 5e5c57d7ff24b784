#include "storage/database_call.h"

#include <pqxx/except>

namespace foxgeese::storage {
namespace {

using Kind = DatabaseFailure::Kind;
using Verdict = ConnectionPool::Verdict;

// SQLSTATE classes and codes that mean "the database cannot do this now"
// rather than "this request is wrong": connection problems, insufficient
// resources (a full disk), operator intervention (shutdown, cancel), system
// errors, a read-only standby after a failover, and lost races the server
// may retry.
bool transient_sqlstate(const std::string& state) {
    if (state.size() != 5) return false;
    const std::string klass = state.substr(0, 2);
    return klass == "08" || klass == "53" || klass == "57" || klass == "58" || state == "25006" ||
           state == "40001" || state == "40P01" || state == "55P03";
}

Kind kind_of(Verdict verdict) {
    switch (verdict) {
        case Verdict::kDeadlinePassed:
            return Kind::kDeadlinePassed;
        case Verdict::kTimedOut:
            return Kind::kTimedOut;
        case Verdict::kShuttingDown:
            return Kind::kShuttingDown;
        case Verdict::kNone:
            break;
    }
    return Kind::kUnavailable;
}

}  // namespace

bool is_database_failure(const std::exception& error) {
    if (dynamic_cast<const pqxx::broken_connection*>(&error)) return true;
    if (dynamic_cast<const pqxx::in_doubt_error*>(&error)) return true;
    if (const auto* sql = dynamic_cast<const pqxx::sql_error*>(&error))
        return transient_sqlstate(sql->sqlstate());
    return false;
}

DatabaseFailure classify_failure(const std::exception& error, Verdict verdict, Access access) {
    const Kind kind = kind_of(verdict);
    // A statement that failed with an error rolled back (with its
    // transaction); a connection that broke or a commit in doubt may have
    // committed first.
    const bool statement_error = dynamic_cast<const pqxx::sql_error*>(&error) != nullptr;
    const WriteOutcome outcome = access == Access::kRead || statement_error
                                     ? WriteOutcome::kNotApplied
                                     : WriteOutcome::kUnknown;
    return DatabaseFailure(kind, outcome, error.what());
}

DatabaseFailure late_failure(Verdict verdict, Access access) {
    return DatabaseFailure(
        kind_of(verdict),
        access == Access::kWrite ? WriteOutcome::kUnknown : WriteOutcome::kNotApplied,
        "the database confirmed the call only after it was cancelled");
}

// A commit takes a disk flush and, with a synchronous standby, a round trip
// to it: a caller with less time left than this would most likely never see
// its answer, so the commit is not begun.
constexpr auto kCommitMargin = std::chrono::milliseconds(10);

void require_caller(const CallBudget& budget) {
    if (budget.caller_gone()) {
        throw DatabaseFailure(Kind::kAbandoned, WriteOutcome::kNotApplied,
                              "the caller went away before the write");
    }
    if (budget.deadline_passed(kCommitMargin)) {
        throw DatabaseFailure(Kind::kDeadlinePassed, WriteOutcome::kNotApplied,
                              "the caller's deadline passes before the write could commit");
    }
}

}  // namespace foxgeese::storage
