// A looping GIF (giflib, Debian's libgif7) made of rasters, one frame at a
// time: each frame's colours are mapped onto a palette of the picture's
// colours and their blends (the antialiased edges), and only the rectangle
// that changed since the frame before is stored, so a game of many plies
// stays small.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "service/preview/board_picture.h"
#include "service/preview/raster_image.h"

typedef struct GifFileType GifFileType;

namespace foxgeese::preview {

// At most 256 colours: `colors`, then blends of every two of them; and the
// nearest of them for any colour, looked up in a table.
class GifPalette {
  public:
    explicit GifPalette(std::span<const Rgb> colors);
    // The palette of board_colors(), made once.
    static const GifPalette& board();

    const std::vector<Rgb>& colors() const { return colors_; }
    std::uint8_t nearest(std::uint32_t rgb) const {
        return table_[((rgb >> 9) & 0x7c00) | ((rgb >> 6) & 0x3e0) | ((rgb >> 3) & 0x1f)];
    }

  private:
    std::vector<Rgb> colors_;
    std::vector<std::uint8_t> table_;  // by 5 bits of red, green, blue
};

class GifAnimation {
  public:
    // Frames of width x height pixels; throws std::runtime_error if giflib
    // fails.
    GifAnimation(int width, int height, const GifPalette& palette);
    ~GifAnimation();
    GifAnimation(const GifAnimation&) = delete;
    GifAnimation& operator=(const GifAnimation&) = delete;

    // The raster (of the animation's size) as the next frame, shown for
    // `delay_cs` hundredths of a second.
    void add_frame(const Raster& raster, int delay_cs);
    // The file. Nothing may be added after.
    std::string finish();

    int frames() const { return frames_; }

  private:
    void check(int status, const char* what);

    int width_;
    int height_;
    const GifPalette& palette_;
    std::string out_;
    GifFileType* gif_ = nullptr;
    std::vector<std::uint8_t> previous_;
    std::vector<std::uint8_t> current_;
    int frames_ = 0;
};

}  // namespace foxgeese::preview
