#include "engine/record/game_record.h"

#include <array>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <utility>

#include "engine/record/record_text.h"
#include "engine/rules/position_code.h"

namespace foxgeese {
namespace {

constexpr std::array<std::pair<OffRulesEnd, std::string_view>, 7> kOffRulesNames = {{
    {OffRulesEnd::kResignation, "resignation"},
    {OffRulesEnd::kDrawAgreed, "draw_agreed"},
    {OffRulesEnd::kTimeout, "timeout"},
    {OffRulesEnd::kAborted, "aborted"},
    {OffRulesEnd::kOpponentLeft, "opponent_left"},
    {OffRulesEnd::kCancelled, "cancelled"},
    {OffRulesEnd::kExpired, "expired"},
}};

// The ends by the rules, whose names are the engine's.
constexpr std::array<EndReason, 5> kRulesEnds = {
    EndReason::kGeeseBelowThreshold, EndReason::kPenFilled, EndReason::kNoLegalMove,
    EndReason::kThreefoldRepetition, EndReason::kFiftyMoveRule};

constexpr std::int64_t kDaySeconds = 24 * 3600;
// Bounds of the TimeControl tag: generous, since a record may come from
// anywhere, but finite.
constexpr std::int64_t kMaxInitialMs = kDaySeconds * 1000;
constexpr std::int64_t kMaxIncrementMs = 3600 * 1000;
constexpr int kMaxDaysPerMove = 365;

// Milliseconds as seconds with at most three decimals and no trailing zeros.
std::string seconds_text(std::int64_t ms) {
    std::string text = std::to_string(ms / 1000);
    if (const std::int64_t fraction = ms % 1000; fraction != 0) {
        std::string digits = std::to_string(1000 + fraction).substr(1);
        while (digits.back() == '0')
            digits.pop_back();
        text += "." + digits;
    }
    return text;
}

bool all_digits(std::string_view text) {
    if (text.empty()) return false;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

// Digits without a leading zero (but "0"), at most `max_digits` of them.
std::optional<std::int64_t> plain_number(std::string_view text, std::size_t max_digits) {
    if (!all_digits(text) || text.size() > max_digits || (text.size() > 1 && text[0] == '0'))
        return std::nullopt;
    std::int64_t value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
}

// "90" or "90.5": seconds with up to three decimals, as milliseconds.
std::optional<std::int64_t> parse_seconds(std::string_view text) {
    const auto dot = text.find('.');
    const auto whole = plain_number(text.substr(0, dot), 6);
    if (!whole) return std::nullopt;
    std::int64_t ms = *whole * 1000;
    if (dot == std::string_view::npos) return ms;
    std::string_view fraction = text.substr(dot + 1);
    if (!all_digits(fraction) || fraction.size() > 3) return std::nullopt;
    std::int64_t scale = 100;
    for (char c : fraction) {
        ms += (c - '0') * scale;
        scale /= 10;
    }
    return ms;
}

// A fixed-width number field of a date, or -1.
int field(std::string_view text, std::size_t at, std::size_t width) {
    const std::string_view digits = text.substr(at, width);
    if (digits.size() != width || !all_digits(digits)) return -1;
    int value = 0;
    std::from_chars(digits.data(), digits.data() + width, value);
    return value;
}

}  // namespace

std::string_view record_end_name(RecordEnd end) {
    if (end.rules != EndReason::kNone) return end_reason_name(end.rules);
    for (const auto& [value, name] : kOffRulesNames) {
        if (value == end.other) return name;
    }
    return "";
}

std::optional<RecordEnd> record_end_named(std::string_view name) {
    for (EndReason reason : kRulesEnds) {
        if (end_reason_name(reason) == name) return RecordEnd{reason, OffRulesEnd::kNone};
    }
    for (const auto& [value, known] : kOffRulesNames) {
        if (known == name) return RecordEnd{EndReason::kNone, value};
    }
    return std::nullopt;
}

std::optional<Position> custom_start(const Position& start) {
    if (start == Position(start.variant())) return std::nullopt;
    return start;
}

std::string_view record_result_name(Outcome result) {
    return result == Outcome::kOngoing ? "*" : outcome_name(result);
}

std::string format_time_control(const RecordTimeControl& control) {
    switch (control.kind) {
        case RecordTimeControl::Kind::kNone:
            return "-";
        case RecordTimeControl::Kind::kRealTime:
            return seconds_text(control.initial_ms) + "+" + seconds_text(control.increment_ms);
        case RecordTimeControl::Kind::kCorrespondence:
            return "1/" + std::to_string(control.days_per_move * kDaySeconds);
    }
    return "-";
}

Result<RecordTimeControl, std::string> parse_time_control(std::string_view text) {
    RecordTimeControl control;
    if (text == "-") return control;
    if (text.starts_with("1/")) {
        const auto seconds = plain_number(text.substr(2), 9);
        if (!seconds || *seconds % kDaySeconds != 0 || *seconds == 0 ||
            *seconds / kDaySeconds > kMaxDaysPerMove) {
            return std::string(
                "a correspondence time control is 1/<seconds> for whole days, "
                "1 to 365: 1/86400 for a day per move");
        }
        control.kind = RecordTimeControl::Kind::kCorrespondence;
        control.days_per_move = static_cast<int>(*seconds / kDaySeconds);
        return control;
    }
    const auto plus = text.find('+');
    const auto initial = parse_seconds(text.substr(0, plus));
    const auto increment =
        plus == std::string_view::npos ? std::nullopt : parse_seconds(text.substr(plus + 1));
    if (!initial || !increment) {
        return std::string(
            "a time control is \"-\" (none), <initial>+<increment> in seconds "
            "such as 300+3, or 1/<seconds> per move such as 1/86400");
    }
    if (*initial == 0 || *initial > kMaxInitialMs || *increment > kMaxIncrementMs) {
        return std::string(
            "a real-time control has an initial time above 0 and up to 86400 s, "
            "and an increment up to 3600 s");
    }
    control.kind = RecordTimeControl::Kind::kRealTime;
    control.initial_ms = *initial;
    control.increment_ms = *increment;
    return control;
}

std::string format_record_time(std::int64_t unix_seconds) {
    using namespace std::chrono;
    const sys_seconds at{seconds(unix_seconds)};
    const sys_days day = floor<days>(at);
    const year_month_day date{day};
    const hh_mm_ss time{at - day};
    char text[32];
    std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02dZ",
                  static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                  static_cast<unsigned>(date.day()), static_cast<int>(time.hours().count()),
                  static_cast<int>(time.minutes().count()),
                  static_cast<int>(time.seconds().count()));
    return text;
}

std::optional<std::int64_t> parse_record_time(std::string_view text) {
    // 2026-12-01T12:00:00Z
    if (text.size() != 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' ||
        text[13] != ':' || text[16] != ':' || text[19] != 'Z')
        return std::nullopt;
    const int y = field(text, 0, 4), mo = field(text, 5, 2), d = field(text, 8, 2);
    const int h = field(text, 11, 2), mi = field(text, 14, 2), s = field(text, 17, 2);
    if (y < 1970 || mo < 0 || d < 0 || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59)
        return std::nullopt;
    using namespace std::chrono;
    const year_month_day date{year{y}, month{static_cast<unsigned>(mo)},
                              day{static_cast<unsigned>(d)}};
    if (!date.ok()) return std::nullopt;
    const auto midnight = sys_days{date}.time_since_epoch();
    return duration_cast<seconds>(midnight).count() + h * 3600 + mi * 60 + s;
}

std::string_view record_problem_name(RecordProblem problem) {
    switch (problem) {
        case RecordProblem::kSyntax:
            return "syntax";
        case RecordProblem::kTooLong:
            return "too_long";
        case RecordProblem::kTooManyMoves:
            return "too_many_moves";
        case RecordProblem::kUnknownTag:
            return "unknown_tag";
        case RecordProblem::kDuplicateTag:
            return "duplicate_tag";
        case RecordProblem::kMissingTag:
            return "missing_tag";
        case RecordProblem::kBadTagValue:
            return "bad_tag_value";
        case RecordProblem::kUnknownVariant:
            return "unknown_variant";
        case RecordProblem::kBadOptions:
            return "bad_options";
        case RecordProblem::kBadStart:
            return "bad_start";
        case RecordProblem::kStartTooComplex:
            return "start_too_complex";
        case RecordProblem::kBadNotation:
            return "bad_notation";
        case RecordProblem::kBadMoveNumber:
            return "bad_move_number";
        case RecordProblem::kBadComment:
            return "bad_comment";
        case RecordProblem::kIllegalMove:
            return "illegal_move";
        case RecordProblem::kResultMismatch:
            return "result_mismatch";
    }
    return "syntax";
}

std::string format_record(const GameRecord& record) {
    std::string out;
    const auto tag = [&out](std::string_view name, std::string_view value) {
        out.append("[").append(name).append(" \"").append(value).append("\"]\n");
    };
    const Variant& variant = *record.variant;
    tag(record_tag::kVariant, variant.name());
    if (variant.has_options()) {
        tag(record_tag::kGeese, std::to_string(variant.geese_option()));
        tag(record_tag::kGeeseSideways, variant.geese_sideways() ? "true" : "false");
    }
    if (record.start) tag(record_tag::kStart, format_position_code(*record.start));
    tag(record_tag::kTimeControl, format_time_control(record.time_control));
    tag(record_tag::kResult, record_result_name(record.result));
    if (record.end.named()) tag(record_tag::kEndReason, record_end_name(record.end));
    if (record.created) tag(record_tag::kCreated, format_record_time(*record.created));
    if (record.ended) tag(record_tag::kEnded, format_record_time(*record.ended));
    out += '\n';
    int ply = record.start_position().ply();
    for (const RecordMove& move : record.moves) {
        out.append(std::to_string(++ply)).append(". ").append(move.notation);
        if (!move.comment.empty())
            out.append(" {").append(record_safe_text(move.comment)).append("}");
        out += '\n';
    }
    out.append(record_result_name(record.result)).append("\n");
    return out;
}

}  // namespace foxgeese
