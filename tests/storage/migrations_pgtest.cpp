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

}  // namespace
}  // namespace foxgeese::test
