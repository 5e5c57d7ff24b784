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

// The failure for an exception that is_database_failure() accepts. The
// others (a constraint violation, which is a bug, not an outage) are not
// classified: run_database_call below rethrows them as they are.
DatabaseFailure classify_failure(const std::exception& error, ConnectionPool::Verdict verdict,
                                 Access access);
// The failure for a call the watchdog cancelled but that still returned.
DatabaseFailure late_failure(ConnectionPool::Verdict verdict, Access access);
// Whether an exception is a database failure classify_failure() describes.
bool is_database_failure(const std::exception& error);

// Throws kAbandoned / kDeadlinePassed (nothing written) when the caller no
// longer waits, or its deadline comes too soon for a commit. The game
// writes of a request (create, join, import, move, seat actions) call it
// just before their commit (for a single statement, before the statement):
// one committed after its caller gave up leaves the client unsure it applied.
void require_caller(const CallBudget& budget);

template <class Body>
auto run_database_call(ConnectionPool& pool, const CallBudget& budget, Access access, Body&& body) {
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
