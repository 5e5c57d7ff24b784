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
    // The board is drawn once; each frame copies it and draws its pieces.
    const Picture board = board_background(frames.front().position.variant());
    Raster background(width, pixel_height(board, width));
    background.draw(board);
    Raster raster(background.width(), background.height());
    GifAnimation gif(raster.width(), raster.height(), GifPalette::board());
    for (std::size_t i = 0; i < frames.size(); ++i) {
        if (stop && stop()) return std::nullopt;
        raster.copy_from(background);
        raster.draw(board_pieces(frames[i].position, frames[i].last));
        const int delay = i + 1 == frames.size() ? kLastFrameDelayCs
                          : i == 0               ? kFirstFrameDelayCs
                                                 : kFrameDelayCs;
        gif.add_frame(raster, delay);
    }
    return gif.finish();
}

}  // namespace foxgeese::preview
