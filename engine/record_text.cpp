#include "record_text.h"

namespace foxgeese {

std::size_t utf8_sequence(std::string_view s, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char lead = byte(at);
    if (lead < 0x80) return 1;
    std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
    if (length == 0 || lead > 0xF4 || at + length > s.size()) return 0;
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(at + i) & 0xC0) != 0x80) return 0;
    }
    const unsigned char second = byte(at + 1);
    if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F) ||
        (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F))
        return 0;
    return length;
}

std::int32_t control_character(std::string_view text, std::size_t at, std::size_t length) {
    const auto lead = static_cast<unsigned char>(text[at]);
    if (length == 1) return (lead < 0x20 && lead != '\t') || lead == 0x7F ? lead : -1;
    // U+0080 to U+009F: C2 80 to C2 9F.
    const auto second = static_cast<unsigned char>(text[at + 1]);
    if (length == 2 && lead == 0xC2 && second <= 0x9F) return second;
    return -1;
}

std::string record_safe_text(std::string_view text) {
    static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
    std::string safe;
    safe.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t length = utf8_sequence(text, i);
        if (length == 0 || control_character(text, i, length) >= 0) {
            safe += kReplacement;
            i += length == 0 ? 1 : length;
        } else {
            safe.append(text.substr(i, length));
            i += length;
        }
    }
    return safe;
}

}  // namespace foxgeese
