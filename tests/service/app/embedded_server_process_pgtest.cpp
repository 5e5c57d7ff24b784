// foxgeese-server with its embedded PostgreSQL, run as a person runs it: its
// log piped into a reader that goes away first (`run.sh 2>&1 | tee log`,
// then Ctrl-C), and the server killed outright. Either way its PostgreSQL
// ends with it, and the next start on the same data directory works.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "service/runtime/embedded_postgres.h"
#include "tests/service/harness/http_test_client.h"
#include "tests/support/child_process.h"

#ifndef FOXGEESE_SERVER_BINARY
#error "FOXGEESE_SERVER_BINARY must name the foxgeese-server executable"
#endif

namespace foxgeese::test {
namespace {

namespace fs = std::filesystem;
using SteadyClock = std::chrono::steady_clock;

// The postmaster's pid, from the first line of postmaster.pid; 0 when there
// is no such file.
pid_t postmaster_pid(const fs::path& data_dir) {
    std::ifstream in(data_dir / "postmaster.pid");
    pid_t pid = 0;
    in >> pid;
    return pid;
}

// Whether a process runs; a zombie waiting for its reaper does not.
bool process_runs(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(in, line)) return false;
    const auto name_end = line.rfind(')');
    return name_end != std::string::npos && name_end + 2 < line.size() && line[name_end + 2] != 'Z';
}

bool wait_until(const std::function<bool()>& done, std::chrono::seconds timeout) {
    const auto until = SteadyClock::now() + timeout;
    while (!done()) {
        if (SteadyClock::now() >= until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return true;
}

std::string last_line(const std::string& path) {
    std::ifstream in(path);
    std::string line, last;
    while (std::getline(in, line)) {
        if (!line.empty()) last = line;
    }
    return last;
}

bool ends_with(const std::string& text, const std::string& end) {
    return text.size() >= end.size() &&
           text.compare(text.size() - end.size(), end.size(), end) == 0;
}

class EmbeddedServerProcess : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = make_temp_dir("foxgeese-embedded-process");
        ASSERT_FALSE(dir_.empty());
        // As root PostgreSQL runs as an unprivileged user, who must pass through.
        ASSERT_EQ(chmod(dir_.c_str(), 0711), 0);
        data_dir_ = fs::path(dir_) / "data";
        log_ = (fs::path(dir_) / "server.log").string();
        ports_ = free_ports(2);
        ASSERT_EQ(ports_.size(), 2u);
    }

    void TearDown() override {
        server_.kill_now();
        if (HasFailure()) std::cerr << log_for_failure(log_);
        // A failed test must not leave a cluster behind.
        try {
            service::EmbeddedPostgres::stop_cluster(data_dir_.string());
        } catch (const std::exception& e) {
            std::cerr << e.what() << "\n";
        }
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }

    std::string start_server(int stderr_fd = -1) {
        return server_.start(
            {FOXGEESE_SERVER_BINARY, "--data-dir", data_dir_.string(), "--grpc-port",
             std::to_string(ports_[0]), "--http-port", std::to_string(ports_[1]),
             "--listen-address", "127.0.0.1", "--drain-seconds", "2", "--bot-threads", "0"},
            log_, stderr_fd);
    }

    // Waits for /readyz (a first start runs initdb); `drain` is a pipe to
    // keep empty meanwhile.
    bool wait_ready(int drain = -1) {
        return wait_until(
                   [&] {
                       if (drain >= 0) {
                           char scratch[4096];
                           while (read(drain, scratch, sizeof scratch) > 0) {
                           }
                       }
                       if (server_.exited()) return true;  // reported below
                       try {
                           return http_call(ports_[1], "GET", "/readyz").status == 200;
                       } catch (const std::exception&) {
                           return false;
                       }
                   },
                   std::chrono::seconds(180)) &&
               server_.running();
    }

    std::string dir_;
    fs::path data_dir_;
    std::string log_;
    std::vector<int> ports_;
    ChildProcess server_;
};

TEST_F(EmbeddedServerProcess, AClosedLogPipeNeitherKillsTheServerNorOrphansItsPostgres) {
    int log_pipe[2];
    ASSERT_EQ(pipe2(log_pipe, O_CLOEXEC), 0);
    ASSERT_EQ(start_server(log_pipe[1]), "");
    close(log_pipe[1]);
    ASSERT_EQ(fcntl(log_pipe[0], F_SETFL, O_NONBLOCK), 0);
    ASSERT_TRUE(wait_ready(log_pipe[0])) << "the server did not become ready";
    const pid_t postgres = postmaster_pid(data_dir_);
    ASSERT_GT(postgres, 0);
    ASSERT_TRUE(process_runs(postgres));

    // The reader goes (tee after Ctrl-C); every request logs a line.
    close(log_pipe[0]);
    for (int i = 0; i < 3; ++i) {
        try {
            http_call(ports_[1], "GET", "/v1/variants");
        } catch (const std::exception&) {
        }
    }
    ASSERT_FALSE(server_.exited()) << "the server died of its closed log";
    EXPECT_EQ(http_call(ports_[1], "GET", "/v1/variants").status, 200);

    server_.send(SIGINT);
    const std::optional<int> status = server_.wait_exit(std::chrono::seconds(60));
    ASSERT_TRUE(status.has_value()) << "still running a minute after SIGINT";
    EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << describe_wait_status(*status);
    EXPECT_TRUE(wait_until([&] { return !process_runs(postgres); }, std::chrono::seconds(10)))
        << "PostgreSQL " << postgres << " outlived its server";
    EXPECT_FALSE(fs::exists(data_dir_ / "postmaster.pid"));
}

TEST_F(EmbeddedServerProcess, AKilledServerTakesItsPostgresAlongAndTheNextStartWorks) {
    ASSERT_EQ(start_server(), "");
    ASSERT_TRUE(wait_ready()) << "the server did not become ready";
    // The start-up's last line says what to open (it listens on 127.0.0.1).
    const std::string open = "open http://localhost:" + std::to_string(ports_[1]) + "/";
    EXPECT_TRUE(
        wait_until([&] { return ends_with(last_line(log_), open); }, std::chrono::seconds(30)))
        << "the log's last line is '" << last_line(log_) << "', not '" << open << "'";
    const pid_t postgres = postmaster_pid(data_dir_);
    ASSERT_GT(postgres, 0);
    ASSERT_TRUE(process_runs(postgres));

    server_.kill_now();
    EXPECT_TRUE(wait_until([&] { return !process_runs(postgres); }, std::chrono::seconds(15)))
        << "PostgreSQL " << postgres << " outlived its server's SIGKILL";

    // The next start on the same data directory: its own cluster, ready.
    ASSERT_EQ(start_server(), "");
    ASSERT_TRUE(wait_ready()) << "the second start did not become ready";
    EXPECT_EQ(http_call(ports_[1], "GET", "/v1/variants").status, 200);
    const pid_t second = postmaster_pid(data_dir_);
    EXPECT_GT(second, 0);
    EXPECT_NE(second, postgres);
    server_.send(SIGTERM);
    const std::optional<int> status = server_.wait_exit(std::chrono::seconds(60));
    ASSERT_TRUE(status.has_value()) << "still running a minute after SIGTERM";
    EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << describe_wait_status(*status);
    EXPECT_TRUE(wait_until([&] { return !process_runs(second); }, std::chrono::seconds(10)));
}

}  // namespace
}  // namespace foxgeese::test
