// A tablebase of 4 to 6 geese for the tests of what serves one: built once
// per test process into a temporary directory (about a second), mapped, and
// its files removed at once (the mapping keeps them readable until the
// process ends, so nothing is left behind even by a crash).
#pragma once

#include <memory>

#include "engine/tablebase/mapped_tablebase.h"

namespace foxgeese::test {

constexpr int kSmallTablebaseGeese = 6;

std::shared_ptr<const tablebase::MappedTablebase> small_tablebase();

}  // namespace foxgeese::test
