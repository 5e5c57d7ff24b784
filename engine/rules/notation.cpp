#include "engine/rules/notation.h"

#include <cctype>
#include <optional>

namespace foxgeese {
namespace {

Error notation_error(std::string message) {
    return make_error(ErrorCode::kInvalidNotation, std::move(message));
}

// Quotes a piece of untrusted input for an error message, printable and short.
std::string quoted(std::string_view text) {
    std::string out = "'";
    for (std::size_t i = 0; i < text.size() && i < 24; ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        out += std::isprint(c) ? static_cast<char>(c) : '?';
    }
    if (text.size() > 24) out += "...";
    return out + "'";
}

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && is_space(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && is_space(text.back()))
        text.remove_suffix(1);
    return text;
}

// Characters that look like the notation's separators but are not ASCII:
// text pasted from a document or typed on a phone keyboard has them.
struct LookAlike {
    std::string_view utf8;
    std::string_view name;
    char instead;
};
constexpr LookAlike kLookAlikes[] = {
    {"\u2010", "a Unicode hyphen (U+2010)", '-'},
    {"\u2011", "a non-breaking hyphen (U+2011)", '-'},
    {"\u2012", "a figure dash (U+2012)", '-'},
    {"\u2013", "an en dash (U+2013)", '-'},
    {"\u2014", "an em dash (U+2014)", '-'},
    {"\u2212", "a minus sign (U+2212)", '-'},
    {"\u00d7", "a multiplication sign (U+00D7)", 'x'},
};

std::optional<Error> look_alike_separator(std::string_view text) {
    for (const LookAlike& look : kLookAlikes) {
        if (text.find(look.utf8) == std::string_view::npos) continue;
        return notation_error(quoted(text) + " has " + std::string(look.name) + " where '" +
                              std::string(1, look.instead) + "' belongs; write moves in ASCII, " +
                              (look.instead == '-' ? "a step as d4-d5" : "a jump as d4xd6"));
    }
    return std::nullopt;
}

}  // namespace

Result<int> parse_point(const Board& board, std::string_view text) {
    if (text.size() < 2) return notation_error("expected a point such as d4, got " + quoted(text));
    const char file_char = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
    if (file_char < 'a' || file_char > 'z') {
        return notation_error("a point starts with a file letter (a-" +
                              std::string(1, static_cast<char>('a' + board.files() - 1)) +
                              "), got " + quoted(text));
    }
    if (text[1] < '1' || text[1] > '9' || text.size() > 2) {
        return notation_error("a point is a file letter then a rank 1-" +
                              std::to_string(board.ranks()) + ", got " + quoted(text));
    }
    const int point = board.point_at(file_char - 'a', text[1] - '1');
    if (point == kNoPoint) {
        return notation_error(std::string(1, file_char) + text[1] + " is not a point of the " +
                              std::string(board.name()) + " board");
    }
    return point;
}

Result<MovePath> parse_move(const Board& board, std::string_view text) {
    if (text.size() > kMaxNotationLength) {
        return notation_error("a move is at most " + std::to_string(kMaxNotationLength) +
                              " characters long");
    }
    text = trim(text);
    if (text.empty())
        return notation_error("the move is empty; write a step as d4-d5, a jump as d4xd6");
    if (auto look_alike = look_alike_separator(text)) return *look_alike;
    MovePath path;
    char separator = 0;
    std::size_t i = 0;
    while (true) {
        // A point is a letter and one digit; take up to the next separator.
        std::size_t end = i;
        while (end < text.size() && text[end] != '-' && text[end] != 'x' && text[end] != 'X')
            ++end;
        const std::string_view token = text.substr(i, end - i);
        if (token.empty()) {
            return notation_error("a point is missing in " + quoted(text) +
                                  "; write a step as d4-d5, a jump as d4xd6");
        }
        Result<int> point = parse_point(board, token);
        if (!point) return point.error();
        if (path.count == static_cast<int>(path.points.size())) {
            return notation_error("a jump sequence has at most " + std::to_string(kMaxJumps) +
                                  " jumps");
        }
        path.points[path.count++] = static_cast<std::uint8_t>(*point);
        if (end == text.size()) break;
        const char sep = text[end] == '-' ? '-' : 'x';
        if (separator != 0 && sep != separator) {
            return notation_error("mixed '-' and 'x' in " + quoted(text) +
                                  "; a step is d4-d5, a jump sequence d4xd6xf6");
        }
        separator = sep;
        i = end + 1;
    }
    if (path.count < 2) {
        return notation_error(quoted(text) +
                              " is a single point; a move needs its origin and "
                              "destination, such as d4-d5");
    }
    path.jump = separator == 'x';
    if (!path.jump && path.count > 2) {
        return notation_error(
            "a step goes to one neighbouring point (d4-d5); write captures "
            "with x, as in d4xd6xf6");
    }
    return path;
}

std::string format_move(const Board& board, const Move& move) {
    std::string out = board.point_name(move.from);
    if (!move.is_jump()) return out + "-" + board.point_name(move.to);
    for (int i = 0; i < move.jump_count; ++i)
        out += "x" + board.point_name(move.path[i]);
    return out;
}

std::string format_path(const Board& board, const MovePath& path) {
    std::string out;
    for (int i = 0; i < path.count; ++i) {
        if (i > 0) out += path.jump ? "x" : "-";
        out += board.point_name(path.points[i]);
    }
    return out;
}

}  // namespace foxgeese
