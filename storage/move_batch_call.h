// The values of apply_moves (storage/statements.cpp) for a batch of moves:
// a PostgreSQL array per column, and the replies and events as slices of
// one bytea value.
#pragma once

#include <vector>

#include "storage/game_records.h"
#include "storage/named_statement.h"

namespace foxgeese::storage {

// The batch's moves must be of distinct games; the answer's rows name them
// by their place in `writes`, counted from 1.
NamedStatement::Call bind_move_batch(const std::vector<const MoveWrite*>& writes);

}  // namespace foxgeese::storage
