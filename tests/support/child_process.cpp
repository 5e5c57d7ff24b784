#include "tests/support/child_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

extern char** environ;

namespace foxgeese::test {

std::string ChildProcess::start(const std::vector<std::string>& args, const std::string& log_path,
                                int stderr_fd) {
    std::vector<std::string> all = args;
    std::vector<char*> argv;
    for (std::string& arg : all)
        argv.push_back(arg.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&files, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                     0644);
    posix_spawn_file_actions_adddup2(&files, stderr_fd >= 0 ? stderr_fd : 1, 2);
    // gRPC threads of the test may block signals; a server waits for SIGTERM
    // itself, so it must start with an empty mask and default handlers.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    sigset_t defaults;
    sigemptyset(&defaults);
    for (const int sig : {SIGTERM, SIGINT, SIGPIPE, SIGHUP})
        sigaddset(&defaults, sig);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    pid_t pid = -1;
    const int rc = posix_spawn(&pid, argv[0], &files, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    posix_spawnattr_destroy(&attributes);
    if (rc != 0) return std::string("posix_spawn ") + argv[0] + ": " + std::strerror(rc);
    pid_ = pid;
    return "";
}

void ChildProcess::send(int sig) const {
    if (pid_ > 0) ::kill(pid_, sig);
}

std::optional<int> ChildProcess::wait_exit(std::chrono::steady_clock::duration timeout) {
    if (pid_ <= 0) return std::nullopt;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            return status;
        }
        if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
        // waitpid cannot wait with a timeout; a short poll is the portable way.
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

bool ChildProcess::exited() {
    if (pid_ <= 0) return true;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return true;
    }
    return false;
}

void ChildProcess::kill_now() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
}

std::string make_temp_dir(const std::string& prefix) {
    std::string pattern = "/tmp/" + prefix + "-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) return "";
    return pattern;
}

std::string log_for_failure(const std::string& log_path) {
    std::ifstream in(log_path);
    if (!in) return "";
    std::stringstream text;
    text << in.rdbuf();
    return "--- foxgeese-server log (" + log_path + ") ---\n" + text.str() + "--- end of log ---\n";
}

namespace {

// The lowest port of the kernel's ephemeral range (32768 on Linux by
// default), which listeners on port 0 and every outgoing connection draw from.
int ephemeral_low() {
    std::ifstream range("/proc/sys/net/ipv4/ip_local_port_range");
    int low = 0;
    if (range >> low) return low;
    return 32768;
}

// A socket bound to `port` on every address (the server listens there), or
// -1 when something holds it.
int hold_port(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_ANY);
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

}  // namespace

std::vector<int> free_ports(int n) {
    // Ports from below the ephemeral range: a port the kernel had handed
    // out (bound to port 0) could be handed again, to an outgoing connection
    // or another test's replica, before the server bound it, and the server
    // then failed to start. Below the range only other callers of this
    // function pick ports, and at random among thousands they rarely meet.
    // All sockets stay open until every port is picked, so the ports differ.
    static std::mutex mutex;
    static std::mt19937 random(std::random_device{}());
    const std::lock_guard lock(mutex);
    const int high = ephemeral_low();
    const int low = std::max(1024, high - 12'000);
    std::vector<int> sockets;
    std::vector<int> ports;
    for (int attempt = 0; static_cast<int>(ports.size()) < n && attempt < 10'000; ++attempt) {
        const int port = low + static_cast<int>(random() % static_cast<unsigned>(high - low));
        const int fd = hold_port(port);
        if (fd < 0) continue;
        sockets.push_back(fd);
        ports.push_back(port);
    }
    for (const int fd : sockets)
        ::close(fd);
    return ports;
}

std::string describe_wait_status(int status) {
    if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return std::string("signal ") + strsignal(WTERMSIG(status));
    return "wait status " + std::to_string(status);
}

}  // namespace foxgeese::test
