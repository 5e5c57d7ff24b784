// Game records: a game as text, kept and shared the way chess players keep
// PGN. Tag lines ([Name "value"]) give the variant, its options, a custom
// start, the time control, the result, the end reason and the dates; the
// moves follow in notation, each after its ply number and with an optional
// {comment}, and the result closes them. docs/game-records.md defines the
// format. parse_record() checks every move with the engine and that the
// result agrees with the moves; format_record() writes the canonical form,
// which parse_record() reads back to the same record.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/error.h"
#include "engine/rules/game_status.h"
#include "engine/rules/move.h"
#include "engine/rules/position.h"
#include "engine/rules/variant.h"

namespace foxgeese {

// How a record travels over HTTP (ExportGame's reply).
inline constexpr std::string_view kRecordMediaType = "text/plain; charset=utf-8";

// Limits of what parse_record() reads: a longer record is refused unread.
constexpr std::size_t kMaxRecordBytes = 48 * 1024;
constexpr std::size_t kMaxRecordMoves = 2000;
constexpr std::size_t kMaxCommentChars = 500;

// The tags, in the order format_record() writes them.
namespace record_tag {
inline constexpr std::string_view kVariant = "Variant";
inline constexpr std::string_view kGeese = "Geese";                  // option geese
inline constexpr std::string_view kGeeseSideways = "GeeseSideways";  // option geese_sideways
inline constexpr std::string_view kStart = "Start";
inline constexpr std::string_view kTimeControl = "TimeControl";
inline constexpr std::string_view kResult = "Result";
inline constexpr std::string_view kEndReason = "EndReason";
inline constexpr std::string_view kCreated = "Created";
inline constexpr std::string_view kEnded = "Ended";
}  // namespace record_tag

// The ways a game on the server ends besides the rules.
enum class OffRulesEnd {
    kNone,
    kResignation,
    kDrawAgreed,
    kTimeout,
    kAborted,
    kOpponentLeft,
    kCancelled,
    kExpired,
};

// How a game ended, as the EndReason tag names it: by the rules (the
// engine's reason) or besides them. Neither: the record names no reason (a
// game in progress, or one whose record stops before the end).
struct RecordEnd {
    EndReason rules = EndReason::kNone;
    OffRulesEnd other = OffRulesEnd::kNone;

    bool named() const { return rules != EndReason::kNone || other != OffRulesEnd::kNone; }
    friend bool operator==(const RecordEnd&, const RecordEnd&) = default;
};

// The tag's word: the engine's name of an end by the rules
// ("geese_below_threshold"), or "resignation", "draw_agreed", "timeout",
// "aborted", "opponent_left", "cancelled", "expired"; "" when none.
std::string_view record_end_name(RecordEnd end);
std::optional<RecordEnd> record_end_named(std::string_view name);

// The TimeControl tag: "-" (none), "<initial>+<increment>" in seconds (real
// time, up to three decimals), or "1/<seconds>" (correspondence: one move
// per that many seconds, whole days).
struct RecordTimeControl {
    enum class Kind { kNone, kRealTime, kCorrespondence };
    Kind kind = Kind::kNone;
    std::int64_t initial_ms = 0;
    std::int64_t increment_ms = 0;
    int days_per_move = 0;

    friend bool operator==(const RecordTimeControl&, const RecordTimeControl&) = default;
};

std::string format_time_control(const RecordTimeControl& control);
// The time control, or what is wrong with the text.
Result<RecordTimeControl, std::string> parse_time_control(std::string_view text);

// The Created and Ended tags: UTC to the second, "2026-12-01T12:00:00Z",
// years 1970 to 9999.
std::string format_record_time(std::int64_t unix_seconds);
std::optional<std::int64_t> parse_record_time(std::string_view text);

struct RecordMove {
    std::string notation;  // canonical
    std::string comment;   // empty: none

    friend bool operator==(const RecordMove&, const RecordMove&) = default;
};

struct GameRecord {
    const Variant* variant = nullptr;  // with the game's options
    std::optional<Position> start;     // a custom start; none: the variant's
    RecordTimeControl time_control;
    Outcome result = Outcome::kOngoing;  // kOngoing is written "*"
    RecordEnd end;
    std::optional<std::int64_t> created;  // Unix seconds
    std::optional<std::int64_t> ended;
    std::vector<RecordMove> moves;

    Position start_position() const { return start ? *start : Position(*variant); }
    friend bool operator==(const GameRecord&, const GameRecord&) = default;
};

// The start as GameRecord::start keeps it: none for the variant's own.
std::optional<Position> custom_start(const Position& start);

// The Result tag's words: "fox_side_wins", "geese_win", "draw", "*".
std::string_view record_result_name(Outcome result);

// The canonical text of a valid record (what parse_record() accepted, or a
// stored game's), ending with a newline. A comment's control characters
// (which parse_record() refuses, but an older server stored) are written as
// U+FFFD, so the text is always one parse_record() reads.
std::string format_record(const GameRecord& record);

// Why a record was refused, with a stable name for each kind.
enum class RecordProblem {
    kSyntax,
    kTooLong,
    kTooManyMoves,
    kUnknownTag,
    kDuplicateTag,
    kMissingTag,
    kBadTagValue,
    kUnknownVariant,
    kBadOptions,
    kBadStart,
    kStartTooComplex,
    kBadNotation,
    kBadMoveNumber,
    kBadComment,
    kIllegalMove,
    kResultMismatch,
};

// "syntax", "too_long", "unknown_tag", ... (lowercase, stable).
std::string_view record_problem_name(RecordProblem problem);

// Where and why: 1-based line and column (in characters), and a message a
// person can act on. For kIllegalMove also the ply the move would have made
// and the move as written.
struct RecordError {
    RecordProblem problem = RecordProblem::kSyntax;
    int line = 1;
    int column = 1;
    std::string message;
    int ply = 0;
    std::string move;
};

// One move of a parsed record as the engine played it.
struct PlayedMove {
    Move move;
    Position after;
    GameStatus status;  // the rules' verdict right after the move
};

struct ParsedRecord {
    GameRecord record;
    std::vector<PlayedMove> played;  // one per record move, in order
};

// Reads a record and replays it: every tag known and valid, every move
// legal, and the result and end reason those the moves allow. Untrusted
// input never throws: a refusal is a RecordError.
Result<ParsedRecord, RecordError> parse_record(std::string_view text);

}  // namespace foxgeese
