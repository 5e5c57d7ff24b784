// Runs one database call on a pooled connection within its budget, and turns
// whatever goes wrong into a DatabaseFailure in one place: the caller learns
// whether it was the database, the caller's deadline or the server's own
// bound, and, for a write, whether it may have committed.
#pragma once

#include <exception>
#include <string>
#include <utility>

#include "storage/call_budget.h"
#include "storage/connection_pool.h"
#include "storage/database_failure.h"

namespace foxgeese::storage {

enum class Access { kRead, kWrite };

// The failure for an exception thrown by libpqxx during a call (nullopt-like
// rethrow: errors that are bugs, such as a constraint violation, come back
// as they are).
DatabaseFailure classify_failure(const std::exception& error, ConnectionPool::Verdict verdict,
                                 Access access);
// The failure for a call the watchdog cancelled but that still returned.
DatabaseFailure late_failure(ConnectionPool::Verdict verdict, Access access);
// Whether an exception is a database failure classify_failure() describes.
bool is_database_failure(const std::exception& error);

// Throws kAbandoned / kDeadlinePassed (nothing written) when the caller no
// longer waits, or its deadline comes too soon for a commit; writes call it
// just before they commit.
void require_caller(const CallBudget& budget);

template <class Body>
auto run_database_call(ConnectionPool& pool, const CallBudget& budget, Access access,
                       Body&& body) {
    ConnectionPool::Lease lease = pool.acquire(budget);
    try {
        auto result = body(*lease);
        const auto verdict = lease.verdict();
        // A write whose commit came back after the cancel (a synchronous
        // standby that never answered) is on the primary but unconfirmed.
        if (verdict != ConnectionPool::Verdict::kNone && access == Access::kWrite)
            throw late_failure(verdict, access);
        return result;
    } catch (const DatabaseFailure&) {
        throw;
    } catch (const std::exception& e) {
        if (!is_database_failure(e)) throw;
        lease.discard();
        throw classify_failure(e, lease.verdict(), access);
    }
}

}  // namespace foxgeese::storage
