#include "service/variant_texts.h"

namespace foxgeese::service {
namespace {

struct Entry {
    std::string_view variant;
    std::string_view language;
    VariantTexts texts;
};

constexpr Entry kEntries[] = {
    {"standard",
     "en",
     {"Fox and Geese",
      "One fox against 13 geese on a 33-point cross with a diagonal between every two "
      "neighbouring points. The fox moves first, steps along any line or jumps a neighbouring "
      "goose to capture it, and may chain jumps in one turn; capturing is optional. Geese step "
      "forward or diagonally forward, never back. The geese win by trapping the fox; the fox "
      "wins when fewer than four geese remain or the geese cannot move. A position repeated "
      "three times, or fifty moves each without a capture or forward goose step, is a draw."}},
    {"big_cross",
     "en",
     {"Big cross (Gåsetavl)",
      "One fox against 18 geese on a 45-point cross whose diagonals pass through only every "
      "second point. The fox starts in the upper arm and moves first; geese fill the lower arm "
      "and the row across the cross. The fox steps or jumps as in the standard game, capture "
      "optional; geese step forward, diagonally forward or sideways, never back. The geese win "
      "by trapping the fox, the fox when fewer than four geese remain. Threefold repetition and "
      "fifty moves each without progress are draws."}},
    {"two_foxes",
     "en",
     {"Two foxes (Halatafl)",
      "Two foxes against 20 geese on the 33-point cross. The foxes start on the far corners of "
      "the top arm and move first. Capturing is compulsory: if a fox can jump, one must, and a "
      "jumping fox goes on while it can. Geese step forward, diagonally forward or sideways. The "
      "geese win by filling all nine points of the top arm (the pen) or trapping both foxes; "
      "the foxes win when fewer than nine geese remain. Threefold repetition and fifty moves "
      "each without progress are draws."}},
};

constexpr struct {
    std::string_view language;
    OptionTexts texts;
} kOptions[] = {
    {"en",
     {"Number of geese at the start: 13, or 15 and 17 for an easier game for the geese.",
      "Whether geese may also step sideways along a line."}},
};

}  // namespace

const VariantTexts* variant_texts(std::string_view variant, std::string_view language) {
    for (const Entry& e : kEntries) {
        if (e.variant == variant && e.language == language) return &e.texts;
    }
    return nullptr;
}

const OptionTexts* option_texts(std::string_view language) {
    for (const auto& o : kOptions) {
        if (o.language == language) return &o.texts;
    }
    return nullptr;
}

}  // namespace foxgeese::service
