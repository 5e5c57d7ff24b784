// Building the analysis messages of the API (foxgeese.v1.Score,
// AnalysisLine) from the engine's scores and lines.
#pragma once

#include "engine/rules/board.h"
#include "engine/search/analysis.h"
#include "foxgeese/v1/analysis.pb.h"

namespace foxgeese::service {

// A score for a side: exact "win in N" / "loss in N" plies when decisive,
// else the evaluation's points.
v1::Score score_view(Score score);

// One analysed line of a position on `board`, its moves in notation.
v1::AnalysisLine line_view(const Board& board, const AnalysedLine& line);

}  // namespace foxgeese::service
