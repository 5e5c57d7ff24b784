#include "storage/postgres_presence_store.h"

#include <pqxx/pqxx>

#include "storage/database_call.h"

namespace foxgeese::storage {
namespace {

// How long the rows of a dead server's watchers stay before they are folded
// into seat_departures.
constexpr std::int64_t kPresenceRowRetentionUs = 10LL * 60 * 1'000'000;

}  // namespace

void PostgresPresenceStore::connect(const std::string& game_id, Side side,
                                    const std::string& watcher_id, const std::string& server_id,
                                    std::int64_t now_us, std::int64_t expires_us,
                                    const CallBudget& budget) {
    run_database_call(pool_, budget, Access::kWrite, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        tx.exec_prepared("presence_connect", game_id, static_cast<int>(side), watcher_id, server_id,
                         now_us, expires_us);
        return true;
    });
}

void PostgresPresenceStore::disconnect(const std::string& game_id, Side side,
                                       const std::string& watcher_id, std::int64_t now_us,
                                       const CallBudget& budget) {
    run_database_call(pool_, budget, Access::kWrite, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        tx.exec_prepared("presence_disconnect", game_id, static_cast<int>(side), watcher_id,
                         now_us);
        return true;
    });
}

void PostgresPresenceStore::seen(const std::string& game_id, Side side, std::int64_t now_us,
                                 std::int64_t until_us, const CallBudget& budget) {
    run_database_call(pool_, budget, Access::kWrite, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        tx.exec_prepared("presence_seen", game_id, static_cast<int>(side), now_us, until_us);
        return true;
    });
}

int PostgresPresenceStore::refresh(const std::string& server_id, std::int64_t now_us,
                                   std::int64_t expires_us, const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kWrite, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        const int refreshed = static_cast<int>(
            tx.exec_prepared("presence_refresh", server_id, now_us, expires_us).affected_rows());
        tx.exec_prepared("presence_expire", now_us - kPresenceRowRetentionUs);
        tx.exec_prepared("spectators_refresh", server_id, expires_us);
        tx.exec_prepared("spectators_expire", now_us - kPresenceRowRetentionUs);
        return refreshed;
    });
}

void PostgresPresenceStore::drop_server(const std::string& server_id, std::int64_t now_us,
                                        const CallBudget& budget) {
    run_database_call(pool_, budget, Access::kWrite, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        tx.exec_prepared("presence_drop_server", server_id, now_us);
        tx.exec_prepared("spectators_drop_server", server_id);
        return true;
    });
}

std::pair<SeatPresence, SeatPresence> PostgresPresenceStore::presence(const std::string& game_id,
                                                                      std::int64_t now_us,
                                                                      const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kRead, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        const pqxx::result r = tx.exec_prepared("presence", game_id, now_us);
        SeatPresence sides[2];
        for (const auto& row : r) {
            const int side = row[0].as<int>();
            if (side < 1 || side > 2) continue;
            SeatPresence& p = sides[side - 1];
            if (!row[1].is_null()) {
                p.connected = true;
                p.since_us = row[1].as<std::int64_t>();
            } else if (!row[2].is_null()) {
                p.since_us = row[2].as<std::int64_t>();
            }
        }
        return std::make_pair(sides[0], sides[1]);
    });
}

void PostgresPresenceStore::record_spectators(
    const std::string& server_id, const std::vector<std::pair<std::string, int>>& counts,
    std::int64_t expires_us, const CallBudget& budget) {
    if (counts.empty()) return;
    // Array literals: the ids are UUIDs of games the server watches, which
    // need no quoting inside one.
    std::string ids = "{";
    std::string numbers = "{";
    for (const auto& [id, count] : counts) {
        if (ids.size() > 1) {
            ids += ',';
            numbers += ',';
        }
        ids += id;
        numbers += std::to_string(count);
    }
    ids += '}';
    numbers += '}';
    run_database_call(pool_, budget, Access::kWrite, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        tx.exec_prepared("spectators_record", server_id, ids, numbers, expires_us);
        return true;
    });
}

int PostgresPresenceStore::spectators(const std::string& game_id,
                                      const std::string& apart_from_server, std::int64_t now_us,
                                      const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kRead, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        return static_cast<int>(
            tx.exec_prepared1("spectators", game_id, apart_from_server, now_us)[0]
                .as<std::int64_t>());
    });
}

}  // namespace foxgeese::storage
