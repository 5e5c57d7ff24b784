// The one exception the storage layer throws for a database that does not
// do what was asked in time, in words the service maps to statuses without
// knowing libpqxx. Errors that mean a bug (a constraint violation, bad SQL)
// stay libpqxx's own.
#pragma once

#include <stdexcept>
#include <string>

namespace foxgeese::storage {

// What a failed write call may have left behind.
enum class WriteOutcome {
    kNotApplied,  // nothing was written: the call can be retried as new
    kUnknown,     // the write may have committed: retry with the same request_id
};

class DatabaseFailure : public std::runtime_error {
  public:
    enum class Kind {
        kBusy,            // no pooled connection came free in time
        kUnavailable,     // the database cannot be reached or refused the work
        kTimedOut,        // the database took longer than the pool's query timeout
        kDeadlinePassed,  // the caller's deadline passed first
        kAbandoned,       // the caller went away before the write was sent
        kShuttingDown,    // the server is stopping and takes no more database work
    };

    DatabaseFailure(Kind kind, WriteOutcome outcome, const std::string& what)
        : std::runtime_error(what), kind_(kind), outcome_(outcome) {}

    Kind kind() const { return kind_; }
    // Meaningful for writes; reads change nothing either way.
    WriteOutcome outcome() const { return outcome_; }

  private:
    Kind kind_;
    WriteOutcome outcome_;
};

}  // namespace foxgeese::storage
