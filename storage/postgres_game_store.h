// The game store on PostgreSQL. Every statement is prepared once per
// connection under a name; every write is one transaction; every call runs
// within a CallBudget and fails with a DatabaseFailure when the database does
// not answer in time. MakeMove costs two round trips: one read
// (load_move_context) and one write (apply_move, a single statement whose
// compare-and-swap on the game's ply makes exactly one of two racing moves
// apply, and the one on the row version that nothing else changed it); one
// when the replica judges the move on its copy of the game
// (move_context_cache.h).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "storage/call_budget.h"
#include "storage/connection_pool.h"
#include "storage/game_records.h"

namespace foxgeese::storage {

// The channel every game event is announced on (LISTEN/NOTIFY).
inline constexpr const char* kEventsChannel = "foxgeese_events";

class PostgresGameStore {
  public:
    explicit PostgresGameStore(ConnectionPool& pool) : pool_(pool) {}

    // Who announces a game's new events on the events channel once they are
    // committed (a replica's ChangeNotifier: service/watch/change_notifier.h).
    // Without one, each write notifies the channel itself, on its own
    // connection. Set it before the first call.
    using ChangeAnnouncer = std::function<void(const std::string& game_id)>;
    void announce_changes_with(ChangeAnnouncer announcer) { announcer_ = std::move(announcer); }

    // Inserts a new game and its start position as the first occurrence.
    // Returns false when a game with the same create_request_hash exists.
    bool insert_game(const GameRow& game, const std::string& start_position_key,
                     const CallBudget& budget = {});

    // Inserts an imported game, finished, with all its moves and their
    // repetition history, in one transaction. Returns false (writing
    // nothing) when its id is taken.
    bool insert_imported_game(const GameRow& game, const std::string& start_position_key,
                              const std::vector<ImportedMove>& moves,
                              const CallBudget& budget = {});

    std::optional<GameWithLastMove> find_game(const std::string& game_id,
                                              const CallBudget& budget = {});
    std::optional<GameWithLastMove> find_game_by_create_request(const std::string& request_hash,
                                                                const CallBudget& budget = {});
    // The game one of whose seats a token (by its digest) holds.
    std::optional<GameWithLastMove> find_game_by_token(const std::string& token_hash,
                                                       const CallBudget& budget = {});

    // The one read of MakeMove. request_hash may be empty.
    std::optional<MoveContext> load_move_context(const std::string& game_id,
                                                 const std::string& request_hash,
                                                 const CallBudget& budget = {});

    // The one write of MakeMove. Returns nothing, writing nothing, when the
    // game is no longer at write.previous_ply, no longer active, its row is
    // no longer at write.previous_version, or the move's request_id already
    // made a move.
    std::optional<AppliedMove> apply_move(const MoveWrite& write, const CallBudget& budget = {});

    // Reads the game row locked (with its last move), lets `change` edit it
    // and add watch events (serialized WatchGameResponse), and writes it back
    // with the events, numbered after the game's last, in the same
    // transaction when `change` returns true; the events channel then hears
    // the game id. Returns the game as it stands after (nullopt: no such game).
    using GameChange = std::function<bool(GameWithLastMove&, std::vector<std::string>& events)>;
    std::optional<GameWithLastMove> modify_game(const std::string& game_id,
                                                const GameChange& change,
                                                const CallBudget& budget = {});

    // The sweeper's step: locks the longest-overdue waiting or active game
    // (deadline_at <= now) that no other replica holds (FOR UPDATE SKIP
    // LOCKED), lets `change` settle it and writes it back as modify_game
    // does, in one transaction. Returns false when no game is overdue.
    bool modify_next_overdue(std::int64_t now_us, const GameChange& change,
                             const CallBudget& budget = {});

    // Inserts a new bot game as insert_game does, unless its client
    // (game.bot_client_key) has `limit` bot games in progress already (0: no
    // limit). The count and the insert are one transaction under a lock on
    // the client's key, so concurrent creates cannot both pass the bound.
    enum class BotGameInsert { kInserted, kDuplicate, kOverLimit };
    BotGameInsert insert_bot_game(const GameRow& game, const std::string& start_position_key,
                                  int limit, const CallBudget& budget = {});

    // Bot moves (service/core/bot_moves.h). owed_bot_moves lists, at
    // `now_us`, the owed bot moves with no live claim: each client's
    // `per_client` most urgent ones, every client's most urgent first, then
    // their second, and so on, `limit` at most. claim_bot_move claims one
    // game's owed move for `server_id` until `until_us`, unless it is no
    // longer owed or another replica is claiming it at the same moment
    // (then nothing). A move clears the claim (apply_move).
    // renew_bot_claim extends a claim its holder still has (false: it was
    // lost); release_bot_claim hands it back.
    std::vector<OwedBotMove> owed_bot_moves(std::int64_t now_us, int limit, int per_client,
                                            const CallBudget& budget = {});
    std::optional<BotClaim> claim_bot_move(const std::string& game_id, const std::string& server_id,
                                           std::int64_t now_us, std::int64_t until_us,
                                           const CallBudget& budget = {});
    bool renew_bot_claim(const BotClaim& claim, const std::string& server_id, std::int64_t until_us,
                         const CallBudget& budget = {});
    void release_bot_claim(const BotClaim& claim, const std::string& server_id,
                           const CallBudget& budget = {});

    // The recorded watch events of a game after a sequence number, in order.
    std::vector<GameEvent> events_after(const std::string& game_id, std::int64_t after_seq,
                                        const CallBudget& budget = {});

    // The sequence number of each game's last recorded event, for the games
    // of `game_ids` (lowercase UUIDs) that exist.
    std::vector<std::pair<std::string, std::int64_t>> last_event_seqs(
        const std::vector<std::string>& game_ids, const CallBudget& budget = {});

    // Moves of a game up to a ply, oldest first.
    std::vector<MoveRow> list_moves(const std::string& game_id, int up_to_ply,
                                    const CallBudget& budget = {});
    // Moves of a game with after_ply < ply <= up_to_ply, oldest first.
    std::vector<MoveRow> list_moves_between(const std::string& game_id, int after_ply,
                                            int up_to_ply, const CallBudget& budget = {});

    // Public games of a listing, newest first, strictly after a (sort key,
    // game id) cursor. variant may be empty (all variants).
    GamePage list_games(GameListFilter filter, const std::string& variant, int limit,
                        const std::optional<std::pair<std::int64_t, std::string>>& after,
                        const CallBudget& budget = {});

    // The stored AnalyzeGame response (serialized) of a game at `ply`, if any.
    std::optional<std::string> find_game_analysis(const std::string& game_id, int ply,
                                                  const CallBudget& budget = {});
    // Stores a game's analysis at `ply` in place of those of earlier plies
    // (a game keeps its latest only) and returns the game's analysis at
    // `ply`: this one, or the one another replica stored first. One older
    // than the stored analysis is returned without being stored.
    std::string insert_game_analysis(const std::string& game_id, int ply,
                                     std::int64_t nodes_per_ply, std::int64_t analysed_us,
                                     const std::string& response, const CallBudget& budget = {});

    // The highest migration version recorded (0 when none).
    int schema_version(const CallBudget& budget = {});
    // Commits a write of this server's probe row: it waits for the disk and
    // synchronous replication as a move would (readiness). `prune` also
    // removes the rows of servers gone for a day.
    void commit_probe(const std::string& server_id, bool prune, const CallBudget& budget = {});
    // Games by state for metrics, without scanning the table: the waiting
    // and active ones counted, all of them estimated.
    GameCounts count_games(const CallBudget& budget = {});

  private:
    ConnectionPool& pool_;
    ChangeAnnouncer announcer_;
};

}  // namespace foxgeese::storage
