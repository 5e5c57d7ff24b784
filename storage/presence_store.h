// Seat presence: who watches a game from a seat, across replicas. A watcher
// counts until its expiry, which the server that owns it pushes forward while
// the watcher stays; those of servers that died are folded into departures.
// And spectators: how many watch a game without a seat, as one count per
// game and server that expires the same way. Watchers of the game hear of
// each change. PostgresPresenceStore is the one the server runs on.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "storage/call_budget.h"
#include "storage/game_records.h"

namespace foxgeese::storage {

class PresenceStore {
  public:
    virtual ~PresenceStore() = default;

    // Connecting also closes the seat's
    // CreateGame / JoinGame retry window: its token has been used.
    virtual void connect(const std::string& game_id, Side side, const std::string& watcher_id,
                         const std::string& server_id, std::int64_t now_us, std::int64_t expires_us,
                         const CallBudget& budget = {}) = 0;
    virtual void disconnect(const std::string& game_id, Side side, const std::string& watcher_id,
                            std::int64_t now_us, const CallBudget& budget = {}) = 0;
    // A seat's token was used (a call it authenticated) at `now_us`: the
    // seat counts as present until `until_us`, like a watcher whose server
    // stopped refreshing it, and as gone since its last use after that.
    virtual void seen(const std::string& game_id, Side side, std::int64_t now_us,
                      std::int64_t until_us, const CallBudget& budget = {}) = 0;
    // Keeps a server's rows (and spectator counts) alive; returns how many
    // seat rows it refreshed. Also folds rows that expired long ago (servers
    // that died) into departures, and deletes such counts.
    virtual int refresh(const std::string& server_id, std::int64_t now_us, std::int64_t expires_us,
                        const CallBudget& budget = {}) = 0;
    // Removes every row and count of a server (clean shutdown), recording
    // departures.
    virtual void drop_server(const std::string& server_id, std::int64_t now_us,
                             const CallBudget& budget = {}) = 0;
    // Fox side's and geese's presence at a time.
    virtual std::pair<SeatPresence, SeatPresence> presence(const std::string& game_id,
                                                           std::int64_t now_us,
                                                           const CallBudget& budget = {}) = 0;
    // A server's spectator counts that changed, as (game id, count); a count
    // of zero removes the game's. They count until `expires_us`, which
    // refresh() pushes forward.
    virtual void record_spectators(const std::string& server_id,
                                   const std::vector<std::pair<std::string, int>>& counts,
                                   std::int64_t expires_us, const CallBudget& budget = {}) = 0;
    // A game's spectators at a time, summed over the servers other than
    // `apart_from_server` (which knows its own).
    virtual int spectators(const std::string& game_id, const std::string& apart_from_server,
                           std::int64_t now_us, const CallBudget& budget = {}) = 0;
};

}  // namespace foxgeese::storage
