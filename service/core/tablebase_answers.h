// The tablebase's exact values in the terms of the search and the API: a
// position's best moves as analysis lines (AnalyzePosition, AnalyzeGame),
// whose scores are proved results and whose principal variation is perfect
// play to the end of the game, and a bot's move chosen from the ranked
// moves with the level's share of mistakes.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/rules/move.h"
#include "engine/rules/position.h"
#include "engine/search/analysis.h"
#include "engine/search/score.h"
#include "engine/tablebase/mapped_tablebase.h"
#include "engine/tablebase/tablebase_moves.h"

namespace foxgeese::service {

// An exact value as the search scores it, for the side it belongs to.
Score exact_score(const tablebase::ExactValue& value);

// Every legal move of `pos` ranked by the tablebase (tablebase_moves.h);
// nullopt when it does not answer for the position.
std::optional<std::vector<tablebase::MoveValue>> ranked_moves(
    const tablebase::MappedTablebase& table, const Position& pos);

// The `multipv` best moves of `pos` as analyze() gives them, exactly: each
// line's depth is its plies to the end, and its pv perfect play to the end
// (a few thousand probes) or, without `whole_lines`, its first move alone.
// nullopt when the tablebase does not answer for the position; empty when
// the game is over there.
std::optional<std::vector<AnalysedLine>> tablebase_lines(const tablebase::MappedTablebase& table,
                                                         const Position& pos, int multipv = 1,
                                                         bool whole_lines = true);

// A bot's move from `ranked` (best first, not empty): level 8 plays the
// first; lower levels now and then play a slower win or longer loss (a move
// that keeps the result), and less often one that throws a win away, more
// often the lower the level. `seed` and the position decide, so a game
// replays exactly.
Move tablebase_bot_move(const std::vector<tablebase::MoveValue>& ranked, int level,
                        const Position& pos, std::uint64_t seed);

}  // namespace foxgeese::service
