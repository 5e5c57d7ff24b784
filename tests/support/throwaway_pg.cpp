// throwaway_pg start|stop STATEFILE: the PostgreSQL cluster of one ctest run.
// `start` makes a fresh cluster in /tmp/foxgeese-test-pg-XXXXXX and leaves it
// running, with its URL on line 1 of STATEFILE and its data dir on line 2;
// `stop` stops it and removes the directory and STATEFILE. Line 3 names the
// ctest run that owns the cluster, so a second run in the same build
// directory neither takes over nor stops a cluster that is still in use.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "service/runtime/embedded_postgres.h"

namespace {

namespace fs = std::filesystem;
using foxgeese::service::EmbeddedPostgres;

constexpr const char* kTempPrefix = "foxgeese-test-pg-";

struct State {
    std::string url;
    std::string data_dir;
    std::string owner;  // owner_of() of the ctest run, or empty
};

bool read_state(const fs::path& file, State& state) {
    std::ifstream in(file);
    if (!in || !std::getline(in, state.url) || !std::getline(in, state.data_dir)) return false;
    std::getline(in, state.owner);
    return !state.data_dir.empty();
}

// "pid:start-time" of a live ctest process, else empty. The start time tells
// a reused pid apart; other parents (a shell) never own the cluster, so a
// cluster started by hand can be stopped from anywhere.
std::string ctest_identity(pid_t pid) {
    std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
    std::string name;
    if (!std::getline(comm, name) || name != "ctest") return {};
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    const std::size_t close = line.rfind(')');
    if (close == std::string::npos) return {};
    std::istringstream fields(line.substr(close + 2));
    std::string field;
    // Fields after the name start at field 3; the start time is field 22.
    for (int index = 3; index <= 22 && fields >> field; ++index) {
    }
    return std::to_string(pid) + ":" + field;
}

// The state belongs to another ctest run that is still going.
bool owned_by_another_run(const State& state) {
    if (state.owner.empty()) return false;
    const std::string parent = ctest_identity(getppid());
    if (state.owner == parent) return false;
    const pid_t owner_pid = static_cast<pid_t>(std::atoi(state.owner.c_str()));
    return ctest_identity(owner_pid) == state.owner;
}

// Only ever removes a directory this program made.
bool is_our_temp_dir(const fs::path& dir) {
    return dir.parent_path() == "/tmp" && dir.filename().string().rfind(kTempPrefix, 0) == 0;
}

int stop(const fs::path& state_file) {
    State state;
    if (!read_state(state_file, state)) {
        std::cout << "throwaway_pg: no cluster recorded in " << state_file << "\n";
        std::error_code ec;
        fs::remove(state_file, ec);
        return 0;
    }
    if (owned_by_another_run(state)) {
        std::cout << "throwaway_pg: the cluster in " << state.data_dir
                  << " belongs to another ctest run (" << state.owner << "); leaving it\n";
        return 0;
    }
    EmbeddedPostgres::stop_cluster(
        state.data_dir, /*discard=*/is_our_temp_dir(fs::path(state.data_dir).parent_path()));
    const fs::path temp_dir = fs::path(state.data_dir).parent_path();
    if (is_our_temp_dir(temp_dir)) fs::remove_all(temp_dir);
    fs::remove(state_file);
    std::cout << "throwaway_pg: stopped and removed " << temp_dir << "\n";
    return 0;
}

int start(const fs::path& state_file) {
    if (State state; read_state(state_file, state) && owned_by_another_run(state)) {
        std::cerr << "throwaway_pg: another ctest run (" << state.owner
                  << ") is using the test cluster of this build directory (" << state_file
                  << "); wait for it to finish, or use another build directory\n";
        return 1;
    }
    // A run that was killed before its cleanup left a cluster behind: stop it first.
    if (fs::exists(state_file)) stop(state_file);

    std::string temp = std::string("/tmp/") + kTempPrefix + "XXXXXX";
    if (mkdtemp(temp.data()) == nullptr) {
        std::cerr << "throwaway_pg: mkdtemp: " << std::strerror(errno) << "\n";
        return 1;
    }
    // As root, PostgreSQL runs as an unprivileged user that must pass through.
    chmod(temp.c_str(), 0711);
    const fs::path data_dir = fs::path(temp) / "data";
    try {
        foxgeese::service::EmbeddedPostgresOptions options;
        options.data_dir = data_dir.string();
        options.keep_running_on_destroy = true;
        const auto cluster = EmbeddedPostgres::start(options);

        const fs::path partial = state_file.string() + ".tmp";
        fs::create_directories(state_file.parent_path());
        {
            std::ofstream out(partial);
            out << cluster->url() << "\n"
                << cluster->data_dir() << "\n"
                << ctest_identity(getppid()) << "\n";
            if (!out.flush()) throw std::runtime_error("could not write " + partial.string());
        }
        fs::rename(partial, state_file);
        std::cout << "throwaway_pg: " << cluster->url() << "\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "throwaway_pg: " << e.what() << "\n";
        try {
            EmbeddedPostgres::stop_cluster(data_dir.string());
        } catch (const std::exception& stop_error) {
            std::cerr << "throwaway_pg: " << stop_error.what() << "\n";
        }
        std::error_code ec;
        fs::remove_all(temp, ec);
        return 1;
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3 || (std::strcmp(argv[1], "start") != 0 && std::strcmp(argv[1], "stop") != 0)) {
        std::cerr << "usage: throwaway_pg start|stop STATEFILE\n";
        return 2;
    }
    const fs::path state_file = fs::absolute(argv[2]);
    try {
        return std::strcmp(argv[1], "start") == 0 ? start(state_file) : stop(state_file);
    } catch (const std::exception& e) {
        std::cerr << "throwaway_pg: " << e.what() << "\n";
        return 1;
    }
}
