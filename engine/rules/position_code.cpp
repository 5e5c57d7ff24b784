#include "engine/rules/position_code.h"

#include <cctype>
#include <charconv>
#include <vector>

namespace foxgeese {
namespace {

Error position_error(std::string message) {
    return make_error(ErrorCode::kInvalidPosition, "invalid position code: " + std::move(message));
}

std::string printable(char c) {
    const unsigned char u = static_cast<unsigned char>(c);
    return std::isprint(u) ? "'" + std::string(1, c) + "'" : "byte " + std::to_string(u);
}

// A field of untrusted input quoted for a message: printable ASCII only, short.
std::string quoted(std::string_view field) {
    std::string out = "'";
    for (std::size_t i = 0; i < field.size() && i < 16; ++i) {
        const unsigned char c = static_cast<unsigned char>(field[i]);
        out += std::isprint(c) ? static_cast<char>(c) : '?';
    }
    if (field.size() > 16) out += "...";
    return out + "'";
}

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// Splits on single spaces; an empty field means two spaces in a row (or a
// leading/trailing one inside the trimmed text).
std::vector<std::string_view> split_fields(std::string_view text) {
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    while (true) {
        const std::size_t space = text.find(' ', start);
        fields.push_back(text.substr(start, space - start));
        if (space == std::string_view::npos) break;
        start = space + 1;
    }
    return fields;
}

Result<int> parse_counter(std::string_view field, const char* name, int max) {
    int value = 0;
    // Digits only: from_chars alone would take a sign ("-0").
    const bool digits = !field.empty() && field.size() <= 7 &&
                        field.find_first_not_of("0123456789") == std::string_view::npos;
    if (!digits) {
        return position_error(std::string(name) + " must be a number from 0 to " +
                              std::to_string(max) + ", got " + quoted(field));
    }
    if (field.size() > 1 && field[0] == '0') {
        return position_error(std::string(name) + " has a leading zero: " + quoted(field));
    }
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (ec != std::errc() || end != field.data() + field.size() || value > max) {
        return position_error(std::string(name) + " must be a number from 0 to " +
                              std::to_string(max) + ", got " + quoted(field));
    }
    return value;
}

// Existing points of one rank, left to right.
std::vector<int> rank_points(const Board& board, int rank) {
    std::vector<int> points;
    for (int file = 0; file < board.files(); ++file) {
        const int point = board.point_at(file, rank);
        if (point != kNoPoint) points.push_back(point);
    }
    return points;
}

}  // namespace

Result<Position> parse_position_code(const Variant& variant, std::string_view code) {
    if (code.size() > kMaxPositionCodeLength) {
        return position_error("longer than " + std::to_string(kMaxPositionCodeLength) +
                              " characters");
    }
    while (!code.empty() && is_space(code.front()))
        code.remove_prefix(1);
    while (!code.empty() && is_space(code.back()))
        code.remove_suffix(1);
    if (code.empty()) return position_error("it is empty");
    const std::vector<std::string_view> fields = split_fields(code);
    for (std::string_view field : fields) {
        if (field.empty()) return position_error("fields must be separated by single spaces");
    }
    if (fields.size() != 4) {
        return position_error("expected 4 fields (placement, side, quiet plies, ply), got " +
                              std::to_string(fields.size()));
    }

    const Board& board = variant.board();
    Bitboard foxes = 0;
    Bitboard geese = 0;
    std::string_view placement = fields[0];
    int rank = board.ranks() - 1;
    std::size_t i = 0;
    while (true) {
        if (rank < 0) {
            return position_error("more than " + std::to_string(board.ranks()) + " ranks for the " +
                                  std::string(board.name()) + " board");
        }
        const std::vector<int> points = rank_points(board, rank);
        std::size_t filled = 0;
        bool last_was_digit = false;
        const std::string rank_name = "rank " + std::to_string(rank + 1);
        for (; i < placement.size() && placement[i] != '/'; ++i) {
            const char c = placement[i];
            if (c >= '1' && c <= '9') {
                if (last_was_digit) {
                    return position_error(rank_name + " has two digits in a row");
                }
                last_was_digit = true;
                filled += static_cast<std::size_t>(c - '0');
                if (filled > points.size()) {
                    return position_error(rank_name + " describes more than its " +
                                          std::to_string(points.size()) + " points");
                }
                continue;
            }
            last_was_digit = false;
            const char piece = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            if (piece != 'F' && piece != 'G') {
                return position_error(rank_name + " has " + printable(c) +
                                      "; use F (fox), G (goose) or a digit 1-9 for empty points");
            }
            if (filled >= points.size()) {
                return position_error(rank_name + " describes more than its " +
                                      std::to_string(points.size()) + " points");
            }
            (piece == 'F' ? foxes : geese) |= bit(points[filled++]);
        }
        if (filled != points.size()) {
            return position_error(rank_name + " describes " + std::to_string(filled) +
                                  " points; it has " + std::to_string(points.size()));
        }
        if (i == placement.size()) break;
        ++i;  // the '/'
        --rank;
    }
    if (rank != 0) {
        return position_error("expected " + std::to_string(board.ranks()) + " ranks for the " +
                              std::string(board.name()) + " board, got " +
                              std::to_string(board.ranks() - rank));
    }

    Side side;
    if (fields[1] == "f" || fields[1] == "F") {
        side = Side::kFox;
    } else if (fields[1] == "g" || fields[1] == "G") {
        side = Side::kGeese;
    } else {
        return position_error("the side to move must be f or g, got " + quoted(fields[1]));
    }
    Result<int> quiet = parse_counter(fields[2], "the quiet-ply counter", 100);
    if (!quiet) return quiet.error();
    Result<int> ply = parse_counter(fields[3], "the ply counter", kMaxPly);
    if (!ply) return ply.error();

    if (count(foxes) != variant.fox_count()) {
        return position_error(std::string(variant.name()) + " has " +
                              std::to_string(variant.fox_count()) +
                              (variant.fox_count() == 1 ? " fox" : " foxes") + ", the code has " +
                              std::to_string(count(foxes)));
    }
    if (count(geese) > variant.start_geese_count()) {
        return position_error("this game starts with " +
                              std::to_string(variant.start_geese_count()) +
                              " geese, the code has " + std::to_string(count(geese)));
    }
    return Position(variant, foxes, geese, side, *quiet, *ply);
}

std::string format_repetition_key(const Position& pos) {
    const Board& board = pos.board();
    std::string out;
    for (int rank = board.ranks() - 1; rank >= 0; --rank) {
        int run = 0;
        for (int file = 0; file < board.files(); ++file) {
            const int point = board.point_at(file, rank);
            if (point == kNoPoint) continue;
            const char piece = has(pos.foxes(), point) ? 'F' : has(pos.geese(), point) ? 'G' : 0;
            if (piece == 0) {
                ++run;
                continue;
            }
            if (run > 0) out += static_cast<char>('0' + run);
            run = 0;
            out += piece;
        }
        if (run > 0) out += static_cast<char>('0' + run);
        if (rank > 0) out += '/';
    }
    out += pos.side_to_move() == Side::kFox ? " f" : " g";
    return out;
}

std::string format_position_code(const Position& pos) {
    return format_repetition_key(pos) + " " + std::to_string(pos.quiet_plies()) + " " +
           std::to_string(pos.ply());
}

}  // namespace foxgeese
