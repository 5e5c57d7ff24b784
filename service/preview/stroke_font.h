// The few characters a board picture writes (files a-i, ranks 1-9, the
// fox's F) as strokes, so that a picture needs no font: the server's image
// may have none installed, and text would then come out differently from
// one machine to the next.
#pragma once

#include <string_view>

#include "service/preview/board_picture.h"

namespace foxgeese::preview {

// Adds `text` centred on x, standing on `baseline`, its digits and capitals
// `height` tall, drawn with lines of `stroke_width`. Characters without a
// glyph are left out.
void add_text(Picture& picture, std::string_view text, double x, double baseline, double height,
              Paint paint, double stroke_width);

}  // namespace foxgeese::preview
