// perft from every start configuration: the engine against the independent
// reference implementation (depth 6), and against the table of numbers the two
// agreed on (depth 7), so a change that breaks move generation shows here.
#include "engine/rules/perft.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>

#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "reference_rules.h"
#include "variant_configs.h"

namespace foxgeese {
namespace {

using testing::config_name;
using testing::reference_config;

class PerftFromStart : public ::testing::TestWithParam<const Variant*> {};

TEST_P(PerftFromStart, EngineMatchesReferenceToDepth6) {
    const Variant& variant = *GetParam();
    Position pos(variant);
    const std::string code = format_position_code(pos);
    for (int depth = 0; depth <= 6; ++depth) {
        EXPECT_EQ(perft(pos, depth), reference::perft(reference_config(variant), code, depth))
            << config_name(variant) << " depth " << depth;
    }
    EXPECT_EQ(format_position_code(pos), code) << "perft must leave the position as it found it";
}

// Computed by the engine and by the reference implementation, which agree.
const std::map<std::string, std::uint64_t> kDepth7 = {
    {"standard_13", 5860101}, {"standard_13_sideways", 8865199},
    {"standard_15", 5873229}, {"standard_15_sideways", 10229789},
    {"standard_17", 3723347}, {"standard_17_sideways", 9181219},
    {"big_cross", 4282952},   {"two_foxes", 11994338},
};

TEST_P(PerftFromStart, Depth7MatchesTheAgreedTable) {
    const Variant& variant = *GetParam();
    Position pos(variant);
    EXPECT_EQ(perft(pos, 7), kDepth7.at(config_name(variant)));
}

TEST_P(PerftFromStart, DivideSumsToPerftAndCountsEachRootMove) {
    const Variant& variant = *GetParam();
    Position pos(variant);
    std::uint64_t total = 0;
    int moves = 0;
    for (const auto& [move, nodes] : perft_divide(pos, 4)) {
        total += nodes;
        ++moves;
        UndoInfo undo;
        pos.make(move, undo);
        EXPECT_EQ(nodes, perft(pos, 3));
        pos.unmake(move, undo);
    }
    EXPECT_EQ(total, perft(pos, 4));
    EXPECT_EQ(static_cast<std::uint64_t>(moves), perft(pos, 1));
}

INSTANTIATE_TEST_SUITE_P(AllStarts, PerftFromStart, ::testing::ValuesIn(Variant::all()),
                         [](const auto& p) { return config_name(*p.param); });

TEST(Perft, DepthZeroIsOneNode) {
    Position pos(*Variant::find("standard", {}).value());
    EXPECT_EQ(perft(pos, 0), 1u);
}

TEST(Perft, WonPositionHasNoMoves) {
    const Variant& v = *Variant::find("standard", {}).value();
    // Three geese left: the fox side has won, so nothing moves.
    Position pos = parse_position_code(v, "3/3/7/3F3/GGG4/3/3 f 0 10").value();
    EXPECT_EQ(perft(pos, 1), 0u);
    EXPECT_EQ(perft(pos, 3), 0u);
}

TEST(Perft, IgnoresTheFiftyMoveRule) {
    const Variant& v = *Variant::find("standard", {.geese = 13, .geese_sideways = true}).value();
    Position drawn = parse_position_code(v, "3/3/7/3F3/GGGGGGG/GGG/GGG f 100 100").value();
    Position fresh = parse_position_code(v, "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0").value();
    EXPECT_EQ(perft(drawn, 4), perft(fresh, 4));
}

// Middle-game positions, jump-heavy ones among them, checked deeper than the
// random playouts go.
struct MidgameCase {
    const char* variant;
    VariantOptions options;
    const char* code;
};

TEST(Perft, MidgamePositionsMatchReference) {
    const MidgameCase cases[] = {
        {"standard", {}, "3/3/2G4/1G1F1G1/G1G1G1G/1G1/G1G f 5 20"},
        {"standard",
         {.geese = 17, .geese_sideways = true},
         "3/G1G/G1G1G1G/1G1F1G1/G1G1G1G/1G1/GGG f 0 9"},
        {"big_cross", {}, "3/3/1F1/1G1G1G1G1/G1G1G1G1G/GG5GG/G1G/1G1/GG1 f 0 30"},
        {"two_foxes", {}, "F2/1G1/GG1G1GG/1F1G1G1/GGGGGGG/G1G/GGG f 3 12"},
        {"two_foxes", {}, "3/1F1/G1G1G1G/1G1G1G1/G1G1GFG/GGG/GGG f 0 14"},
    };
    for (const MidgameCase& c : cases) {
        const Variant& v = *Variant::find(c.variant, c.options).value();
        Result<Position> parsed = parse_position_code(v, c.code);
        ASSERT_TRUE(parsed) << c.code << ": " << parsed.error().message;
        Position pos = *parsed;
        for (int depth = 1; depth <= 4; ++depth) {
            EXPECT_EQ(perft(pos, depth),
                      reference::perft(testing::reference_config(v), c.code, depth))
                << c.code << " depth " << depth;
        }
    }
}

}  // namespace
}  // namespace foxgeese
