// The characters a game record may hold (docs/game-records.md, "Text"):
// UTF-8 without control characters, the tab aside. Control characters are
// the C0 range, DEL and the C1 range (U+0080 to U+009F): a terminal acts on
// C1 ones as on C0 ones (U+009B starts an escape sequence), so a record that
// holds one would play tricks on whoever prints it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace foxgeese {

// The length of the UTF-8 sequence at `at`, or 0 when none starts there
// (overlong forms, surrogates and values past U+10FFFF included).
std::size_t utf8_sequence(std::string_view text, std::size_t at);

// The control character the well-formed sequence at `at` (of `length` bytes)
// encodes, or -1 for any other character or for a tab.
std::int32_t control_character(std::string_view text, std::size_t at, std::size_t length);

// The text with each control character but the tab, and each byte that is
// not UTF-8, replaced by U+FFFD: what a record may hold, for text an older
// server may have stored without this check.
std::string record_safe_text(std::string_view text);

}  // namespace foxgeese
