#include "service/preview/gif_animation.h"

#include <gif_lib.h>

#include <algorithm>
#include <stdexcept>

namespace foxgeese::preview {
namespace {

int append_to_string(GifFileType* gif, const GifByteType* data, int length) {
    static_cast<std::string*>(gif->UserData)->append(reinterpret_cast<const char*>(data), length);
    return length;
}

Rgb mix(Rgb a, Rgb b, double t) {
    auto m = [t](std::uint8_t x, std::uint8_t y) {
        return static_cast<std::uint8_t>(x * (1 - t) + y * t + 0.5);
    };
    return Rgb{m(a.r, b.r), m(a.g, b.g), m(a.b, b.b)};
}

}  // namespace

GifPalette::GifPalette(std::span<const Rgb> colors) {
    auto add = [this](Rgb c) {
        if (colors_.size() < 256 && std::find(colors_.begin(), colors_.end(), c) == colors_.end())
            colors_.push_back(c);
    };
    for (const Rgb c : colors)
        add(c);
    // Antialiasing blends two colours where they meet: a quarter, a half and
    // three quarters of the way are near enough to any blend.
    for (const double t : {0.5, 0.25, 0.75}) {
        for (std::size_t i = 0; i < colors.size(); ++i) {
            for (std::size_t j = i + 1; j < colors.size(); ++j)
                add(mix(colors[i], colors[j], t));
        }
    }
    table_.resize(1 << 15);
    for (int key = 0; key < (1 << 15); ++key) {
        // The middle of the key's bin.
        const int r = ((key >> 10) & 31) * 8 + 4;
        const int g = ((key >> 5) & 31) * 8 + 4;
        const int b = (key & 31) * 8 + 4;
        int best = 0;
        int best_distance = 1 << 30;
        for (std::size_t i = 0; i < colors_.size(); ++i) {
            const int dr = r - colors_[i].r;
            const int dg = g - colors_[i].g;
            const int db = b - colors_[i].b;
            const int distance = 2 * dr * dr + 4 * dg * dg + 3 * db * db;
            if (distance < best_distance) {
                best_distance = distance;
                best = static_cast<int>(i);
            }
        }
        table_[key] = static_cast<std::uint8_t>(best);
    }
}

const GifPalette& GifPalette::board() {
    static const GifPalette palette(board_colors());
    return palette;
}

GifAnimation::GifAnimation(int width, int height, const GifPalette& palette)
    : width_(width),
      height_(height),
      palette_(palette),
      previous_(static_cast<std::size_t>(width) * height),
      current_(previous_.size()) {
    int error = 0;
    gif_ = EGifOpen(&out_, append_to_string, &error);
    if (!gif_) throw std::runtime_error(std::string("giflib: ") + GifErrorString(error));
    EGifSetGifVersion(gif_, true);
    ColorMapObject* map = GifMakeMapObject(256, nullptr);
    if (!map) throw std::runtime_error("giflib: no memory for a colour map");
    for (std::size_t i = 0; i < 256; ++i) {
        const Rgb c = i < palette.colors().size() ? palette.colors()[i] : Rgb{};
        map->Colors[i] = GifColorType{c.r, c.g, c.b};
    }
    const int status = EGifPutScreenDesc(gif_, width, height, 8, 0, map);
    GifFreeMapObject(map);
    check(status, "screen");
    // The Netscape extension: loop for ever.
    static const GifByteType kLoop[3] = {1, 0, 0};
    check(EGifPutExtensionLeader(gif_, APPLICATION_EXT_FUNC_CODE), "loop");
    check(EGifPutExtensionBlock(gif_, 11, "NETSCAPE2.0"), "loop");
    check(EGifPutExtensionBlock(gif_, 3, kLoop), "loop");
    check(EGifPutExtensionTrailer(gif_), "loop");
}

GifAnimation::~GifAnimation() {
    if (gif_) EGifCloseFile(gif_, nullptr);
}

void GifAnimation::check(int status, const char* what) {
    if (status == GIF_OK) return;
    const int error = gif_ ? gif_->Error : 0;
    throw std::runtime_error(std::string("giflib: ") + what + ": " +
                             (GifErrorString(error) ? GifErrorString(error) : "error"));
}

void GifAnimation::add_frame(const Raster& raster, int delay_cs) {
    if (!gif_) throw std::logic_error("GifAnimation: a frame after finish()");
    if (raster.width() != width_ || raster.height() != height_)
        throw std::logic_error("GifAnimation: a frame of another size");
    // The frame's colours, and the rectangle that differs from the last.
    int left = width_, right = -1, top = height_, bottom = -1;
    for (int y = 0; y < height_; ++y) {
        const std::uint32_t* in = raster.row(y);
        std::uint8_t* out = current_.data() + static_cast<std::size_t>(y) * width_;
        const std::uint8_t* before = previous_.data() + static_cast<std::size_t>(y) * width_;
        for (int x = 0; x < width_; ++x) {
            out[x] = palette_.nearest(in[x]);
            if (frames_ > 0 && out[x] != before[x]) {
                left = std::min(left, x);
                right = std::max(right, x);
                top = std::min(top, y);
                bottom = std::max(bottom, y);
            }
        }
    }
    if (frames_ == 0) {
        left = top = 0;
        right = width_ - 1;
        bottom = height_ - 1;
    } else if (right < 0) {
        // Nothing changed: one pixel, as it was, carries the delay.
        left = right = top = bottom = 0;
    }
    GraphicsControlBlock control{};
    control.DisposalMode = DISPOSE_DO_NOT;
    control.DelayTime = delay_cs;
    control.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    const std::size_t length = EGifGCBToExtension(&control, extension);
    check(EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension),
          "frame control");
    const int w = right - left + 1;
    check(EGifPutImageDesc(gif_, left, top, w, bottom - top + 1, false, nullptr), "frame");
    for (int y = top; y <= bottom; ++y)
        check(EGifPutLine(gif_, current_.data() + static_cast<std::size_t>(y) * width_ + left, w),
              "frame row");
    std::swap(previous_, current_);
    ++frames_;
}

std::string GifAnimation::finish() {
    if (!gif_) throw std::logic_error("GifAnimation: finish() twice");
    int error = 0;
    const int status = EGifCloseFile(gif_, &error);
    gif_ = nullptr;
    if (status != GIF_OK) throw std::runtime_error(std::string("giflib: ") + GifErrorString(error));
    return std::move(out_);
}

}  // namespace foxgeese::preview
