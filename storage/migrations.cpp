#include "storage/migrations.h"

#include <pqxx/pqxx>
#include <set>
#include <stdexcept>

namespace foxgeese::storage {
namespace {

// An arbitrary constant that names the migration lock ("fgmigr" in ASCII).
constexpr long long kMigrationLockKey = 0x66676d696772LL;

std::set<int> applied_versions(pqxx::transaction_base& tx,
                               std::vector<std::pair<int, std::string>>* rows = nullptr) {
    std::set<int> versions;
    const pqxx::result r = tx.exec("SELECT version, name FROM schema_migrations ORDER BY version");
    for (const auto& row : r) {
        versions.insert(row[0].as<int>());
        if (rows) rows->emplace_back(row[0].as<int>(), row[1].as<std::string>());
    }
    return versions;
}

}  // namespace

MigrationReport apply_migrations(const std::string& database_url) {
    pqxx::connection conn(database_url);
    MigrationReport report;
    {
        pqxx::nontransaction lock(conn);
        // Session-level lock: held across the per-migration transactions below.
        lock.exec("SELECT pg_advisory_lock(" + std::to_string(kMigrationLockKey) + ")");
    }
    try {
        {
            pqxx::work tx(conn);
            tx.exec(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version integer PRIMARY KEY,"
                " name text NOT NULL,"
                " applied_at timestamptz NOT NULL DEFAULT now())");
            tx.commit();
        }
        std::vector<std::pair<int, std::string>> rows;
        std::set<int> done;
        {
            pqxx::read_transaction tx(conn);
            done = applied_versions(tx, &rows);
        }
        for (const auto& [version, name] : rows) {
            for (const Migration& m : embedded_migrations()) {
                if (m.version == version && m.name != name) {
                    throw std::runtime_error("migration " + std::to_string(version) +
                                             " was applied as '" + name + "' but this build has '" +
                                             m.name + "'");
                }
            }
        }
        for (const Migration& m : embedded_migrations()) {
            report.latest_version = m.version;
            if (done.count(m.version)) continue;
            pqxx::work tx(conn);
            tx.exec(m.sql);
            tx.exec_params("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                           m.version, m.name);
            tx.commit();
            report.applied.push_back(m.name);
        }
    } catch (...) {
        pqxx::nontransaction unlock(conn);
        unlock.exec("SELECT pg_advisory_unlock(" + std::to_string(kMigrationLockKey) + ")");
        throw;
    }
    pqxx::nontransaction unlock(conn);
    unlock.exec("SELECT pg_advisory_unlock(" + std::to_string(kMigrationLockKey) + ")");
    return report;
}

bool migrations_up_to_date(const std::string& database_url) {
    pqxx::connection conn(database_url);
    pqxx::read_transaction tx(conn);
    const pqxx::result exists = tx.exec("SELECT to_regclass('schema_migrations') IS NOT NULL");
    if (!exists[0][0].as<bool>()) return false;
    const std::set<int> done = applied_versions(tx);
    for (const Migration& m : embedded_migrations()) {
        if (!done.count(m.version)) return false;
    }
    return true;
}

}  // namespace foxgeese::storage
