// Schema migrations: numbered SQL files (migrations/NNNN_name.sql) embedded in
// the binary, applied in order and recorded in schema_migrations. Start-up and
// the `migrate` command both call apply_migrations(); a PostgreSQL advisory
// lock makes concurrent runs from many replicas wait for each other, and an
// applied migration is never applied again.
#pragma once

#include <string>
#include <vector>

namespace foxgeese::storage {

struct Migration {
    int version;
    std::string name;
    std::string sql;
};

// Every migration, by increasing version (generated from migrations/).
const std::vector<Migration>& embedded_migrations();

struct MigrationReport {
    std::vector<std::string> applied;  // names applied by this call
    int latest_version = 0;
};

// Applies what is missing. Throws on failure (a failed migration rolls back
// completely), and when an applied migration's recorded name differs from the
// embedded one (the migration files were edited after being applied).
MigrationReport apply_migrations(const std::string& database_url);

// True when every embedded migration is recorded as applied (readiness).
bool migrations_up_to_date(const std::string& database_url);

}  // namespace foxgeese::storage
