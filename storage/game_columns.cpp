#include "storage/game_columns.h"

#include <pqxx/binarystring>
#include <pqxx/field>

namespace foxgeese::storage {

const char* const kGameColumns =
    "g.game_id::text, g.variant, g.geese_option, g.geese_sideways, g.visibility, g.state,"
    " g.result, g.end_reason, g.start_position, g.start_geese, g.position, g.ply, g.quiet_plies,"
    " coalesce(g.fox_token_hash, ''), coalesce(g.geese_token_hash, ''), g.invite_code_hash,"
    " coalesce(g.fox_request_hash, ''), coalesce(g.geese_request_hash, ''),"
    " coalesce(g.create_request_hash, ''), g.draw_offered_by, " FG_US("g.created_at") ", " FG_US(
        "g.updated_at") ", coalesce(" FG_US("g.finished_at") ", 0), g.event_seq,"
    " coalesce(" FG_US("g.fox_retry_until") ", 0), coalesce(" FG_US("g.geese_retry_until") ", 0),"
    " g.time_control, g.initial_ms, g.increment_ms, g.move_period_ms, g.first_move_ms,"
    " g.fox_clock_ms, g.geese_clock_ms, g.start_ply, coalesce(" FG_US("g.turn_started_at") ", 0),"
    " coalesce(" FG_US("g.deadline_at") ", 0), g.rematch_offered_by,"
    " coalesce(g.rematch_game_id::text, ''), coalesce(g.rematch_of_game_id::text, ''),"
    " coalesce(g.fox_reserved_hash, ''), coalesce(g.geese_reserved_hash, ''), g.imported,"
    " coalesce(g.record_time_control, ''), " FG_US("g.record_created_at") ", " FG_US(
        "g.record_ended_at") ", g.bot_side, g.bot_level, coalesce(g.bot_client_key, '')";

std::string move_columns(const std::string& a) {
    return a + ".game_id::text, " + a + ".ply, " + a + ".notation, " + a + ".side, " + a +
           ".captured, " + a + ".position, " + a + ".state, " + a + ".result, " + a +
           ".end_reason, coalesce(" + a + ".request_hash, ''), " + a + ".response, " +
           "(extract(epoch from " + a + ".created_at) * 1000000)::bigint, " + a + ".think_ms, " +
           a + ".fox_clock_ms, " + a + ".geese_clock_ms, coalesce(" + a + ".comment, '')";
}

std::string game_with_last_move_select() {
    return std::string("SELECT ") + kGameColumns + ", " + move_columns("m") +
           " FROM games g LEFT JOIN moves m ON m.game_id = g.game_id AND m.ply = g.ply";
}

GameRow read_game(const pqxx::row& row, int at) {
    GameRow g;
    g.game_id = row[at + 0].as<std::string>();
    g.variant = row[at + 1].as<std::string>();
    if (!row[at + 2].is_null()) g.geese_option = row[at + 2].as<int>();
    if (!row[at + 3].is_null()) g.geese_sideways = row[at + 3].as<bool>();
    g.visibility = row[at + 4].as<int>();
    g.state = row[at + 5].as<int>();
    g.result = row[at + 6].as<int>();
    g.end_reason = row[at + 7].as<int>();
    g.start_position = row[at + 8].as<std::string>();
    g.start_geese = row[at + 9].as<int>();
    g.position = row[at + 10].as<std::string>();
    g.ply = row[at + 11].as<int>();
    g.quiet_plies = row[at + 12].as<int>();
    g.fox_token_hash = row[at + 13].as<std::string>();
    g.geese_token_hash = row[at + 14].as<std::string>();
    g.invite_code_hash = row[at + 15].as<std::string>();
    g.fox_request_hash = row[at + 16].as<std::string>();
    g.geese_request_hash = row[at + 17].as<std::string>();
    g.create_request_hash = row[at + 18].as<std::string>();
    g.draw_offered_by = row[at + 19].as<int>();
    g.created_us = row[at + 20].as<std::int64_t>();
    g.updated_us = row[at + 21].as<std::int64_t>();
    g.finished_us = row[at + 22].as<std::int64_t>();
    g.event_seq = row[at + 23].as<std::int64_t>();
    g.fox_retry_until_us = row[at + 24].as<std::int64_t>();
    g.geese_retry_until_us = row[at + 25].as<std::int64_t>();
    g.time_control = row[at + 26].as<int>();
    g.initial_ms = row[at + 27].as<std::int64_t>();
    g.increment_ms = row[at + 28].as<std::int64_t>();
    g.move_period_ms = row[at + 29].as<std::int64_t>();
    g.first_move_ms = row[at + 30].as<std::int64_t>();
    g.fox_clock_ms = row[at + 31].as<std::int64_t>();
    g.geese_clock_ms = row[at + 32].as<std::int64_t>();
    g.start_ply = row[at + 33].as<int>();
    g.turn_started_us = row[at + 34].as<std::int64_t>();
    g.deadline_us = row[at + 35].as<std::int64_t>();
    g.rematch_offered_by = row[at + 36].as<int>();
    g.rematch_game_id = row[at + 37].as<std::string>();
    g.rematch_of_game_id = row[at + 38].as<std::string>();
    g.fox_reserved_hash = row[at + 39].as<std::string>();
    g.geese_reserved_hash = row[at + 40].as<std::string>();
    g.imported = row[at + 41].as<bool>();
    g.record_time_control = row[at + 42].as<std::string>();
    if (!row[at + 43].is_null()) g.record_created_us = row[at + 43].as<std::int64_t>();
    if (!row[at + 44].is_null()) g.record_ended_us = row[at + 44].as<std::int64_t>();
    g.bot_side = row[at + 45].as<int>();
    g.bot_level = row[at + 46].as<int>();
    g.bot_client_key = row[at + 47].as<std::string>();
    return g;
}

std::optional<MoveRow> read_move(const pqxx::row& row, int at) {
    if (row[at + 1].is_null()) return std::nullopt;
    MoveRow m;
    m.game_id = row[at + 0].as<std::string>();
    m.ply = row[at + 1].as<int>();
    m.notation = row[at + 2].as<std::string>();
    m.side = row[at + 3].as<int>();
    m.captured = row[at + 4].as<std::string>();
    m.position = row[at + 5].as<std::string>();
    m.state = row[at + 6].as<int>();
    m.result = row[at + 7].as<int>();
    m.end_reason = row[at + 8].as<int>();
    m.request_hash = row[at + 9].as<std::string>();
    if (!row[at + 10].is_null()) m.response = pqxx::binarystring(row[at + 10]).str();
    m.created_us = row[at + 11].as<std::int64_t>();
    if (!row[at + 12].is_null()) m.think_ms = row[at + 12].as<std::int64_t>();
    if (!row[at + 13].is_null()) m.fox_clock_ms = row[at + 13].as<std::int64_t>();
    if (!row[at + 14].is_null()) m.geese_clock_ms = row[at + 14].as<std::int64_t>();
    m.comment = row[at + 15].as<std::string>();
    return m;
}

std::string sql_int(int code) {
    return std::to_string(code);
}

}  // namespace foxgeese::storage
