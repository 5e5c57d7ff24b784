#include "storage/postgres_game_store.h"

#include <pqxx/pqxx>

namespace foxgeese::storage {
namespace {

// Timestamps cross the wire as microseconds since the Unix epoch; these
// conversions are exact both ways.
#define FG_US(column) "(extract(epoch from " column ") * 1000000)::bigint"
#define FG_TS(param) "('epoch'::timestamptz + " param "::bigint * interval '1 microsecond')"

constexpr const char* kGameColumns =
    "g.game_id::text, g.variant, g.geese_option, g.geese_sideways, g.visibility, g.state,"
    " g.result, g.end_reason, g.start_position, g.start_geese, g.position, g.ply, g.quiet_plies,"
    " coalesce(g.fox_token_hash, ''), coalesce(g.geese_token_hash, ''), g.invite_code_hash,"
    " coalesce(g.fox_request_hash, ''), coalesce(g.geese_request_hash, ''),"
    " coalesce(g.create_request_hash, ''), g.draw_offered_by, " FG_US("g.created_at") ", " FG_US(
        "g.updated_at") ", coalesce(" FG_US("g.finished_at") ", 0), g.event_seq";
constexpr int kGameColumnCount = 24;

// Move columns of a table aliased `alias`; used twice, so built per alias.
std::string move_columns(const std::string& a) {
    return a + ".game_id::text, " + a + ".ply, " + a + ".notation, " + a + ".side, " + a +
           ".captured, " + a + ".position, " + a + ".state, " + a + ".result, " + a +
           ".end_reason, coalesce(" + a + ".request_hash, ''), " + a + ".response, " +
           "(extract(epoch from " + a + ".created_at) * 1000000)::bigint";
}
constexpr int kMoveColumnCount = 12;

std::string game_select_with_last_move() {
    return std::string("SELECT ") + kGameColumns + ", " + move_columns("m") +
           " FROM games g LEFT JOIN moves m ON m.game_id = g.game_id AND m.ply = g.ply";
}

GameRow read_game(const pqxx::row& row, int at = 0) {
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
    return g;
}

std::optional<MoveRow> read_move(const pqxx::row& row, int at) {
    if (row[at + 1].is_null()) return std::nullopt;  // LEFT JOIN found nothing
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
    return m;
}

// bytea parameters travel as text in PostgreSQL's hex input format.
std::string bytea_hex(const std::string& bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out = "\\x";
    out.reserve(2 + bytes.size() * 2);
    for (unsigned char c : bytes) {
        out += kDigits[c >> 4];
        out += kDigits[c & 15];
    }
    return out;
}

// How long the rows of a dead server's watchers stay before they are folded
// into seat_departures.
constexpr std::int64_t kPresenceRowRetentionUs = 10LL * 60 * 1'000'000;

// The i-th event body as a bytea parameter, NULL past the end.
std::optional<std::string> event_body(const std::vector<std::string>& events, std::size_t i) {
    if (i >= events.size()) return std::nullopt;
    return bytea_hex(events[i]);
}

std::optional<std::string> nonempty(const std::string& s) {
    if (s.empty()) return std::nullopt;
    return s;
}

std::optional<std::int64_t> nonzero(std::int64_t v) {
    if (v == 0) return std::nullopt;
    return v;
}

const char* list_statement(GameListFilter filter) {
    switch (filter) {
        case GameListFilter::kOpen:
            return "list_open_games";
        case GameListFilter::kActive:
            return "list_active_games";
        case GameListFilter::kRecent:
            return "list_recent_games";
    }
    return "list_open_games";
}

}  // namespace

void PostgresGameStore::prepare_statements(pqxx::connection& conn) {
    const std::string select = game_select_with_last_move();
    conn.prepare("insert_game",
                 "WITH g AS ("
                 " INSERT INTO games (game_id, variant, geese_option, geese_sideways, visibility,"
                 " state, start_position, start_geese, position, ply, quiet_plies,"
                 " fox_token_hash, geese_token_hash, invite_code_hash, fox_request_hash,"
                 " geese_request_hash, create_request_hash, created_at, updated_at)"
                 " VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,"
                 " $15, $16, $17, " FG_TS("$18") ", " FG_TS("$18") ")"
                 " ON CONFLICT (create_request_hash) WHERE create_request_hash IS NOT NULL"
                 " DO NOTHING RETURNING game_id, ply)"
                 " INSERT INTO position_occurrences (game_id, position_key, occurrences, last_ply)"
                 " SELECT game_id, $19, 1, ply FROM g RETURNING game_id");
    conn.prepare("find_game", select + " WHERE g.game_id = $1::uuid");
    conn.prepare("find_game_by_create_request", select + " WHERE g.create_request_hash = $1");
    conn.prepare("load_move_context",
                 std::string("SELECT ") + kGameColumns + ", " + move_columns("r") +
                     ", (SELECT string_agg(o.position_key || '=' || o.occurrences, '|')"
                     "   FROM position_occurrences o WHERE o.game_id = g.game_id"
                     "   AND o.last_ply >= g.ply - g.quiet_plies)"
                     " FROM games g LEFT JOIN moves r ON r.game_id = g.game_id"
                     " AND r.request_hash = $2 WHERE g.game_id = $1::uuid");
    conn.prepare(
        "apply_move",
        "WITH upd AS ("
        " UPDATE games SET position = $3, ply = $4, quiet_plies = $5, state = $6, result = $7,"
        " end_reason = $8, draw_offered_by = $9, updated_at = " FG_TS("$10") ","
        " finished_at = CASE WHEN $11::bigint IS NULL THEN NULL ELSE " FG_TS("$11") " END,"
        " event_seq = event_seq + $18"
        " WHERE game_id = $1::uuid AND ply = $2 AND state = 2 RETURNING game_id, event_seq),"
        " mv AS ("
        " INSERT INTO moves (game_id, ply, notation, side, captured, position, state, result,"
        " end_reason, request_hash, response, created_at)"
        " SELECT game_id, $4, $12, $13, $14, $3, $6, $7, $8, $15, $16::bytea, " FG_TS("$10")
        " FROM upd RETURNING game_id),"
        " occ AS ("
        " INSERT INTO position_occurrences (game_id, position_key, occurrences, last_ply)"
        " SELECT game_id, $17, 1, $4 FROM upd"
        " ON CONFLICT (game_id, position_key) DO UPDATE"
        " SET occurrences = position_occurrences.occurrences + 1, last_ply = excluded.last_ply"
        " RETURNING game_id),"
        // The move's events (1 to 3), numbered after the game's last one.
        " ev AS ("
        " INSERT INTO game_events (game_id, seq, body, created_at)"
        " SELECT upd.game_id, upd.event_seq - $18 + e.ord, e.body, " FG_TS("$10")
        " FROM upd, (VALUES (1, $19::bytea), (2, $20::bytea), (3, $21::bytea)) AS e(ord, body)"
        " WHERE e.ord <= $18 RETURNING game_id)"
        " SELECT pg_notify('foxgeese_events', $1::text) FROM mv, occ");
    conn.prepare("lock_game", std::string("SELECT ") + kGameColumns + ", " + move_columns("m") +
                                  " FROM games g LEFT JOIN moves m ON m.game_id = g.game_id"
                                  " AND m.ply = g.ply WHERE g.game_id = $1::uuid FOR UPDATE OF g");
    conn.prepare("update_game",
                 "UPDATE games SET state = $2, result = $3, end_reason = $4, fox_token_hash = $5,"
                 " geese_token_hash = $6, fox_request_hash = $7, geese_request_hash = $8,"
                 " draw_offered_by = $9, updated_at = " FG_TS("$10") ","
                 " finished_at = CASE WHEN $11::bigint IS NULL THEN NULL ELSE " FG_TS("$11") " END,"
                 " invite_code_hash = $12, event_seq = $13"
                 " WHERE game_id = $1::uuid");
    conn.prepare("insert_event",
                 "INSERT INTO game_events (game_id, seq, body, created_at)"
                 " VALUES ($1::uuid, $2, $3::bytea, " FG_TS("$4") ")");
    conn.prepare("events_after",
                 "SELECT seq, body FROM game_events WHERE game_id = $1::uuid AND seq > $2"
                 " ORDER BY seq");
    conn.prepare("notify_event", "SELECT pg_notify('foxgeese_events', $1)");
    conn.prepare("list_moves", "SELECT " + move_columns("m") +
                                   " FROM moves m WHERE m.game_id = $1::uuid AND m.ply <= $2"
                                   " ORDER BY m.ply");
    // One statement per listing, so each uses its partial index.
    const std::string page_filter =
        " AND ($1 = '' OR g.variant = $1)"
        " AND ($2::bigint IS NULL OR (g.{col}, g.game_id) < (" FG_TS("$2") ", $3::uuid))"
        " ORDER BY g.{col} DESC, g.game_id DESC LIMIT $4";
    auto listing = [&](const std::string& where, const std::string& column) {
        std::string sql = select + " WHERE " + where + page_filter;
        for (std::size_t at; (at = sql.find("{col}")) != std::string::npos;) {
            sql.replace(at, 5, column);
        }
        return sql;
    };
    conn.prepare("list_open_games", listing("g.state = 1 AND g.visibility = 2", "created_at"));
    conn.prepare("list_active_games", listing("g.state = 2 AND g.visibility = 2", "updated_at"));
    conn.prepare("list_recent_games", listing("g.state = 3 AND g.visibility = 2", "finished_at"));
    conn.prepare("list_moves_between",
                 "SELECT " + move_columns("m") +
                     " FROM moves m WHERE m.game_id = $1::uuid AND m.ply > $2 AND m.ply <= $3"
                     " ORDER BY m.ply");
    conn.prepare("presence_connect",
                 "WITH ins AS ("
                 " INSERT INTO seat_presence (game_id, side, watcher_id, server_id, connected_at,"
                 " refreshed_at, expires_at) VALUES ($1::uuid, $2, $3::uuid, $4, " FG_TS("$5") ", "
                 FG_TS("$5") ", " FG_TS("$6") ") ON CONFLICT DO NOTHING RETURNING game_id)"
                 " SELECT pg_notify('foxgeese_events', $1 || ' presence') FROM ins");
    conn.prepare("presence_disconnect",
                 "WITH del AS ("
                 " DELETE FROM seat_presence WHERE game_id = $1::uuid AND side = $2"
                 " AND watcher_id = $3::uuid RETURNING game_id),"
                 " dep AS ("
                 " INSERT INTO seat_departures (game_id, side, left_at)"
                 " SELECT game_id, $2, " FG_TS("$4") " FROM del"
                 " ON CONFLICT (game_id, side) DO UPDATE SET left_at = excluded.left_at"
                 " RETURNING game_id)"
                 " SELECT pg_notify('foxgeese_events', $1 || ' presence') FROM dep");
    conn.prepare("presence_refresh",
                 "UPDATE seat_presence SET refreshed_at = " FG_TS("$2") ", expires_at = " FG_TS(
                     "$3") " WHERE server_id = $1");
    // Rows of servers that died long ago: gone, with their last sign of life
    // kept as the departure time.
    conn.prepare("presence_expire",
                 "WITH del AS ("
                 " DELETE FROM seat_presence WHERE expires_at < " FG_TS("$1")
                 " RETURNING game_id, side, refreshed_at)"
                 " INSERT INTO seat_departures (game_id, side, left_at)"
                 " SELECT game_id, side, max(refreshed_at) FROM del GROUP BY game_id, side"
                 " ON CONFLICT (game_id, side) DO UPDATE"
                 " SET left_at = greatest(seat_departures.left_at, excluded.left_at)");
    conn.prepare("presence_drop_server",
                 "WITH del AS ("
                 " DELETE FROM seat_presence WHERE server_id = $1 RETURNING game_id, side),"
                 " dep AS ("
                 " INSERT INTO seat_departures (game_id, side, left_at)"
                 " SELECT DISTINCT game_id, side, " FG_TS("$2") " FROM del"
                 " ON CONFLICT (game_id, side) DO UPDATE SET left_at = excluded.left_at"
                 " RETURNING game_id)"
                 " SELECT pg_notify('foxgeese_events', game_id::text || ' presence')"
                 " FROM (SELECT DISTINCT game_id FROM dep) d");
    conn.prepare(
        "presence",
        "SELECT s.side,"
        " (SELECT " FG_US("min(p.connected_at)") " FROM seat_presence p"
        "  WHERE p.game_id = $1::uuid AND p.side = s.side AND p.expires_at > " FG_TS("$2") "),"
        " (SELECT " FG_US("greatest(max(d.left_at), (SELECT max(p.refreshed_at)"
                          " FROM seat_presence p WHERE p.game_id = $1::uuid AND p.side = s.side"
                          " AND p.expires_at <= " FG_TS("$2") "))")
        "  FROM seat_departures d WHERE d.game_id = $1::uuid AND d.side = s.side)"
        " FROM (VALUES (1::smallint), (2::smallint)) s(side) ORDER BY s.side");
    conn.prepare("ping", "SELECT 1");
    conn.prepare("schema_version",
                 "SELECT CASE WHEN to_regclass('schema_migrations') IS NULL THEN 0"
                 " ELSE (SELECT coalesce(max(version), 0) FROM schema_migrations) END");
    conn.prepare("games_by_state", "SELECT state, count(*) FROM games GROUP BY state");
}

bool PostgresGameStore::insert_game(const GameRow& g, const std::string& start_position_key) {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    const pqxx::result r = tx.exec_prepared(
        "insert_game", g.game_id, g.variant, g.geese_option, g.geese_sideways, g.visibility,
        g.state, g.start_position, g.start_geese, g.position, g.ply, g.quiet_plies,
        nonempty(g.fox_token_hash), nonempty(g.geese_token_hash), g.invite_code_hash,
        nonempty(g.fox_request_hash), nonempty(g.geese_request_hash),
        nonempty(g.create_request_hash), g.created_us, start_position_key);
    return r.size() == 1;
}

std::optional<GameWithLastMove> PostgresGameStore::find_game(const std::string& game_id) {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    const pqxx::result r = tx.exec_prepared("find_game", game_id);
    if (r.empty()) return std::nullopt;
    return GameWithLastMove{read_game(r[0]), read_move(r[0], kGameColumnCount)};
}

std::optional<GameWithLastMove> PostgresGameStore::find_game_by_create_request(
    const std::string& request_hash) {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    const pqxx::result r = tx.exec_prepared("find_game_by_create_request", request_hash);
    if (r.empty()) return std::nullopt;
    return GameWithLastMove{read_game(r[0]), read_move(r[0], kGameColumnCount)};
}

std::optional<MoveContext> PostgresGameStore::load_move_context(const std::string& game_id,
                                                                const std::string& request_hash) {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    const pqxx::result r = tx.exec_prepared("load_move_context", game_id, nonempty(request_hash));
    if (r.empty()) return std::nullopt;
    MoveContext context{read_game(r[0]), read_move(r[0], kGameColumnCount), {}};
    const pqxx::field window = r[0][kGameColumnCount + kMoveColumnCount];
    if (!window.is_null()) {
        const std::string text = window.as<std::string>();
        std::size_t start = 0;
        while (start <= text.size()) {
            std::size_t end = text.find('|', start);
            if (end == std::string::npos) end = text.size();
            const std::string item = text.substr(start, end - start);
            const std::size_t eq = item.rfind('=');
            if (eq != std::string::npos) {
                context.window_occurrences[item.substr(0, eq)] = std::stoi(item.substr(eq + 1));
            }
            start = end + 1;
        }
    }
    return context;
}

bool PostgresGameStore::apply_move(const MoveWrite& w) {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    const GameRow& g = w.game_after;
    const pqxx::result r = tx.exec_prepared(
        "apply_move", g.game_id, w.previous_ply, g.position, g.ply, g.quiet_plies, g.state,
        g.result, g.end_reason, g.draw_offered_by, g.updated_us, nonzero(g.finished_us),
        w.move.notation, w.move.side, w.move.captured, nonempty(w.move.request_hash),
        bytea_hex(w.move.response), w.position_key, static_cast<int>(w.events.size()),
        event_body(w.events, 0), event_body(w.events, 1), event_body(w.events, 2));
    return r.size() == 1;
}

std::optional<GameWithLastMove> PostgresGameStore::modify_game(const std::string& game_id,
                                                               const GameChange& change) {
    auto conn = pool_.acquire();
    pqxx::work tx(*conn);
    const pqxx::result r = tx.exec_prepared("lock_game", game_id);
    if (r.empty()) return std::nullopt;
    GameWithLastMove current{read_game(r[0]), read_move(r[0], kGameColumnCount)};
    std::vector<std::string> events;
    if (!change(current, events)) return current;  // rolls back: nothing was written
    GameRow& g = current.game;
    const std::int64_t first_seq = g.event_seq + 1;
    g.event_seq += static_cast<std::int64_t>(events.size());
    tx.exec_prepared(
        "update_game", g.game_id, g.state, g.result, g.end_reason, nonempty(g.fox_token_hash),
        nonempty(g.geese_token_hash), nonempty(g.fox_request_hash), nonempty(g.geese_request_hash),
        g.draw_offered_by, g.updated_us, nonzero(g.finished_us), g.invite_code_hash, g.event_seq);
    for (std::size_t i = 0; i < events.size(); ++i) {
        tx.exec_prepared("insert_event", g.game_id, first_seq + static_cast<std::int64_t>(i),
                         bytea_hex(events[i]), g.updated_us);
    }
    if (!events.empty()) tx.exec_prepared("notify_event", g.game_id);
    tx.commit();
    return current;
}

std::vector<GameEvent> PostgresGameStore::events_after(const std::string& game_id,
                                                       std::int64_t after_seq) {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    const pqxx::result r = tx.exec_prepared("events_after", game_id, after_seq);
    std::vector<GameEvent> events;
    events.reserve(r.size());
    for (const auto& row : r) {
        events.push_back(GameEvent{row[0].as<std::int64_t>(), pqxx::binarystring(row[1]).str()});
    }
    return events;
}

std::vector<MoveRow> PostgresGameStore::list_moves(const std::string& game_id, int up_to_ply) {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    const pqxx::result r = tx.exec_prepared("list_moves", game_id, up_to_ply);
    std::vector<MoveRow> moves;
    moves.reserve(r.size());
    for (const auto& row : r)
        moves.push_back(*read_move(row, 0));
    return moves;
}

GamePage PostgresGameStore::list_games(
    GameListFilter filter, const std::string& variant, int limit,
    const std::optional<std::pair<std::int64_t, std::string>>& after) {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    std::optional<std::int64_t> after_key;
    std::optional<std::string> after_id;
    if (after) {
        after_key = after->first;
        after_id = after->second;
    }
    // One extra row says whether another page follows.
    const pqxx::result r =
        tx.exec_prepared(list_statement(filter), variant, after_key, after_id, limit + 1);
    GamePage page;
    for (const auto& row : r) {
        if (static_cast<int>(page.games.size()) == limit) break;
        page.games.push_back(GameWithLastMove{read_game(row), read_move(row, kGameColumnCount)});
    }
    if (static_cast<int>(r.size()) > limit && !page.games.empty()) {
        const GameRow& last = page.games.back().game;
        const std::int64_t key = filter == GameListFilter::kOpen     ? last.created_us
                                 : filter == GameListFilter::kActive ? last.updated_us
                                                                     : last.finished_us;
        page.next_after = std::make_pair(key, last.game_id);
    }
    return page;
}

std::vector<MoveRow> PostgresGameStore::list_moves_between(const std::string& game_id,
                                                           int after_ply, int up_to_ply) {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    const pqxx::result r = tx.exec_prepared("list_moves_between", game_id, after_ply, up_to_ply);
    std::vector<MoveRow> moves;
    moves.reserve(r.size());
    for (const auto& row : r)
        moves.push_back(*read_move(row, 0));
    return moves;
}

void PostgresGameStore::presence_connect(const std::string& game_id, int side,
                                         const std::string& watcher_id,
                                         const std::string& server_id, std::int64_t now_us,
                                         std::int64_t expires_us) {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    tx.exec_prepared("presence_connect", game_id, side, watcher_id, server_id, now_us, expires_us);
}

void PostgresGameStore::presence_disconnect(const std::string& game_id, int side,
                                            const std::string& watcher_id, std::int64_t now_us) {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    tx.exec_prepared("presence_disconnect", game_id, side, watcher_id, now_us);
}

int PostgresGameStore::presence_refresh(const std::string& server_id, std::int64_t now_us,
                                        std::int64_t expires_us) {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    const int refreshed = static_cast<int>(
        tx.exec_prepared("presence_refresh", server_id, now_us, expires_us).affected_rows());
    tx.exec_prepared("presence_expire", now_us - kPresenceRowRetentionUs);
    return refreshed;
}

void PostgresGameStore::presence_drop_server(const std::string& server_id, std::int64_t now_us) {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    tx.exec_prepared("presence_drop_server", server_id, now_us);
}

std::pair<SeatPresence, SeatPresence> PostgresGameStore::presence(const std::string& game_id,
                                                                  std::int64_t now_us) {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    const pqxx::result r = tx.exec_prepared("presence", game_id, now_us);
    SeatPresence sides[2];
    for (const auto& row : r) {
        const int side = row[0].as<int>();
        if (side < 1 || side > 2) continue;
        SeatPresence& p = sides[side - 1];
        if (!row[1].is_null()) {
            p.connected = true;
            p.since_us = row[1].as<std::int64_t>();
        } else if (!row[2].is_null()) {
            p.since_us = row[2].as<std::int64_t>();
        }
    }
    return {sides[0], sides[1]};
}

bool PostgresGameStore::ping() {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    return tx.exec_prepared("ping").size() == 1;
}

int PostgresGameStore::schema_version() {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    return tx.exec_prepared("schema_version")[0][0].as<int>();
}

std::vector<std::pair<int, std::int64_t>> PostgresGameStore::games_by_state() {
    auto conn = pool_.acquire();
    pqxx::nontransaction tx(*conn);
    std::vector<std::pair<int, std::int64_t>> out;
    for (const auto& row : tx.exec_prepared("games_by_state")) {
        out.emplace_back(row[0].as<int>(), row[1].as<std::int64_t>());
    }
    return out;
}

}  // namespace foxgeese::storage
