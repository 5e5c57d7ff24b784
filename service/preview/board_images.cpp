#include "service/preview/board_images.h"

#include <stdexcept>

#include "service/preview/gif_animation.h"
#include "service/preview/raster_image.h"
#include "service/preview/svg_image.h"

namespace foxgeese::preview {

std::string position_image(const Position& position, const std::optional<LastMove>& last,
                           ImageFormat format, int width) {
    const Picture picture = board_picture(position, last);
    return format == ImageFormat::kSvg ? svg_image(picture, width) : png_image(picture, width);
}

std::optional<std::string> game_animation(std::span<const Frame> frames, int width,
                                          const std::function<bool()>& stop) {
    if (frames.empty()) throw std::invalid_argument("an animation needs a frame");
    const Picture first = board_picture(frames.front().position, frames.front().last);
    Raster raster(width, pixel_height(first, width));
    GifAnimation gif(raster.width(), raster.height(), GifPalette::board());
    for (std::size_t i = 0; i < frames.size(); ++i) {
        if (stop && stop()) return std::nullopt;
        raster.draw(i == 0 ? first : board_picture(frames[i].position, frames[i].last));
        const int delay = i + 1 == frames.size() ? kLastFrameDelayCs
                          : i == 0               ? kFirstFrameDelayCs
                                                 : kFrameDelayCs;
        gif.add_frame(raster, delay);
    }
    return gif.finish();
}

}  // namespace foxgeese::preview
