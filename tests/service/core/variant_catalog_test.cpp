// The variant catalog served by ListVariants: texts in every language,
// language selection and the board geometry and options of each variant.
#include "service/core/variant_catalog.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/variant.h"
#include "service/core/variant_texts.h"

namespace foxgeese::service {
namespace {

const v1::Variant& variant_named(const v1::ListVariantsResponse& response, std::string_view name) {
    for (const v1::Variant& v : response.variants()) {
        if (v.name() == name) return v;
    }
    ADD_FAILURE() << "no variant " << name;
    static const v1::Variant kEmpty;
    return kEmpty;
}

int count_links(const v1::Board& board, bool diagonal) {
    int n = 0;
    for (const v1::Link& link : board.links())
        n += link.diagonal() == diagonal ? 1 : 0;
    return n;
}

TEST(VariantTexts, EveryVariantHasTextsInEveryLanguage) {
    for (std::string_view variant : Variant::names()) {
        for (std::string_view language : kLanguages) {
            SCOPED_TRACE(std::string(variant) + " / " + std::string(language));
            const VariantTexts* texts = variant_texts(variant, language);
            ASSERT_NE(texts, nullptr);
            EXPECT_FALSE(texts->display_name.empty());
            EXPECT_FALSE(texts->summary.empty());
        }
    }
}

TEST(VariantTexts, EveryLanguageHasOptionTexts) {
    for (std::string_view language : kLanguages) {
        SCOPED_TRACE(std::string(language));
        const OptionTexts* options = option_texts(language);
        ASSERT_NE(options, nullptr);
        EXPECT_FALSE(options->geese.empty());
        EXPECT_FALSE(options->geese_sideways.empty());
    }
}

TEST(VariantTexts, TextsDifferBetweenLanguages) {
    for (std::string_view variant : Variant::names()) {
        const VariantTexts* english = variant_texts(variant, "en");
        ASSERT_NE(english, nullptr);
        for (std::string_view language : kLanguages) {
            if (language == "en") continue;
            SCOPED_TRACE(std::string(variant) + " / " + std::string(language));
            const VariantTexts* texts = variant_texts(variant, language);
            ASSERT_NE(texts, nullptr);
            EXPECT_NE(texts->summary, english->summary);
        }
    }
}

TEST(VariantTexts, UnknownLanguageOrVariantHasNone) {
    EXPECT_EQ(variant_texts("standard", "fr"), nullptr);
    EXPECT_EQ(variant_texts("chess", "en"), nullptr);
    EXPECT_EQ(option_texts("fr"), nullptr);
}

TEST(ListVariants, PolishGivesPolishNames) {
    const v1::ListVariantsResponse response = list_variants("pl");
    ASSERT_EQ(response.variants_size(), 3);
    EXPECT_EQ(response.variants(0).name(), "standard");
    EXPECT_EQ(response.variants(1).name(), "big_cross");
    EXPECT_EQ(response.variants(2).name(), "two_foxes");
    EXPECT_EQ(response.variants(0).display_name(), "Lis i gęsi");
    EXPECT_EQ(response.variants(1).display_name(), "Duży krzyż (Gåsetavl)");
    EXPECT_EQ(response.variants(2).display_name(), "Dwa lisy (Halatafl)");
    for (const v1::Variant& v : response.variants()) {
        SCOPED_TRACE(v.name());
        EXPECT_EQ(v.language(), "pl");
        EXPECT_EQ(v.summary(), variant_texts(v.name(), "pl")->summary);
    }
    const v1::Variant& standard = variant_named(response, "standard");
    ASSERT_EQ(standard.options_size(), 2);
    EXPECT_EQ(standard.options(0).description(), option_texts("pl")->geese);
    EXPECT_EQ(standard.options(1).description(), option_texts("pl")->geese_sideways);
}

TEST(ListVariants, UnsupportedLanguageFallsBackToEnglish) {
    const v1::ListVariantsResponse response = list_variants("fr");
    ASSERT_EQ(response.variants_size(), 3);
    for (const v1::Variant& v : response.variants()) {
        SCOPED_TRACE(v.name());
        EXPECT_EQ(v.language(), "en");
        EXPECT_EQ(v.display_name(), variant_texts(v.name(), "en")->display_name);
    }
    EXPECT_EQ(variant_named(response, "standard").display_name(), "Fox and Geese");
}

TEST(ListVariants, EveryLanguageIsServed) {
    for (std::string_view language : kLanguages) {
        SCOPED_TRACE(std::string(language));
        const v1::ListVariantsResponse response = list_variants(language);
        ASSERT_EQ(response.variants_size(), 3);
        for (const v1::Variant& v : response.variants()) {
            EXPECT_EQ(v.language(), language);
            EXPECT_EQ(v.display_name(), variant_texts(v.name(), language)->display_name);
            for (const v1::VariantOption& option : v.options())
                EXPECT_FALSE(option.description().empty());
        }
    }
}

TEST(ChooseLanguage, AcceptLanguageInputs) {
    EXPECT_EQ(choose_language("pl"), "pl");
    EXPECT_EQ(choose_language("pl-PL"), "pl");
    EXPECT_EQ(choose_language("nb;q=0.9, en;q=0.8"), "nb");
    EXPECT_EQ(choose_language("en;q=0.8, nb;q=0.9"), "nb");
    EXPECT_EQ(choose_language("no"), "nb");
    EXPECT_EQ(choose_language("nn-NO"), "nb");
    EXPECT_EQ(choose_language("fr"), "en");
    EXPECT_EQ(choose_language("fr-FR, de;q=0.9"), "en");
    EXPECT_EQ(choose_language(""), "en");
    EXPECT_EQ(choose_language("EL"), "el");
    EXPECT_EQ(choose_language("tr-TR,tr;q=0.9"), "tr");
    EXPECT_EQ(choose_language("fr, tr;q=0.5"), "tr");
    EXPECT_EQ(choose_language("en"), "en");
}

TEST(ListVariants, AcceptLanguageSetsTheLanguage) {
    EXPECT_EQ(list_variants("pl-PL").variants(0).language(), "pl");
    EXPECT_EQ(list_variants("nb;q=0.9, en;q=0.8").variants(0).language(), "nb");
    EXPECT_EQ(list_variants("no").variants(0).language(), "nb");
    EXPECT_EQ(list_variants("EL").variants(0).language(), "el");
    EXPECT_EQ(list_variants("tr-TR,tr;q=0.9").variants(0).language(), "tr");
    EXPECT_EQ(list_variants("").variants(0).language(), "en");
}

TEST(ListVariants, BoardGeometry) {
    const v1::ListVariantsResponse response = list_variants("en");
    struct Expected {
        std::string_view variant;
        std::string_view board;
        int size;
        int points;
        int orthogonal;
        int diagonal;
    };
    for (const Expected& e : {Expected{"standard", "cross33", 7, 33, 52, 40},
                              Expected{"big_cross", "cross45", 9, 45, 72, 28},
                              Expected{"two_foxes", "cross33", 7, 33, 52, 40}}) {
        SCOPED_TRACE(std::string(e.variant));
        const v1::Board& board = variant_named(response, e.variant).board();
        EXPECT_EQ(board.name(), e.board);
        EXPECT_EQ(board.files(), e.size);
        EXPECT_EQ(board.ranks(), e.size);
        EXPECT_EQ(board.points_size(), e.points);
        EXPECT_EQ(board.links_size(), e.orthogonal + e.diagonal);
        EXPECT_EQ(count_links(board, false), e.orthogonal);
        EXPECT_EQ(count_links(board, true), e.diagonal);
    }
    const v1::Board& cross33 = variant_named(response, "standard").board();
    EXPECT_EQ(cross33.points(0).name(), "c1");
    EXPECT_EQ(cross33.points(0).file(), 2);
    EXPECT_EQ(cross33.points(0).rank(), 0);
    EXPECT_EQ(cross33.points(32).name(), "e7");
}

TEST(ListVariants, PenAndPieces) {
    const v1::ListVariantsResponse response = list_variants("en");
    const v1::Variant& standard = variant_named(response, "standard");
    const v1::Variant& big_cross = variant_named(response, "big_cross");
    const v1::Variant& two_foxes = variant_named(response, "two_foxes");

    const std::vector<std::string> pen(two_foxes.pen().begin(), two_foxes.pen().end());
    EXPECT_EQ(pen,
              (std::vector<std::string>{"c5", "d5", "e5", "c6", "d6", "e6", "c7", "d7", "e7"}));
    EXPECT_TRUE(standard.pen().empty());
    EXPECT_TRUE(big_cross.pen().empty());

    EXPECT_EQ(standard.fox_count(), 1);
    EXPECT_EQ(big_cross.fox_count(), 1);
    EXPECT_EQ(two_foxes.fox_count(), 2);
    EXPECT_EQ(standard.default_geese_count(), 13);
    EXPECT_EQ(big_cross.default_geese_count(), 18);
    EXPECT_EQ(two_foxes.default_geese_count(), 20);
    EXPECT_EQ(standard.start_position(), "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0");
    EXPECT_EQ(big_cross.start_position(), "3/3/1F1/9/9/GGGGGGGGG/GGG/GGG/GGG f 0 0");
    EXPECT_EQ(two_foxes.start_position(), "F1F/3/7/GGGGGGG/GGGGGGG/GGG/GGG f 0 0");
    EXPECT_FALSE(standard.compulsory_capture());
    EXPECT_FALSE(big_cross.compulsory_capture());
    EXPECT_TRUE(two_foxes.compulsory_capture());
    EXPECT_EQ(standard.fox_side_wins_below(), 4);
    EXPECT_EQ(big_cross.fox_side_wins_below(), 4);
    EXPECT_EQ(two_foxes.fox_side_wins_below(), 9);
    EXPECT_FALSE(standard.geese_sideways());
    EXPECT_TRUE(big_cross.geese_sideways());
    EXPECT_TRUE(two_foxes.geese_sideways());
    for (const v1::Variant& v : response.variants())
        EXPECT_EQ(v.first_to_move(), v1::SIDE_FOX);
}

TEST(ListVariants, Options) {
    const v1::ListVariantsResponse response = list_variants("en");
    const v1::Variant& standard = variant_named(response, "standard");
    ASSERT_EQ(standard.options_size(), 2);

    const v1::VariantOption& geese = standard.options(0);
    EXPECT_EQ(geese.name(), "geese");
    EXPECT_EQ(geese.kind(), v1::OPTION_KIND_INT);
    EXPECT_EQ(std::vector<int>(geese.allowed_values().begin(), geese.allowed_values().end()),
              (std::vector<int>{13, 15, 17}));
    EXPECT_EQ(geese.default_int(), 13);
    EXPECT_FALSE(geese.default_bool());

    const v1::VariantOption& sideways = standard.options(1);
    EXPECT_EQ(sideways.name(), "geese_sideways");
    EXPECT_EQ(sideways.kind(), v1::OPTION_KIND_BOOL);
    EXPECT_TRUE(sideways.allowed_values().empty());
    EXPECT_FALSE(sideways.default_bool());
    EXPECT_EQ(sideways.default_int(), 0);

    EXPECT_EQ(variant_named(response, "big_cross").options_size(), 0);
    EXPECT_EQ(variant_named(response, "two_foxes").options_size(), 0);
}

}  // namespace
}  // namespace foxgeese::service
