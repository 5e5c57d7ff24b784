#include "storage/statements.h"

#include <pqxx/connection>

#include "storage/game_columns.h"
#include "storage/game_records.h"

namespace foxgeese::storage {
namespace {

const std::string kActive = sql_code(GameState::kActive);
const std::string kPublic = sql_code(Visibility::kPublic);

// One more occurrence of a position in a game's repetition history, as the
// tail of an INSERT INTO position_occurrences.
const std::string kCountOccurrence =
    " ON CONFLICT (game_id, position_key) DO UPDATE"
    " SET occurrences = position_occurrences.occurrences + 1, last_ply = excluded.last_ply";

}  // namespace

const NamedStatement& insert_game_statement() {
    // The start position is the game's first occurrence in its repetition
    // history. A create retry that lost a race to its twin, or a rematch
    // created a second time, inserts nothing.
    static const NamedStatement statement(
        "insert_game",
        "WITH g AS ("
        " INSERT INTO games (game_id, variant, geese_option, geese_sideways, visibility, state,"
        " start_position, start_geese, position, ply, quiet_plies, fox_token_hash,"
        " geese_token_hash, invite_code_hash, fox_request_hash, geese_request_hash,"
        " create_request_hash, created_at, updated_at, fox_retry_until, geese_retry_until,"
        " time_control, initial_ms, increment_ms, move_period_ms, first_move_ms, fox_clock_ms,"
        " geese_clock_ms, start_ply, turn_started_at, deadline_at, rematch_of_game_id,"
        " fox_reserved_hash, geese_reserved_hash, imported, record_time_control,"
        " record_created_at, record_ended_at, result, end_reason, finished_at, bot_side,"
        " bot_level, bot_client_key)"
        " VALUES (:game_id::uuid, :variant, :geese_option, :geese_sideways, :visibility, :state,"
        " :start_position, :start_geese, :position, :ply, :quiet_plies, :fox_token_hash,"
        " :geese_token_hash, :invite_code_hash, :fox_request_hash, :geese_request_hash,"
        " :create_request_hash, " FG_TS(":created_us") ", " FG_TS(":created_us") ", " FG_TS(
            ":fox_retry_until_us") ", " FG_TS(":geese_retry_until_us") ","
        " :time_control, :initial_ms, :increment_ms, :move_period_ms, :first_move_ms,"
        " :fox_clock_ms, :geese_clock_ms, :start_ply, " FG_TS(":turn_started_us") ", " FG_TS(
            ":deadline_us") ", :rematch_of_game_id::uuid, :fox_reserved_hash,"
        " :geese_reserved_hash, :imported, :record_time_control, " FG_TS(
            ":record_created_us") ", " FG_TS(":record_ended_us") ", :result, :end_reason, " FG_TS(
            ":finished_us") ", :bot_side, :bot_level, :bot_client_key)"
        " ON CONFLICT DO NOTHING RETURNING game_id, start_ply)"
        " INSERT INTO position_occurrences (game_id, position_key, occurrences, last_ply)"
        " SELECT game_id, :start_position_key, 1, start_ply FROM g RETURNING game_id");
    return statement;
}

const NamedStatement& update_game_statement() {
    static const NamedStatement statement(
        "update_game",
        "UPDATE games SET state = :state, result = :result, end_reason = :end_reason,"
        " fox_token_hash = :fox_token_hash, geese_token_hash = :geese_token_hash,"
        " fox_request_hash = :fox_request_hash, geese_request_hash = :geese_request_hash,"
        " draw_offered_by = :draw_offered_by, updated_at = " FG_TS(":updated_us") ","
        " finished_at = " FG_TS(":finished_us") ", invite_code_hash = :invite_code_hash,"
        " event_seq = :event_seq, fox_retry_until = " FG_TS(":fox_retry_until_us") ","
        " geese_retry_until = " FG_TS(":geese_retry_until_us") ", fox_clock_ms = :fox_clock_ms,"
        " geese_clock_ms = :geese_clock_ms, turn_started_at = " FG_TS(":turn_started_us") ","
        " deadline_at = " FG_TS(":deadline_us") ", rematch_offered_by = :rematch_offered_by,"
        " rematch_game_id = :rematch_game_id::uuid, fox_reserved_hash = :fox_reserved_hash,"
        " geese_reserved_hash = :geese_reserved_hash WHERE game_id = :game_id::uuid");
    return statement;
}

const NamedStatement& apply_move_statement() {
    // MakeMove's one write. The compare-and-swap on (ply, state) makes exactly
    // one of two racing moves apply, and the one on the row version
    // (:previous_version) that nothing else changed the row since it was
    // read; a move with a request_id (:request_hash) applies only if that
    // request_id made no move yet (a move judged on a copy of the game kept
    // by the replica was not checked for it when read). The rest of the
    // statement only runs for the game row it updated. A move ends any claim
    // on the bot's move.
    static const NamedStatement statement(
        "apply_move",
        "WITH upd AS ("
        " UPDATE games SET position = :position, ply = :ply, quiet_plies = :quiet_plies,"
        " state = :state, result = :result, end_reason = :end_reason,"
        " draw_offered_by = :draw_offered_by, updated_at = " FG_TS(":updated_us") ","
        " finished_at = " FG_TS(":finished_us") ", event_seq = event_seq + :event_count,"
        " fox_retry_until = " FG_TS(":fox_retry_until_us") ","
        " geese_retry_until = " FG_TS(":geese_retry_until_us") ", fox_clock_ms = :fox_clock_ms,"
        " geese_clock_ms = :geese_clock_ms, turn_started_at = " FG_TS(":turn_started_us") ","
        " deadline_at = " FG_TS(":deadline_us") ", bot_claimed_until = NULL, bot_claimed_by = NULL"
        " WHERE game_id = :game_id::uuid AND ply = :previous_ply AND state = " +
            kActive +
            " AND xmin = :previous_version::text::xid"
            " AND (:request_hash::text IS NULL OR NOT EXISTS (SELECT 1 FROM moves d"
            " WHERE d.game_id = :game_id::uuid AND d.request_hash = :request_hash))"
            " RETURNING game_id, event_seq, xmin::text::bigint AS version),"
            " mv AS ("
            " INSERT INTO moves (game_id, ply, notation, side, captured, position, state, result,"
            " end_reason, request_hash, response, created_at, think_ms, fox_clock_ms,"
            " geese_clock_ms)"
            " SELECT game_id, :ply, :notation, :side, :captured, :position, :state, :result,"
            " :end_reason, :request_hash, nullif(:response::bytea, ''), " FG_TS(":updated_us") ","
            " :think_ms, :move_fox_clock_ms, :move_geese_clock_ms FROM upd RETURNING game_id),"
            " occ AS ("
            " INSERT INTO position_occurrences (game_id, position_key, occurrences, last_ply)"
            " SELECT game_id, :position_key, 1, :ply FROM upd" +
            kCountOccurrence +
            " RETURNING game_id, occurrences),"
            // The move's events (1 to 3), numbered after the game's last one.
            " ev AS ("
            " INSERT INTO game_events (game_id, seq, body, kind, created_at)"
            " SELECT upd.game_id, upd.event_seq - :event_count + e.ord, e.body, e.kind, " FG_TS(
                ":updated_us") " FROM upd, (VALUES (1, :event_1::bytea, :kind_1::smallint),"
                               " (2, :event_2::bytea, :kind_2::smallint),"
                               " (3, :event_3::bytea, :kind_3::smallint)) AS e(ord, body, kind)"
                               " WHERE e.ord <= :event_count RETURNING game_id)"
                               // No NOTIFY here: it would hold the database's notify lock
                               // through this commit (service/watch/change_notifier.h).
                               " SELECT upd.version, upd.event_seq, occ.occurrences"
                               " FROM upd, mv, occ",
        {"response", "event_1", "event_2", "event_3"});
    return statement;
}

const NamedStatement& apply_moves_statement() {
    // apply_move for many games at once (the group commit of
    // storage/move_batcher.h): one array per column, a row per move, each
    // row with apply_move's compare-and-swap of its own, so a move refused
    // writes nothing and leaves the others alone. The rows are of distinct
    // games. The bytea values (the reply, the events) are slices of :blob at
    // the 0-based offsets given. The answer has a row per applied move,
    // named by its place in the arrays (1-based).
    static const NamedStatement statement(
        "apply_moves",
        "WITH i AS ("
        " SELECT * FROM unnest(:game_ids::uuid[], :previous_plies::int[],"
        " :previous_versions::bigint[], :positions::text[], :plies::int[],"
        " :quiet_plies::int[], :states::int[], :results::int[], :end_reasons::int[],"
        " :draws_offered_by::int[], :updated_us::bigint[], :finished_us::bigint[],"
        " :fox_retries_until_us::bigint[], :geese_retries_until_us::bigint[],"
        " :fox_clocks_ms::bigint[], :geese_clocks_ms::bigint[], :turns_started_us::bigint[],"
        " :deadlines_us::bigint[], :notations::text[], :sides::int[], :captured::text[],"
        " :request_hashes::text[], :response_at::int[], :response_length::int[],"
        " :think_ms::bigint[], :move_fox_clocks_ms::bigint[], :move_geese_clocks_ms::bigint[],"
        " :position_keys::text[], :event_counts::int[], :event_1_at::int[],"
        " :event_1_length::int[], :kinds_1::int[], :event_2_at::int[], :event_2_length::int[],"
        " :kinds_2::int[], :event_3_at::int[], :event_3_length::int[], :kinds_3::int[])"
        " WITH ORDINALITY AS i(game_id, previous_ply, previous_version, position, ply,"
        " quiet_plies, state, result, end_reason, draw_offered_by, updated_us, finished_us,"
        " fox_retry_until_us, geese_retry_until_us, fox_clock_ms, geese_clock_ms,"
        " turn_started_us, deadline_us, notation, side, captured, request_hash, response_at,"
        " response_length, think_ms, move_fox_clock_ms, move_geese_clock_ms, position_key,"
        " event_count, event_1_at, event_1_length, kind_1, event_2_at, event_2_length, kind_2,"
        " event_3_at, event_3_length, kind_3, ord)),"
        " upd AS ("
        " UPDATE games g SET position = i.position, ply = i.ply, quiet_plies = i.quiet_plies,"
        " state = i.state, result = i.result, end_reason = i.end_reason,"
        " draw_offered_by = i.draw_offered_by, updated_at = " FG_TS("i.updated_us") ","
        " finished_at = " FG_TS("i.finished_us") ", event_seq = g.event_seq + i.event_count,"
        " fox_retry_until = " FG_TS("i.fox_retry_until_us") ","
        " geese_retry_until = " FG_TS("i.geese_retry_until_us") ","
        " fox_clock_ms = i.fox_clock_ms, geese_clock_ms = i.geese_clock_ms,"
        " turn_started_at = " FG_TS("i.turn_started_us") ","
        " deadline_at = " FG_TS("i.deadline_us") ", bot_claimed_until = NULL,"
        " bot_claimed_by = NULL FROM i"
        " WHERE g.game_id = i.game_id AND g.ply = i.previous_ply AND g.state = " +
            kActive +
            " AND g.xmin = i.previous_version::text::xid"
            " AND (i.request_hash IS NULL OR NOT EXISTS (SELECT 1 FROM moves d"
            " WHERE d.game_id = i.game_id AND d.request_hash = i.request_hash))"
            " RETURNING g.game_id, g.event_seq, g.xmin::text::bigint AS version, i.ord),"
            " mv AS ("
            " INSERT INTO moves (game_id, ply, notation, side, captured, position, state, result,"
            " end_reason, request_hash, response, created_at, think_ms, fox_clock_ms,"
            " geese_clock_ms)"
            " SELECT i.game_id, i.ply, i.notation, i.side, i.captured, i.position, i.state,"
            " i.result, i.end_reason, i.request_hash,"
            " nullif(substring(:blob::bytea from i.response_at + 1 for i.response_length), ''),"
            " " FG_TS("i.updated_us") ", i.think_ms, i.move_fox_clock_ms,"
            " i.move_geese_clock_ms FROM upd JOIN i ON i.ord = upd.ord RETURNING game_id),"
            " occ AS ("
            " INSERT INTO position_occurrences (game_id, position_key, occurrences, last_ply)"
            " SELECT i.game_id, i.position_key, 1, i.ply FROM upd JOIN i ON i.ord = upd.ord" +
            kCountOccurrence +
            " RETURNING game_id, occurrences),"
            " ev AS ("
            " INSERT INTO game_events (game_id, seq, body, kind, created_at)"
            " SELECT upd.game_id, upd.event_seq - i.event_count + e.ord,"
            " substring(:blob::bytea from e.at + 1 for e.length), e.kind, " FG_TS(
                "i.updated_us") " FROM upd JOIN i ON i.ord = upd.ord,"
                                " LATERAL (VALUES (1, i.event_1_at, i.event_1_length, i.kind_1),"
                                " (2, i.event_2_at, i.event_2_length, i.kind_2),"
                                " (3, i.event_3_at, i.event_3_length, i.kind_3))"
                                " AS e(ord, at, length, kind)"
                                " WHERE e.ord <= i.event_count RETURNING game_id)"
                                " SELECT upd.ord, upd.version, upd.event_seq, occ.occurrences"
                                " FROM upd JOIN occ ON occ.game_id = upd.game_id",
        {"blob"});
    return statement;
}

const NamedStatement& insert_imported_move_statement() {
    // One move of an imported game, with its place in the repetition
    // history, written in the transaction that inserts the game.
    static const NamedStatement statement(
        "insert_imported_move",
        "WITH mv AS ("
        " INSERT INTO moves (game_id, ply, notation, side, captured, position, state, result,"
        " end_reason, created_at, comment)"
        " VALUES (:game_id::uuid, :ply, :notation, :side, :captured, :position, :state, :result,"
        " :end_reason, " FG_TS(":created_us") ", :comment) RETURNING game_id)"
        " INSERT INTO position_occurrences (game_id, position_key, occurrences, last_ply)"
        " SELECT game_id, :position_key, 1, :ply FROM mv" +
            kCountOccurrence);
    return statement;
}

namespace {

void prepare_game_statements(pqxx::connection& conn) {
    const std::string select = game_with_last_move_select();
    insert_game_statement().prepare(conn);
    conn.prepare("find_game", select + " WHERE g.game_id = $1::uuid");
    conn.prepare("find_game_by_create_request", select + " WHERE g.create_request_hash = $1");
    // Two indexed lookups rather than one OR, which could not use both indexes.
    conn.prepare("find_game_by_token",
                 select +
                     " WHERE g.game_id = COALESCE("
                     "(SELECT game_id FROM games WHERE fox_token_hash = $1 LIMIT 1),"
                     "(SELECT game_id FROM games WHERE geese_token_hash = $1 LIMIT 1))");
    conn.prepare("lock_game", select + " WHERE g.game_id = $1::uuid FOR UPDATE OF g");
    update_game_statement().prepare(conn);
    // The sweeper's next game: the longest overdue one nobody else holds.
    conn.prepare("lock_next_overdue",
                 select + " WHERE g.deadline_at <= " FG_TS("$1") " AND g.state IN (" +
                     sql_code(GameState::kWaiting) + ", " + sql_code(GameState::kActive) +
                     ") ORDER BY g.deadline_at LIMIT 1 FOR UPDATE OF g SKIP LOCKED");
    // One statement per listing, so each uses its partial index.
    const std::string page_filter =
        " AND ($1 = '' OR g.variant = $1)"
        " AND ($2::bigint IS NULL OR (g.{col}, g.game_id) < (" FG_TS("$2") ", $3::uuid))"
        " ORDER BY g.{col} DESC, g.game_id DESC LIMIT $4";
    auto listing = [&](const std::string& which, const std::string& column) {
        std::string sql =
            select + " WHERE " + which + " AND g.visibility = " + kPublic + page_filter;
        for (std::size_t at; (at = sql.find("{col}")) != std::string::npos;)
            sql.replace(at, 5, column);
        return sql;
    };
    const auto in_state = [](GameState state) { return "g.state = " + sql_code(state); };
    // Open to anyone: a rematch waiting for its players is not (its seats are
    // kept for them).
    conn.prepare(
        "list_open_games",
        listing(in_state(GameState::kWaiting) + " AND g.rematch_of_game_id IS NULL", "created_at"));
    // In progress: newest first too, by a column a move leaves alone (see
    // migration 0012: a move that changes no indexed column is a HOT update).
    conn.prepare("list_active_games", listing(in_state(GameState::kActive), "created_at"));
    // Games played here; imported ones have their own listing.
    conn.prepare("list_recent_games",
                 listing(in_state(GameState::kFinished) + " AND NOT g.imported", "finished_at"));
    conn.prepare("list_imported_games", listing("g.imported", "created_at"));
}

void prepare_move_statements(pqxx::connection& conn) {
    // MakeMove's one read: the game, an earlier try with the same request id,
    // the positions of the quiet-ply window as three arrays in one order
    // (keys, counts, last plies), and the row version (xmin: see
    // MoveContext::version).
    conn.prepare("load_move_context",
                 std::string("SELECT ") + kGameColumns + ", " + move_columns("r") +
                     ", w.keys, w.counts, w.last_plies, g.xmin::text::bigint"
                     " FROM games g LEFT JOIN moves r ON r.game_id = g.game_id"
                     " AND r.request_hash = $2"
                     " CROSS JOIN LATERAL (SELECT array_agg(o.position_key) AS keys,"
                     "   array_agg(o.occurrences) AS counts, array_agg(o.last_ply) AS last_plies"
                     "   FROM position_occurrences o WHERE o.game_id = g.game_id"
                     "   AND o.last_ply >= g.ply - g.quiet_plies) w"
                     " WHERE g.game_id = $1::uuid");
    apply_move_statement().prepare(conn);
    apply_moves_statement().prepare(conn);
    insert_imported_move_statement().prepare(conn);
    conn.prepare("list_moves", "SELECT " + move_columns("m") +
                                   " FROM moves m WHERE m.game_id = $1::uuid AND m.ply <= $2"
                                   " ORDER BY m.ply");
    conn.prepare("list_moves_between",
                 "SELECT " + move_columns("m") +
                     " FROM moves m WHERE m.game_id = $1::uuid AND m.ply > $2 AND m.ply <= $3"
                     " ORDER BY m.ply");
}

void prepare_bot_statements(pqxx::connection& conn) {
    // A game in progress whose side to move is its bot's, and whose bot move
    // nobody holds a live claim on.
    const std::string bot_game = "state = " + kActive + " AND bot_side <> 0";
    const std::string owed =
        " AND side_to_move = bot_side"
        " AND (bot_claimed_until IS NULL OR bot_claimed_until <= " FG_TS("$1") ")";
    // The owed bot moves the workers choose from (service/core/bot_moves.h):
    // each client's $3 most urgent ones (earliest deadline, then longest
    // waiting), every client's first before any client's second and so on,
    // $2 at most, each with the searches its client has running on any
    // replica (live claims) at $1.
    conn.prepare("owed_bot_moves",
                 "WITH bots AS (SELECT game_id, ply, side_to_move, bot_side, bot_client_key,"
                 " deadline_at, updated_at, bot_claimed_until FROM games WHERE " +
                     bot_game +
                     "),"
                     " running AS (SELECT bot_client_key, count(*) AS n FROM bots"
                     " WHERE bot_claimed_until > " FG_TS("$1") " GROUP BY bot_client_key),"
                     " ranked AS (SELECT *, row_number() OVER (PARTITION BY bot_client_key"
                     " ORDER BY deadline_at NULLS LAST, updated_at) AS turn FROM bots WHERE true" +
                     owed +
                     ")"
                     " SELECT h.game_id::text, h.ply, coalesce(h.bot_client_key, ''),"
                     " coalesce(" FG_US("h.deadline_at") ", 0), " FG_US("h.updated_at") ","
                     " coalesce(r.n, 0) FROM ranked h LEFT JOIN running r"
                     " ON r.bot_client_key IS NOT DISTINCT FROM h.bot_client_key"
                     " WHERE h.turn <= $3"
                     " ORDER BY h.turn, h.deadline_at NULLS LAST, h.updated_at LIMIT $2");
    // Claims game $4's owed bot move unless another replica is claiming it
    // at this moment (SKIP LOCKED): a lease until $2 for server $3. The
    // locked row is re-checked against `owed` as it stands, so two replicas
    // never both hold a live claim.
    conn.prepare("claim_bot_move",
                 "WITH next AS (SELECT game_id, bot_claimed_by FROM games WHERE game_id = $4::uuid"
                 " AND " + bot_game + owed +
                     " FOR UPDATE SKIP LOCKED)"
                     " UPDATE games g SET bot_claimed_until = " FG_TS("$2") ", bot_claimed_by = $3"
                     " FROM next WHERE g.game_id = next.game_id"
                     " RETURNING g.game_id::text, g.ply, coalesce(next.bot_claimed_by, '')");
    // A client's bot games in progress (CreateGame's bound), counted under
    // a lock on the client's key held to the end of the transaction, so
    // that two concurrent creates cannot both pass the bound.
    conn.prepare("lock_bot_client",
                 "SELECT pg_advisory_xact_lock(hashtextextended('foxgeese.bot_client:' || $1, 0))");
    conn.prepare("bot_games_of_client",
                 "SELECT count(*) FROM games WHERE bot_client_key = $1 AND " + bot_game);
    // Extends a claim while its holder thinks; no row when it was lost (the
    // game moved on or another replica took the lapsed claim over).
    conn.prepare("renew_bot_claim",
                 "UPDATE games SET bot_claimed_until = " FG_TS("$4") " WHERE game_id = $1::uuid"
                 " AND ply = $2 AND bot_claimed_by = $3 AND state = " +
                     kActive + " RETURNING game_id");
    // A replica that stops thinking without moving (shutting down) hands
    // the move back at once instead of letting its claim lapse.
    conn.prepare("release_bot_claim",
                 "UPDATE games SET bot_claimed_until = NULL, bot_claimed_by = NULL"
                 " WHERE game_id = $1::uuid AND ply = $2 AND bot_claimed_by = $3");
}

void prepare_event_statements(pqxx::connection& conn) {
    conn.prepare("insert_event",
                 "INSERT INTO game_events (game_id, seq, body, kind, created_at)"
                 " VALUES ($1::uuid, $2, $3::bytea, $5, " FG_TS("$4") ")");
    conn.prepare("events_after",
                 "SELECT seq, body, kind FROM game_events WHERE game_id = $1::uuid AND seq > $2"
                 " ORDER BY seq");
    conn.prepare("notify_event", "SELECT pg_notify('foxgeese_events', $1)");
    conn.prepare("last_event_seqs",
                 "SELECT game_id::text, event_seq FROM games WHERE game_id = ANY($1::uuid[])");
}

// The watcher id of a seat's token use (presence_seen).
constexpr const char* kTokenUseWatcher = "00000000-0000-0000-0000-000000000000";

void prepare_presence_statements(pqxx::connection& conn) {
    // A seat holder who watches has used the seat's token: the seat's
    // CreateGame / JoinGame retry window closes.
    const std::string is_fox = "$2 = " + sql_code(Side::kFox);
    const std::string is_geese = "$2 = " + sql_code(Side::kGeese);
    conn.prepare("presence_connect",
                 "WITH ins AS ("
                 " INSERT INTO seat_presence (game_id, side, watcher_id, server_id, connected_at,"
                 " refreshed_at, expires_at) VALUES ($1::uuid, $2, $3::uuid, $4, " FG_TS("$5") ", "
                 FG_TS("$5") ", " FG_TS("$6") ") ON CONFLICT DO NOTHING RETURNING game_id),"
                 " used AS ("
                 " UPDATE games SET"
                 " fox_retry_until = CASE WHEN " + is_fox + " THEN NULL ELSE fox_retry_until END,"
                 " geese_retry_until = CASE WHEN " + is_geese +
                     " THEN NULL ELSE geese_retry_until END"
                     " WHERE game_id = $1::uuid AND ((" + is_fox +
                     " AND fox_retry_until IS NOT NULL) OR (" + is_geese +
                     " AND geese_retry_until IS NOT NULL)))"
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
    // A token's use, as one row per seat that no server refreshes: it
    // counts until $4, then as a departure at its last use. Watchers hear of
    // it when it makes the seat present again.
    conn.prepare("presence_seen",
                 "WITH was AS (SELECT 1 FROM seat_presence WHERE game_id = $1::uuid AND side = $2"
                 "   AND watcher_id = '" + std::string(kTokenUseWatcher) + "'"
                 "   AND expires_at > " FG_TS("$3") "),"
                 " up AS (INSERT INTO seat_presence (game_id, side, watcher_id, server_id,"
                 "   connected_at, refreshed_at, expires_at) VALUES ($1::uuid, $2, '" +
                     std::string(kTokenUseWatcher) + "', '', " FG_TS("$3") ", " FG_TS("$3") ", " FG_TS(
                         "$4") ")"
                 "   ON CONFLICT (game_id, side, watcher_id) DO UPDATE SET"
                 "   connected_at = CASE WHEN seat_presence.expires_at > excluded.connected_at"
                 "     THEN seat_presence.connected_at ELSE excluded.connected_at END,"
                 "   refreshed_at = excluded.refreshed_at,"
                 "   expires_at = greatest(seat_presence.expires_at, excluded.expires_at)"
                 "   RETURNING game_id)"
                 " SELECT pg_notify('foxgeese_events', $1 || ' presence') FROM up"
                 " WHERE NOT EXISTS (SELECT 1 FROM was)");
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
        " FROM (VALUES (" + sql_code(Side::kFox) + "::smallint), (" + sql_code(Side::kGeese) +
            "::smallint)) s(side) ORDER BY s.side");
}

// Each server's count of a game's spectators (migration 0016).
void prepare_spectator_statements(pqxx::connection& conn) {
    // A server's counts that changed, as two arrays (game ids, counts): a
    // count of zero drops the game's row. Every game whose row changed is
    // announced like a change of its presence.
    conn.prepare("spectators_record",
                 "WITH counts AS ("
                 " SELECT * FROM unnest($2::uuid[], $3::int[]) AS c(game_id, spectators)),"
                 " dropped AS (DELETE FROM spectator_counts s USING counts c"
                 "   WHERE s.server_id = $1 AND s.game_id = c.game_id AND c.spectators = 0"
                 "   RETURNING s.game_id),"
                 " kept AS (INSERT INTO spectator_counts (game_id, server_id, spectators,"
                 "   expires_at) SELECT c.game_id, $1, c.spectators, " FG_TS("$4")
                 "   FROM counts c JOIN games g ON g.game_id = c.game_id WHERE c.spectators > 0"
                 "   ON CONFLICT (game_id, server_id) DO UPDATE"
                 "   SET spectators = excluded.spectators, expires_at = excluded.expires_at"
                 "   RETURNING game_id)"
                 " SELECT pg_notify('foxgeese_events', game_id::text || ' presence')"
                 " FROM (SELECT game_id FROM dropped UNION SELECT game_id FROM kept) changed");
    conn.prepare("spectators_refresh",
                 "UPDATE spectator_counts SET expires_at = " FG_TS("$2") " WHERE server_id = $1");
    // Long-expired rows (servers that died) go; until then they only stop
    // counting.
    conn.prepare("spectators_expire",
                 "DELETE FROM spectator_counts WHERE expires_at < " FG_TS("$1"));
    conn.prepare("spectators_drop_server",
                 "WITH del AS (DELETE FROM spectator_counts WHERE server_id = $1 RETURNING game_id)"
                 " SELECT pg_notify('foxgeese_events', game_id::text || ' presence') FROM del");
    conn.prepare("spectators",
                 "SELECT coalesce(sum(spectators), 0)::bigint FROM spectator_counts"
                 " WHERE game_id = $1::uuid AND server_id <> $2 AND expires_at > " FG_TS("$3"));
}

void prepare_analysis_statements(pqxx::connection& conn) {
    conn.prepare("find_game_analysis",
                 "SELECT response FROM game_analyses WHERE game_id = $1::uuid AND ply = $2");
    // A game keeps one analysis, its latest: a new row replaces those of
    // earlier plies, so a game analysed after every move stores one
    // analysis, not one per ply. Two replicas may analyse the same ply at
    // once (the first row stays); an analysis of an older ply than the one
    // stored is not kept. Answers whether the row was inserted and whether a
    // newer one exists.
    conn.prepare("insert_game_analysis",
                 "WITH newer AS (SELECT 1 FROM game_analyses"
                 "   WHERE game_id = $1::uuid AND ply > $2 LIMIT 1),"
                 " inserted AS (INSERT INTO game_analyses"
                 "   (game_id, ply, nodes_per_ply, analysed_at, response)"
                 "   SELECT $1::uuid, $2, $3, " FG_TS("$4") ", $5::bytea"
                 "   WHERE NOT EXISTS (SELECT 1 FROM newer)"
                 "   ON CONFLICT (game_id, ply) DO NOTHING RETURNING game_id),"
                 " replaced AS (DELETE FROM game_analyses WHERE game_id = $1::uuid AND ply < $2"
                 "   AND EXISTS (SELECT 1 FROM inserted))"
                 " SELECT EXISTS (SELECT 1 FROM inserted), EXISTS (SELECT 1 FROM newer)");
}

void prepare_health_statements(pqxx::connection& conn) {
    conn.prepare("schema_version",
                 "SELECT CASE WHEN to_regclass('schema_migrations') IS NULL THEN 0"
                 " ELSE (SELECT coalesce(max(version), 0) FROM schema_migrations) END");
    // A real write, so that its commit waits for the disk and for
    // synchronous replication as a move's would.
    conn.prepare("commit_probe",
                 "INSERT INTO readiness_probes (server_id, probed_at) VALUES ($1, now())"
                 " ON CONFLICT (server_id) DO UPDATE SET probed_at = excluded.probed_at");
    conn.prepare("prune_probes",
                 "DELETE FROM readiness_probes WHERE probed_at < now() - interval '1 day'");
    // Counts the unfinished games over their partial index (its predicate,
    // word for word, so the planner uses it); all games only as the
    // planner's estimate, which costs no scan.
    conn.prepare("unfinished_games_by_state", "SELECT state, count(*) FROM games WHERE state IN (" +
                                                  sql_code(GameState::kWaiting) + ", " +
                                                  sql_code(GameState::kActive) +
                                                  ") GROUP BY state");
    conn.prepare(
        "estimated_games",
        "SELECT greatest(reltuples, 0)::bigint FROM pg_class WHERE oid = 'games'::regclass");
}

}  // namespace

namespace {

// Quick pairing (GameStore::place_seek): a pool's seekers take their turns
// under a lock on the pool held to the end of the transaction; a claim
// skips a seek its seeker is removing (SKIP LOCKED) rather than wait for it.
void prepare_seek_statements(pqxx::connection& conn) {
    conn.prepare("lock_seek_pool",
                 "SELECT pg_advisory_xact_lock(hashtextextended('foxgeese.seek_pool:' || $1, 0))");
    // Rows past their time: a waiting one of the pool or the client (never
    // claimed any more), and a paired one a minute later (its seeker had
    // that long to read it).
    conn.prepare("sweep_seeks",
                 "DELETE FROM seeks WHERE (pool = $1 OR client_key = $2) AND expires_at <= " FG_TS(
                     "$3") " AND (game_id IS NULL OR expires_at <= " FG_TS("$3") " - interval "
                           "'1 minute')");
    conn.prepare("claim_seek",
                 "SELECT seek_id::text, client_key, token_hash FROM seeks WHERE pool = $1"
                 " AND game_id IS NULL AND expires_at > " FG_TS("$2") " ORDER BY created_at"
                 " LIMIT 1 FOR UPDATE SKIP LOCKED");
    conn.prepare("pair_seek", "UPDATE seeks SET game_id = $2::uuid WHERE seek_id = $1::uuid");
    conn.prepare("notify_seek", "SELECT pg_notify('foxgeese_seeks', $1)");
    conn.prepare("insert_seek",
                 "INSERT INTO seeks (seek_id, pool, client_key, token_hash, created_at,"
                 " expires_at) VALUES ($1::uuid, $2, $3, $4, " FG_TS("$5") ", " FG_TS("$6") ")"
                 " ON CONFLICT DO NOTHING RETURNING seek_id");
    conn.prepare(
        "remove_seek",
        "DELETE FROM seeks WHERE seek_id = $1::uuid RETURNING coalesce(game_id::text, '')");
}

}  // namespace

void prepare_statements(pqxx::connection& conn) {
    prepare_game_statements(conn);
    prepare_move_statements(conn);
    prepare_bot_statements(conn);
    prepare_event_statements(conn);
    prepare_presence_statements(conn);
    prepare_spectator_statements(conn);
    prepare_analysis_statements(conn);
    prepare_health_statements(conn);
    prepare_seek_statements(conn);
}

}  // namespace foxgeese::storage
