// UTF-8 and percent-encoding, written once for the whole server. Boost 1.74
// (Debian 12) has no URL library and the standard library no UTF-8 checks,
// so these few functions are ours.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace foxgeese::service {

// The length of the well-formed UTF-8 sequence at text[i], or 0 where none
// starts (overlong forms, surrogates and values past U+10FFFF are not
// well-formed).
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

// The code point at text[i], advancing i past it; U+FFFD for a byte that
// starts no well-formed sequence, advancing past that byte only.
std::uint32_t decode_utf8(std::string_view text, std::size_t& i);

bool is_valid_utf8(std::string_view text);

// The text with every byte that is not part of well-formed UTF-8 replaced by
// U+FFFD: messages may quote what a client sent, and JSON must stay valid.
std::string coerce_utf8(std::string_view text);

// Percent-decodes a path segment ('+' stays '+') or a query component ('+'
// becomes a space); nullopt for a '%' not followed by two hex digits.
std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space);

// Percent-encodes all but RFC 3986's unreserved characters and '/'.
std::string percent_encode(std::string_view text);

}  // namespace foxgeese::service
