#include "service/preview/raster_image.h"

#include <cairo.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace foxgeese::preview {
namespace {

void set_paint(cairo_t* cr, const Paint& paint) {
    cairo_set_source_rgba(cr, paint.color.r / 255.0, paint.color.g / 255.0, paint.color.b / 255.0,
                          paint.alpha);
}

cairo_status_t append_to_string(void* closure, const unsigned char* data, unsigned int length) {
    static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
    return CAIRO_STATUS_SUCCESS;
}

}  // namespace

Raster::Raster(int width, int height)
    : width_(width),
      height_(height),
      surface_(cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height)) {
    if (cairo_surface_status(surface_) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface_);
        throw std::runtime_error("cairo cannot make an image of " + std::to_string(width) + "x" +
                                 std::to_string(height));
    }
}

Raster::~Raster() {
    cairo_surface_destroy(surface_);
}

void Raster::draw(const Picture& picture) {
    cairo_t* cr = cairo_create(surface_);
    cairo_scale(cr, width_ / picture.width, height_ / picture.height);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (const Shape& shape : picture.shapes) {
        switch (shape.kind) {
            case Shape::Kind::kRect:
                cairo_rectangle(cr, shape.x, shape.y, shape.w, shape.h);
                break;
            case Shape::Kind::kCircle:
                cairo_new_sub_path(cr);
                cairo_arc(cr, shape.x, shape.y, shape.r, 0, 2 * std::numbers::pi);
                break;
            case Shape::Kind::kLines:
                for (std::size_t i = 0; i < shape.points.size(); ++i) {
                    const auto [x, y] = shape.points[i];
                    if (i == 0) {
                        cairo_move_to(cr, x, y);
                    } else {
                        cairo_line_to(cr, x, y);
                    }
                }
                break;
        }
        if (shape.fill) {
            set_paint(cr, *shape.fill);
            if (shape.stroke) {
                cairo_fill_preserve(cr);
            } else {
                cairo_fill(cr);
            }
        }
        if (shape.stroke) {
            set_paint(cr, *shape.stroke);
            cairo_set_line_width(cr, shape.stroke_width);
            cairo_stroke(cr);
        }
        cairo_new_path(cr);
    }
    cairo_destroy(cr);
    cairo_surface_flush(surface_);
}

const std::uint32_t* Raster::row(int y) const {
    const unsigned char* data = cairo_image_surface_get_data(surface_);
    return reinterpret_cast<const std::uint32_t*>(
        data + static_cast<std::ptrdiff_t>(y) * cairo_image_surface_get_stride(surface_));
}

std::string Raster::png() const {
    std::string out;
    if (cairo_surface_write_to_png_stream(surface_, append_to_string, &out) != CAIRO_STATUS_SUCCESS)
        throw std::runtime_error("cairo could not write a PNG");
    return out;
}

int pixel_height(const Picture& picture, int pixel_width) {
    return static_cast<int>(std::lround(pixel_width * picture.height / picture.width));
}

std::string png_image(const Picture& picture, int pixel_width) {
    Raster raster(pixel_width, pixel_height(picture, pixel_width));
    raster.draw(picture);
    return raster.png();
}

}  // namespace foxgeese::preview
