// Seat presence on PostgreSQL: a row per watching seat holder (and per
// seat whose token was used lately), refreshed by the server that owns it,
// the departures of seats nobody watches any more, and a row per game and
// server with spectators. Each change notifies "<game_id> presence" on the
// events channel.
#pragma once

#include "storage/connection_pool.h"
#include "storage/presence_store.h"

namespace foxgeese::storage {

class PostgresPresenceStore : public PresenceStore {
  public:
    explicit PostgresPresenceStore(ConnectionPool& pool) : pool_(pool) {}

    void connect(const std::string& game_id, Side side, const std::string& watcher_id,
                 const std::string& server_id, std::int64_t now_us, std::int64_t expires_us,
                 const CallBudget& budget = {}) override;
    void disconnect(const std::string& game_id, Side side, const std::string& watcher_id,
                    std::int64_t now_us, const CallBudget& budget = {}) override;
    void seen(const std::string& game_id, Side side, std::int64_t now_us, std::int64_t until_us,
              const CallBudget& budget = {}) override;
    int refresh(const std::string& server_id, std::int64_t now_us, std::int64_t expires_us,
                const CallBudget& budget = {}) override;
    void drop_server(const std::string& server_id, std::int64_t now_us,
                     const CallBudget& budget = {}) override;
    std::pair<SeatPresence, SeatPresence> presence(const std::string& game_id, std::int64_t now_us,
                                                   const CallBudget& budget = {}) override;
    void record_spectators(const std::string& server_id,
                           const std::vector<std::pair<std::string, int>>& counts,
                           std::int64_t expires_us, const CallBudget& budget = {}) override;
    int spectators(const std::string& game_id, const std::string& apart_from_server,
                   std::int64_t now_us, const CallBudget& budget = {}) override;

  private:
    ConnectionPool& pool_;
};

}  // namespace foxgeese::storage
