// parse_record(): the record's lines (checked as UTF-8 text first), its tag
// lines, then the movetext token by token, every move played by the engine
// as it is read, and at the end whether the result fits the moves.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "engine/record/game_record.h"
#include "engine/record/record_ending.h"
#include "engine/record/record_text.h"
#include "engine/rules/game.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"

namespace foxgeese {
namespace {

struct Line {
    std::string_view text;  // without the line break
    int number = 0;
};

bool is_space(char c) {
    return c == ' ' || c == '\t';
}

// The 1-based column, in characters, of a byte offset within a line.
int column_of(std::string_view line, std::size_t offset) {
    int column = 1;
    for (std::size_t i = 0; i < offset && i < line.size(); ++i) {
        if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++column;
    }
    return column;
}

std::string shown(std::string_view text) {
    return "'" + std::string(text.substr(0, 40)) + (text.size() > 40 ? "...'" : "'");
}

// A tag as read: its value and where the value starts.
struct Tag {
    std::string value;
    int line = 0;
    int column = 0;
};

class RecordParser {
  public:
    explicit RecordParser(std::string_view text) : text_(text) {}

    Result<ParsedRecord, RecordError> parse() {
        if (text_.size() > kMaxRecordBytes) {
            return fail(RecordProblem::kTooLong, 1, 1,
                        "the record is " + std::to_string(text_.size()) + " bytes; at most " +
                            std::to_string(kMaxRecordBytes) + " are read");
        }
        if (auto e = split_lines()) return *e;
        std::size_t next = 0;
        if (auto e = read_tags(next)) return *e;
        if (auto e = interpret_tags()) return *e;
        if (auto e = read_moves(next)) return *e;
        if (auto e = check_ending()) return *e;
        return std::move(parsed_);
    }

  private:
    static RecordError fail(RecordProblem problem, int line, int column, std::string message) {
        return RecordError{problem, line, column, std::move(message), 0, ""};
    }
    RecordError fail_at(RecordProblem problem, const Line& line, std::size_t offset,
                        std::string message) const {
        return fail(problem, line.number, column_of(line.text, offset), std::move(message));
    }
    RecordError fail_at(RecordProblem problem, const Tag& tag, std::string message) const {
        return fail(problem, tag.line, tag.column, std::move(message));
    }

    // Lines, with each checked to be UTF-8 text without control characters
    // (C0, DEL and C1; a tab is a space).
    std::optional<RecordError> split_lines() {
        std::size_t start = 0;
        for (int number = 1; start <= text_.size(); ++number) {
            std::size_t end = text_.find('\n', start);
            if (end == std::string_view::npos) end = text_.size();
            std::string_view text = text_.substr(start, end - start);
            if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
            const Line line{text, number};
            if (const auto fault = find_record_text_fault(text)) {
                if (fault->not_utf8)
                    return fail_at(RecordProblem::kSyntax, line, fault->offset,
                                   "the record is not UTF-8 text");
                return fail_at(RecordProblem::kSyntax, line, fault->offset,
                               "a control character (code " +
                                   std::to_string(static_cast<std::uint32_t>(fault->character)) +
                                   ") has no place in a record");
            }
            lines_.push_back(line);
            start = end + 1;
        }
        return std::nullopt;
    }

    static bool blank(const Line& line) {
        return line.text.find_first_not_of(" \t") == std::string_view::npos;
    }

    // The tag lines from the first non-blank line on; `next` is the first
    // line after them.
    std::optional<RecordError> read_tags(std::size_t& next) {
        while (next < lines_.size() && blank(lines_[next]))
            ++next;
        for (; next < lines_.size(); ++next) {
            const Line& line = lines_[next];
            const std::size_t first = line.text.find_first_not_of(" \t");
            if (first == std::string_view::npos || line.text[first] != '[') break;
            if (auto e = read_tag(line, first)) return *e;
        }
        if (tags_.empty()) {
            const Line& at = next < lines_.size() ? lines_[next] : lines_.back();
            return fail(RecordProblem::kMissingTag, at.number, 1,
                        "a record starts with its tags, such as [Variant \"standard\"]");
        }
        return std::nullopt;
    }

    // [Name "value"]
    std::optional<RecordError> read_tag(const Line& line, std::size_t at) {
        const std::string_view t = line.text;
        const std::size_t name_start = at + 1;
        std::size_t i = name_start;
        while (i < t.size() && std::isalpha(static_cast<unsigned char>(t[i])))
            ++i;
        const std::string name(t.substr(name_start, i - name_start));
        if (name.empty())
            return fail_at(RecordProblem::kSyntax, line, i, "a tag is [Name \"value\"]: no name");
        const std::size_t gap = i;
        while (i < t.size() && is_space(t[i]))
            ++i;
        if (i == gap || i >= t.size() || t[i] != '"') {
            return fail_at(RecordProblem::kSyntax, line, i,
                           "a tag is [Name \"value\"]: the value follows the name in quotes");
        }
        const std::size_t value_start = ++i;
        const std::size_t close = t.find('"', value_start);
        if (close == std::string_view::npos)
            return fail_at(RecordProblem::kSyntax, line, t.size(), "the tag's value is not closed");
        i = close + 1;
        while (i < t.size() && is_space(t[i]))
            ++i;
        if (i >= t.size() || t[i] != ']')
            return fail_at(RecordProblem::kSyntax, line, i, "the tag is not closed with ]");
        if (t.find_first_not_of(" \t", i + 1) != std::string_view::npos) {
            return fail_at(RecordProblem::kSyntax, line, t.find_first_not_of(" \t", i + 1),
                           "one tag per line: nothing may follow the ]");
        }
        if (!known_tag(name)) {
            return fail_at(RecordProblem::kUnknownTag, line, name_start,
                           "unknown tag " + name +
                               "; the tags are Variant, Geese, GeeseSideways, Start, "
                               "TimeControl, Result, EndReason, Created and Ended");
        }
        const Tag tag{std::string(t.substr(value_start, close - value_start)), line.number,
                      column_of(t, value_start)};
        const auto [it, inserted] = tags_.emplace(name, tag);
        if (!inserted) {
            return fail_at(RecordProblem::kDuplicateTag, line, name_start,
                           "the tag " + name + " is given twice (first on line " +
                               std::to_string(it->second.line) + ")");
        }
        return std::nullopt;
    }

    static bool known_tag(std::string_view name) {
        namespace t = record_tag;
        for (std::string_view known :
             {t::kVariant, t::kGeese, t::kGeeseSideways, t::kStart, t::kTimeControl, t::kResult,
              t::kEndReason, t::kCreated, t::kEnded}) {
            if (name == known) return true;
        }
        return false;
    }

    const Tag* tag(std::string_view name) const {
        const auto it = tags_.find(std::string(name));
        return it == tags_.end() ? nullptr : &it->second;
    }

    RecordError missing(std::string_view name, std::string_view example) const {
        const Tag& first = std::min_element(tags_.begin(), tags_.end(), [](auto& a, auto& b) {
                               return a.second.line < b.second.line;
                           })->second;
        return fail(RecordProblem::kMissingTag, first.line, 1,
                    "the record has no " + std::string(name) + " tag, such as [" +
                        std::string(name) + " \"" + std::string(example) + "\"]");
    }

    std::optional<RecordError> interpret_tags() {
        namespace t = record_tag;
        GameRecord& record = parsed_.record;
        const Tag* variant = tag(t::kVariant);
        if (variant == nullptr) return missing(t::kVariant, "standard");
        VariantOptions options;
        if (const Tag* geese = tag(t::kGeese)) {
            const std::string& v = geese->value;
            if (v.empty() || v.size() > 2 || v.find_first_not_of("0123456789") != std::string::npos)
                return fail_at(RecordProblem::kBadTagValue, *geese,
                               "Geese is the number of geese at the start (13, 15 or 17)");
            options.geese = std::stoi(v);
        }
        if (const Tag* sideways = tag(t::kGeeseSideways)) {
            if (sideways->value != "true" && sideways->value != "false")
                return fail_at(RecordProblem::kBadTagValue, *sideways,
                               "GeeseSideways is true or false");
            options.geese_sideways = sideways->value == "true";
        }
        Result<const Variant*> found = Variant::find(variant->value, options);
        if (!found) {
            if (found.error().code != ErrorCode::kInvalidOptions)
                return fail_at(RecordProblem::kUnknownVariant, *variant, found.error().message);
            const Tag* at = tag(t::kGeese) ? tag(t::kGeese) : tag(t::kGeeseSideways);
            return fail_at(RecordProblem::kBadOptions, *at, found.error().message);
        }
        record.variant = *found;
        if (const Tag* start = tag(t::kStart)) {
            Result<Position> parsed = parse_position_code(**found, start->value);
            if (!parsed) return fail_at(RecordProblem::kBadStart, *start, parsed.error().message);
            const GameStatus status = evaluate_status(*parsed, 0);
            if (status.over()) {
                return fail_at(RecordProblem::kBadStart, *start,
                               "the game would already be over in this position (" +
                                   std::string(outcome_name(status.outcome)) + ", " +
                                   std::string(end_reason_name(status.reason)) + ")");
            }
            if (count_legal_moves(*parsed, kMaxStartLegalMoves + 1) > kMaxStartLegalMoves) {
                return fail_at(RecordProblem::kStartTooComplex, *start,
                               "the position has more than " + std::to_string(kMaxStartLegalMoves) +
                                   " legal moves (jump paths), more than a game may start with");
            }
            record.start = custom_start(*parsed);
        }
        if (const Tag* control = tag(t::kTimeControl)) {
            auto parsed = parse_time_control(control->value);
            if (!parsed) return fail_at(RecordProblem::kBadTagValue, *control, parsed.error());
            record.time_control = *parsed;
        }
        const Tag* result = tag(t::kResult);
        if (result == nullptr) return missing(t::kResult, "*");
        const auto outcome = result_named(result->value);
        if (!outcome) {
            return fail_at(RecordProblem::kBadTagValue, *result,
                           "Result is fox_side_wins, geese_win, draw or * (no result), not " +
                               shown(result->value));
        }
        record.result = *outcome;
        if (const Tag* end = tag(t::kEndReason)) {
            const auto named = record_end_named(end->value);
            if (!named) {
                return fail_at(RecordProblem::kBadTagValue, *end,
                               "unknown EndReason " + shown(end->value) +
                                   "; docs/game-records.md lists them (resignation, "
                                   "geese_below_threshold, ...)");
            }
            record.end = *named;
        }
        for (std::string_view name : {t::kCreated, t::kEnded}) {
            const Tag* time = tag(name);
            if (time == nullptr) continue;
            const auto seconds = parse_record_time(time->value);
            if (!seconds) {
                return fail_at(RecordProblem::kBadTagValue, *time,
                               std::string(name) +
                                   " is a UTC time to the second, such as 2026-12-01T12:00:00Z");
            }
            (name == t::kCreated ? record.created : record.ended) = *seconds;
        }
        if (record.created && record.ended && *record.ended < *record.created)
            return fail_at(RecordProblem::kBadTagValue, *tag(t::kEnded), "Ended is before Created");
        return std::nullopt;
    }

    static std::optional<Outcome> result_named(std::string_view word) {
        for (Outcome o :
             {Outcome::kOngoing, Outcome::kFoxSideWins, Outcome::kGeeseWin, Outcome::kDraw}) {
            if (word == record_result_name(o)) return o;
        }
        return std::nullopt;
    }

    // The movetext: [N.] move [{comment}] ... result
    std::optional<RecordError> read_moves(std::size_t next) {
        game_.emplace(parsed_.record.start_position());
        for (; next < lines_.size(); ++next) {
            const Line& line = lines_[next];
            for (std::size_t i = 0; i < line.text.size();) {
                if (is_space(line.text[i])) {
                    ++i;
                    continue;
                }
                if (finished_) {
                    return fail_at(RecordProblem::kSyntax, line, i,
                                   "nothing may follow the result that ends the moves");
                }
                if (auto e = read_token(line, i)) return *e;
            }
        }
        if (!finished_) {
            const Line& last = lines_.back();
            return fail_at(RecordProblem::kSyntax, last, last.text.size(),
                           "the moves end with the result (fox_side_wins, geese_win, draw, or * "
                           "when there is none), which is missing");
        }
        return std::nullopt;
    }

    // One token at `i`, which it moves past.
    std::optional<RecordError> read_token(const Line& line, std::size_t& i) {
        const std::string_view t = line.text;
        if (t[i] == '{') return read_comment(line, i);
        std::size_t end = i;
        while (end < t.size() && !is_space(t[end]) && t[end] != '{')
            ++end;
        std::string_view token = t.substr(i, end - i);
        const std::size_t at = i;
        i = end;
        if (token.front() == '[') {
            return fail_at(RecordProblem::kSyntax, line, at,
                           "tags come before the moves, one per line");
        }
        if (token.front() == '}')
            return fail_at(RecordProblem::kSyntax, line, at, "a } without its {");
        if (std::isdigit(static_cast<unsigned char>(token.front()))) {
            const std::size_t digits = token.find_first_not_of("0123456789");
            if (digits == std::string_view::npos || token[digits] != '.') {
                return fail_at(RecordProblem::kSyntax, line, at,
                               "a move number is digits and a dot, such as 12., not " +
                                   shown(token) + " (results are words: draw, geese_win, ...)");
            }
            if (auto e = read_number(line, at, token.substr(0, digits))) return *e;
            token.remove_prefix(digits + 1);
            if (token.empty()) return std::nullopt;
            return read_move(line, at + digits + 1, token);
        }
        if (const auto result = result_named(token)) return read_result(line, at, *result);
        return read_move(line, at, token);
    }

    std::optional<RecordError> read_number(const Line& line, std::size_t at,
                                           std::string_view digits) {
        if (number_pending_)
            return fail_at(RecordProblem::kSyntax, line, at, "a move number follows a move number");
        const int expected = game_->position().ply() + 1;
        if (digits.size() > 7 || std::stoi(std::string(digits)) != expected) {
            return fail_at(RecordProblem::kBadMoveNumber, line, at,
                           "move number " + std::string(digits) + ", but this move is ply " +
                               std::to_string(expected) +
                               " (records number every ply, not pairs of moves)");
        }
        number_pending_ = true;
        return std::nullopt;
    }

    std::optional<RecordError> read_move(const Line& line, std::size_t at, std::string_view token) {
        number_pending_ = false;
        comment_allowed_ = false;
        auto& played = parsed_.played;
        const int ply = game_->position().ply() + 1;
        if (played.size() >= kMaxRecordMoves) {
            return fail_at(RecordProblem::kTooManyMoves, line, at,
                           "a record holds at most " + std::to_string(kMaxRecordMoves) + " moves");
        }
        if (ply > kMaxPly) {
            return fail_at(RecordProblem::kTooManyMoves, line, at,
                           "the ply counter would pass " + std::to_string(kMaxPly));
        }
        const Board& board = game_->position().board();
        if (Result<MovePath> path = parse_move(board, token); !path)
            return fail_at(RecordProblem::kBadNotation, line, at, path.error().message);
        Result<Move> move = game_->play(token);
        if (!move) {
            RecordError e = fail_at(RecordProblem::kIllegalMove, line, at,
                                    "ply " + std::to_string(ply) + ": " + std::string(token) +
                                        " is not legal: " + move.error().message);
            e.ply = ply;
            e.move = std::string(token.substr(0, kMaxNotationLength));
            return e;
        }
        played.push_back({*move, game_->position(), game_->status()});
        parsed_.record.moves.push_back({format_move(board, *move), ""});
        comment_allowed_ = true;
        return std::nullopt;
    }

    std::optional<RecordError> read_comment(const Line& line, std::size_t& i) {
        const std::string_view t = line.text;
        const std::size_t at = i;
        const std::size_t close = t.find('}', at);
        if (close == std::string_view::npos) {
            return fail_at(RecordProblem::kBadComment, line, at,
                           "the comment is not closed with } on its line");
        }
        i = close + 1;
        std::string_view text = t.substr(at + 1, close - at - 1);
        if (const auto open = text.find('{'); open != std::string_view::npos)
            return fail_at(RecordProblem::kBadComment, line, at + 1 + open, "a { inside a comment");
        if (!comment_allowed_ || number_pending_) {
            return fail_at(RecordProblem::kBadComment, line, at,
                           "a comment follows the move it is about, at most one per move");
        }
        comment_allowed_ = false;
        const std::size_t first = text.find_first_not_of(" \t");
        text = first == std::string_view::npos
                   ? std::string_view()
                   : text.substr(first, text.find_last_not_of(" \t") - first + 1);
        if (static_cast<std::size_t>(column_of(text, text.size()) - 1) > kMaxCommentChars) {
            return fail_at(
                RecordProblem::kBadComment, line, at,
                "a comment is at most " + std::to_string(kMaxCommentChars) + " characters");
        }
        parsed_.record.moves.back().comment = std::string(text);
        return std::nullopt;
    }

    std::optional<RecordError> read_result(const Line& line, std::size_t at, Outcome result) {
        if (number_pending_)
            return fail_at(RecordProblem::kSyntax, line, at, "a move number with no move after it");
        if (result != parsed_.record.result) {
            return fail_at(RecordProblem::kResultMismatch, line, at,
                           "the moves end with the result " +
                               std::string(record_result_name(result)) +
                               ", but the Result tag says " +
                               std::string(record_result_name(parsed_.record.result)));
        }
        finished_ = true;
        return std::nullopt;
    }

    // The result and end reason against what the moves establish; an end
    // by the rules fills in a missing EndReason.
    std::optional<RecordError> check_ending() {
        GameRecord& record = parsed_.record;
        const GameStatus status = game_->status();
        const Tag* end = tag(record_tag::kEndReason);
        if (end == nullptr && status.over()) record.end.rules = status.reason;
        const RecordOutcome played{status, game_->position().side_to_move(), record.moves.size()};
        const auto mismatch = ending_mismatch(played, record.result, record.end);
        if (!mismatch) return std::nullopt;
        return fail_at(RecordProblem::kResultMismatch, end ? *end : *tag(record_tag::kResult),
                       *mismatch);
    }

    std::string_view text_;
    std::vector<Line> lines_;
    std::map<std::string, Tag> tags_;
    ParsedRecord parsed_;
    std::optional<Game> game_;
    bool number_pending_ = false;   // a move number was read, its move not yet
    bool comment_allowed_ = false;  // right after a move without a comment
    bool finished_ = false;         // the result was read
};

}  // namespace

Result<ParsedRecord, RecordError> parse_record(std::string_view text) {
    return RecordParser(text).parse();
}

}  // namespace foxgeese
