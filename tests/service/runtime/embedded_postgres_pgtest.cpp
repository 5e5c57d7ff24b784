// The embedded PostgreSQL, against clusters of its own in temporary
// directories (and, at the end, the run's throwaway cluster).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <future>
#include <pqxx/pqxx>
#include <string>
#include <thread>

#include "service/runtime/embedded_postgres.h"
#include "tests/support/test_database.h"

namespace foxgeese::service {
namespace {

namespace fs = std::filesystem;

unsigned mode_of(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return 0;
    return st.st_mode & 07777;
}

std::string query_one(const std::string& url, const std::string& sql) {
    pqxx::connection connection(url);
    pqxx::nontransaction tx(connection);
    return tx.exec1(sql)[0].as<std::string>();
}

class EmbeddedPostgresTest : public ::testing::Test {
  protected:
    void SetUp() override {
        std::string pattern = "/tmp/foxgeese-pgtest-XXXXXX";
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        // As root the cluster runs as an unprivileged user, who must pass through.
        ASSERT_EQ(chmod(pattern.c_str(), 0711), 0);
        temp_ = pattern;
    }

    void TearDown() override {
        // A failed test must not leave a server behind.
        for (const std::string& dir : started_)
            EmbeddedPostgres::stop_cluster(dir);
        fs::remove_all(temp_);
    }

    EmbeddedPostgresOptions options_for(const std::string& data_dir) {
        started_.push_back(data_dir);
        EmbeddedPostgresOptions options;
        options.data_dir = data_dir;
        return options;
    }

    std::string temp_;
    std::vector<std::string> started_;
};

TEST_F(EmbeddedPostgresTest, StartsAnswersAndStops) {
    const auto pg = EmbeddedPostgres::start(options_for(temp_ + "/data"));
    ASSERT_TRUE(pg->running());
    EXPECT_EQ(pg->url(), "postgresql:///foxgeese?host=" + temp_ + "/data&port=5432&user=foxgeese");
    EXPECT_EQ(query_one(pg->url(), "SELECT 1"), "1");
    EXPECT_EQ(query_one(pg->url(), "SELECT current_database()"), "foxgeese");

    // No TCP, durable writes, and room for the server's pool plus the tests.
    EXPECT_EQ(query_one(pg->url(), "SHOW listen_addresses"), "");
    EXPECT_EQ(query_one(pg->url(), "SHOW fsync"), "on");
    EXPECT_EQ(query_one(pg->url(), "SHOW max_connections"), "200");
    EXPECT_EQ(query_one(pg->url(), "SHOW server_encoding"), "UTF8");

    // Only the owner (and root) may reach the socket.
    EXPECT_EQ(pg->socket_dir(), temp_ + "/data");
    EXPECT_EQ(mode_of(pg->socket_dir()), 0700u);
    EXPECT_EQ(mode_of(pg->socket_dir() + "/.s.PGSQL.5432") & 0777, 0700u);

    if (geteuid() == 0) {
        struct stat st {};
        ASSERT_EQ(stat(pg->data_dir().c_str(), &st), 0);
        EXPECT_NE(st.st_uid, 0u) << "PostgreSQL must not run as root";
    }

    pg->stop();
    EXPECT_FALSE(pg->running());
    EXPECT_THROW(pqxx::connection{pg->url()}, pqxx::broken_connection);
    pg->stop();  // again: nothing to do
}

TEST_F(EmbeddedPostgresTest, DataSurvivesARestart) {
    const std::string data_dir = temp_ + "/data";
    auto pg = EmbeddedPostgres::start(options_for(data_dir));
    {
        pqxx::connection connection(pg->url());
        pqxx::work tx(connection);
        tx.exec0("CREATE TABLE games (id integer PRIMARY KEY, variant text NOT NULL)");
        tx.exec0("INSERT INTO games VALUES (7, 'two_foxes')");
        tx.commit();
    }
    pg.reset();  // the destructor stops it

    pg = EmbeddedPostgres::start(options_for(data_dir));
    EXPECT_EQ(query_one(pg->url(), "SELECT variant FROM games WHERE id = 7"), "two_foxes");
    EXPECT_EQ(mode_of(pg->socket_dir()), 0700u);
}

TEST_F(EmbeddedPostgresTest, OtherDatabaseNameAndPort) {
    EmbeddedPostgresOptions options = options_for(temp_ + "/data");
    options.database = "fox and geese";
    options.port = 6543;
    const auto pg = EmbeddedPostgres::start(options);
    EXPECT_NE(pg->url().find("postgresql:///fox%20and%20geese?"), std::string::npos) << pg->url();
    EXPECT_NE(pg->url().find("&port=6543&"), std::string::npos) << pg->url();
    EXPECT_EQ(query_one(pg->url(), "SELECT current_database()"), "fox and geese");
    EXPECT_TRUE(fs::exists(pg->socket_dir() + "/.s.PGSQL.6543"));
}

TEST_F(EmbeddedPostgresTest, LongDataDirGetsAPrivateSocketDir) {
    const std::string data_dir = temp_ + "/" + std::string(90, 'g') + "/data";
    std::string socket_dir;
    {
        const auto pg = EmbeddedPostgres::start(options_for(data_dir));
        socket_dir = pg->socket_dir();
        EXPECT_EQ(socket_dir.rfind("/tmp/foxgeese-pg-", 0), 0u) << socket_dir;
        EXPECT_EQ(mode_of(socket_dir), 0700u);
        EXPECT_EQ(query_one(pg->url(), "SELECT 1"), "1");
    }
    EXPECT_FALSE(fs::exists(socket_dir)) << "removed once the cluster stops";
}

TEST_F(EmbeddedPostgresTest, ExplicitSocketDir) {
    EmbeddedPostgresOptions options = options_for(temp_ + "/data");
    options.socket_dir = temp_ + "/sock";
    const auto pg = EmbeddedPostgres::start(options);
    EXPECT_EQ(pg->socket_dir(), temp_ + "/sock");
    EXPECT_EQ(mode_of(pg->socket_dir()), 0700u);
    EXPECT_EQ(query_one(pg->url(), "SELECT 1"), "1");
}

TEST_F(EmbeddedPostgresTest, ClusterKeptRunningIsAdoptedAndStoppedByDataDir) {
    const std::string data_dir = temp_ + "/" + std::string(90, 'k') + "/data";
    EmbeddedPostgresOptions options = options_for(data_dir);
    options.keep_running_on_destroy = true;
    std::string url;
    std::string socket_dir;
    {
        const auto pg = EmbeddedPostgres::start(options);
        url = pg->url();
        socket_dir = pg->socket_dir();
    }
    EXPECT_EQ(query_one(url, "SELECT 1"), "1") << "still running";

    // A second start finds it running and uses it, socket and all.
    options.keep_running_on_destroy = false;
    {
        const auto pg = EmbeddedPostgres::start(options);
        EXPECT_EQ(pg->url(), url);
        EXPECT_EQ(query_one(pg->url(), "SELECT 1"), "1");
        pg->stop();
    }
    EXPECT_THROW(pqxx::connection{url}, pqxx::broken_connection);
    EXPECT_FALSE(fs::exists(socket_dir));

    // stop_cluster: for the cluster left behind by a kept process.
    options.keep_running_on_destroy = true;
    url = EmbeddedPostgres::start(options)->url();
    socket_dir = fs::path(url.substr(url.find("host=") + 5)).parent_path().string();
    EmbeddedPostgres::stop_cluster(data_dir);
    EXPECT_THROW(pqxx::connection{url}, pqxx::broken_connection);
    EmbeddedPostgres::stop_cluster(data_dir);  // already stopped: fine
    EmbeddedPostgres::stop_cluster(temp_ + "/never-created");
}

// A restart right after the server was killed: its watchdog is stopping the
// cluster. The new start waits for that stop and starts the cluster anew;
// using the dying one would fail moments later.
TEST_F(EmbeddedPostgresTest, AClusterThatIsShuttingDownIsWaitedForAndStartedAnew) {
    const std::string data_dir = temp_ + "/data";
    EmbeddedPostgresOptions options = options_for(data_dir);
    options.keep_running_on_destroy = true;
    const std::string url = EmbeddedPostgres::start(options)->url();
    pid_t dying = 0;
    std::ifstream(data_dir + "/postmaster.pid") >> dying;
    ASSERT_GT(dying, 0);
    // A smart shutdown waits for this session: the cluster stays "stopping".
    auto held = std::make_unique<pqxx::connection>(url);
    ASSERT_EQ(kill(dying, SIGTERM), 0);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    std::string status;
    while (status != "stopping" && std::chrono::steady_clock::now() < until) {
        std::ifstream in(data_dir + "/postmaster.pid");
        for (int line = 0; line < 8 && std::getline(in, status); ++line) {
        }
        status.erase(status.find_last_not_of(' ') + 1);
        if (status != "stopping") std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_EQ(status, "stopping");

    options.keep_running_on_destroy = false;
    auto started = std::async(std::launch::async, [&] { return EmbeddedPostgres::start(options); });
    // It waits while the old cluster still holds on (it would fail at once).
    EXPECT_EQ(started.wait_for(std::chrono::seconds(1)), std::future_status::timeout);
    held.reset();
    const auto pg = started.get();
    EXPECT_EQ(query_one(pg->url(), "SELECT 1"), "1");
    pid_t fresh = 0;
    std::ifstream(data_dir + "/postmaster.pid") >> fresh;
    EXPECT_NE(fresh, dying);
}

// The run command started twice by mistake: the second server is refused
// before it touches the first one's cluster, which goes on answering (it
// used to adopt the cluster, fail on its ports, and stop the cluster).
TEST_F(EmbeddedPostgresTest, ASecondServerOnTheSameDataDirIsRefusedAndLeavesTheFirstAlone) {
    const std::string data_dir = temp_ + "/data";
    const EmbeddedPostgresOptions options = options_for(data_dir);
    int ready[2];
    int finish[2];
    ASSERT_EQ(pipe(ready), 0);
    ASSERT_EQ(pipe(finish), 0);
    const pid_t first = fork();
    ASSERT_GE(first, 0);
    if (first == 0) {  // the first server: starts the cluster and holds it
        close(ready[0]);
        close(finish[1]);
        std::string url;
        try {
            const auto pg = EmbeddedPostgres::start(options);
            url = pg->url();
            if (write(ready[1], url.data(), url.size()) < 0) _exit(2);
            close(ready[1]);
            char byte;
            while (read(finish[0], &byte, 1) > 0) {
            }
        } catch (...) {
            _exit(1);
        }
        _exit(0);  // the cluster was stopped as `pg` went
    }
    close(ready[1]);
    close(finish[0]);
    std::string url;
    char buffer[512];
    for (ssize_t n; (n = read(ready[0], buffer, sizeof buffer)) > 0;)
        url.append(buffer, n);
    close(ready[0]);
    ASSERT_FALSE(url.empty()) << "the first server did not start its cluster";

    try {
        EmbeddedPostgres::start(options);
        ADD_FAILURE() << "a second server started on a data directory in use";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("another foxgeese-server (process " +
                                             std::to_string(first) + ")"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("--data-dir"), std::string::npos) << e.what();
    }
    EXPECT_EQ(query_one(url, "SELECT 1"), "1") << "the first server's cluster was stopped";

    close(finish[1]);
    int status = 0;
    ASSERT_EQ(waitpid(first, &status, 0), first);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    // Once the first server is gone, its directory can be used again.
    const auto again = EmbeddedPostgres::start(options);
    EXPECT_EQ(query_one(again->url(), "SELECT 1"), "1");
}

TEST_F(EmbeddedPostgresTest, InitdbFailureShowsItsOutput) {
    const std::string data_dir = temp_ + "/data";
    fs::create_directories(data_dir);
    std::ofstream(data_dir + "/not-a-cluster") << "x";
    try {
        EmbeddedPostgres::start(options_for(data_dir));
        FAIL() << "started on a non-empty directory";
    } catch (const std::runtime_error& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("initdb failed"), std::string::npos) << message;
        EXPECT_NE(message.find("is not empty"), std::string::npos) << message;
    }
}

TEST_F(EmbeddedPostgresTest, RootNeedsADataDirTheUnprivilegedUserCanReach) {
    if (geteuid() != 0) GTEST_SKIP() << "only root hands the cluster to another user";
    const std::string closed = temp_ + "/closed";
    fs::create_directories(closed);
    ASSERT_EQ(chmod(closed.c_str(), 0700), 0);
    try {
        EmbeddedPostgres::start(options_for(closed + "/data"));
        FAIL() << "started below a directory the unprivileged user cannot enter";
    } catch (const std::runtime_error& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("cannot enter " + closed), std::string::npos) << message;
        EXPECT_NE(message.find("/var/lib/foxgeese"), std::string::npos) << message;
    }
    EXPECT_FALSE(fs::exists(closed + "/data")) << "a refused directory is not created";
}

TEST_F(EmbeddedPostgresTest, BadOptions) {
    EXPECT_THROW(EmbeddedPostgres::start(EmbeddedPostgresOptions{}), std::runtime_error);
    EmbeddedPostgresOptions options = options_for(temp_ + "/data");
    options.port = 0;
    EXPECT_THROW(EmbeddedPostgres::start(options), std::runtime_error);
    options = options_for(temp_ + "/da$ta");
    EXPECT_THROW(EmbeddedPostgres::start(options), std::runtime_error);
}

TEST(EmbeddedPostgresDefaults, DataDirFollowsTheUser) {
    const std::string dir = EmbeddedPostgres::default_data_dir();
    if (geteuid() == 0) {
        EXPECT_EQ(dir, "/var/lib/foxgeese/pgdata");
    } else {
        EXPECT_EQ(dir.substr(dir.size() - 16), "/foxgeese/pgdata") << dir;
    }
}

// The run's shared cluster, started by the throwaway_pg_start fixture.
TEST(ThrowawayCluster, AnswersAndMakesScratchDatabases) {
    EXPECT_EQ(query_one(test::test_database_url(), "SELECT current_database()"), "foxgeese");
    const std::string first = test::create_scratch_database("Migration Test");
    const std::string second = test::create_scratch_database("Migration Test");
    EXPECT_NE(first, second);
    const std::string name = query_one(first, "SELECT current_database()");
    EXPECT_EQ(name.rfind("migration_test_", 0), 0u) << name;
    EXPECT_LE(name.size(), 63u);
    EXPECT_EQ(query_one(first, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"), "0");
}

}  // namespace
}  // namespace foxgeese::service
