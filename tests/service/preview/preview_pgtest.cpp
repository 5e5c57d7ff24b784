// The preview routes end to end, over HTTP on a real server and PostgreSQL:
// PNGs that decode at the documented sizes, the GIF of a 100-ply game with
// its 101 frames, the share page whose og:image loads, ETags that turn a
// second request into 304, clear 4xx errors for bad ids, plies and
// parameters, and the per-address limit.
#include <gtest/gtest.h>

#include <regex>

#include "engine/record/game_record.h"
#include "tests/engine/support/random_record.h"
#include "tests/service/harness/rest_harness.h"
#include "tests/service/preview/image_decoding.h"

namespace foxgeese::test {
namespace {

class PreviewTest : public RestTest {
  protected:
    HttpReply get_with(const std::string& target, std::map<std::string, std::string> headers) {
        return rest("GET", target, "", Auth::none(), std::move(headers));
    }

    // Plays `plies` moves, each the first legal move of the side to move.
    void play(const SeatedGame& game, int plies) {
        for (int i = 0; i < plies; ++i) {
            const auto current = grpc().get(game.id);
            ASSERT_TRUE(IsOk(current));
            const v1::Game& g = current->game();
            ASSERT_GT(g.legal_moves_size(), 0);
            const std::string& token =
                g.side_to_move() == v1::SIDE_FOX ? game.fox_token : game.geese_token;
            ASSERT_TRUE(IsOk(grpc().move(game.id, g.legal_moves(0), token)));
        }
    }

    // An imported (finished) game of exactly `plies` plies: the first
    // seeded random game that is not over sooner, cut there (big_cross:
    // random games of standard end within a hundred plies).
    std::string imported_game(int plies) {
        const Variant& v = **Variant::find("big_cross", {});
        for (std::uint64_t seed = 1; seed < 5000; ++seed) {
            const GameRecord record = testing::random_game_record(v, seed, plies);
            if (static_cast<int>(record.moves.size()) != plies ||
                record.result != Outcome::kOngoing)
                continue;
            const auto imported = grpc().import_game(format_record(record));
            EXPECT_TRUE(IsOk(imported));
            return imported->game().game_id();
        }
        ADD_FAILURE() << "no seed gives a game of " << plies << " plies";
        return "";
    }
};

std::string meta_content(const std::string& html, const std::string& attribute,
                         const std::string& name) {
    const std::regex tag("<meta " + attribute + "=\"" + name + "\" content=\"([^\"]*)\">");
    std::smatch match;
    return std::regex_search(html, match, tag) ? match[1].str() : "";
}

TEST_F(PreviewTest, GameImagePngDecodesAtTheDocumentedSizes) {
    const SeatedGame game = start_game();
    play(game, 3);
    const std::string base = "/v1/games/" + game.id + "/image.png";
    for (const auto& [query, width] :
         std::vector<std::pair<std::string, int>>{{"", 480},
                                                  {"?size=small", 240},
                                                  {"?size=medium", 480},
                                                  {"?size=large", 960},
                                                  {"?size=240", 240},
                                                  {"?size=960&ply=2", 960}}) {
        SCOPED_TRACE(query);
        const HttpReply reply = get(base + query);
        ASSERT_EQ(reply.status, 200) << reply.body;
        EXPECT_EQ(reply.header("content-type"), "image/png");
        EXPECT_EQ(reply.header("x-content-type-options"), "nosniff");
        const auto png = decode_png(reply.body);
        ASSERT_TRUE(png.has_value());
        EXPECT_EQ(png->width, width);
        EXPECT_EQ(png->height, width);
    }
    // The latest position of a game in progress may change: cached briefly;
    // a ply's position never does.
    EXPECT_EQ(get(base).header("cache-control"), "public, max-age=10");
    EXPECT_EQ(get(base + "?ply=1").header("cache-control"), "public, max-age=31536000, immutable");
}

TEST_F(PreviewTest, SvgShowsTheLatestOrTheAskedPlyWithItsLastMove) {
    const SeatedGame game = start_game();
    play(game, 2);
    const std::string base = "/v1/games/" + game.id + "/image.svg";
    const HttpReply latest = get(base);
    ASSERT_EQ(latest.status, 200) << latest.body;
    EXPECT_EQ(latest.header("content-type"), "image/svg+xml");
    EXPECT_EQ(latest.header("content-security-policy"), "default-src 'none'");
    EXPECT_EQ(latest.body.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"480\"", 0), 0u);
    EXPECT_NE(latest.body.find("stroke=\"#f2b705\""), std::string::npos);  // the last move
    EXPECT_EQ(get(base + "?ply=2").body, latest.body);
    // The start: no last move.
    const HttpReply start = get(base + "?ply=0");
    ASSERT_EQ(start.status, 200);
    EXPECT_EQ(start.body.find("stroke=\"#f2b705\""), std::string::npos);
    EXPECT_NE(start.body, latest.body);
}

TEST_F(PreviewTest, TheSameRequestWithItsEtagIsNotModified) {
    const SeatedGame game = start_game();
    play(game, 1);
    const std::string gid = imported_game(6);
    for (const std::string& target : std::vector<std::string>{
             "/v1/games/" + game.id + "/image.png", "/v1/games/" + game.id + "/image.svg?ply=1",
             "/v1/games/" + game.id + "/animation.gif", "/g/" + game.id,
             "/v1/games/" + gid + "/animation.gif?size=medium",
             "/v1/positions/image.png?variant=big_cross"}) {
        SCOPED_TRACE(target);
        const HttpReply first = get(target);
        ASSERT_EQ(first.status, 200) << first.body;
        const std::string etag = first.header("etag");
        ASSERT_EQ(etag.front(), '"');
        const HttpReply second = get_with(target, {{"If-None-Match", etag}});
        EXPECT_EQ(second.status, 304);
        EXPECT_EQ(second.header("etag"), etag);
        EXPECT_EQ(second.header("cache-control"), first.header("cache-control"));
        EXPECT_TRUE(second.body.empty());
        // Another tag: the file again.
        EXPECT_EQ(get_with(target, {{"If-None-Match", "\"stale\""}}).body, first.body);
    }
    // A move changes the latest position: the old tag no longer matches.
    const std::string target = "/v1/games/" + game.id + "/image.png";
    const std::string before = get(target).header("etag");
    play(game, 1);
    const HttpReply after = get_with(target, {{"If-None-Match", before}});
    EXPECT_EQ(after.status, 200);
    EXPECT_NE(after.header("etag"), before);
}

TEST_F(PreviewTest, TheAnimationOfA100PlyGameHas101Frames) {
    const std::string id = imported_game(100);
    const HttpReply reply = get("/v1/games/" + id + "/animation.gif");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(reply.header("content-type"), "image/gif");
    // Finished (imported games are): it never changes.
    EXPECT_EQ(reply.header("cache-control"), "public, max-age=31536000, immutable");
    const auto gif = decode_gif(reply.body);
    ASSERT_TRUE(gif.has_value());
    EXPECT_EQ(gif->frames, 101);
    EXPECT_EQ(gif->width, 240);
    EXPECT_EQ(gif->height, 240);
    EXPECT_TRUE(gif->loops);
    EXPECT_EQ(gif->delays_cs.back(), 400);  // the pause at the end
    EXPECT_LT(reply.body.size(), 200u * 1024);

    const auto medium = decode_gif(get("/v1/games/" + id + "/animation.gif?size=medium").body);
    ASSERT_TRUE(medium.has_value());
    EXPECT_EQ(medium->width, 480);
    EXPECT_EQ(medium->frames, 101);
}

TEST_F(PreviewTest, TheAnimationOfAGameInProgressIsCachedBriefly) {
    const SeatedGame game = start_game();
    const HttpReply none = get("/v1/games/" + game.id + "/animation.gif");
    ASSERT_EQ(none.status, 200) << none.body;
    EXPECT_EQ(decode_gif(none.body)->frames, 1);  // the start alone
    play(game, 4);
    const HttpReply reply = get("/v1/games/" + game.id + "/animation.gif");
    ASSERT_EQ(reply.status, 200);
    EXPECT_EQ(reply.header("cache-control"), "public, max-age=10");
    EXPECT_EQ(decode_gif(reply.body)->frames, 5);
}

TEST_F(PreviewTest, TheSharePageHasCardTagsAndAnImageThatLoads) {
    const SeatedGame game = start_game();
    play(game, 3);
    const HttpReply page =
        get_with("/g/" + game.id + "?utm_source=chat", {{"Host", "play.example:8080"}});
    ASSERT_EQ(page.status, 200) << page.body;
    EXPECT_EQ(page.header("content-type"), "text/html; charset=utf-8");
    EXPECT_NE(page.header("content-security-policy").find("script-src 'sha256-"),
              std::string::npos);
    EXPECT_EQ(meta_content(page.body, "property", "og:title"), "Fox and Geese: in progress");
    EXPECT_EQ(meta_content(page.body, "property", "og:description")
                  .rfind("The geese to move (ply 3).", 0),
              0u);
    EXPECT_EQ(meta_content(page.body, "name", "twitter:card"), "summary");
    const std::string image = meta_content(page.body, "property", "og:image");
    const std::string origin = "http://play.example:8080";
    ASSERT_EQ(image.rfind(origin, 0), 0u) << image;
    EXPECT_EQ(meta_content(page.body, "name", "twitter:image"), image);
    EXPECT_EQ(meta_content(page.body, "property", "og:url"), origin + "/g/" + game.id);
    // It opens the web client's game page.
    EXPECT_NE(page.body.find("<a href=\"/#game=" + game.id + "\">"), std::string::npos);

    // The image, fetched where the card says it is.
    const std::string path =
        std::regex_replace(image.substr(origin.size()), std::regex("&amp;"), "&");
    const HttpReply png = get(path);
    ASSERT_EQ(png.status, 200) << path << " " << png.body;
    EXPECT_EQ(png.header("content-type"), "image/png");
    const auto decoded = decode_png(png.body);
    ASSERT_TRUE(decoded.has_value());
    EXPECT_EQ(decoded->width, 960);

    // A finished game's description gives the result.
    ASSERT_TRUE(IsOk(grpc().resign(game.id, game.fox_token)));
    const HttpReply finished = get("/g/" + game.id);
    EXPECT_EQ(meta_content(finished.body, "property", "og:title"), "Fox and Geese: finished");
    EXPECT_EQ(meta_content(finished.body, "property", "og:description")
                  .rfind("The geese win (resignation) after 3 plies.", 0),
              0u);
}

TEST_F(PreviewTest, BadIdsPliesAndParametersAreClearClientErrors) {
    const SeatedGame game = start_game();
    play(game, 2);
    const std::string unknown = random_request_id();
    for (const std::string suffix : {"/image.png", "/image.svg", "/animation.gif"}) {
        SCOPED_TRACE(suffix);
        EXPECT_TRUE(IsRestError(get("/v1/games/not-a-game" + suffix), 400,
                                grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
        EXPECT_EQ(rest_bad_field(get("/v1/games/not-a-game" + suffix)), "game_id");
        EXPECT_TRUE(IsRestError(get("/v1/games/" + unknown + suffix), 404,
                                grpc::StatusCode::NOT_FOUND, "GAME_NOT_FOUND"));
        EXPECT_TRUE(IsRestError(get("/v1/games/%zz" + suffix), 400,
                                grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    }
    EXPECT_TRUE(IsRestError(get("/g/not-a-game"), 400, grpc::StatusCode::INVALID_ARGUMENT,
                            "INVALID_ARGUMENT"));
    EXPECT_TRUE(
        IsRestError(get("/g/" + unknown), 404, grpc::StatusCode::NOT_FOUND, "GAME_NOT_FOUND"));
    // An unknown game's ply: not found, and no 304 for a made-up tag.
    EXPECT_TRUE(IsRestError(get("/v1/games/" + unknown + "/image.png?ply=1"), 404,
                            grpc::StatusCode::NOT_FOUND, "GAME_NOT_FOUND"));

    const std::string base = "/v1/games/" + game.id + "/image.png";
    for (const std::string query :
         {"?ply=3", "?ply=-1", "?ply=x", "?ply=99999999999", "?ply=", "?ply=1&ply=1"}) {
        SCOPED_TRACE(query);
        const HttpReply reply = get(base + query);
        EXPECT_TRUE(
            IsRestError(reply, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
        EXPECT_EQ(rest_bad_field(reply), "ply");
    }
    EXPECT_NE(rest_status(get(base + "?ply=3")).message().find("plies 0 to 2"), std::string::npos);
    for (const std::string query : {"?size=huge", "?size=100", "?size=%zz", "?colour=red"}) {
        SCOPED_TRACE(query);
        EXPECT_TRUE(IsRestError(get(base + query), 400, grpc::StatusCode::INVALID_ARGUMENT,
                                "INVALID_ARGUMENT"));
    }
    EXPECT_EQ(rest_bad_field(get(base + "?size=huge")), "size");
    // Animations come small or medium.
    EXPECT_EQ(rest_bad_field(get("/v1/games/" + game.id + "/animation.gif?size=large")), "size");
    // GET only.
    EXPECT_TRUE(
        IsRestError(post(base, "{}"), 405, grpc::StatusCode::UNIMPLEMENTED, "METHOD_NOT_ALLOWED"));
    EXPECT_EQ(post(base, "{}").header("allow"), "GET, OPTIONS");
    // Not a preview route: the API's answer.
    EXPECT_EQ(rest_reason(get("/v1/games/" + game.id + "/image.jpg")), "ROUTE_NOT_FOUND");
}

TEST_F(PreviewTest, PositionCodesAreDrawnWithoutAGame) {
    const std::string code = "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0";
    const HttpReply png = get("/v1/positions/image.png?size=small&position=" +
                              std::regex_replace(code, std::regex(" "), "+"));
    ASSERT_EQ(png.status, 200) << png.body;
    const auto decoded = decode_png(png.body);
    ASSERT_TRUE(decoded.has_value());
    EXPECT_EQ(decoded->width, 240);
    // The standard start is the default: the same picture.
    EXPECT_EQ(get("/v1/positions/image.png?size=small").body, png.body);
    // A 9x9 board, and 17 geese with the option.
    EXPECT_EQ(get("/v1/positions/image.svg?variant=big_cross").status, 200);
    EXPECT_EQ(get("/v1/positions/image.svg?geese=17&position=3/3/7/3F3/GGGGGGG/GGGGG2/"
                  "GGGGG%202%20f%200%200")
                  .status,
              400);  // 17 geese but the ranks are wrong
    EXPECT_EQ(get("/v1/positions/image.svg?geese=17").status, 200);

    const HttpReply bad = get("/v1/positions/image.png?position=nonsense");
    EXPECT_TRUE(IsRestError(bad, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_POSITION"));
    EXPECT_EQ(rest_bad_field(bad), "position");
    EXPECT_EQ(rest_bad_field(get("/v1/positions/image.png?variant=chess")), "variant");
    EXPECT_TRUE(IsRestError(get("/v1/positions/image.png?variant=big_cross&geese=15"), 400,
                            grpc::StatusCode::INVALID_ARGUMENT, "INVALID_OPTIONS"));
    EXPECT_TRUE(IsRestError(get("/v1/positions/image.png?geese=14"), 400,
                            grpc::StatusCode::INVALID_ARGUMENT, "INVALID_OPTIONS"));
    EXPECT_EQ(get("/v1/positions/image.gif").status, 404);
}

class PreviewLimitTest : public PreviewTest {
  protected:
    void SetUp() override {
        PreviewTest::SetUp();
        http_options().previews.images_per_address = service::Rate{2, std::chrono::seconds(60), 2};
        http_options().previews.animations_per_address =
            service::Rate{1, std::chrono::seconds(60), 1};
        restart_http();
    }
};

TEST_F(PreviewLimitTest, RefusesAnAddressBeyondItsLimit) {
    const SeatedGame game = start_game();
    const std::string image = "/v1/games/" + game.id + "/image.png";
    EXPECT_EQ(get(image).status, 200);
    EXPECT_EQ(get("/g/" + game.id).status, 200);
    const HttpReply refused = get(image);
    EXPECT_TRUE(IsRestError(refused, 429, grpc::StatusCode::RESOURCE_EXHAUSTED, "RATE_LIMITED"));
    // One more every 30 s.
    EXPECT_EQ(refused.header("retry-after"), "30");
    // Animations have a limit of their own.
    EXPECT_EQ(get("/v1/games/" + game.id + "/animation.gif").status, 200);
    EXPECT_TRUE(IsRestError(get("/v1/games/" + game.id + "/animation.gif"), 429,
                            grpc::StatusCode::RESOURCE_EXHAUSTED, "RATE_LIMITED"));
    // Another address still gets its images.
    EXPECT_EQ(HttpClient(port(), std::chrono::seconds(20), 0, "127.0.0.1", "127.0.0.2")
                  .request("GET", image)
                  .status,
              200);
}

}  // namespace
}  // namespace foxgeese::test
