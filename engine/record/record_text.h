// The characters a game record may hold (docs/game-records.md, "Text"):
// UTF-8 without control characters, the tab aside. Control characters are
// the C0 range, DEL and the C1 range (U+0080 to U+009F): a terminal acts on
// C1 ones as on C0 ones (U+009B starts an escape sequence), so a record that
// holds one would play tricks on whoever prints it. UTF-8 is decoded by
// utf8-cpp.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace foxgeese {

// True for a control character a record may not hold (the tab may be held).
constexpr bool is_record_control(char32_t c) {
    return (c < 0x20 && c != '\t') || c == 0x7F || (c >= 0x80 && c <= 0x9F);
}

// Where `text` first stops being record text: the offset of the first byte
// that is not UTF-8 or of the first control character, whichever comes first,
// and which of the two it is.
struct RecordTextFault {
    std::size_t offset;
    bool not_utf8;       // else a control character
    char32_t character;  // the control character
};
std::optional<RecordTextFault> find_record_text_fault(std::string_view text);

// The text with each control character but the tab, and each byte that is
// not UTF-8, replaced by U+FFFD: what a record may hold, for text an older
// server may have stored without this check.
std::string record_safe_text(std::string_view text);

}  // namespace foxgeese
