// foxgeese tablebase build|stats|probe: the exact values of standard's
// forward-only positions (engine/tablebase), built into a directory of
// layer files, summarised, and read for one position and its moves.
#pragma once

#include "command_line.h"

namespace foxgeese::cli {

void add_tablebase_commands(CommandLine& line);

}  // namespace foxgeese::cli
