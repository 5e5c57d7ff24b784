// The preview routes' parts that need no server: validators, the cache of
// rendered files, the share page's texts and tags, an animation's frames.
#include "service/preview/previews.h"

#include <gtest/gtest.h>

#include "service/preview/render_cache.h"
#include "service/preview/share_page.h"

namespace foxgeese::test {
namespace {

TEST(PreviewEtags, IfNoneMatchNamesTheTagInAListWeakOrStar) {
    const std::string tag = "\"0123abcd\"";
    EXPECT_TRUE(preview::etag_matches(tag, tag));
    EXPECT_TRUE(preview::etag_matches("\"other\", " + tag, tag));
    EXPECT_TRUE(preview::etag_matches("W/" + tag, tag));
    EXPECT_TRUE(preview::etag_matches("*", tag));
    EXPECT_FALSE(preview::etag_matches("", tag));
    EXPECT_FALSE(preview::etag_matches("\"0123abce\"", tag));
    EXPECT_FALSE(preview::etag_matches("0123abcd", tag));  // unquoted is another tag
}

TEST(RenderCache, KeepsFilesUnderItsBudgetDroppingTheLeastRecentlyUsed) {
    preview::RenderCache cache(1000);
    const auto file = [](char c) { return std::make_shared<const std::string>(200, c); };
    cache.put("a", file('a'));
    cache.put("b", file('b'));
    cache.put("c", file('c'));
    cache.put("d", file('d'));
    ASSERT_NE(cache.find("a"), nullptr);  // now the most recent
    cache.put("e", file('e'));            // 5 x 201 bytes: one must go, and b is the oldest
    EXPECT_EQ(cache.find("b"), nullptr);
    EXPECT_EQ(*cache.find("a"), std::string(200, 'a'));
    EXPECT_NE(cache.find("e"), nullptr);
    EXPECT_LE(cache.bytes(), 1000u);
    EXPECT_EQ(cache.entries(), 4u);
    // Over a quarter of the budget: not kept.
    cache.put("big", std::make_shared<const std::string>(300, 'x'));
    EXPECT_EQ(cache.find("big"), nullptr);
}

v1::Game game_in(v1::GameState state) {
    v1::Game game;
    game.set_game_id("0b6f3c1e-6a4e-4c51-9d3a-6f3b2f8f6a2d");
    game.set_variant("standard");
    game.set_state(state);
    game.set_side_to_move(v1::SIDE_GEESE);
    game.set_ply(12);
    game.set_geese_count(11);
    game.set_geese_captured(2);
    game.set_fox_count(1);
    return game;
}

TEST(SharePage, TitleAndDescriptionSayTheVariantTheStateAndWhoMovesOrWon) {
    const v1::Game active = game_in(v1::GAME_STATE_ACTIVE);
    EXPECT_EQ(preview::share_title(active), "Fox and Geese: in progress");
    EXPECT_EQ(preview::share_description(active),
              "The geese to move (ply 12). 11 geese on the board, 2 captured.");
    v1::Game finished = game_in(v1::GAME_STATE_FINISHED);
    finished.set_result(v1::GAME_RESULT_GEESE_WIN);
    finished.set_end_reason(v1::END_REASON_NO_LEGAL_MOVE);
    EXPECT_EQ(preview::share_title(finished), "Fox and Geese: finished");
    EXPECT_EQ(preview::share_description(finished),
              "The geese win (the side to move could not move) after 12 plies. 11 geese on the "
              "board, 2 captured.");
    v1::Game two = game_in(v1::GAME_STATE_WAITING);
    two.set_variant("two_foxes");
    two.set_fox_count(2);
    two.set_side_to_move(v1::SIDE_FOX);
    EXPECT_EQ(preview::share_description(two).rfind("The foxes to move", 0), 0u);
    EXPECT_NE(preview::share_title(two).find("waiting for an opponent"), std::string::npos);
}

TEST(SharePage, HasTheCardTagsWithAbsoluteImageAndEscapesText) {
    const v1::Game game = game_in(v1::GAME_STATE_ACTIVE);
    const std::string image = "/v1/games/" + game.game_id() + "/image.png?ply=12&size=large";
    const std::string in_html = "/v1/games/" + game.game_id() + "/image.png?ply=12&amp;size=large";
    const std::string html = preview::share_page(game, "https://play.example", image, true);
    EXPECT_NE(
        html.find("<meta property=\"og:image\" content=\"https://play.example" + in_html + "\">"),
        std::string::npos)
        << html;
    EXPECT_NE(html.find("<meta property=\"og:title\" content=\"Fox and Geese: in progress\">"),
              std::string::npos);
    EXPECT_NE(html.find("<meta name=\"twitter:card\" content=\"summary\">"), std::string::npos);
    EXPECT_NE(html.find("<a href=\"/#game=" + game.game_id() + "\">"), std::string::npos);
    EXPECT_NE(html.find("<script>"), std::string::npos);
    // The policy lets exactly that script run.
    EXPECT_NE(preview::share_page_policy().find("script-src 'sha256-"), std::string::npos);
    // Without the web client: no script, no link.
    const std::string bare = preview::share_page(game, "", image, false);
    EXPECT_EQ(bare.find("<script"), std::string::npos);
    EXPECT_EQ(bare.find("#game="), std::string::npos);
    EXPECT_NE(bare.find("content=\"" + in_html + "\""), std::string::npos);
    // Text from elsewhere is escaped (a variant name is the server's own,
    // but the page must not trust any of it).
    v1::Game odd = game;
    odd.set_variant("<b>\"x\"&");
    const std::string escaped = preview::share_page(odd, "", image, false);
    EXPECT_EQ(escaped.find("<b>"), std::string::npos);
    EXPECT_NE(escaped.find("&lt;b&gt;&quot;x&quot;&amp;"), std::string::npos);
}

v1::ListMovesResponse moves_of(int plies) {
    v1::ListMovesResponse moves;
    moves.mutable_game()->set_variant("standard");
    moves.set_start_position("3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0");
    // The fox walks d4-d5 and back; the geese shuffle a goose sideways is
    // not legal, so the positions are made up, which frames do not check.
    for (int i = 1; i <= plies; ++i) {
        v1::Move* move = moves.add_moves();
        move->set_ply(i);
        const bool up = i % 2 == 1;
        move->set_from(up ? "d4" : "d5");
        move->set_to(up ? "d5" : "d4");
        move->set_position(up ? "3/3/3F3/7/GGGGGGG/GGG/GGG g 0 " + std::to_string(i)
                              : "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 " + std::to_string(i));
    }
    return moves;
}

TEST(AnimationFrames, OnePerPositionAndAtMostTheLastMaxPlies) {
    const auto all = preview::animation_frames(moves_of(5), 2000);
    ASSERT_EQ(all.size(), 6u);
    EXPECT_FALSE(all.front().last.has_value());
    EXPECT_EQ(all.front().position.ply(), 0);
    EXPECT_EQ(all.back().position.ply(), 5);
    ASSERT_TRUE(all.back().last.has_value());

    const auto cut = preview::animation_frames(moves_of(5), 3);
    ASSERT_EQ(cut.size(), 4u);
    // The position three plies before the end, with the move that led there.
    EXPECT_EQ(cut.front().position.ply(), 2);
    EXPECT_TRUE(cut.front().last.has_value());
    EXPECT_EQ(cut.back().position.ply(), 5);
}

}  // namespace
}  // namespace foxgeese::test
