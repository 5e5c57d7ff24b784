// The column lists the store's SELECTs share and the readers that turn their
// rows into records: kept together so that a list and its reader cannot
// drift apart.
#pragma once

#include <optional>
#include <pqxx/row>
#include <string>

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

// SQL literals for the stored codes, for statement texts.
template <class Code>
std::string sql_code(Code code) {
    return std::to_string(static_cast<int>(code));
}

}  // namespace foxgeese::storage
