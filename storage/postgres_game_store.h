// The game store on PostgreSQL (storage/game_store.h says what each call
// does). Every statement is prepared once per
// connection under a name; every write is one transaction; every call runs
// within a CallBudget and fails with a DatabaseFailure when the database does
// not answer in time. MakeMove costs two round trips: one read
// (load_move_context) and one write (apply_move, a single statement whose
// compare-and-swap on the game's ply makes exactly one of two racing moves
// apply, and the one on the row version that nothing else changed it); one
// when the replica judges the move on its copy of the game
// (move_context_cache.h). Moves of many games that wait for the database
// together are committed together, one statement for all of them, each
// still decided on its own (move_batcher.h). modify_game holds the row with FOR UPDATE in a
// transaction; modify_next_overdue takes it with FOR UPDATE SKIP LOCKED, and
// claim_bot_move likewise, so that replicas never take the same game.
#pragma once

#include <functional>
#include <optional>
#include <pqxx/transaction_base>
#include <string>
#include <vector>

#include "storage/call_budget.h"
#include "storage/connection_pool.h"
#include "storage/game_records.h"
#include "storage/game_store.h"
#include "storage/move_batcher.h"

namespace foxgeese::storage {

// The channel every game event is announced on (LISTEN/NOTIFY).
inline constexpr const char* kEventsChannel = "foxgeese_events";
// The channel a paired seek's id is announced on.
inline constexpr const char* kSeeksChannel = "foxgeese_seeks";

class PostgresGameStore : public GameStore, public GameFeed {
  public:
    explicit PostgresGameStore(ConnectionPool& pool, MoveBatchOptions batching = {});

    // Who announces a game's new events on the events channel once they are
    // committed (a replica's ChangeNotifier: service/watch/change_notifier.h).
    // Without one, each write notifies the channel itself, on its own
    // connection. Set it before the first call.
    using ChangeAnnouncer = std::function<void(const std::string& game_id)>;
    void announce_changes_with(ChangeAnnouncer announcer) { announcer_ = std::move(announcer); }

    bool insert_game(const GameRow& game, const std::string& start_position_key,
                     const CallBudget& budget = {}) override;
    BotGameInsert insert_bot_game(const GameRow& game, const std::string& start_position_key,
                                  int limit, const CallBudget& budget = {}) override;
    bool insert_imported_game(const GameRow& game, const std::string& start_position_key,
                              const std::vector<ImportedMove>& moves,
                              const CallBudget& budget = {}) override;
    std::optional<GameWithLastMove> find_game(const std::string& game_id,
                                              const CallBudget& budget = {}) override;
    std::optional<GameWithLastMove> find_game_by_create_request(
        const std::string& request_hash, const CallBudget& budget = {}) override;
    std::optional<GameWithLastMove> find_game_by_token(const std::string& token_hash,
                                                       const CallBudget& budget = {}) override;
    std::optional<MoveContext> load_move_context(const std::string& game_id,
                                                 const std::string& request_hash,
                                                 const CallBudget& budget = {}) override;
    std::optional<AppliedMove> apply_move(const MoveWrite& write,
                                          const CallBudget& budget = {}) override;
    std::optional<GameWithLastMove> modify_game(const std::string& game_id,
                                                const GameChange& change,
                                                const CallBudget& budget = {}) override;
    bool modify_next_overdue(std::int64_t now_us, const GameChange& change,
                             const CallBudget& budget = {}) override;
    std::vector<OwedBotMove> owed_bot_moves(std::int64_t now_us, int limit, int per_client,
                                            const CallBudget& budget = {}) override;
    std::optional<BotClaim> claim_bot_move(const std::string& game_id, const std::string& server_id,
                                           std::int64_t now_us, std::int64_t until_us,
                                           const CallBudget& budget = {}) override;
    bool renew_bot_claim(const BotClaim& claim, const std::string& server_id, std::int64_t until_us,
                         const CallBudget& budget = {}) override;
    void release_bot_claim(const BotClaim& claim, const std::string& server_id,
                           const CallBudget& budget = {}) override;
    std::vector<MoveRow> list_moves(const std::string& game_id, int up_to_ply,
                                    const CallBudget& budget = {}) override;
    GamePage list_games(GameListFilter filter, const std::string& variant, int limit,
                        const std::optional<std::pair<std::int64_t, std::string>>& after,
                        const CallBudget& budget = {}) override;
    PlacedSeek place_seek(const SeekRow& mine, const std::string& start_position_key,
                          const GameForSeek& make_game, const CallBudget& budget = {}) override;
    std::optional<std::string> remove_seek(const std::string& seek_id,
                                           const CallBudget& budget = {}) override;
    std::optional<std::string> find_game_analysis(const std::string& game_id, int ply,
                                                  const CallBudget& budget = {}) override;
    std::string insert_game_analysis(const std::string& game_id, int ply,
                                     std::int64_t nodes_per_ply, std::int64_t analysed_us,
                                     const std::string& response,
                                     const CallBudget& budget = {}) override;

    std::vector<MoveRow> list_moves_between(const std::string& game_id, int after_ply,
                                            int up_to_ply, const CallBudget& budget = {}) override;
    std::vector<GameEvent> events_after(const std::string& game_id, std::int64_t after_seq,
                                        const CallBudget& budget = {}) override;
    std::vector<std::pair<std::string, std::int64_t>> last_event_seqs(
        const std::vector<std::string>& game_ids, const CallBudget& budget = {}) override;

    // The highest migration version recorded (0 when none).
    int schema_version(const CallBudget& budget = {});
    // Commits a write of this server's probe row: it waits for the disk and
    // synchronous replication as a move would (readiness). `prune` also
    // removes the rows of servers gone for a day.
    void commit_probe(const std::string& server_id, bool prune, const CallBudget& budget = {});
    // The group commit's counts so far (metrics).
    MoveBatcher::Stats move_batches() const { return batcher_.stats(); }
    // Games by state for metrics, without scanning the table: the waiting
    // and active ones counted, all of them estimated.
    GameCounts count_games(const CallBudget& budget = {});

  private:
    // The batcher's commit: every move its answer or its error.
    void commit_moves(const std::vector<PendingMove*>& batch);
    // apply_move's statement for one move.
    std::optional<AppliedMove> apply_one_move(const MoveWrite& write, const CallBudget& budget);
    void announce(const std::string& game_id, pqxx::transaction_base& tx);

    ConnectionPool& pool_;
    ChangeAnnouncer announcer_;
    MoveBatcher batcher_;
};

}  // namespace foxgeese::storage
