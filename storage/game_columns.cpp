#include "storage/game_columns.h"

#include <pqxx/array>
#include <pqxx/binarystring>
#include <pqxx/field>
#include <pqxx/strconv>
#include <stdexcept>

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

namespace {

template <class Code>
Code code(const pqxx::field& f) {
    return static_cast<Code>(f.as<int>());
}

std::vector<std::string> captured_list(const std::string& column) {
    std::vector<std::string> points;
    for (std::size_t start = 0; start < column.size();) {
        std::size_t end = column.find(' ', start);
        if (end == std::string::npos) end = column.size();
        if (end > start) points.push_back(column.substr(start, end - start));
        start = end + 1;
    }
    return points;
}

// The elements of a one-dimensional array (none for NULL), with libpqxx's
// parser of PostgreSQL's array text.
std::vector<std::string> array_elements(const pqxx::field& f) {
    std::vector<std::string> elements;
    if (f.is_null()) return elements;
    pqxx::array_parser parser = f.as_array();
    for (auto next = parser.get_next(); next.first != pqxx::array_parser::done;
         next = parser.get_next()) {
        if (next.first == pqxx::array_parser::string_value)
            elements.push_back(std::move(next.second));
    }
    return elements;
}

}  // namespace

GameRow read_game(const pqxx::row& row, int at) {
    const auto f = [&](int i) { return row[at + i]; };
    GameRow g;
    g.game_id = f(0).as<std::string>();
    g.variant = f(1).as<std::string>();
    if (!f(2).is_null()) g.geese_option = f(2).as<int>();
    if (!f(3).is_null()) g.geese_sideways = f(3).as<bool>();
    g.visibility = code<Visibility>(f(4));
    g.state = code<GameState>(f(5));
    g.result = code<ResultCode>(f(6));
    g.end_reason = code<EndReasonCode>(f(7));
    g.start_position = f(8).as<std::string>();
    g.start_geese = f(9).as<int>();
    g.position = f(10).as<std::string>();
    g.ply = f(11).as<int>();
    g.quiet_plies = f(12).as<int>();
    g.seats.fox.token_hash = f(13).as<std::string>();
    g.seats.geese.token_hash = f(14).as<std::string>();
    g.seats.invite_code_hash = f(15).as<std::string>();
    g.seats.fox.request_hash = f(16).as<std::string>();
    g.seats.geese.request_hash = f(17).as<std::string>();
    g.create_request_hash = f(18).as<std::string>();
    g.draw_offered_by = code<Side>(f(19));
    g.created_us = f(20).as<std::int64_t>();
    g.updated_us = f(21).as<std::int64_t>();
    g.finished_us = f(22).as<std::int64_t>();
    g.event_seq = f(23).as<std::int64_t>();
    g.seats.fox.retry_until_us = f(24).as<std::int64_t>();
    g.seats.geese.retry_until_us = f(25).as<std::int64_t>();
    g.clocks.time_control = code<TimeControl>(f(26));
    g.clocks.initial_ms = f(27).as<std::int64_t>();
    g.clocks.increment_ms = f(28).as<std::int64_t>();
    g.clocks.move_period_ms = f(29).as<std::int64_t>();
    g.clocks.first_move_ms = f(30).as<std::int64_t>();
    g.clocks.fox_ms = f(31).as<std::int64_t>();
    g.clocks.geese_ms = f(32).as<std::int64_t>();
    g.start_ply = f(33).as<int>();
    g.clocks.turn_started_us = f(34).as<std::int64_t>();
    g.clocks.deadline_us = f(35).as<std::int64_t>();
    g.rematch.offered_by = code<Side>(f(36));
    g.rematch.game_id = f(37).as<std::string>();
    g.rematch.of_game_id = f(38).as<std::string>();
    g.seats.fox.reserved_hash = f(39).as<std::string>();
    g.seats.geese.reserved_hash = f(40).as<std::string>();
    g.record.imported = f(41).as<bool>();
    g.record.time_control = f(42).as<std::string>();
    if (!f(43).is_null()) g.record.created_us = f(43).as<std::int64_t>();
    if (!f(44).is_null()) g.record.ended_us = f(44).as<std::int64_t>();
    g.bot.side = code<Side>(f(45));
    g.bot.level = f(46).as<int>();
    g.bot.client_key = f(47).as<std::string>();
    return g;
}

std::optional<std::string> nonempty(const std::string& s) {
    if (s.empty()) return std::nullopt;
    return s;
}

std::optional<std::int64_t> nonzero(std::int64_t v) {
    if (v == 0) return std::nullopt;
    return v;
}

std::string captured_column(const std::vector<std::string>& captured) {
    std::string column;
    for (const std::string& point : captured) {
        if (!column.empty()) column += ' ';
        column += point;
    }
    return column;
}

std::unordered_map<std::string, Occurrence> read_window(const pqxx::row& row, int at) {
    const std::vector<std::string> keys = array_elements(row[at]);
    const std::vector<std::string> counts = array_elements(row[at + 1]);
    const std::vector<std::string> last_plies = array_elements(row[at + 2]);
    if (counts.size() != keys.size() || last_plies.size() != keys.size())
        throw std::runtime_error("the repetition window's arrays differ in length");
    std::unordered_map<std::string, Occurrence> window;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        Occurrence& o = window[keys[i]];
        pqxx::from_string(counts[i], o.count);
        pqxx::from_string(last_plies[i], o.last_ply);
    }
    return window;
}

std::optional<MoveRow> read_move(const pqxx::row& row, int at) {
    if (row[at + 1].is_null()) return std::nullopt;
    MoveRow m;
    m.game_id = row[at + 0].as<std::string>();
    m.ply = row[at + 1].as<int>();
    m.notation = row[at + 2].as<std::string>();
    m.side = code<Side>(row[at + 3]);
    m.captured = captured_list(row[at + 4].as<std::string>());
    // The canonical notation's first point is the origin, its last the
    // destination ("d5xd3xd1").
    m.from = m.notation.substr(0, m.notation.find_first_of("-x"));
    m.to = m.notation.substr(m.notation.find_last_of("-x") + 1);
    m.position = row[at + 5].as<std::string>();
    m.state = code<GameState>(row[at + 6]);
    m.result = code<ResultCode>(row[at + 7]);
    m.end_reason = code<EndReasonCode>(row[at + 8]);
    m.request_hash = row[at + 9].as<std::string>();
    if (!row[at + 10].is_null()) m.response = pqxx::binarystring(row[at + 10]).str();
    m.created_us = row[at + 11].as<std::int64_t>();
    if (!row[at + 12].is_null()) m.think_ms = row[at + 12].as<std::int64_t>();
    if (!row[at + 13].is_null()) m.fox_clock_ms = row[at + 13].as<std::int64_t>();
    if (!row[at + 14].is_null()) m.geese_clock_ms = row[at + 14].as<std::int64_t>();
    m.comment = row[at + 15].as<std::string>();
    return m;
}

}  // namespace foxgeese::storage
