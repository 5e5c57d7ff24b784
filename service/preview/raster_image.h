// A picture drawn into pixels by cairo (Debian's libcairo2), and those
// pixels as PNG. Nothing here touches a font: the picture's text is strokes
// (stroke_font.h).
#pragma once

#include <cstdint>
#include <string>

#include "service/preview/board_picture.h"

typedef struct _cairo_surface cairo_surface_t;

namespace foxgeese::preview {

class Raster {
  public:
    // An opaque image of that many pixels; throws std::runtime_error when
    // cairo cannot make one (out of memory).
    Raster(int width, int height);
    ~Raster();
    Raster(const Raster&) = delete;
    Raster& operator=(const Raster&) = delete;

    // Draws `picture` scaled to the whole image, over what was there.
    void draw(const Picture& picture);
    // Makes this image a copy of `other`, of the same size.
    void copy_from(const Raster& other);

    int width() const { return width_; }
    int height() const { return height_; }
    // Row `y`: `width()` pixels of 0x00RRGGBB.
    const std::uint32_t* row(int y) const;

    // The image as a PNG file.
    std::string png() const;

  private:
    int width_;
    int height_;
    cairo_surface_t* surface_;
};

// The picture `pixel_width` wide (its height in proportion) as PNG.
std::string png_image(const Picture& picture, int pixel_width);

// The height of a picture drawn `pixel_width` wide.
int pixel_height(const Picture& picture, int pixel_width);

}  // namespace foxgeese::preview
