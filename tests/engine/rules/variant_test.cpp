// Variant lookup, options, start positions and the per-variant rule data
// (fox count, win threshold, pen, goose directions).
#include "engine/rules/variant.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "engine/rules/position.h"
#include "engine/rules/position_code.h"

namespace foxgeese {
namespace {

using ::testing::HasSubstr;

VariantOptions options(std::optional<int> geese = std::nullopt,
                       std::optional<bool> sideways = std::nullopt) {
    VariantOptions o;
    o.geese = geese;
    o.geese_sideways = sideways;
    return o;
}

const Variant& get(std::string_view name, VariantOptions given = {}) {
    Result<const Variant*> v = Variant::find(name, given);
    EXPECT_TRUE(v.ok()) << name;
    return **v;
}

Bitboard points(const Board& board, std::initializer_list<std::string_view> names) {
    Bitboard set = 0;
    for (std::string_view name : names) {
        const int point = board.point_at(name[0] - 'a', name[1] - '1');
        EXPECT_NE(point, kNoPoint) << name;
        set |= bit(point);
    }
    return set;
}

int point(const Board& board, std::string_view name) {
    return board.point_at(name[0] - 'a', name[1] - '1');
}

TEST(VariantFind, UnknownNameIsUnknownVariant) {
    for (std::string_view name : {"chess", "", "Standard", "two-foxes", "standard "}) {
        Result<const Variant*> v = Variant::find(name, {});
        ASSERT_FALSE(v.ok()) << "'" << name << "'";
        EXPECT_EQ(v.error().code, ErrorCode::kUnknownVariant);
        EXPECT_THAT(v.error().message, HasSubstr("unknown variant"));
    }
}

TEST(VariantFind, UnknownVariantMessageListsTheKnownOnes) {
    Result<const Variant*> v = Variant::find("chess", {});
    ASSERT_FALSE(v.ok());
    EXPECT_THAT(v.error().message, HasSubstr("chess"));
    for (std::string_view known : {"standard", "big_cross", "two_foxes"})
        EXPECT_THAT(v.error().message, HasSubstr(std::string(known)));
}

TEST(VariantFind, BigCrossAndTwoFoxesRejectEveryOption) {
    // "An option given is an error", even one equal to what the variant does anyway.
    const VariantOptions given[] = {
        options(13),
        options(18),
        options(20),
        options(std::nullopt, true),
        options(std::nullopt, false),
        options(13, false),
    };
    for (std::string_view name : {"big_cross", "two_foxes"}) {
        for (const VariantOptions& options : given) {
            Result<const Variant*> v = Variant::find(name, options);
            ASSERT_FALSE(v.ok()) << name;
            EXPECT_EQ(v.error().code, ErrorCode::kInvalidOptions) << name;
            EXPECT_THAT(v.error().message, HasSubstr("no options"));
        }
    }
}

TEST(VariantFind, BigCrossAndTwoFoxesAcceptNoOptions) {
    EXPECT_EQ(get("big_cross").id(), VariantId::kBigCross);
    EXPECT_EQ(get("two_foxes").id(), VariantId::kTwoFoxes);
}

TEST(VariantFind, StandardAcceptsThirteenFifteenOrSeventeenGeese) {
    for (int geese : {13, 15, 17}) {
        for (bool sideways : {false, true}) {
            const Variant& v = get("standard", options(geese, sideways));
            EXPECT_EQ(v.id(), VariantId::kStandard);
            EXPECT_EQ(v.start_geese_count(), geese);
            EXPECT_EQ(v.geese_option(), geese);
            EXPECT_EQ(v.geese_sideways(), sideways);
        }
    }
}

TEST(VariantFind, StandardRejectsAnyOtherGooseCount) {
    for (int geese : {14, 0, -1, 99, 12, 16, 18, 20}) {
        Result<const Variant*> v = Variant::find("standard", options(geese));
        ASSERT_FALSE(v.ok()) << geese;
        EXPECT_EQ(v.error().code, ErrorCode::kInvalidOptions) << geese;
        EXPECT_THAT(v.error().message, HasSubstr(std::to_string(geese)));
    }
}

TEST(VariantFind, StandardDefaultsToThirteenGeeseWithoutSidewaysMoves) {
    const Variant& v = get("standard");
    EXPECT_EQ(v.start_geese_count(), 13);
    EXPECT_FALSE(v.geese_sideways());
    // Defaults spelled out give the very same configuration object.
    EXPECT_EQ(&v, &get("standard", options(13, false)));
    EXPECT_EQ(&get("standard", options(15)), &get("standard", options(15, false)));
    EXPECT_EQ(&get("standard", options(std::nullopt, true)), &get("standard", options(13, true)));
}

TEST(VariantFind, EveryConfigurationIsListedOnceByAll) {
    const auto all = Variant::all();
    ASSERT_EQ(all.size(), 8u);
    for (std::size_t i = 0; i < all.size(); ++i) {
        for (std::size_t j = i + 1; j < all.size(); ++j)
            EXPECT_NE(all[i], all[j]);
    }
    for (int geese : {13, 15, 17}) {
        for (bool sideways : {false, true}) {
            const Variant* v = &get("standard", options(geese, sideways));
            EXPECT_NE(std::find(all.begin(), all.end(), v), all.end());
        }
    }
    EXPECT_NE(std::find(all.begin(), all.end(), &get("big_cross")), all.end());
    EXPECT_NE(std::find(all.begin(), all.end(), &get("two_foxes")), all.end());
}

TEST(VariantStart, StartPositionsAreTheCodesOfTheRulesTable) {
    struct Case {
        const char* name;
        VariantOptions options;
        const char* code;
    };
    const Case cases[] = {
        {"standard", {}, "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0"},
        {"standard", options(15), "3/3/7/G2F2G/GGGGGGG/GGG/GGG f 0 0"},
        {"standard", options(17), "3/3/G5G/G2F2G/GGGGGGG/GGG/GGG f 0 0"},
        // The sideways option changes the moves, not the start.
        {"standard", options(13, true), "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0"},
        {"standard", options(15, true), "3/3/7/G2F2G/GGGGGGG/GGG/GGG f 0 0"},
        {"standard", options(17, true), "3/3/G5G/G2F2G/GGGGGGG/GGG/GGG f 0 0"},
        {"big_cross", {}, "3/3/1F1/9/9/GGGGGGGGG/GGG/GGG/GGG f 0 0"},
        {"two_foxes", {}, "F1F/3/7/GGGGGGG/GGGGGGG/GGG/GGG f 0 0"},
    };
    for (const Case& c : cases) {
        const Position start(get(c.name, c.options));
        EXPECT_EQ(format_position_code(start), c.code) << c.name;
        EXPECT_EQ(start.side_to_move(), Side::kFox) << c.name;
        EXPECT_EQ(start.quiet_plies(), 0);
        EXPECT_EQ(start.ply(), 0);
    }
}

TEST(VariantStart, StartPiecesStandOnThePointsTheRulesName) {
    const Variant& standard = get("standard");
    const Board& b33 = standard.board();
    EXPECT_EQ(standard.start_foxes(), points(b33, {"d4"}));
    EXPECT_EQ(standard.start_geese(), points(b33, {"c1", "d1", "e1", "c2", "d2", "e2", "a3", "b3",
                                                   "c3", "d3", "e3", "f3", "g3"}));
    EXPECT_EQ(get("standard", options(15)).start_geese(),
              standard.start_geese() | points(b33, {"a4", "g4"}));
    EXPECT_EQ(get("standard", options(17)).start_geese(),
              standard.start_geese() | points(b33, {"a4", "g4", "a5", "g5"}));

    const Variant& two = get("two_foxes");
    EXPECT_EQ(two.start_foxes(), points(b33, {"c7", "e7"}));
    EXPECT_EQ(two.start_geese(),
              standard.start_geese() | points(b33, {"a4", "b4", "c4", "d4", "e4", "f4", "g4"}));

    const Variant& big = get("big_cross");
    const Board& b45 = big.board();
    EXPECT_EQ(big.start_foxes(), points(b45, {"e7"}));
    EXPECT_EQ(big.start_geese(),
              points(b45, {"d1", "e1", "f1", "d2", "e2", "f2", "d3", "e3", "f3", "a4", "b4", "c4",
                           "d4", "e4", "f4", "g4", "h4", "i4"}));
}

TEST(VariantRules, BoardsAreCross33ExceptBigCross) {
    EXPECT_EQ(get("standard").board().id(), BoardId::kCross33);
    EXPECT_EQ(get("two_foxes").board().id(), BoardId::kCross33);
    EXPECT_EQ(get("big_cross").board().id(), BoardId::kCross45);
}

TEST(VariantRules, OnlyTwoFoxesHasTwoFoxes) {
    for (const Variant* v : Variant::all()) {
        const int expected = v->id() == VariantId::kTwoFoxes ? 2 : 1;
        EXPECT_EQ(v->fox_count(), expected) << v->name();
        EXPECT_EQ(count(v->start_foxes()), expected) << v->name();
    }
}

TEST(VariantRules, FoxSideWinsBelowFourGeeseOrNineInTwoFoxes) {
    for (const Variant* v : Variant::all()) {
        EXPECT_EQ(v->fox_side_wins_below(), v->id() == VariantId::kTwoFoxes ? 9 : 4) << v->name();
    }
}

TEST(VariantRules, OnlyTwoFoxesHasThePenC5ToE7) {
    const Variant& two = get("two_foxes");
    EXPECT_EQ(two.pen(),
              points(two.board(), {"c5", "d5", "e5", "c6", "d6", "e6", "c7", "d7", "e7"}));
    for (const Variant* v : Variant::all()) {
        if (v->id() != VariantId::kTwoFoxes) {
            EXPECT_EQ(v->pen(), 0u) << v->name();
        }
    }
}

TEST(VariantRules, OnlyTwoFoxesHasCompulsoryCapture) {
    for (const Variant* v : Variant::all())
        EXPECT_EQ(v->compulsory_capture(), v->id() == VariantId::kTwoFoxes) << v->name();
}

TEST(VariantRules, SidewaysGooseStepsAreAlwaysOnInBigCrossAndTwoFoxes) {
    EXPECT_TRUE(get("big_cross").geese_sideways());
    EXPECT_TRUE(get("two_foxes").geese_sideways());
    EXPECT_FALSE(get("standard").geese_sideways());
    EXPECT_TRUE(get("standard", options(std::nullopt, true)).geese_sideways());
}

TEST(GooseSteps, StandardGooseGoesForwardAndDiagonallyForwardOnly) {
    const Variant& v = get("standard");
    const Board& b = v.board();
    EXPECT_EQ(v.goose_steps(point(b, "d4")), points(b, {"c5", "d5", "e5"}));
    // a3-b4 lies in the a3-b3-a4-b4 square, so it is a link.
    EXPECT_EQ(v.goose_steps(point(b, "a3")), points(b, {"a4", "b4"}));
    // c2-b3 is not a link: b2 does not exist.
    EXPECT_EQ(v.goose_steps(point(b, "c2")), points(b, {"c3", "d3"}));
    EXPECT_EQ(v.goose_steps(point(b, "g5")), 0u);  // nothing above g5
    EXPECT_EQ(v.goose_steps(point(b, "d7")), 0u);  // top rank
}

TEST(GooseSteps, StandardSidewaysOptionAddsLeftAndRight) {
    const Variant& v = get("standard", options(std::nullopt, true));
    const Board& b = v.board();
    EXPECT_EQ(v.goose_steps(point(b, "d4")), points(b, {"c4", "e4", "c5", "d5", "e5"}));
    EXPECT_EQ(v.goose_steps(point(b, "a3")), points(b, {"b3", "a4", "b4"}));
    EXPECT_EQ(v.goose_steps(point(b, "c2")), points(b, {"d2", "c3", "d3"}));
    EXPECT_EQ(v.goose_steps(point(b, "d7")), points(b, {"c7", "e7"}));
}

TEST(GooseSteps, TwoFoxesGeeseAlwaysMoveSideways) {
    const Variant& v = get("two_foxes");
    const Board& b = v.board();
    EXPECT_EQ(v.goose_steps(point(b, "d4")), points(b, {"c4", "e4", "c5", "d5", "e5"}));
    EXPECT_EQ(v.goose_steps(point(b, "g3")), points(b, {"f3", "f4", "g4"}));
    EXPECT_EQ(v.goose_steps(point(b, "e7")), points(b, {"d7"}));
}

TEST(GooseSteps, BigCrossGooseDiagonalsFollowTheBoardParity) {
    const Variant& v = get("big_cross");
    const Board& b = v.board();
    // e5 (5 + 5 even) carries no diagonal; e4 and d5 (odd sums) do.
    EXPECT_EQ(v.goose_steps(point(b, "e5")), points(b, {"d5", "f5", "e6"}));
    EXPECT_EQ(v.goose_steps(point(b, "e4")), points(b, {"d4", "f4", "d5", "e5", "f5"}));
    EXPECT_EQ(v.goose_steps(point(b, "d5")), points(b, {"c5", "e5", "c6", "d6", "e6"}));
    EXPECT_EQ(v.goose_steps(point(b, "a4")), points(b, {"b4", "a5", "b5"}));
    // d3 has diagonals, but d3-c4 is no link: c3 does not exist.
    EXPECT_EQ(v.goose_steps(point(b, "d3")), points(b, {"e3", "d4", "e4"}));
}

TEST(GooseSteps, NoVariantEverStepsAGooseBackwardOrOffALink) {
    for (const Variant* v : Variant::all()) {
        const Board& b = v->board();
        for (int from = 0; from < b.point_count(); ++from) {
            for (Bitboard to = v->goose_steps(from); to;) {
                const int target = pop_lowest(to);
                EXPECT_TRUE(b.linked(from, target)) << v->name();
                EXPECT_GE(b.rank_of(target), b.rank_of(from)) << v->name();
                if (b.rank_of(target) == b.rank_of(from)) {
                    EXPECT_TRUE(v->geese_sideways()) << v->name() << " " << b.point_name(from);
                }
            }
        }
    }
}

}  // namespace
}  // namespace foxgeese
