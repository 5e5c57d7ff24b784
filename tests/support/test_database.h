// The tests' PostgreSQL: one throwaway cluster per ctest run, started by the
// throwaway_pg_start fixture and stopped by throwaway_pg_stop. Tests that use
// it are registered with foxgeese_add_pg_test() (tests/support/CMakeLists.txt).
#pragma once

#include <string>

namespace foxgeese::test {

// The URL of the cluster's "foxgeese" database. Throws when the cluster is not
// there (the binary was run outside ctest): a database test never skips.
std::string test_database_url();

// A new, empty database on the same cluster, named after `prefix` plus a
// unique suffix; returns its URL. For tests that need a database of their own
// (migrations, ...).
std::string create_scratch_database(const std::string& prefix);

}  // namespace foxgeese::test
