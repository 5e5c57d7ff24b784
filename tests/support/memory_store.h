// The game store, its feed and seat presence in memory, for the tests of the
// service's rules: a replica on it answers as one on PostgreSQL does, with no
// database to start. It keeps the contracts storage/game_store.h and
// storage/presence_store.h state (each write all or nothing; a version that
// every change of a game gives a new value, so the compare-and-swaps of
// apply_move decide a race once; request ids that make one move; the
// repetition history; bot claims; the events numbered per game), and writes
// what the PostgreSQL statements write, column for column. One lock
// serialises every call, as if each were a transaction on one connection.
// Test code: the server itself always runs on PostgreSQL.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "storage/game_store.h"
#include "storage/presence_store.h"

namespace foxgeese::test {

class MemoryStore final : public storage::GameStore,
                          public storage::GameFeed,
                          public storage::PresenceStore {
  public:
    // Hears, after each write, the game whose events (or, with `presence`,
    // whose seats' presence) changed: what LISTEN hears on PostgreSQL.
    using Listener = std::function<void(const std::string& game_id, bool presence)>;
    // Returns a handle for unlisten().
    int listen(Listener listener);
    void unlisten(int handle);

    // The rows of one of the tables PostgreSQL would have ("games",
    // "moves", "position_occurrences", "game_events", "game_analyses"), for
    // tests that check what a call stored.
    long count_rows(const std::string& table) const;

    // GameStore
    bool insert_game(const storage::GameRow& game, const std::string& start_position_key,
                     const storage::CallBudget& budget = {}) override;
    BotGameInsert insert_bot_game(const storage::GameRow& game,
                                  const std::string& start_position_key, int limit,
                                  const storage::CallBudget& budget = {}) override;
    bool insert_imported_game(const storage::GameRow& game, const std::string& start_position_key,
                              const std::vector<storage::ImportedMove>& moves,
                              const storage::CallBudget& budget = {}) override;
    std::optional<storage::GameWithLastMove> find_game(
        const std::string& game_id, const storage::CallBudget& budget = {}) override;
    std::optional<storage::GameWithLastMove> find_game_by_create_request(
        const std::string& request_hash, const storage::CallBudget& budget = {}) override;
    std::optional<storage::GameWithLastMove> find_game_by_token(
        const std::string& token_hash, const storage::CallBudget& budget = {}) override;
    std::optional<storage::MoveContext> load_move_context(
        const std::string& game_id, const std::string& request_hash,
        const storage::CallBudget& budget = {}) override;
    std::optional<storage::AppliedMove> apply_move(const storage::MoveWrite& write,
                                                   const storage::CallBudget& budget = {}) override;
    std::optional<storage::GameWithLastMove> modify_game(
        const std::string& game_id, const GameChange& change,
        const storage::CallBudget& budget = {}) override;
    bool modify_next_overdue(std::int64_t now_us, const GameChange& change,
                             const storage::CallBudget& budget = {}) override;
    std::vector<storage::OwedBotMove> owed_bot_moves(
        std::int64_t now_us, int limit, int per_client,
        const storage::CallBudget& budget = {}) override;
    std::optional<storage::BotClaim> claim_bot_move(
        const std::string& game_id, const std::string& server_id, std::int64_t now_us,
        std::int64_t until_us, const storage::CallBudget& budget = {}) override;
    bool renew_bot_claim(const storage::BotClaim& claim, const std::string& server_id,
                         std::int64_t until_us, const storage::CallBudget& budget = {}) override;
    void release_bot_claim(const storage::BotClaim& claim, const std::string& server_id,
                           const storage::CallBudget& budget = {}) override;
    std::vector<storage::MoveRow> list_moves(const std::string& game_id, int up_to_ply,
                                             const storage::CallBudget& budget = {}) override;
    storage::GamePage list_games(storage::GameListFilter filter, const std::string& variant,
                                 int limit,
                                 const std::optional<std::pair<std::int64_t, std::string>>& after,
                                 const storage::CallBudget& budget = {}) override;
    PlacedSeek place_seek(const storage::SeekRow& mine, const std::string& start_position_key,
                          const GameForSeek& make_game,
                          const storage::CallBudget& budget = {}) override;
    std::optional<std::string> remove_seek(const std::string& seek_id,
                                           const storage::CallBudget& budget = {}) override;
    // Hears the id of each seek claimed (what NOTIFY on the seeks channel
    // tells on PostgreSQL); one listener, set before seeking.
    void listen_for_seeks(std::function<void(const std::string& seek_id)> listener);
    std::optional<std::string> find_game_analysis(const std::string& game_id, int ply,
                                                  const storage::CallBudget& budget = {}) override;
    std::string insert_game_analysis(const std::string& game_id, int ply,
                                     std::int64_t nodes_per_ply, std::int64_t analysed_us,
                                     const std::string& response,
                                     const storage::CallBudget& budget = {}) override;

    // GameFeed
    std::vector<storage::MoveRow> list_moves_between(
        const std::string& game_id, int after_ply, int up_to_ply,
        const storage::CallBudget& budget = {}) override;
    std::vector<storage::GameEvent> events_after(const std::string& game_id, std::int64_t after_seq,
                                                 const storage::CallBudget& budget = {}) override;
    std::vector<std::pair<std::string, std::int64_t>> last_event_seqs(
        const std::vector<std::string>& game_ids, const storage::CallBudget& budget = {}) override;

    // How many times record_spectators wrote something.
    long spectator_writes() const;

    // PresenceStore
    void connect(const std::string& game_id, storage::Side side, const std::string& watcher_id,
                 const std::string& server_id, std::int64_t now_us, std::int64_t expires_us,
                 const storage::CallBudget& budget = {}) override;
    void disconnect(const std::string& game_id, storage::Side side, const std::string& watcher_id,
                    std::int64_t now_us, const storage::CallBudget& budget = {}) override;
    void seen(const std::string& game_id, storage::Side side, std::int64_t now_us,
              std::int64_t until_us, const storage::CallBudget& budget = {}) override;
    int refresh(const std::string& server_id, std::int64_t now_us, std::int64_t expires_us,
                const storage::CallBudget& budget = {}) override;
    void drop_server(const std::string& server_id, std::int64_t now_us,
                     const storage::CallBudget& budget = {}) override;
    std::pair<storage::SeatPresence, storage::SeatPresence> presence(
        const std::string& game_id, std::int64_t now_us,
        const storage::CallBudget& budget = {}) override;
    void record_spectators(const std::string& server_id,
                           const std::vector<std::pair<std::string, int>>& counts,
                           std::int64_t expires_us,
                           const storage::CallBudget& budget = {}) override;
    int spectators(const std::string& game_id, const std::string& apart_from_server,
                   std::int64_t now_us, const storage::CallBudget& budget = {}) override;

  private:
    struct Analysis {
        std::int64_t nodes_per_ply = 0;
        std::int64_t analysed_us = 0;
        std::string response;
    };
    // A game's row and everything keyed by it.
    struct Game {
        storage::GameRow row;
        std::int64_t version = 0;
        std::int64_t bot_claimed_until_us = 0;  // 0: no claim
        std::string bot_claimed_by;
        std::map<int, storage::MoveRow> moves;  // by ply
        std::map<std::string, storage::Occurrence> occurrences;
        std::vector<storage::GameEvent> events;
        std::map<int, Analysis> analyses;  // by ply
    };
    // One watcher of a seat (seat_presence).
    struct PresenceRow {
        std::string server_id;
        std::int64_t connected_us = 0;
        std::int64_t refreshed_us = 0;
        std::int64_t expires_us = 0;
    };
    using SeatKey = std::pair<std::string, storage::Side>;  // game id, side
    // What a write has to announce once the lock is released.
    using Announcements = std::vector<std::pair<std::string, bool>>;

    Game* game(const std::string& game_id);
    storage::GameWithLastMove with_last_move(const Game& g) const;
    bool conflicts(const storage::GameRow& row) const;
    void insert(const storage::GameRow& row, const std::string& start_position_key);
    void count_occurrence(Game& g, const std::string& key, int ply);
    void write_back(Game& g, storage::GameRow& changed, const storage::EventRecords& events);
    std::optional<storage::GameWithLastMove> modify_locked(Game& g, const GameChange& change,
                                                           bool check_caller,
                                                           const storage::CallBudget& budget,
                                                           Announcements& announce);
    bool bot_move_owed(const Game& g, std::int64_t now_us) const;
    void depart(const SeatKey& seat, std::int64_t left_us, bool latest);
    void announce(const Announcements& changes);

    mutable std::mutex mutex_;
    std::map<std::string, Game> games_;
    std::int64_t last_version_ = 0;
    std::map<std::tuple<std::string, storage::Side, std::string>, PresenceRow> presence_;
    std::map<SeatKey, std::int64_t> departures_;
    struct Seek {
        storage::SeekRow row;
        std::string game_id;  // set when paired
    };
    std::vector<Seek> seeks_;  // oldest first
    std::function<void(const std::string&)> seek_listener_;
    // Spectators per game and server (spectator_counts): count, expiry.
    std::map<std::pair<std::string, std::string>, std::pair<int, std::int64_t>> spectators_;
    long spectator_writes_ = 0;
    std::mutex listeners_mutex_;
    std::map<int, Listener> listeners_;
    int next_listener_ = 0;
};

}  // namespace foxgeese::test
