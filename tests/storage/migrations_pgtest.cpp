// The schema migrations on fresh scratch databases: applied once, recorded
// once, and safe when several servers start at the same time.
#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <map>
#include <pqxx/pqxx>
#include <string>
#include <thread>
#include <vector>

#include "storage/migrations.h"
#include "tests/support/test_database.h"

namespace foxgeese::test {
namespace {

using storage::apply_migrations;
using storage::embedded_migrations;

// schema_migrations as version -> how many rows carry it.
std::map<int, int> recorded_versions(const std::string& url) {
    pqxx::connection connection(url);
    pqxx::nontransaction tx(connection);
    std::map<int, int> versions;
    for (const auto& row :
         tx.exec("SELECT version, count(*) FROM schema_migrations GROUP BY version")) {
        versions[row[0].as<int>()] = row[1].as<int>();
    }
    return versions;
}

std::map<int, int> each_once() {
    std::map<int, int> versions;
    for (const storage::Migration& m : embedded_migrations())
        versions[m.version] = 1;
    return versions;
}

TEST(Migrations, ASecondRunAppliesNothing) {
    ASSERT_FALSE(embedded_migrations().empty());
    const std::string url = create_scratch_database("migrations_twice");
    EXPECT_FALSE(storage::migrations_up_to_date(url));

    const storage::MigrationReport first = apply_migrations(url);
    std::vector<std::string> names;
    for (const storage::Migration& m : embedded_migrations())
        names.push_back(m.name);
    EXPECT_EQ(first.applied, names);
    EXPECT_EQ(first.latest_version, embedded_migrations().back().version);
    EXPECT_TRUE(storage::migrations_up_to_date(url));

    const storage::MigrationReport second = apply_migrations(url);
    EXPECT_TRUE(second.applied.empty());
    EXPECT_EQ(second.latest_version, first.latest_version);
    EXPECT_EQ(recorded_versions(url), each_once());

    // The schema is there: the tables the store uses exist and are empty.
    pqxx::connection connection(url);
    pqxx::nontransaction tx(connection);
    for (const std::string table : {"games", "moves", "position_occurrences"}) {
        EXPECT_EQ(tx.exec1("SELECT count(*) FROM " + table)[0].as<int>(), 0) << table;
    }
}

TEST(Migrations, FourConcurrentRunsAllSucceedAndRecordEachVersionOnce) {
    const std::string url = create_scratch_database("migrations_race");
    constexpr int kRunners = 4;
    std::vector<storage::MigrationReport> reports(kRunners);
    std::vector<std::string> failures(kRunners);
    std::latch start(kRunners);
    std::vector<std::thread> runners;
    for (int i = 0; i < kRunners; ++i) {
        runners.emplace_back([&, i] {
            start.arrive_and_wait();
            try {
                reports[i] = apply_migrations(url);
            } catch (const std::exception& e) {
                failures[i] = e.what();
            }
        });
    }
    for (std::thread& t : runners)
        t.join();
    std::size_t applied = 0;
    for (int i = 0; i < kRunners; ++i) {
        EXPECT_EQ(failures[i], "") << "runner " << i;
        EXPECT_EQ(reports[i].latest_version, embedded_migrations().back().version);
        applied += reports[i].applied.size();
    }
    // Between them they applied each migration exactly once.
    EXPECT_EQ(applied, embedded_migrations().size());
    EXPECT_EQ(recorded_versions(url), each_once());
    EXPECT_TRUE(storage::migrations_up_to_date(url));
}

// Migration 0014 on a database that already has games: the side to move is
// there at once for each of them, from its position, and follows it after;
// the events recorded before it have no kind (the watch hub reads theirs
// from their body).
TEST(Migrations, TheColumnsForReadersFillInForGamesStoredBefore) {
    const std::string url = create_scratch_database("migrations_columns_for_readers");
    const std::string fox_to_move = "11111111-1111-4111-8111-111111111111";
    const std::string geese_to_move = "22222222-2222-4222-8222-222222222222";
    pqxx::connection connection(url);
    {
        // The schema as the previous release left it, with games in it.
        pqxx::work tx(connection);
        tx.exec(
            "CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())");
        for (const storage::Migration& m : embedded_migrations()) {
            if (m.version >= 14) break;
            tx.exec(m.sql);
            tx.exec_params("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                           m.version, m.name);
        }
        for (const auto& [id, position] :
             {std::pair{fox_to_move, "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0"},
              std::pair{geese_to_move, "3/3/3F3/7/GGGGGGG/GGG/GGG g 1 1"}}) {
            tx.exec_params(
                "INSERT INTO games (game_id, variant, visibility, state, start_position,"
                " start_geese, position, ply, quiet_plies, invite_code_hash, created_at,"
                " updated_at) VALUES ($1::uuid, 'standard', 1, 2, $2, 13, $2, 0, 0, 'x', now(),"
                " now())",
                id, position);
        }
        tx.exec_params(
            "INSERT INTO game_events (game_id, seq, body, created_at)"
            " VALUES ($1::uuid, 1, 'x'::bytea, now())",
            fox_to_move);
        tx.commit();
    }
    std::vector<std::string> from_0014;  // 0014 and every later migration
    for (const storage::Migration& m : embedded_migrations()) {
        if (m.version >= 14) from_0014.push_back(m.name);
    }
    ASSERT_EQ(from_0014.front(), "0014_columns_for_readers");
    EXPECT_EQ(apply_migrations(url).applied, from_0014);

    pqxx::nontransaction tx(connection);
    const auto side_to_move = [&](const std::string& id) {
        return tx.exec_params1("SELECT side_to_move FROM games WHERE game_id = $1::uuid", id)[0]
            .as<int>();
    };
    EXPECT_EQ(side_to_move(fox_to_move), 1);
    EXPECT_EQ(side_to_move(geese_to_move), 2);
    EXPECT_TRUE(tx.exec1("SELECT kind FROM game_events")[0].is_null());
    // A write of the position (a move, by any release's server) moves it on.
    tx.exec_params(
        "UPDATE games SET position = '3/3/3F3/7/GGGGGGG/GGG/GGG g 1 1'"
        " WHERE game_id = $1::uuid",
        fox_to_move);
    EXPECT_EQ(side_to_move(fox_to_move), 2);
}

}  // namespace
}  // namespace foxgeese::test
