#include "service/preview/stroke_font.h"

#include <cmath>
#include <numbers>

namespace foxgeese::preview {
namespace {

using Point = std::pair<double, double>;
using Stroke = std::vector<Point>;
using Glyph = std::vector<Stroke>;

// A glyph's box: x from 0 to kAdvance, y from 0 (the baseline) up to 1
// (a capital's top); lower-case letters stand 0.7 tall.
constexpr double kAdvance = 0.6;

// Part of an ellipse, from angle `from` to `to` (degrees, anticlockwise
// from the right), as a polyline.
Stroke arc(double cx, double cy, double rx, double ry, double from = 0, double to = 360) {
    Stroke out;
    const int steps = std::max(4, static_cast<int>(std::abs(to - from) / 20));
    for (int i = 0; i <= steps; ++i) {
        const double a = (from + (to - from) * i / steps) * std::numbers::pi / 180;
        out.emplace_back(cx + rx * std::cos(a), cy + ry * std::sin(a));
    }
    return out;
}

Stroke joined(Stroke a, const Stroke& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

Glyph glyph_of(char c) {
    switch (c) {
        case 'a':
            return {arc(0.28, 0.22, 0.24, 0.22),
                    {{0.53, 0.5}, {0.53, 0}},
                    arc(0.3, 0.48, 0.23, 0.2, 160, 0)};
        case 'b':
            return {{{0.06, 1}, {0.06, 0}}, arc(0.31, 0.25, 0.24, 0.25)};
        case 'c':
            return {arc(0.3, 0.25, 0.25, 0.25, 40, 320)};
        case 'd':
            return {arc(0.29, 0.25, 0.24, 0.25), {{0.53, 1}, {0.53, 0}}};
        case 'e':
            return {joined({{0.05, 0.25}, {0.54, 0.25}}, arc(0.3, 0.25, 0.24, 0.25, 0, 320))};
        case 'f':
            return {joined(arc(0.42, 0.82, 0.16, 0.16, 30, 180), {{0.26, 0}}),
                    {{0.06, 0.55}, {0.48, 0.55}}};
        case 'g':
            return {arc(0.28, 0.3, 0.24, 0.25),
                    joined({{0.52, 0.55}, {0.52, -0.05}}, arc(0.3, -0.05, 0.22, 0.2, 0, -160))};
        case 'h':
            return {{{0.06, 1}, {0.06, 0}},
                    joined(arc(0.28, 0.33, 0.22, 0.22, 180, 0), {{0.5, 0}})};
        case 'i':
            return {{{0.25, 0.55}, {0.25, 0}}, {{0.25, 0.82}, {0.25, 0.84}}};
        case '1':
            return {{{0.12, 0.78}, {0.34, 0.96}, {0.34, 0}}};
        case '2':
            return {joined(arc(0.29, 0.7, 0.24, 0.25, 160, -20), {{0.06, 0}, {0.56, 0}})};
        case '3':
            return {joined(arc(0.28, 0.73, 0.22, 0.22, 150, -90),
                           arc(0.28, 0.26, 0.25, 0.26, 90, -150))};
        case '4':
            return {{{0.42, 0}, {0.42, 0.96}, {0.03, 0.3}, {0.58, 0.3}}};
        case '5':
            return {joined({{0.5, 0.95}, {0.12, 0.95}, {0.08, 0.52}},
                           arc(0.29, 0.3, 0.25, 0.3, 130, -150))};
        case '6':
            return {
                joined(arc(0.32, 0.62, 0.25, 0.34, 60, 180), arc(0.3, 0.27, 0.25, 0.27, 180, 540))};
        case '7':
            return {{{0.05, 0.95}, {0.56, 0.95}, {0.2, 0}}};
        case '8':
            return {arc(0.29, 0.74, 0.2, 0.21), arc(0.29, 0.26, 0.24, 0.26)};
        case '9':
            return {
                joined(arc(0.28, 0.33, 0.25, 0.34, 240, 360), arc(0.3, 0.68, 0.25, 0.27, 0, 360))};
        case 'F':
            return {{{0.52, 1}, {0.06, 1}, {0.06, 0}}, {{0.06, 0.53}, {0.44, 0.53}}};
        default:
            return {};
    }
}

}  // namespace

void add_text(Picture& picture, std::string_view text, double x, double baseline, double height,
              Paint paint, double stroke_width) {
    double left = x - height * kAdvance * static_cast<double>(text.size()) / 2;
    for (const char c : text) {
        for (const Stroke& stroke : glyph_of(c)) {
            Shape shape;
            shape.kind = Shape::Kind::kLines;
            for (const auto& [gx, gy] : stroke)
                shape.points.emplace_back(left + gx * height, baseline - gy * height);
            shape.stroke = paint;
            shape.stroke_width = stroke_width;
            picture.shapes.push_back(std::move(shape));
        }
        left += height * kAdvance;
    }
}

}  // namespace foxgeese::preview
