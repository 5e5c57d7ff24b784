// A picture as an SVG document, `pixel_width` wide (its height in
// proportion), in the picture's own units through its viewBox.
#pragma once

#include <string>

#include "service/preview/board_picture.h"

namespace foxgeese::preview {

std::string svg_image(const Picture& picture, int pixel_width);

}  // namespace foxgeese::preview
