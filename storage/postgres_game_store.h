// The game store on PostgreSQL. Every statement is prepared once per
// connection under a name; every write is one transaction. MakeMove costs two
// round trips: one read (load_move_context) and one write (apply_move, a
// single statement whose compare-and-swap on the game's ply makes exactly one
// of two racing moves apply).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "storage/connection_pool.h"
#include "storage/game_records.h"

namespace foxgeese::storage {

// The channel every game event is announced on (LISTEN/NOTIFY).
inline constexpr const char* kEventsChannel = "foxgeese_events";

class PostgresGameStore {
  public:
    explicit PostgresGameStore(ConnectionPool& pool) : pool_(pool) {}

    // Prepares every statement on a new connection (the pool's on-connect hook).
    static void prepare_statements(pqxx::connection& conn);

    // Inserts a new game and its start position as the first occurrence.
    // Returns false when a game with the same create_request_hash exists.
    bool insert_game(const GameRow& game, const std::string& start_position_key);

    std::optional<GameWithLastMove> find_game(const std::string& game_id);
    std::optional<GameWithLastMove> find_game_by_create_request(const std::string& request_hash);

    // The one read of MakeMove. request_hash may be empty.
    std::optional<MoveContext> load_move_context(const std::string& game_id,
                                                 const std::string& request_hash);

    // The one write of MakeMove. Returns false, writing nothing, when the game
    // is no longer at write.previous_ply or no longer active.
    bool apply_move(const MoveWrite& write);

    // Reads the game row locked (with its last move), lets `change` edit it
    // and add watch events (serialized WatchGameResponse), and writes it back
    // with the events, numbered after the game's last, in the same
    // transaction when `change` returns true; the events channel then hears
    // the game id. Returns the game as it stands after (nullopt: no such game).
    using GameChange = std::function<bool(GameWithLastMove&, std::vector<std::string>& events)>;
    std::optional<GameWithLastMove> modify_game(const std::string& game_id,
                                                const GameChange& change);

    // The recorded watch events of a game after a sequence number, in order.
    std::vector<GameEvent> events_after(const std::string& game_id, std::int64_t after_seq);

    // Moves of a game up to a ply, oldest first.
    std::vector<MoveRow> list_moves(const std::string& game_id, int up_to_ply);

    // Public games of a listing, newest first, strictly after a (sort key,
    // game id) cursor. variant may be empty (all variants).
    GamePage list_games(GameListFilter filter, const std::string& variant, int limit,
                        const std::optional<std::pair<std::int64_t, std::string>>& after);

    // Moves of a game with after_ply < ply <= up_to_ply, oldest first.
    std::vector<MoveRow> list_moves_between(const std::string& game_id, int after_ply,
                                            int up_to_ply);

    // Seat presence. side is 1 (fox side) or 2 (geese). A row counts until
    // its expiry, which the server that owns it pushes forward while the
    // watcher stays. Each change notifies "<game_id> presence".
    void presence_connect(const std::string& game_id, int side, const std::string& watcher_id,
                          const std::string& server_id, std::int64_t now_us,
                          std::int64_t expires_us);
    void presence_disconnect(const std::string& game_id, int side, const std::string& watcher_id,
                             std::int64_t now_us);
    // Keeps a server's rows alive; returns how many it refreshed. Also folds
    // rows that expired long ago (servers that died) into departures.
    int presence_refresh(const std::string& server_id, std::int64_t now_us,
                         std::int64_t expires_us);
    // Removes every row of a server (clean shutdown), recording departures.
    void presence_drop_server(const std::string& server_id, std::int64_t now_us);
    // Fox side's and geese's presence at a time.
    std::pair<SeatPresence, SeatPresence> presence(const std::string& game_id,
                                                   std::int64_t now_us);

    // True when a trivial query succeeds (readiness).
    bool ping();
    // The highest migration version recorded (0 when none).
    int schema_version();
    // Number of games per state code (for metrics).
    std::vector<std::pair<int, std::int64_t>> games_by_state();

  private:
    ConnectionPool& pool_;
};

}  // namespace foxgeese::storage
