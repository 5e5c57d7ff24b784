// Seat presence: who watches a game from a seat, across replicas. A watcher
// counts until its expiry, which the server that owns it pushes forward while
// the watcher stays; those of servers that died are folded into departures.
// Watchers of the game hear of each change. PostgresPresenceStore is the one
// the server runs on.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

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
    // Keeps a server's rows alive; returns how many it refreshed. Also folds
    // rows that expired long ago (servers that died) into departures.
    virtual int refresh(const std::string& server_id, std::int64_t now_us, std::int64_t expires_us,
                        const CallBudget& budget = {}) = 0;
    // Removes every row of a server (clean shutdown), recording departures.
    virtual void drop_server(const std::string& server_id, std::int64_t now_us,
                             const CallBudget& budget = {}) = 0;
    // Fox side's and geese's presence at a time.
    virtual std::pair<SeatPresence, SeatPresence> presence(const std::string& game_id,
                                                           std::int64_t now_us,
                                                           const CallBudget& budget = {}) = 0;
};

}  // namespace foxgeese::storage
