#include "service/preview/board_picture.h"

#include <array>
#include <string>

#include "service/preview/stroke_font.h"

namespace foxgeese::preview {
namespace {

// The client's geometry (web/src/board.ts).
constexpr double kCell = 60;
constexpr double kMargin = 40;

// The client's colours (web/site/style.css).
constexpr Rgb kBoard{0xe6, 0xc9, 0x8f};
constexpr Rgb kLine{0x6b, 0x4a, 0x2b};
constexpr Rgb kCoordinate{0x7a, 0x5a, 0x36};
constexpr Rgb kPen{0xc9, 0x8f, 0x5a};
constexpr double kPenAlpha = 0x55 / 255.0;
constexpr Rgb kFox{0xc8, 0x50, 0x1e};
constexpr Rgb kGoose{0xfb, 0xfb, 0xf7};
constexpr Rgb kPieceEdge{0x3a, 0x2a, 0x1a};
constexpr Rgb kWhite{0xff, 0xff, 0xff};
constexpr Rgb kAccent{0x2d, 0x6c, 0xdf};  // the last move's origin
constexpr Rgb kLastTo{0xf2, 0xb7, 0x05};  // the ring of the piece that moved last
constexpr Rgb kBad{0xb0, 0x00, 0x20};     // a captured goose's cross

constexpr Rgb blend(Rgb over, double alpha, Rgb under) {
    auto mix = [alpha](std::uint8_t a, std::uint8_t b) {
        return static_cast<std::uint8_t>(a * alpha + b * (1 - alpha) + 0.5);
    };
    return Rgb{mix(over.r, under.r), mix(over.g, under.g), mix(over.b, under.b)};
}

constexpr std::array kColors{kBoard,  kLine,   kCoordinate, blend(kPen, kPenAlpha, kBoard),
                             kFox,    kGoose,  kPieceEdge,  kWhite,
                             kAccent, kLastTo, kBad};

Shape circle(double x, double y, double r) {
    Shape s;
    s.kind = Shape::Kind::kCircle;
    s.x = x;
    s.y = y;
    s.r = r;
    return s;
}

Shape lines(std::vector<std::pair<double, double>> points, Rgb color, double width) {
    Shape s;
    s.kind = Shape::Kind::kLines;
    s.points = std::move(points);
    s.stroke = Paint{color};
    s.stroke_width = width;
    return s;
}

Shape rect(double x, double y, double w, double h, Paint fill) {
    Shape s;
    s.kind = Shape::Kind::kRect;
    s.x = x;
    s.y = y;
    s.w = w;
    s.h = h;
    s.fill = fill;
    return s;
}

}  // namespace

std::span<const Rgb> board_colors() {
    return kColors;
}

namespace {

// Where a point is drawn.
struct Layout {
    const Board& board;
    double x(int point) const { return kMargin + kCell * board.file_of(point); }
    double y(int point) const {
        return kMargin + kCell * (board.ranks() - 1 - board.rank_of(point));
    }
};

Picture empty_picture(const Board& board) {
    Picture picture;
    picture.width = kMargin * 2 + kCell * (board.files() - 1);
    picture.height = kMargin * 2 + kCell * (board.ranks() - 1);
    return picture;
}

}  // namespace

Picture board_background(const Variant& variant) {
    const Board& board = variant.board();
    const Layout at{board};
    Picture picture = empty_picture(board);
    picture.shapes.push_back(rect(0, 0, picture.width, picture.height, Paint{kBoard}));
    for (int file = 0; file < board.files(); ++file) {
        add_text(picture, std::string(1, static_cast<char>('a' + file)), kMargin + kCell * file,
                 picture.height - 10, 9.5, Paint{kCoordinate}, 1.3);
    }
    for (int rank = 0; rank < board.ranks(); ++rank) {
        add_text(picture, std::to_string(rank + 1), 14,
                 kMargin + kCell * (board.ranks() - 1 - rank) + 5, 9.5, Paint{kCoordinate}, 1.3);
    }
    for (Bitboard pen = variant.pen(); pen;) {
        const int p = pop_lowest(pen);
        picture.shapes.push_back(
            rect(at.x(p) - kCell / 2, at.y(p) - kCell / 2, kCell, kCell, Paint{kPen, kPenAlpha}));
    }
    // Each link once, from its lower end.
    for (int a = 0; a < board.point_count(); ++a) {
        for (Bitboard to = board.links_from(a); to;) {
            const int b = pop_lowest(to);
            if (b < a) continue;
            const bool diagonal =
                board.file_of(a) != board.file_of(b) && board.rank_of(a) != board.rank_of(b);
            picture.shapes.push_back(
                lines({{at.x(a), at.y(a)}, {at.x(b), at.y(b)}}, kLine, diagonal ? 1.5 : 2.5));
        }
    }
    for (int p = 0; p < board.point_count(); ++p) {
        Shape spot = circle(at.x(p), at.y(p), 5);
        spot.fill = Paint{kLine};
        picture.shapes.push_back(spot);
    }
    return picture;
}

Picture board_pieces(const Position& position, const std::optional<LastMove>& last) {
    const Board& board = position.board();
    const Layout at{board};
    Picture picture = empty_picture(board);
    if (last) {
        Shape spot = circle(at.x(last->from), at.y(last->from), 7);
        spot.fill = Paint{kAccent};
        picture.shapes.push_back(spot);
    }
    for (Bitboard pieces = position.occupied(); pieces;) {
        const int p = pop_lowest(pieces);
        const bool fox = has(position.foxes(), p);
        Shape piece = circle(at.x(p), at.y(p), kCell * 0.27);
        piece.fill = Paint{fox ? kFox : kGoose};
        const bool moved = last && last->to == p;
        piece.stroke = Paint{moved ? kLastTo : kPieceEdge};
        piece.stroke_width = moved ? 4 : 2;
        picture.shapes.push_back(piece);
        if (fox) add_text(picture, "F", at.x(p), at.y(p) + 6, 12, Paint{kWhite}, 2.6);
    }
    for (Bitboard captured = last ? last->captured : 0; captured;) {
        const int p = pop_lowest(captured);
        const double x = at.x(p);
        const double y = at.y(p);
        picture.shapes.push_back(lines({{x - 9, y - 9}, {x + 9, y + 9}}, kBad, 3));
        picture.shapes.push_back(lines({{x + 9, y - 9}, {x - 9, y + 9}}, kBad, 3));
    }
    return picture;
}

Picture board_picture(const Position& position, const std::optional<LastMove>& last) {
    Picture picture = board_background(position.variant());
    Picture pieces = board_pieces(position, last);
    picture.shapes.insert(picture.shapes.end(), std::make_move_iterator(pieces.shapes.begin()),
                          std::make_move_iterator(pieces.shapes.end()));
    return picture;
}

}  // namespace foxgeese::preview
