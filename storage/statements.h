// Every SQL statement of the store, prepared once per connection under a
// name (the pool's on-connect hook); names show up in PostgreSQL's logs and
// in pg_stat_statements.
#pragma once

#include <pqxx/connection>

namespace foxgeese::storage {

void prepare_statements(pqxx::connection& conn);

}  // namespace foxgeese::storage
