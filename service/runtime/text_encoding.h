// UTF-8 checks and percent-encoding for the server. Written by hand because
// the project builds against Debian 12's default Boost, 1.74, which has no
// URL library, and the standard library has no UTF-8 checks. Debian 12 does
// ship both: Boost.URL with Boost 1.81 (libboost-url1.81-dev; its Boost
// conflicts with 1.74's, so Beast and Asio would move too) and utf8-cpp
// (libutfcpp-dev 3.2.3, header-only). To be replaced by them (issue 34,
// item 7).
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
