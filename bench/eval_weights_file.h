// Evaluation weights as text, the one line foxgeese-tune prints and
// foxgeese-match reads back: "{w1, w2, ...}" in EvalFeature order.
#pragma once

#include <optional>
#include <string>

#include "engine/search/evaluation.h"

namespace foxgeese::bench {

std::string format_eval_weights(const EvalWeights& weights);

// Every integer in the file, in order; nothing unless there is one per feature.
std::optional<EvalWeights> read_eval_weights(const std::string& path);

}  // namespace foxgeese::bench
