#include "service/runtime/text_encoding.h"

#include <utf8.h>

#include <cctype>

namespace foxgeese::service {
namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
    return utf8::is_valid(text.begin(), text.end());
}

std::string coerce_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    while (!text.empty()) {
        const auto invalid = utf8::find_invalid(text.begin(), text.end());
        const auto valid = static_cast<std::size_t>(invalid - text.begin());
        out.append(text.substr(0, valid));
        if (invalid == text.end()) break;
        out += "\xEF\xBF\xBD";  // U+FFFD, for the one byte
        text.remove_prefix(valid + 1);
    }
    return out;
}

std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%') {
            if (i + 2 >= text.size()) return std::nullopt;
            const int high = hex_value(text[i + 1]);
            const int low = hex_value(text[i + 2]);
            if (high < 0 || low < 0) return std::nullopt;
            out += static_cast<char>(high * 16 + low);
            i += 2;
        } else if (text[i] == '+' && plus_is_space) {
            out += ' ';
        } else {
            out += text[i];
        }
    }
    return out;
}

std::string percent_encode(std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string encoded;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
            encoded += c;
        } else {
            encoded += '%';
            encoded += kHex[byte >> 4];
            encoded += kHex[byte & 0xF];
        }
    }
    return encoded;
}

}  // namespace foxgeese::service
