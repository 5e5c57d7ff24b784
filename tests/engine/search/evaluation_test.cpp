// The evaluation: its features count what they say on a hand-made position,
// the score is the fox side's seen from the side to move, and it stays
// heuristic (never mistaken for a proven result).
#include "engine/search/evaluation.h"

#include <gtest/gtest.h>

#include "engine/rules/movegen.h"
#include "random_playout.h"
#include "test_positions.h"
#include "variant_configs.h"

namespace foxgeese {
namespace {

using testing::position_from_code;
using testing::variant_named;

TEST(EvaluationFeatures, CountWhatTheySayOnAHandMadePosition) {
    // Fox d4; geese d5 and c3-e3. The fox can jump d5 (to d6) and d3 (to d2);
    // the six points of ranks 1-2 are behind the geese, out of its reach.
    const Position pos =
        position_from_code(variant_named("standard"), "3/3/3G3/3F3/2GGG2/3/3 f 0 10");
    const EvalFeatures f = eval_features(pos);
    EXPECT_EQ(f[kConstant], 1);
    EXPECT_EQ(f[kGeeseLeft], 4);
    EXPECT_EQ(f[kGeeseSpareSquare], 0);
    EXPECT_EQ(f[kFoxSteps], 4);  // c4 e4 c5 e5
    EXPECT_EQ(f[kFoxJumps], 2);
    EXPECT_EQ(f[kFoxRoom], 22);
    EXPECT_EQ(f[kFoxCramped], 0);
    EXPECT_EQ(f[kExposedGeese], 4);
    EXPECT_EQ(f[kGooseLinks], 2);       // c3-d3 and d3-e3
    EXPECT_EQ(f[kGeeseAdvance], 10);    // ranks 5, 3, 3, 3 counted from 0
    EXPECT_EQ(f[kGeeseOutflanked], 1);  // d5 is above a3, which the fox reaches
    EXPECT_EQ(f[kFoxBehindGeese], 0);
    EXPECT_EQ(f[kGooseTempo], 2 + 4 + 4 + 4);
    EXPECT_EQ(f[kGooseMoves], 9);
    EXPECT_EQ(f[kPenGeese], 0);
    EXPECT_EQ(f[kPenDistance], 0);
    EXPECT_EQ(f[kFoxesInPen], 0);
    EXPECT_EQ(f[kFoxToMove], 1);
}

TEST(EvaluationFeatures, ThePenCountsInTwoFoxes) {
    // Geese fill the pen but for e5; e4 is one step from it, c3 two.
    const Position pos =
        position_from_code(variant_named("two_foxes"), "GGG/GGG/2GG3/4G2/F1G3F/3/3 g 0 30");
    const EvalFeatures f = eval_features(pos);
    EXPECT_EQ(f[kPenGeese], 8);
    EXPECT_EQ(f[kPenDistance], 1 + 2);
    EXPECT_EQ(f[kFoxesInPen], 0);
    EXPECT_EQ(f[kFoxToMove], 0);
}

TEST(EvaluationFeatures, ACrampedFoxHasLittleRoom) {
    // The fox on c7 with c6 and d7 free behind a wall on rank 5 and d6.
    const Position pos =
        position_from_code(variant_named("standard"), "F1G/1GG/GGGGGGG/3G3/7/3/3 f 0 30");
    const EvalFeatures f = eval_features(pos);
    EXPECT_EQ(f[kFoxRoom], 2);
    EXPECT_EQ(f[kFoxCramped], 36);
}

class EvaluationOnPlayouts : public ::testing::TestWithParam<const Variant*> {};

TEST_P(EvaluationOnPlayouts, IsTheFoxSidesScoreForTheSideToMove) {
    const EvalWeights& weights = default_eval_weights(GetParam()->id());
    for (const Position& pos : testing::random_playout_positions(*GetParam(), 5, 300)) {
        if (won_outright(pos)) continue;
        const Position other_side(pos.variant(), pos.foxes(), pos.geese(),
                                  opponent(pos.side_to_move()), pos.quiet_plies(), pos.ply());
        // The same placement scores the same for the fox side but for the move.
        EXPECT_EQ(evaluate(pos) + evaluate(other_side), weights[kFoxToMove]);
        EXPECT_FALSE(is_decisive(evaluate(pos)));
        EXPECT_LE(std::abs(evaluate(pos)), kMaxHeuristic);
    }
}

// exposed_geese against its definition, counted the slow way: a goose that
// some fox could jump from a point of its room onto an empty point.
TEST_P(EvaluationOnPlayouts, ExposedGeeseAreTheGeeseAFoxCouldJumpFromItsRoom) {
    for (const Position& pos : testing::random_playout_positions(*GetParam(), 5, 300)) {
        if (won_outright(pos)) continue;
        const Board& board = pos.board();
        // The room: a flood of steps over empty points from the foxes.
        Bitboard room = pos.foxes();
        for (bool grew = true; grew;) {
            grew = false;
            for (int p = 0; p < board.point_count(); ++p) {
                if (has(room, p) || !has(pos.empty(), p)) continue;
                for (int q = 0; q < board.point_count(); ++q) {
                    if (has(room, q) && board.linked(p, q)) {
                        room |= bit(p);
                        grew = true;
                        break;
                    }
                }
            }
        }
        Bitboard jumpable = 0;
        for (int p = 0; p < board.point_count(); ++p) {
            if (!has(room, p)) continue;
            for (const JumpLine* j = board.jumps_begin(p); j != board.jumps_end(p); ++j) {
                if (has(pos.geese(), j->over) && has(pos.empty(), j->land))
                    jumpable |= bit(j->over);
            }
        }
        const EvalFeatures f = eval_features(pos);
        EXPECT_EQ(f[kExposedGeese], count(jumpable))
            << "foxes " << pos.foxes() << ", geese " << pos.geese();
        EXPECT_EQ(f[kFoxRoom], count(room) - count(pos.foxes()));
    }
}

INSTANTIATE_TEST_SUITE_P(AllConfigurations, EvaluationOnPlayouts,
                         ::testing::ValuesIn(Variant::all()),
                         [](const auto& p) { return testing::config_name(*p.param); });

TEST(Evaluation, TakesTheWeightsItIsGiven) {
    const Position pos(variant_named("standard"));
    EvalWeights only_geese{};
    only_geese[kGeeseLeft] = -10;
    EXPECT_EQ(evaluate(pos, only_geese), -130);  // fox to move: 13 geese against it
    EXPECT_EQ(eval_feature_name(kFoxRoom), "fox_room");
}

}  // namespace
}  // namespace foxgeese
