#include "service/preview/raster_image.h"

#include <cairo.h>
#include <png.h>

#include <cmath>
#include <cstring>
#include <numbers>
#include <stdexcept>

namespace foxgeese::preview {
namespace {

void set_paint(cairo_t* cr, const Paint& paint) {
    cairo_set_source_rgba(cr, paint.color.r / 255.0, paint.color.g / 255.0, paint.color.b / 255.0,
                          paint.alpha);
}

void append_to_string(png_structp png, png_bytep data, png_size_t length) {
    static_cast<std::string*>(png_get_io_ptr(png))
        ->append(reinterpret_cast<const char*>(data), length);
}

[[noreturn]] void png_failed(png_structp, png_const_charp message) {
    throw std::runtime_error(std::string("libpng: ") + message);
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

void Raster::copy_from(const Raster& other) {
    if (other.width_ != width_ || other.height_ != height_)
        throw std::logic_error("Raster::copy_from: another size");
    cairo_surface_flush(surface_);
    std::memcpy(cairo_image_surface_get_data(surface_),
                cairo_image_surface_get_data(other.surface_),
                static_cast<std::size_t>(cairo_image_surface_get_stride(surface_)) * height_);
    cairo_surface_mark_dirty(surface_);
}

const std::uint32_t* Raster::row(int y) const {
    const unsigned char* data = cairo_image_surface_get_data(surface_);
    return reinterpret_cast<const std::uint32_t*>(
        data + static_cast<std::ptrdiff_t>(y) * cairo_image_surface_get_stride(surface_));
}

// libpng by hand rather than cairo's PNG writer, which tries every row
// filter and compresses hard: flat colours compress as well with no filter
// and zlib's level 3, in a third of the time (bench/README.md). The pixels go in as they are
// (0x00RRGGBB words: B, G, R, unused in memory) and libpng writes them as RGB.
std::string Raster::png() const {
    std::string out;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, png_failed, nullptr);
    if (!png) throw std::runtime_error("libpng: no memory");
    png_infop info = png_create_info_struct(png);
    try {
        if (!info) throw std::runtime_error("libpng: no memory");
        png_set_write_fn(png, &out, append_to_string, nullptr);
        png_set_IHDR(png, info, static_cast<png_uint_32>(width_), static_cast<png_uint_32>(height_),
                     8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                     PNG_FILTER_TYPE_DEFAULT);
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
        png_set_compression_level(png, 3);
        png_write_info(png, info);
        png_set_bgr(png);
        png_set_filler(png, 0, PNG_FILLER_AFTER);
        for (int y = 0; y < height_; ++y)
            png_write_row(png, reinterpret_cast<png_const_bytep>(row(y)));
        png_write_end(png, nullptr);
    } catch (...) {
        png_destroy_write_struct(&png, &info);
        throw;
    }
    png_destroy_write_struct(&png, &info);
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
