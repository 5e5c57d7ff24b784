// A position drawn as the web client draws its board (web/src/board.ts and
// web/site/style.css): the links, the pen, the points, the pieces, the
// coordinates and the last move's marks, as a list of shapes in the
// client's own units (60 between points, a 40 margin). The SVG and raster
// writers turn the same list into their formats, so both look alike.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "engine/rules/bitboard.h"
#include "engine/rules/position.h"

namespace foxgeese::preview {

struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    friend bool operator==(const Rgb&, const Rgb&) = default;
};

struct Paint {
    Rgb color;
    double alpha = 1.0;
};

struct Shape {
    enum class Kind { kRect, kCircle, kLines };
    Kind kind = Kind::kLines;
    // kRect: the corner (x, y) and the size (w, h); kCircle: the centre
    // (x, y) and the radius r; kLines: a polyline through `points`, with
    // round ends and joins.
    double x = 0, y = 0, w = 0, h = 0, r = 0;
    std::vector<std::pair<double, double>> points;
    std::optional<Paint> fill;
    std::optional<Paint> stroke;
    double stroke_width = 0;
};

struct Picture {
    double width = 0;
    double height = 0;
    std::vector<Shape> shapes;
};

// The move that led to the position: where the piece came from and went,
// and the geese it took.
struct LastMove {
    int from = 0;
    int to = 0;
    Bitboard captured = 0;
};

// The position on its variant's board, the last move marked when given:
// board_background() with board_pieces() over it.
Picture board_picture(const Position& position, const std::optional<LastMove>& last);

// The variant's board alone: its background, coordinates, pen, links and
// points, the same in every position (an animation draws it once).
Picture board_background(const Variant& variant);
// What stands on the board: the pieces and the last move's marks.
Picture board_pieces(const Position& position, const std::optional<LastMove>& last);

// Every opaque colour a board picture can show (the pen's translucent fill
// as it looks over the board): what an indexed format's palette starts from.
std::span<const Rgb> board_colors();

}  // namespace foxgeese::preview
