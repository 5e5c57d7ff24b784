// Seat presence: who watches a game from a seat, across replicas. A row
// counts until its expiry, which the server that owns it pushes forward while
// the watcher stays; rows of servers that died are folded into departures.
// Each change notifies "<game_id> presence" on the events channel.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "storage/call_budget.h"
#include "storage/connection_pool.h"
#include "storage/game_records.h"

namespace foxgeese::storage {

class PresenceStore {
  public:
    explicit PresenceStore(ConnectionPool& pool) : pool_(pool) {}

    // side is 1 (fox side) or 2 (geese). Connecting also closes the seat's
    // CreateGame / JoinGame retry window: its token has been used.
    void connect(const std::string& game_id, int side, const std::string& watcher_id,
                 const std::string& server_id, std::int64_t now_us, std::int64_t expires_us,
                 const CallBudget& budget = {});
    void disconnect(const std::string& game_id, int side, const std::string& watcher_id,
                    std::int64_t now_us, const CallBudget& budget = {});
    // A seat's token was used (a call it authenticated) at `now_us`: the
    // seat counts as present until `until_us`, like a watcher whose server
    // stopped refreshing it, and as gone since its last use after that.
    void seen(const std::string& game_id, int side, std::int64_t now_us, std::int64_t until_us,
              const CallBudget& budget = {});
    // Keeps a server's rows alive; returns how many it refreshed. Also folds
    // rows that expired long ago (servers that died) into departures.
    int refresh(const std::string& server_id, std::int64_t now_us, std::int64_t expires_us,
                const CallBudget& budget = {});
    // Removes every row of a server (clean shutdown), recording departures.
    void drop_server(const std::string& server_id, std::int64_t now_us,
                     const CallBudget& budget = {});
    // Fox side's and geese's presence at a time.
    std::pair<SeatPresence, SeatPresence> presence(const std::string& game_id, std::int64_t now_us,
                                                   const CallBudget& budget = {});

  private:
    ConnectionPool& pool_;
};

}  // namespace foxgeese::storage
