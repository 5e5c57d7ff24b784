// What one client can hold of the HTTP server: a reply its client stopped
// reading sits in a send buffer of fixed size and is dropped (reset) when it
// makes no progress, connections per address are capped while another
// address still connects, and a caller that hangs up stops the search it
// asked for.
#include <dirent.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/service/harness/held_analysis.h"
#include "tests/service/harness/rest_harness.h"

namespace foxgeese::test {
namespace {

using SteadyClock = std::chrono::steady_clock;

int port_of(const sockaddr_storage& address) {
    if (address.ss_family == AF_INET)
        return ntohs(reinterpret_cast<const sockaddr_in&>(address).sin_port);
    if (address.ss_family == AF_INET6)
        return ntohs(reinterpret_cast<const sockaddr_in6&>(address).sin6_port);
    return -1;
}

// The server's end of the connection from `client_port` (the server runs in
// this process): its descriptor, or -1.
int server_socket_for(int server_port, int client_port) {
    DIR* fds = opendir("/proc/self/fd");
    if (fds == nullptr) return -1;
    int found = -1;
    while (const dirent* entry = readdir(fds)) {
        const int fd = std::atoi(entry->d_name);
        struct stat st {};
        if (fd <= 2 || fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) continue;
        sockaddr_storage local{};
        sockaddr_storage peer{};
        socklen_t local_size = sizeof local;
        socklen_t peer_size = sizeof peer;
        if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &local_size) != 0 ||
            getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_size) != 0)
            continue;
        if (port_of(local) == server_port && port_of(peer) == client_port) {
            found = fd;
            break;
        }
    }
    closedir(fds);
    return found;
}

// The client ports of the connections to `server_port` the kernel still
// keeps on the server's side (any state), from /proc/net/tcp.
std::set<int> server_side_connections(int server_port) {
    std::set<int> ports;
    for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        std::ifstream in(table);
        std::string line;
        std::getline(in, line);  // the header
        while (std::getline(in, line)) {
            std::istringstream fields(line);
            std::string slot, local, remote;
            fields >> slot >> local >> remote;
            const auto local_port = std::stoi(local.substr(local.rfind(':') + 1), nullptr, 16);
            const auto remote_port = std::stoi(remote.substr(remote.rfind(':') + 1), nullptr, 16);
            if (local_port == server_port) ports.insert(remote_port);
        }
    }
    return ports;
}

class HttpLimits : public RestTest {};

TEST_F(HttpLimits, RepliesNobodyReadsHoldAFixedBufferAndAreDroppedWhenStalled) {
    http_options().write_stall_timeout = std::chrono::milliseconds(2'000);
    restart_http();
    // /openapi.json is about 240 KB: more than the client's tiny receive
    // buffer and the server's send buffer hold together.
    constexpr int kReaders = 20;
    std::vector<std::unique_ptr<HttpClient>> readers;
    std::vector<int> client_ports;
    for (int i = 0; i < kReaders; ++i) {
        readers.push_back(std::make_unique<HttpClient>(port(), std::chrono::seconds(20), 4096));
        readers.back()->send("GET", "/openapi.json");
        client_ports.push_back(readers.back()->local_port());
        // The server's socket gets the configured send buffer (the kernel
        // doubles what it is given), not an autotuned one, as soon as the
        // server has taken it (the kernel accepted it with megabytes).
        const int expected = 2 * http_options().send_buffer_bytes;
        int send_buffer = 0;
        const auto until = SteadyClock::now() + std::chrono::seconds(5);
        do {
            const int fd = server_socket_for(port(), client_ports.back());
            socklen_t size = sizeof send_buffer;
            if (fd >= 0 && getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &send_buffer, &size) == 0 &&
                send_buffer == expected)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        } while (SteadyClock::now() < until);
        EXPECT_EQ(send_buffer, expected) << "connection " << i;
    }

    // After the stall timeout the server resets them: nothing stays queued
    // in its kernel for them (a graceful close would keep the unsent bytes
    // for minutes).
    const auto until = SteadyClock::now() + std::chrono::seconds(15);
    std::vector<int> left;
    do {
        left.clear();
        const std::set<int> open = server_side_connections(port());
        for (const int p : client_ports)
            if (open.count(p) > 0) left.push_back(p);
        if (left.empty()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    } while (SteadyClock::now() < until);
    EXPECT_TRUE(left.empty()) << left.size() << " of " << kReaders
                              << " stalled connections still held by the server's kernel";

    // A client that reads gets the whole document, piece by piece.
    const HttpReply whole = get("/openapi.json");
    EXPECT_EQ(whole.status, 200);
    EXPECT_GT(whole.body.size(), 100'000u);
    EXPECT_EQ(whole.header("content-length"), std::to_string(whole.body.size()));
}

TEST_F(HttpLimits, ConnectionsOverTheCapOfAnAddressAreRefusedWhileOthersConnect) {
    http_options().connections_per_address = 5;
    restart_http();
    std::vector<std::unique_ptr<HttpClient>> held;
    for (int i = 0; i < 5; ++i) {
        held.push_back(std::make_unique<HttpClient>(port(), std::chrono::seconds(5)));
        ASSERT_EQ(held.back()->request("GET", "/healthz").status, 200) << "connection " << i;
    }
    // The sixth from 127.0.0.1 is closed at once, unanswered.
    HttpClient over(port(), std::chrono::seconds(5));
    EXPECT_TRUE(over.closed_by_server());
    // Another address is not affected.
    HttpClient other(port(), std::chrono::seconds(5), 0, "127.0.0.1", "127.0.0.2");
    EXPECT_EQ(other.request("GET", "/healthz").status, 200);
    // The held ones still work, and once one goes its place is free again.
    EXPECT_EQ(held.front()->request("GET", "/healthz").status, 200);
    held.pop_back();
    bool served = false;
    const auto until = SteadyClock::now() + std::chrono::seconds(10);
    while (!served && SteadyClock::now() < until) {
        try {
            HttpClient again(port(), std::chrono::seconds(5));
            served = again.request("GET", "/healthz").status == 200;
        } catch (const std::exception&) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }
    EXPECT_TRUE(served) << "a freed place was not given again";
}

TEST_F(HttpLimits, ACallerThatHangsUpStopsItsAnalysis) {
    HttpClient caller(port());
    caller.send("POST", "/v1/positions:analyze", R"({"variant":"standard","timeMs":5000})",
                {{"Content-Type", "application/json"}});
    ASSERT_TRUE(wait_for_analyses(server(), 1)) << "the analysis never started";
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    caller.close();
    const auto closed = SteadyClock::now();
    EXPECT_TRUE(wait_for_analyses(server(), 0, std::chrono::seconds(2)))
        << "the analysis of a caller that hung up kept running";
    EXPECT_LT(SteadyClock::now() - closed, std::chrono::seconds(2));
}

TEST_F(HttpLimits, APipelinedRequestIsNotMistakenForAHangUp) {
    // The second request is already in the socket while the first runs:
    // the check for a hang-up must neither take it nor stop the search.
    HttpClient caller(port());
    const std::string body = R"({"variant":"standard","timeMs":300})";
    caller.send_raw(
        "POST /v1/positions:analyze HTTP/1.1\r\nHost: x\r\n"
        "Content-Type: application/json\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\n\r\n" + body +
        "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    const HttpReply analysed = caller.read();
    EXPECT_EQ(analysed.status, 200) << analysed.body;
    EXPECT_NE(analysed.body.find("\"lines\""), std::string::npos) << analysed.body;
    EXPECT_EQ(caller.read().status, 200);
}

}  // namespace
}  // namespace foxgeese::test
