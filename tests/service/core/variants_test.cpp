// ListVariants over gRPC: the three variants with their boards, options,
// start positions and texts, as a frontend draws and explains them.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using ListVariants = MemoryServiceTest;

int diagonal_links(const v1::Board& board) {
    return static_cast<int>(std::count_if(board.links().begin(), board.links().end(),
                                          [](const v1::Link& l) { return l.diagonal(); }));
}

std::set<std::string> point_names(const v1::Board& board) {
    std::set<std::string> names;
    for (const v1::Point& p : board.points())
        names.insert(p.name());
    return names;
}

TEST_F(ListVariants, ListsTheThreeVariantsInTheDocumentedOrder) {
    const Reply<v1::ListVariantsResponse> reply = client().list_variants();
    ASSERT_TRUE(IsOk(reply));
    std::vector<std::string> names;
    for (const v1::Variant& v : reply->variants())
        names.push_back(v.name());
    EXPECT_EQ(names, (std::vector<std::string>{"standard", "big_cross", "two_foxes"}));
}

TEST_F(ListVariants, BoardsHaveTheirPointsAndLinks) {
    const Reply<v1::ListVariantsResponse> reply = client().list_variants();
    ASSERT_TRUE(IsOk(reply));
    ASSERT_EQ(reply->variants_size(), 3);
    for (const v1::Variant& v : reply->variants()) {
        SCOPED_TRACE(v.name());
        const v1::Board& board = v.board();
        const bool big = v.name() == "big_cross";
        EXPECT_EQ(board.name(), big ? "cross45" : "cross33");
        EXPECT_EQ(board.files(), big ? 9 : 7);
        EXPECT_EQ(board.ranks(), big ? 9 : 7);
        EXPECT_EQ(board.points_size(), big ? 45 : 33);
        EXPECT_EQ(board.links_size(), big ? 100 : 92);
        EXPECT_EQ(diagonal_links(board), big ? 28 : 40);
        // Every point once; every link between two of them.
        const std::set<std::string> names = point_names(board);
        EXPECT_EQ(names.size(), static_cast<std::size_t>(board.points_size()));
        for (const v1::Link& link : board.links()) {
            EXPECT_TRUE(names.count(link.from()) && names.count(link.to()))
                << link.ShortDebugString();
        }
    }
}

TEST_F(ListVariants, Cross45HasDiagonalsOnlyThroughOddPoints) {
    const Reply<v1::ListVariantsResponse> reply = client().list_variants();
    ASSERT_TRUE(IsOk(reply));
    ASSERT_EQ(reply->variants_size(), 3);
    const v1::Board& board = reply->variants(1).board();
    // e4 and d5 have diagonals, e5 and d4 do not (RULES.md).
    auto diagonal_from = [&](const std::string& point) {
        return std::any_of(board.links().begin(), board.links().end(), [&](const v1::Link& l) {
            return l.diagonal() && (l.from() == point || l.to() == point);
        });
    };
    EXPECT_TRUE(diagonal_from("e4"));
    EXPECT_TRUE(diagonal_from("d5"));
    EXPECT_FALSE(diagonal_from("e5"));
    EXPECT_FALSE(diagonal_from("d4"));
}

TEST_F(ListVariants, DescribesPiecesStartsAndWinConditions) {
    const Reply<v1::ListVariantsResponse> reply = client().list_variants();
    ASSERT_TRUE(IsOk(reply));
    ASSERT_EQ(reply->variants_size(), 3);
    const v1::Variant& standard = reply->variants(0);
    const v1::Variant& big_cross = reply->variants(1);
    const v1::Variant& two_foxes = reply->variants(2);

    EXPECT_EQ(standard.start_position(), "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0");
    EXPECT_EQ(big_cross.start_position(), "3/3/1F1/9/9/GGGGGGGGG/GGG/GGG/GGG f 0 0");
    EXPECT_EQ(two_foxes.start_position(), "F1F/3/7/GGGGGGG/GGGGGGG/GGG/GGG f 0 0");

    EXPECT_EQ(standard.fox_count(), 1);
    EXPECT_EQ(big_cross.fox_count(), 1);
    EXPECT_EQ(two_foxes.fox_count(), 2);
    EXPECT_EQ(standard.default_geese_count(), 13);
    EXPECT_EQ(big_cross.default_geese_count(), 18);
    EXPECT_EQ(two_foxes.default_geese_count(), 20);
    EXPECT_EQ(standard.fox_side_wins_below(), 4);
    EXPECT_EQ(big_cross.fox_side_wins_below(), 4);
    EXPECT_EQ(two_foxes.fox_side_wins_below(), 9);
    EXPECT_FALSE(standard.compulsory_capture());
    EXPECT_FALSE(big_cross.compulsory_capture());
    EXPECT_TRUE(two_foxes.compulsory_capture());
    // Standard geese step sideways only with the option.
    EXPECT_FALSE(standard.geese_sideways());
    EXPECT_TRUE(big_cross.geese_sideways());
    EXPECT_TRUE(two_foxes.geese_sideways());
    for (const v1::Variant& v : reply->variants()) {
        EXPECT_EQ(v.first_to_move(), v1::SIDE_FOX) << v.name();
        EXPECT_FALSE(v.display_name().empty()) << v.name();
        EXPECT_FALSE(v.summary().empty()) << v.name();
    }

    EXPECT_TRUE(standard.pen().empty());
    EXPECT_TRUE(big_cross.pen().empty());
    const std::set<std::string> pen(two_foxes.pen().begin(), two_foxes.pen().end());
    EXPECT_EQ(pen, (std::set<std::string>{"c5", "d5", "e5", "c6", "d6", "e6", "c7", "d7", "e7"}));
    EXPECT_EQ(two_foxes.pen_size(), 9);
}

TEST_F(ListVariants, OnlyStandardHasOptionsWithTheirDefaults) {
    const Reply<v1::ListVariantsResponse> reply = client().list_variants();
    ASSERT_TRUE(IsOk(reply));
    ASSERT_EQ(reply->variants_size(), 3);
    const v1::Variant& standard = reply->variants(0);
    ASSERT_EQ(standard.options_size(), 2);
    const v1::VariantOption& geese = standard.options(0);
    EXPECT_EQ(geese.name(), "geese");
    EXPECT_EQ(geese.kind(), v1::OPTION_KIND_INT);
    EXPECT_EQ(std::vector<int>(geese.allowed_values().begin(), geese.allowed_values().end()),
              (std::vector<int>{13, 15, 17}));
    EXPECT_EQ(geese.default_int(), 13);
    EXPECT_FALSE(geese.description().empty());
    const v1::VariantOption& sideways = standard.options(1);
    EXPECT_EQ(sideways.name(), "geese_sideways");
    EXPECT_EQ(sideways.kind(), v1::OPTION_KIND_BOOL);
    EXPECT_TRUE(sideways.allowed_values().empty());
    EXPECT_FALSE(sideways.default_bool());
    EXPECT_FALSE(sideways.description().empty());

    EXPECT_EQ(reply->variants(1).options_size(), 0);
    EXPECT_EQ(reply->variants(2).options_size(), 0);
}

TEST_F(ListVariants, LanguageTellsWhichLanguageTheTextsAreIn) {
    const Reply<v1::ListVariantsResponse> english = client().list_variants("");
    ASSERT_TRUE(IsOk(english));
    ASSERT_EQ(english->variants_size(), 3);
    for (const v1::Variant& v : english->variants())
        EXPECT_EQ(v.language(), "en") << v.name();

    // Unsupported languages fall back to English and say so.
    for (const std::string unsupported : {"xx", "de-DE", "klingon"}) {
        const Reply<v1::ListVariantsResponse> reply = client().list_variants(unsupported);
        ASSERT_TRUE(IsOk(reply)) << unsupported;
        ASSERT_EQ(reply->variants_size(), 3);
        for (int i = 0; i < 3; ++i) {
            EXPECT_EQ(reply->variants(i).language(), "en") << unsupported;
            EXPECT_EQ(reply->variants(i).summary(), english->variants(i).summary());
        }
    }

    // A supported language (any case, with a region) is used where texts
    // exist; where they do not, the texts are English and say "en".
    for (const std::string requested : {"pl-PL", "EL", "tr", "nb", "no"}) {
        const Reply<v1::ListVariantsResponse> reply = client().list_variants(requested);
        ASSERT_TRUE(IsOk(reply)) << requested;
        ASSERT_EQ(reply->variants_size(), 3);
        for (int i = 0; i < 3; ++i) {
            const v1::Variant& v = reply->variants(i);
            const v1::Variant& en = english->variants(i);
            const std::set<std::string> supported{"en", "el", "pl", "tr", "nb"};
            EXPECT_TRUE(supported.count(v.language())) << requested << ": " << v.language();
            const bool english_texts =
                v.display_name() == en.display_name() && v.summary() == en.summary();
            EXPECT_EQ(v.language() == "en", english_texts) << requested << " " << v.name();
            // Everything but the texts is the same in every language.
            v1::Variant stripped = v;
            v1::Variant stripped_en = en;
            for (v1::Variant* s : {&stripped, &stripped_en}) {
                s->clear_display_name();
                s->clear_summary();
                s->clear_language();
                for (auto& option : *s->mutable_options())
                    option.clear_description();
            }
            EXPECT_EQ(stripped.SerializeAsString(), stripped_en.SerializeAsString()) << requested;
        }
    }
}

// gRPC metadata accept-language plays the part of the HTTP header; the
// request field, when set, wins.
TEST_F(ListVariants, AcceptLanguageMetadataChoosesTheLanguageWhenTheFieldIsEmpty) {
    auto stub = v1::FoxGeeseService::NewStub(new_channel(server().grpc_port()));
    for (const auto& [field, expected] : {std::pair{"", "nb"}, std::pair{"el", "el"}}) {
        grpc::ClientContext context;
        context.AddMetadata("accept-language", "nb-NO, en;q=0.5");
        v1::ListVariantsRequest request;
        request.set_language(field);
        v1::ListVariantsResponse response;
        ASSERT_TRUE(stub->ListVariants(&context, request, &response).ok());
        ASSERT_EQ(response.variants_size(), 3);
        EXPECT_EQ(response.variants(0).language(), expected);
    }
}

TEST_F(ListVariants, ALongLanguageValueFallsBackInsteadOfFailing) {
    // ListVariants documents no errors: whatever the language, it answers. A
    // browser's Accept-Language list easily runs past 64 characters.
    for (const std::string& language :
         {std::string("fr-CH, fr;q=0.9, de;q=0.8, it;q=0.7, es;q=0.6, pt;q=0.5, en;q=0.4, *;q=0.1"),
          std::string(65, 'x'), std::string(1000, 'e')}) {
        const Reply<v1::ListVariantsResponse> reply = client().list_variants(language);
        ASSERT_TRUE(IsOk(reply)) << language.size() << " characters: " << language.substr(0, 80);
        ASSERT_EQ(reply->variants_size(), 3);
        EXPECT_EQ(reply->variants(0).language(), "en");
    }
}

}  // namespace
}  // namespace foxgeese::test
