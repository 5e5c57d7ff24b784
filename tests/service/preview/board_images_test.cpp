// The drawing and the encoders without a server: pictures of positions as
// the web client draws them, PNGs that decode to the asked size with the
// pieces' colours where the pieces are, SVGs with a shape per piece, and
// GIFs whose frames, painted in turn, give the last picture back.
#include "service/preview/board_images.h"

#include <gtest/gtest.h>

#include <random>

#include "engine/rules/movegen.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"
#include "service/preview/gif_animation.h"
#include "service/preview/raster_image.h"
#include "service/preview/stroke_font.h"
#include "service/preview/svg_image.h"
#include "tests/service/preview/image_decoding.h"

namespace foxgeese::test {
namespace {

using preview::ImageFormat;
using preview::LastMove;

const Variant& variant(const char* name) {
    return **Variant::find(name, {});
}

int point(const Board& board, int file, int rank) {
    return board.point_at(file, rank);
}

// Where a point's centre lands in an image `width` wide (the client's
// geometry: 60 between points, a 40 margin).
std::pair<int, int> pixel_of(const Board& board, int p, int width) {
    const double units = 80 + 60.0 * (board.files() - 1);
    const double scale = width / units;
    return {static_cast<int>((40 + 60 * board.file_of(p)) * scale),
            static_cast<int>((40 + 60 * (board.ranks() - 1 - board.rank_of(p))) * scale)};
}

int count_of(const std::string& text, const std::string& needle) {
    int n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
        ++n;
    return n;
}

TEST(BoardImages, PngDecodesAtEachSizeWithThePiecesWhereTheyStand) {
    const Position start(variant("standard"));
    for (const int width : {240, 480, 960}) {
        SCOPED_TRACE(width);
        const auto png =
            decode_png(preview::position_image(start, std::nullopt, ImageFormat::kPng, width));
        ASSERT_TRUE(png.has_value());
        EXPECT_EQ(png->width, width);
        EXPECT_EQ(png->height, width);  // the boards are square
        const Board& board = start.board();
        // A goose's body (left of its centre, clear of any mark), the fox's
        // (below its letter), an empty point's surroundings: the board.
        const auto [gx, gy] = pixel_of(board, point(board, 0, 2), width);
        EXPECT_EQ(png->at(gx - width / 80, gy), 0xfbfbf7u);
        const auto [fx, fy] = pixel_of(board, point(board, 3, 3), width);
        EXPECT_EQ(png->at(fx + width / 60, fy + width / 40), 0xc8501eu);
        const auto [ex, ey] = pixel_of(board, point(board, 3, 5), width);
        EXPECT_EQ(png->at(ex + width / 40, ey + width / 24), 0xe6c98fu);
    }
}

TEST(BoardImages, TheLastMoveIsMarked) {
    const Variant& v = variant("standard");
    const Board& board = v.board();
    // The fox stepped d4-d5; a goose was taken on c3 (a made-up history:
    // the marks only need the points).
    auto position = parse_position_code(v, "3/3/3F3/7/GGGGGGG/GGG/GGG g 1 1");
    ASSERT_TRUE(position.ok()) << position.error().message;
    const LastMove last{point(board, 3, 3), point(board, 3, 4), bit(point(board, 2, 2))};
    const auto png = decode_png(preview::position_image(*position, last, ImageFormat::kPng, 480));
    ASSERT_TRUE(png.has_value());
    // The origin's spot is the accent colour, the piece that moved has the
    // yellow ring, the captured goose's point a red cross.
    const auto [ox, oy] = pixel_of(board, last.from, 480);
    EXPECT_EQ(png->at(ox, oy), 0x2d6cdfu);
    const auto [tx, ty] = pixel_of(board, last.to, 480);
    EXPECT_EQ(png->at(tx + 18, ty), 0xf2b705u);
    const auto [cx, cy] = pixel_of(board, point(board, 2, 2), 480);
    EXPECT_EQ(png->at(cx, cy), 0xb00020u);

    const std::string svg = preview::position_image(*position, last, ImageFormat::kSvg, 480);
    EXPECT_EQ(count_of(svg, "stroke=\"#f2b705\""), 1);
    EXPECT_EQ(count_of(svg, "fill=\"#2d6cdf\""), 1);
    EXPECT_EQ(count_of(svg, "stroke=\"#b00020\""), 2);
}

TEST(BoardImages, SvgHasTheSizeAndAShapePerPieceAndPoint) {
    for (const char* name : {"standard", "big_cross", "two_foxes"}) {
        SCOPED_TRACE(name);
        const Position start(variant(name));
        const std::string svg =
            preview::position_image(start, std::nullopt, ImageFormat::kSvg, 240);
        EXPECT_EQ(
            svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"240\" height=\"240\"", 0),
            0u);
        EXPECT_EQ(count_of(svg, "fill=\"#c8501e\""), start.variant().fox_count());
        EXPECT_EQ(count_of(svg, "fill=\"#fbfbf7\""), start.geese_count());
        // A spot per point, in the line colour.
        EXPECT_EQ(count_of(svg, "<circle") - count(start.occupied()), start.board().point_count());
        // The pen of two_foxes, translucent.
        EXPECT_EQ(count_of(svg, "fill-opacity"), count(start.variant().pen()));
        // Nothing that would run or load: shapes only.
        EXPECT_EQ(svg.find("<script"), std::string::npos);
        EXPECT_EQ(svg.find("href"), std::string::npos);
    }
}

TEST(BoardImages, EveryLabelHasAGlyph) {
    for (const char c : std::string("abcdefghi123456789F")) {
        preview::Picture picture;
        preview::add_text(picture, std::string(1, c), 10, 10, 10, preview::Paint{}, 1);
        EXPECT_FALSE(picture.shapes.empty()) << c;
        for (const auto& shape : picture.shapes) {
            for (const auto& [x, y] : shape.points) {
                // Within its box: 10 tall, 6 wide, centred on x = 10, with
                // room for g's descender.
                EXPECT_GE(x, 6.5) << c;
                EXPECT_LE(x, 13.5) << c;
                EXPECT_GE(y, -0.5) << c;
                EXPECT_LE(y, 12.5) << c;
            }
        }
    }
}

TEST(GifAnimation, ThePaletteKeepsEveryBoardColourExactly) {
    const preview::GifPalette& palette = preview::GifPalette::board();
    EXPECT_LE(palette.colors().size(), 256u);
    for (const preview::Rgb c : preview::board_colors()) {
        const std::uint32_t rgb = (std::uint32_t{c.r} << 16) | (std::uint32_t{c.g} << 8) | c.b;
        const preview::Rgb mapped = palette.colors()[palette.nearest(rgb)];
        // The table works on 5 bits a channel: the nearest entry, not
        // always the colour itself, but never far from it.
        EXPECT_LE(std::abs(mapped.r - c.r) + std::abs(mapped.g - c.g) + std::abs(mapped.b - c.b),
                  24);
    }
}

// Frames of a random game: the animation has one per position, the delays
// of the documentation, it loops, the frames after the first store only
// what changed, and painting them in turn gives the last picture.
TEST(GifAnimation, FramesPaintedInTurnGiveTheLastPicture) {
    const Variant& v = variant("standard");
    std::vector<preview::Frame> frames;
    Position position(v);
    frames.push_back({position, std::nullopt});
    const int plies = 12;
    std::mt19937 rng(7);
    for (int i = 0; i < plies; ++i) {
        MoveList moves;
        generate_legal_moves(position, moves);
        ASSERT_FALSE(moves.empty());
        const Move move = moves[rng() % moves.size()];
        UndoInfo undo;
        position.make(move, undo);
        frames.push_back({position, LastMove{move.from, move.to, move.captured}});
    }
    const auto bytes = preview::game_animation(frames, 240);
    ASSERT_TRUE(bytes.has_value());
    const auto gif = decode_gif(*bytes);
    ASSERT_TRUE(gif.has_value());
    EXPECT_EQ(gif->width, 240);
    EXPECT_EQ(gif->height, 240);
    EXPECT_EQ(gif->frames, plies + 1);
    EXPECT_TRUE(gif->loops);
    EXPECT_EQ(gif->delays_cs.front(), preview::kFirstFrameDelayCs);
    EXPECT_EQ(gif->delays_cs[1], preview::kFrameDelayCs);
    EXPECT_EQ(gif->delays_cs.back(), preview::kLastFrameDelayCs);
    EXPECT_EQ(gif->frame_areas.front(), 240 * 240);
    for (int i = 1; i <= plies; ++i)
        EXPECT_LT(gif->frame_areas[i], 240 * 240 / 2) << i;

    preview::Raster last(240, 240);
    last.draw(preview::board_picture(frames.back().position, frames.back().last));
    int wrong = 0;
    for (int y = 0; y < 240; ++y) {
        for (int x = 0; x < 240; ++x) {
            const std::uint8_t expected = preview::GifPalette::board().nearest(last.row(y)[x]);
            wrong += gif->last_canvas[static_cast<std::size_t>(y) * 240 + x] != expected;
        }
    }
    EXPECT_EQ(wrong, 0);
}

TEST(GifAnimation, StopsWhenAsked) {
    const Position start(variant("standard"));
    const std::vector<preview::Frame> frames(5, preview::Frame{start, std::nullopt});
    int asked = 0;
    EXPECT_FALSE(preview::game_animation(frames, 240, [&] { return ++asked == 3; }).has_value());
    EXPECT_EQ(asked, 3);
}

}  // namespace
}  // namespace foxgeese::test
