// Every SQL statement of the store, prepared once per connection under a
// name (the pool's on-connect hook), so each is parsed once per connection.
// The name shows in PostgreSQL's statement logs ("execute apply_move: ...")
// and in pg_prepared_statements. pg_stat_statements does not key by it: it
// keys by queryid, a hash of the statement's parsed form, so every
// connection's copy of a statement adds to one row, shown with its SQL text.
#pragma once

#include <pqxx/connection>

#include "storage/named_statement.h"

namespace foxgeese::storage {

void prepare_statements(pqxx::connection& conn);

// The store's big writes, their parameters bound by name: a game's insert,
// its write-back after a change (modify_game), MakeMove's write, and an
// imported move.
const NamedStatement& insert_game_statement();
const NamedStatement& update_game_statement();
const NamedStatement& apply_move_statement();
const NamedStatement& apply_moves_statement();
const NamedStatement& insert_imported_move_statement();

}  // namespace foxgeese::storage
