// UTF-8 checks (through utf8-cpp) and percent-encoding for the server.
// Percent-encoding is written here because Boost.URL comes with Boost 1.81
// in Debian 12, whose packages conflict with the default 1.74 that Beast and
// Asio are built from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace foxgeese::service {

// Well-formed UTF-8 (utf8-cpp decides): no overlong forms, surrogates or
// values past U+10FFFF.
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
