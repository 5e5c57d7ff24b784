#include "service/preview/svg_image.h"

#include <cmath>
#include <cstdio>

namespace foxgeese::preview {
namespace {

// Numbers with at most two decimals and no trailing zeros: short, and the
// same text on every machine.
std::string number(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", std::round(v * 100) / 100);
    std::string s = buffer;
    while (s.back() == '0')
        s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s == "-0" ? "0" : s;
}

std::string color(Rgb c) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x", c.r, c.g, c.b);
    return buffer;
}

std::string paint_attributes(const Shape& shape) {
    std::string out;
    if (shape.fill) {
        out += " fill=\"" + color(shape.fill->color) + "\"";
        if (shape.fill->alpha < 1) out += " fill-opacity=\"" + number(shape.fill->alpha) + "\"";
    } else {
        out += " fill=\"none\"";
    }
    if (shape.stroke) {
        out += " stroke=\"" + color(shape.stroke->color) + "\" stroke-width=\"" +
               number(shape.stroke_width) + "\"";
    }
    return out;
}

}  // namespace

std::string svg_image(const Picture& picture, int pixel_width) {
    const double height = pixel_width * picture.height / picture.width;
    std::string out;
    out.reserve(16 * 1024);
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(pixel_width) +
           "\" height=\"" + number(std::round(height)) + "\" viewBox=\"0 0 " +
           number(picture.width) + " " + number(picture.height) + "\">\n";
    // The glyphs and the links: round ends, as the client's strokes look.
    out += "<g stroke-linecap=\"round\" stroke-linejoin=\"round\">\n";
    for (const Shape& shape : picture.shapes) {
        switch (shape.kind) {
            case Shape::Kind::kRect:
                out += "<rect x=\"" + number(shape.x) + "\" y=\"" + number(shape.y) +
                       "\" width=\"" + number(shape.w) + "\" height=\"" + number(shape.h) + "\"";
                break;
            case Shape::Kind::kCircle:
                out += "<circle cx=\"" + number(shape.x) + "\" cy=\"" + number(shape.y) +
                       "\" r=\"" + number(shape.r) + "\"";
                break;
            case Shape::Kind::kLines: {
                out += "<polyline points=\"";
                for (std::size_t i = 0; i < shape.points.size(); ++i) {
                    if (i) out += ' ';
                    out += number(shape.points[i].first) + "," + number(shape.points[i].second);
                }
                out += "\"";
                break;
            }
        }
        out += paint_attributes(shape) + "/>\n";
    }
    out += "</g>\n</svg>\n";
    return out;
}

}  // namespace foxgeese::preview
