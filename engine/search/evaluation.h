// The static evaluation: a weighted sum of features that decide these games,
// from the fox side's point of view, returned for the side to move. The
// weights are per variant and were fitted to self-play results (the method
// and the run are described in evaluation.cpp); the features are exposed so
// that the tuning program computes exactly what the search uses.
#pragma once

#include <array>
#include <string_view>

#include "engine/rules/position.h"
#include "engine/rules/variant.h"
#include "engine/search/score.h"

namespace foxgeese {

// Each feature counts something on the board; the weight says what it is worth
// to the fox side (negative: it helps the geese).
enum EvalFeature : int {
    kConstant,          // always 1: where an even game lies on the variant's scale
    kGeeseLeft,         // geese on the board (the fox side wins below the threshold)
    kGeeseSpareSquare,  // (geese above the threshold)^2: the last captures decide more
    kFoxSteps,          // steps the foxes could make to empty points
    kFoxJumps,          // jumps the foxes could make now: captures pending or threatened
    kFoxRoom,           // empty points the foxes can reach by steps alone
    kFoxCramped,        // how far that room is below 8, squared: a trap closing
    kExposedGeese,      // geese a fox could jump from a point it can reach
    kGooseLinks,        // links joining two geese: the formation holds together
    kGeeseAdvance,      // ranks the geese have advanced in total
    kGeeseOutflanked,   // geese above the lowest rank the foxes reach: they cannot hem them in
    kFoxBehindGeese,    // points the foxes reach below every goose: geese never come back
    kGooseTempo,        // forward steps the geese could still make on an empty board
    kGooseMoves,        // goose moves available: geese without a move lose
    kPenGeese,          // two_foxes: geese in the pen
    kPenDistance,       // two_foxes: goose steps still needed to reach the pen
    kFoxesInPen,        // two_foxes: foxes standing in the pen, blocking it
    kFoxToMove,         // the side to move is the fox side
    kEvalFeatureCount
};

using EvalFeatures = std::array<int, kEvalFeatureCount>;
using EvalWeights = std::array<int, kEvalFeatureCount>;

std::string_view eval_feature_name(EvalFeature feature);

// The features of a position (it must not be won outright).
EvalFeatures eval_features(const Position& pos);

// The tuned weights of a variant (the standard options share one set).
const EvalWeights& default_eval_weights(VariantId variant);

// The evaluation for the side to move, within +-kMaxHeuristic.
Score evaluate(const Position& pos, const EvalWeights& weights);
inline Score evaluate(const Position& pos) {
    return evaluate(pos, default_eval_weights(pos.variant().id()));
}

}  // namespace foxgeese
