// Positions as images and games as animations: board_picture.h drawn by
// svg_image.h, raster_image.h and gif_animation.h. What the preview routes
// serve, and what bench/preview_bench.cpp measures.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>

#include "engine/rules/position.h"
#include "service/preview/board_picture.h"

namespace foxgeese::preview {

enum class ImageFormat { kSvg, kPng };

// The position `width` pixels wide (boards are square), the last move marked.
std::string position_image(const Position& position, const std::optional<LastMove>& last,
                           ImageFormat format, int width);

// One frame of an animation: a position and the move that led to it.
struct Frame {
    Position position;
    std::optional<LastMove> last;
};

// How long each frame is shown, in hundredths of a second.
constexpr int kFirstFrameDelayCs = 100;
constexpr int kFrameDelayCs = 60;
constexpr int kLastFrameDelayCs = 400;  // the pause at the end, before it loops

// The frames as a looping GIF `width` pixels wide. `stop` is asked before
// each frame; when it says true, drawing ends and nothing is returned.
std::optional<std::string> game_animation(std::span<const Frame> frames, int width,
                                          const std::function<bool()>& stop = {});

}  // namespace foxgeese::preview
