// The column lists the store's SELECTs share and the readers that turn their
// rows into records: kept together so that a list and its reader cannot
// drift apart.
#pragma once

#include <optional>
#include <pqxx/row>
#include <string>
#include <unordered_map>
#include <vector>

#include "storage/game_records.h"

// Timestamps cross the wire as microseconds since the Unix epoch; these SQL
// fragments convert exactly both ways. Macros, so that statement texts stay
// compile-time string literals.
#define FG_US(column) "(extract(epoch from " column ") * 1000000)::bigint"
#define FG_TS(param) "('epoch'::timestamptz + " param "::bigint * interval '1 microsecond')"

namespace foxgeese::storage {

// Every column of `games g` that read_game() reads, in its order.
extern const char* const kGameColumns;
inline constexpr int kGameColumnCount = 48;

// The columns of a moves table aliased `alias`, as read_move() reads them.
std::string move_columns(const std::string& alias);
inline constexpr int kMoveColumnCount = 16;

// "SELECT <game>, <its last move> FROM games g LEFT JOIN moves m ...".
std::string game_with_last_move_select();

GameRow read_game(const pqxx::row& row, int at = 0);
// nullopt when a LEFT JOIN found no move.
std::optional<MoveRow> read_move(const pqxx::row& row, int at);
// A move's captured points as moves.captured keeps them (space-separated:
// a point's name has no space), and back.
std::string captured_column(const std::vector<std::string>& captured);

// Values written as NULL: an empty text (no request_id, no token), a zero
// timestamp (never).
std::optional<std::string> nonempty(const std::string& s);
std::optional<std::int64_t> nonzero(std::int64_t v);

// The repetition window as load_move_context reads it: the keys, counts and
// last plies of its positions, an array each, in one order.
std::unordered_map<std::string, Occurrence> read_window(const pqxx::row& row, int at);
inline constexpr int kWindowColumnCount = 3;

// SQL literals for the stored codes, for statement texts.
template <class Code>
std::string sql_code(Code code) {
    return std::to_string(static_cast<int>(code));
}

}  // namespace foxgeese::storage
