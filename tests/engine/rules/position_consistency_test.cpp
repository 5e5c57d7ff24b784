// Position::is_consistent(), the invariant make() and unmake() assert in debug
// builds: it holds along random games and fails for each kind of corruption.
// With assertions on (no NDEBUG) the corrupting step itself dies.
#include <gtest/gtest.h>

#include "engine/rules/position.h"
#include "random_playout.h"
#include "test_positions.h"
#include "variant_configs.h"

namespace foxgeese {
namespace {

using testing::variant_named;

class PositionConsistency : public ::testing::TestWithParam<const Variant*> {};

TEST_P(PositionConsistency, HoldsAlongRandomGames) {
    for (const Position& pos : testing::random_playout_positions(*GetParam(), 3, 500)) {
        EXPECT_TRUE(pos.is_consistent());
    }
}

INSTANTIATE_TEST_SUITE_P(AllConfigurations, PositionConsistency,
                         ::testing::ValuesIn(Variant::all()),
                         [](const auto& p) { return testing::config_name(*p.param); });

int point(const Variant& v, const char* name) {
    return v.board().point_at(name[0] - 'a', name[1] - '1');
}

// Parts that do not fit together: the constructor asserts (debug) or the
// position says it is inconsistent (release).
void expect_rejected(const Variant& v, Bitboard foxes, Bitboard geese, Side side, int quiet,
                     int ply) {
#ifdef NDEBUG
    EXPECT_FALSE(Position(v, foxes, geese, side, quiet, ply).is_consistent());
#else
    EXPECT_DEATH(Position(v, foxes, geese, side, quiet, ply), "is_consistent");
#endif
}

TEST(PositionConsistencyDeathTest, EachKindOfCorruptionIsCaught) {
    const Variant& standard = variant_named("standard");
    const Variant& two_foxes = variant_named("two_foxes");
    const Bitboard d4 = bit(point(standard, "d4"));
    const Bitboard geese = standard.start_geese();
    // A fox and a goose on one point.
    expect_rejected(standard, bit(point(standard, "d3")), geese, Side::kFox, 0, 0);
    // A goose off the board (cross33 has 33 points).
    expect_rejected(standard, d4, geese | bit(40), Side::kFox, 0, 0);
    // Two foxes in a one-fox variant, one fox in two_foxes.
    expect_rejected(standard, d4 | bit(point(standard, "d6")), geese, Side::kFox, 0, 0);
    expect_rejected(two_foxes, bit(point(two_foxes, "c7")), two_foxes.start_geese(), Side::kFox, 0,
                    0);
    // More geese than the variant starts with.
    expect_rejected(standard, d4, geese | bit(point(standard, "a4")), Side::kFox, 0, 0);
    // Counters out of range: negative, or more quiet plies than the game can have had.
    expect_rejected(standard, d4, geese, Side::kFox, -1, 0);
    expect_rejected(standard, d4, geese, Side::kFox, 0, -1);
    expect_rejected(standard, d4, geese, Side::kFox, 102, 1);
}

TEST(PositionConsistencyDeathTest, MakeCatchesTheMoveThatCorruptsThePosition) {
    const Variant& standard = variant_named("standard");
    Position pos(standard);
    // make() trusts its caller; a step onto a goose breaks the position.
    const Move onto_goose = Move::step(point(standard, "d4"), point(standard, "d3"));
    UndoInfo undo;
#ifdef NDEBUG
    pos.make(onto_goose, undo);
    EXPECT_FALSE(pos.is_consistent());
#else
    EXPECT_DEATH(pos.make(onto_goose, undo), "is_consistent");
#endif
}

}  // namespace
}  // namespace foxgeese
