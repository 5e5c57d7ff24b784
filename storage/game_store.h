// The store the game service writes and reads games through: what
// GameService and its helpers (the sweeper, the bot worker) call, and no
// more. PostgresGameStore is the store the server runs on; the tests of the
// service's rules run on an in-memory one (tests/support/memory_store.h).
// Every implementation keeps the contracts written here: they are what the
// service's correctness rests on.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "storage/call_budget.h"
#include "storage/game_records.h"

namespace foxgeese::storage {

// A seeker waiting to be paired (GameStore::place_seek).
struct SeekRow {
    std::string seek_id;  // a UUID
    // What the seeker asked for, as a key: seekers of one pool are paired.
    std::string pool;
    // A digest of the client's address: one client has one seek waiting.
    std::string client_key;
    // The digest of the seat token its seeker gets when it is paired.
    std::string token_hash;
    std::int64_t created_us = 0;
    // Past this it is never claimed (its seeker stopped waiting).
    std::int64_t expires_us = 0;
};

class GameStore {
  public:
    virtual ~GameStore() = default;

    // Inserts a new game and its start position as the first occurrence.
    // Returns false when a game with the same id or create_request_hash
    // exists (writing nothing).
    virtual bool insert_game(const GameRow& game, const std::string& start_position_key,
                             const CallBudget& budget = {}) = 0;

    // Inserts a new bot game as insert_game does, unless its client
    // (game.bot_client_key) has `limit` bot games in progress already (0: no
    // limit). The count and the insert are one step, so concurrent creates
    // cannot both pass the bound.
    enum class BotGameInsert { kInserted, kDuplicate, kOverLimit };
    virtual BotGameInsert insert_bot_game(const GameRow& game,
                                          const std::string& start_position_key, int limit,
                                          const CallBudget& budget = {}) = 0;

    // Inserts an imported game, finished, with all its moves and their
    // repetition history, at once. Returns false (writing nothing) when its
    // id is taken.
    virtual bool insert_imported_game(const GameRow& game, const std::string& start_position_key,
                                      const std::vector<ImportedMove>& moves,
                                      const CallBudget& budget = {}) = 0;

    virtual std::optional<GameWithLastMove> find_game(const std::string& game_id,
                                                      const CallBudget& budget = {}) = 0;
    virtual std::optional<GameWithLastMove> find_game_by_create_request(
        const std::string& request_hash, const CallBudget& budget = {}) = 0;
    // The game one of whose seats a token (by its digest) holds.
    virtual std::optional<GameWithLastMove> find_game_by_token(const std::string& token_hash,
                                                               const CallBudget& budget = {}) = 0;

    // The one read of MakeMove: the game, the move its request_hash made
    // (may be empty: none), the occurrences of the positions whose last
    // occurrence lies in the quiet-ply window (last_ply >= ply -
    // quiet_plies), and the row's version.
    virtual std::optional<MoveContext> load_move_context(const std::string& game_id,
                                                         const std::string& request_hash,
                                                         const CallBudget& budget = {}) = 0;

    // The one write of MakeMove, all or nothing. Writes nothing and returns
    // nothing when the game is no longer at write.previous_ply, no longer
    // active, its row no longer at write.previous_version (any change of the
    // row gives it a new version), or the move's request_hash already made a
    // move: of two racing moves exactly one applies. Otherwise stores the
    // game as write.game_after (its event_seq advanced by the events, any
    // claim on the bot's move cleared), the move, one more occurrence of
    // write.position_key, and the events numbered after the game's last.
    virtual std::optional<AppliedMove> apply_move(const MoveWrite& write,
                                                  const CallBudget& budget = {}) = 0;

    // Reads the game (with its last move) with no other change of it in
    // between, lets `change` edit it and add watch events, and writes it back with the events,
    // numbered after the game's last, when `change` returns true (nothing at all otherwise).
    // Watchers then hear of the game. Returns the game as it stands after
    // (nullopt: no such game).
    using GameChange = std::function<bool(GameWithLastMove&, EventRecords& events)>;
    virtual std::optional<GameWithLastMove> modify_game(const std::string& game_id,
                                                        const GameChange& change,
                                                        const CallBudget& budget = {}) = 0;

    // The sweeper's step: takes the longest-overdue waiting or active game
    // (deadline_us <= now_us) that no other caller holds, lets `change`
    // settle it and writes it back as modify_game does. Returns false when
    // no game is overdue.
    virtual bool modify_next_overdue(std::int64_t now_us, const GameChange& change,
                                     const CallBudget& budget = {}) = 0;

    // Bot moves (service/core/bot_moves.h). owed_bot_moves lists, at
    // `now_us`, the owed bot moves (a game in progress whose bot is to move)
    // with no live claim: each client's `per_client` most urgent ones
    // (earliest deadline, then longest waiting), every client's most urgent
    // first, then their second, and so on, `limit` at most. claim_bot_move
    // claims one game's owed move for `server_id` until `until_us`, unless it
    // is no longer owed or another caller is claiming it at the same moment
    // (then nothing); two callers never both hold a live claim. A move clears
    // the claim (apply_move). renew_bot_claim extends a claim its holder still
    // has at the claimed ply (false: it was lost); release_bot_claim hands it
    // back.
    virtual std::vector<OwedBotMove> owed_bot_moves(std::int64_t now_us, int limit, int per_client,
                                                    const CallBudget& budget = {}) = 0;
    virtual std::optional<BotClaim> claim_bot_move(const std::string& game_id,
                                                   const std::string& server_id,
                                                   std::int64_t now_us, std::int64_t until_us,
                                                   const CallBudget& budget = {}) = 0;
    virtual bool renew_bot_claim(const BotClaim& claim, const std::string& server_id,
                                 std::int64_t until_us, const CallBudget& budget = {}) = 0;
    virtual void release_bot_claim(const BotClaim& claim, const std::string& server_id,
                                   const CallBudget& budget = {}) = 0;

    // Moves of a game up to a ply, oldest first.
    virtual std::vector<MoveRow> list_moves(const std::string& game_id, int up_to_ply,
                                            const CallBudget& budget = {}) = 0;

    // Public games of a listing, newest first (by created_us; kRecent by
    // finished_us), ties by game id, strictly after a (sort key, game id)
    // cursor. variant may be empty (all variants).
    virtual GamePage list_games(GameListFilter filter, const std::string& variant, int limit,
                                const std::optional<std::pair<std::int64_t, std::string>>& after,
                                const CallBudget& budget = {}) = 0;

    // Quick pairing, one step under a lock on `mine.pool`, so that two
    // seekers arriving together never both wait: the pool's oldest seek
    // that waits and is live at mine.created_us, from any client, is
    // claimed, skipping one that is being removed at that moment (SKIP
    // LOCKED): the game `make_game` builds for it is inserted, the seek
    // marked paired with it and its seeker told (on PostgreSQL a NOTIFY on
    // kSeeksChannel with its seek_id, at commit); kPaired with the claimed
    // seek. With none, `mine` is inserted to wait: kWaiting, or
    // kClientBusy (nothing written) when its client has a seek waiting.
    // Rows past their time in the pool or of the client are deleted.
    enum class SeekPlacement { kPaired, kWaiting, kClientBusy };
    struct PlacedSeek {
        SeekPlacement placement = SeekPlacement::kWaiting;
        SeekRow claimed;  // kPaired
        GameRow game;     // kPaired: as inserted
    };
    using GameForSeek = std::function<GameRow(const SeekRow& claimed)>;
    virtual PlacedSeek place_seek(const SeekRow& mine, const std::string& start_position_key,
                                  const GameForSeek& make_game, const CallBudget& budget = {}) = 0;
    // Removes a seek: the id of the game it was paired with, or "" when it
    // was still waiting (it never will be paired now); nothing when there is
    // no such seek.
    virtual std::optional<std::string> remove_seek(const std::string& seek_id,
                                                   const CallBudget& budget = {}) = 0;

    // The stored AnalyzeGame response (serialized) of a game at `ply`, if any.
    virtual std::optional<std::string> find_game_analysis(const std::string& game_id, int ply,
                                                          const CallBudget& budget = {}) = 0;
    // Stores a game's analysis at `ply` in place of those of earlier plies
    // (a game keeps its latest only) and returns the game's analysis at
    // `ply`: this one, or the one another caller stored first. One older
    // than the stored analysis is returned without being stored.
    virtual std::string insert_game_analysis(const std::string& game_id, int ply,
                                             std::int64_t nodes_per_ply, std::int64_t analysed_us,
                                             const std::string& response,
                                             const CallBudget& budget = {}) = 0;
};

// What the watch hub reads of games (service/watch/watch_hub.h): a game,
// its moves since a ply, its recorded events and where they stand.
class GameFeed {
  public:
    virtual ~GameFeed() = default;

    virtual std::optional<GameWithLastMove> find_game(const std::string& game_id,
                                                      const CallBudget& budget = {}) = 0;
    // Moves of a game with after_ply < ply <= up_to_ply, oldest first.
    virtual std::vector<MoveRow> list_moves_between(const std::string& game_id, int after_ply,
                                                    int up_to_ply,
                                                    const CallBudget& budget = {}) = 0;
    // The recorded watch events of a game after a sequence number, in order.
    virtual std::vector<GameEvent> events_after(const std::string& game_id, std::int64_t after_seq,
                                                const CallBudget& budget = {}) = 0;
    // The sequence number of each game's last recorded event, for the games
    // of `game_ids` (lowercase UUIDs) that exist.
    virtual std::vector<std::pair<std::string, std::int64_t>> last_event_seqs(
        const std::vector<std::string>& game_ids, const CallBudget& budget = {}) = 0;
};

}  // namespace foxgeese::storage
