// Replicas are stateless. Three foxgeese-server processes share the run's
// database; a dozen games are played through all of them in turn (every move
// to another replica than the one before) and watched from yet another, while
// one replica is killed with SIGKILL and another stopped with SIGTERM and
// started again. Nothing may depend on which process served what:
//  - every move a player was told about is stored exactly once, in order,
//    byte for byte as the player was told, and nothing else is stored;
//  - a request sent again with its request_id (after a lost answer, or on
//    purpose to another replica) gets the first answer and never moves twice;
//  - the stored games replay through the engine to the same positions and
//    statuses;
//  - every watcher, reconnecting to other replicas with from_ply whenever its
//    stream breaks, sees every move exactly once and in order.
#include <arpa/inet.h>
#include <fcntl.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/rules/game.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"
#include "foxgeese/v1/game_service.grpc.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "tests/support/child_process.h"
#include "tests/support/test_database.h"

#ifndef FOXGEESE_SERVER_BINARY
#error "FOXGEESE_SERVER_BINARY must name the foxgeese-server executable"
#endif

namespace foxgeese::test {
namespace {

namespace v1 = ::foxgeese::v1;
namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr int kReplicas = 3;
constexpr int kGames = 12;
// Each game is played to this ply unless it finishes earlier...
constexpr int kTargetPlies = 40;
// ... and keeps going until it has made this many moves after the last
// replica came back, so the restarted processes serve moves too, even on a
// machine slow enough that the restarts end after ply 40.
constexpr int kMovesAfterRestarts = 3;
// MakeMove calls in flight to replica 0 when it is killed.
constexpr int kMovesCutByTheKill = 3;
// MakeMove calls in flight to replica 1 when it is told to stop.
constexpr int kMovesInFlightAtTheStop = 2;
// The hard stop for a game, whatever happens.
constexpr int kMaxPlies = 90;
// Two of the games start from positions with few geese left, and only once
// the replica is killed, so that they end while replicas fail; the other
// games set the pace.
constexpr int kShortGames = 2;
// The kill, the stop and the second restart happen after these fractions of
// the long games' moves have been acknowledged.
constexpr int kPlannedMoves = (kGames - kShortGames) * kTargetPlies;
constexpr int kKillAfterMoves = kPlannedMoves / 3;
constexpr int kStopAfterMoves = kPlannedMoves / 2;
constexpr int kRestartKilledAfterMoves = kPlannedMoves * 2 / 3;

// A unary call's deadline: generous for a loaded 2-core machine, short enough
// that a call lost in a dying replica is retried elsewhere soon.
constexpr auto kCallDeadline = 5s;
// A request that no replica answers for this long fails the test.
constexpr auto kGiveUpAfter = 60s;
// A replica that failed a call is left out of the rotation this long (as a
// load balancer would eject it), then tried again.
constexpr auto kEjectFor = 1s;
constexpr int kDrainSeconds = 5;
// How long a SIGTERM'd server may take beyond its drain time to exit.
constexpr auto kExitGrace = 15s;
constexpr auto kStartupTimeout = 60s;
// The longest wait for any milestone of the scenario.
constexpr auto kMilestoneTimeout = 90s;
// A watch stream lives at most this long: a hung stream fails the test
// instead of hanging it.
constexpr auto kWatchStreamDeadline = 180s;

// A player's think time between moves, in milliseconds: the games then take
// a few seconds, so the kill and the restarts land in the middle of them.
constexpr int kMinThinkMs = 40;
constexpr int kMaxThinkMs = 160;
// One move in this many is first sent with a deadline of a few milliseconds,
// so that it is often applied while its answer is lost and the retry races it.
constexpr int kImpatientOneIn = 8;
constexpr auto kImpatientDeadline = 2ms;
// One move in this many is sent a second time on purpose, with the same
// request_id, to another replica.
constexpr int kDuplicateOneIn = 6;

// ---------------------------------------------------------------------------
// Small helpers.

// A random UUIDv4, the request_id the API recommends (and requires for
// CreateGame, where a retry hands out the seat again).
std::string uuid_v4(std::mt19937_64& rng) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string id;
    for (int i = 0; i < 32; ++i) {
        if (i == 8 || i == 12 || i == 16 || i == 20) id += '-';
        std::uint64_t digit = rng() % 16;
        if (i == 12) digit = 4;                // version 4
        if (i == 16) digit = 8 | (digit & 3);  // variant 10xx
        id += kHex[digit];
    }
    return id;
}

std::optional<google::rpc::ErrorInfo> error_info(const grpc::Status& status) {
    google::rpc::Status details;
    if (status.error_details().empty() || !details.ParseFromString(status.error_details())) {
        return std::nullopt;
    }
    for (const auto& any : details.details()) {
        google::rpc::ErrorInfo info;
        if (any.Is<google::rpc::ErrorInfo>() && any.UnpackTo(&info)) return info;
    }
    return std::nullopt;
}

std::string describe(const grpc::Status& status) {
    if (status.ok()) return "OK";
    const auto info = error_info(status);
    return "code " + std::to_string(status.error_code()) + " " +
           (info ? info->reason() : std::string("(no ErrorInfo)")) + ": " + status.error_message();
}

// Whether a failed call says nothing about the request, so that the same
// request may be sent again to another replica: the replica is gone or going
// (UNAVAILABLE, a cut connection that gRPC reports as CANCELLED, UNKNOWN or an
// INTERNAL without our ErrorInfo), the answer did not come in time, or the
// replica had no thread free. Every other error is an answer.
bool is_transport_failure(const grpc::Status& status) {
    switch (status.error_code()) {
        case grpc::StatusCode::UNAVAILABLE:
        case grpc::StatusCode::DEADLINE_EXCEEDED:
        case grpc::StatusCode::RESOURCE_EXHAUSTED:
        case grpc::StatusCode::CANCELLED:
        case grpc::StatusCode::UNKNOWN:
            return true;
        case grpc::StatusCode::INTERNAL:
            return !error_info(status).has_value();
        default:
            return false;
    }
}

// Runs `body` when the scope ends, however it ends.
class ScopeExit {
  public:
    explicit ScopeExit(std::function<void()> body) : body_(std::move(body)) {}
    ~ScopeExit() { body_(); }
    ScopeExit(const ScopeExit&) = delete;
    ScopeExit& operator=(const ScopeExit&) = delete;

  private:
    std::function<void()> body_;
};

std::string last_lines(const fs::path& file, std::size_t count) {
    std::ifstream in(file);
    std::deque<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        lines.push_back(std::move(line));
        if (lines.size() > count) lines.pop_front();
    }
    std::string text;
    for (const std::string& line : lines)
        text += "    " + line + "\n";
    return text;
}

// ---------------------------------------------------------------------------
// Server processes.

// The server built with this test, or the one FOXGEESE_E2E_SERVER names (to
// run the same proof against another build, e.g. a sanitizer build).
std::string server_binary() {
    const char* other = std::getenv("FOXGEESE_E2E_SERVER");
    return other && *other ? other : FOXGEESE_SERVER_BINARY;
}

// One foxgeese-server process (killed and reaped at the end of its scope).
class ServerProcess : public test::ChildProcess {
  public:
    // Starts the server with `args`, its stdout and stderr appended to `log`.
    // Returns an error message, or "" on success.
    std::string start(const std::vector<std::string>& args, const fs::path& log) {
        std::vector<std::string> all = {server_binary()};
        all.insert(all.end(), args.begin(), args.end());
        return ChildProcess::start(all, log.string());
    }
    void kill_and_reap() { kill_now(); }
};

// Whether grpc.health.v1.Health/Check says the server as a whole ("") is
// SERVING. The health protos are not part of this build, so the call goes
// through a generic stub with the two tiny messages encoded by hand: the
// request {service: ""} is empty, and the response {status: SERVING} is
// field 1 as varint 1, the bytes 08 01.
bool health_serving(const std::shared_ptr<grpc::Channel>& channel) {
    grpc::GenericStub stub(channel);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + 2s);
    grpc::Slice empty(std::string{});
    const grpc::ByteBuffer request(&empty, 1);
    grpc::ByteBuffer response;
    // Shared with the callback, which may still be returning from set_value
    // when get() wakes up here.
    auto finished = std::make_shared<std::promise<grpc::Status>>();
    std::future<grpc::Status> result = finished->get_future();
    stub.UnaryCall(&context, "/grpc.health.v1.Health/Check", grpc::StubOptions(), &request,
                   &response, [finished](grpc::Status s) { finished->set_value(std::move(s)); });
    const grpc::Status status = result.get();
    if (!status.ok()) return false;
    std::vector<grpc::Slice> slices;
    if (!response.Dump(&slices).ok()) return false;
    std::string bytes;
    for (const grpc::Slice& slice : slices)
        bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
    return bytes == std::string("\x08\x01", 2);
}

// One replica: its ports stay the same across restarts, and so does the
// client's channel to it (which reconnects by itself).
struct Replica {
    int grpc_port = 0;
    int http_port = 0;
    std::atomic<int> starts{0};  // processes started so far on these ports
    ServerProcess process;
    std::vector<fs::path> logs;  // one per process, in start order
    std::shared_ptr<grpc::Channel> channel;
    std::unique_ptr<v1::FoxGeeseService::Stub> stub;
    // Bumped each time a process on these ports is announced ready.
    std::atomic<int> ready_generation{0};
    // MakeMove calls sent to it and not answered yet.
    std::atomic<int> moves_in_flight{0};
    // Moves acknowledged by each process (index = start number - 1).
    std::array<std::atomic<int>, 4> moves_served{};
};

// The replicas' processes, and the client's channels to them.
class Cluster {
  public:
    Cluster(fs::path dir, std::string database_url)
        : dir_(std::move(dir)), database_url_(std::move(database_url)) {}

    // Picks the ports. False when the system has none to give.
    bool init() {
        const std::vector<int> ports = free_ports(2 * kReplicas);
        if (ports.size() != 2 * kReplicas) return false;
        for (int i = 0; i < kReplicas; ++i) {
            auto replica = std::make_unique<Replica>();
            replica->grpc_port = ports[static_cast<std::size_t>(2 * i)];
            replica->http_port = ports[static_cast<std::size_t>(2 * i + 1)];
            grpc::ChannelArguments args;
            // Reconnect soon after a restart instead of after gRPC's default
            // backoff of up to two minutes.
            args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
            args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 100);
            args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 500);
            replica->channel =
                grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(replica->grpc_port),
                                          grpc::InsecureChannelCredentials(), args);
            replica->stub = v1::FoxGeeseService::NewStub(replica->channel);
            replicas_.push_back(std::move(replica));
        }
        return true;
    }

    Replica& at(int i) { return *replicas_[static_cast<std::size_t>(i)]; }
    v1::FoxGeeseService::Stub& stub(int i) { return *at(i).stub; }

    // Starts a new process for replica i on its ports. "" or an error.
    std::string start(int i) {
        Replica& r = at(i);
        ++r.starts;
        const fs::path log = dir_ / ("replica-" + std::to_string(i) + "." +
                                     std::to_string(r.starts.load()) + ".log");
        r.logs.push_back(log);
        return r.process.start(
            {"serve", "--database-url=" + database_url_,
             "--grpc-port=" + std::to_string(r.grpc_port),
             "--http-port=" + std::to_string(r.http_port), "--listen-address=127.0.0.1",
             "--log-level=info", "--db-pool-size=4",
             "--drain-seconds=" + std::to_string(kDrainSeconds)},
            log);
    }

    // Waits until replica i reports SERVING; "" or why not.
    std::string wait_serving(int i) {
        Replica& r = at(i);
        const auto deadline = Clock::now() + kStartupTimeout;
        while (Clock::now() < deadline) {
            if (health_serving(r.channel)) return "";
            if (const auto exited = r.process.wait_exit(0s)) {
                return "replica " + std::to_string(i) + " exited before it was ready (" +
                       describe_wait_status(*exited) + ")";
            }
            // Polled: the health check answers now or never, it cannot wait.
            std::this_thread::sleep_for(100ms);
        }
        return "replica " + std::to_string(i) + " was not SERVING after " +
               std::to_string(kStartupTimeout.count()) + " s";
    }

    // Tells the clients that replica i is ready again (as a Kubernetes
    // Service adds a pod back when its readiness probe passes).
    void announce_ready(int i) { ++at(i).ready_generation; }

    // Counts a MakeMove call to replica i for as long as it is in flight.
    class MoveInFlight {
      public:
        MoveInFlight(Cluster& cluster, int i) : cluster_(cluster), i_(i) {
            {
                std::lock_guard lock(cluster_.in_flight_mutex_);
                ++cluster_.at(i_).moves_in_flight;
            }
            cluster_.in_flight_changed_.notify_all();
        }
        ~MoveInFlight() { --cluster_.at(i_).moves_in_flight; }
        MoveInFlight(const MoveInFlight&) = delete;
        MoveInFlight& operator=(const MoveInFlight&) = delete;

      private:
        Cluster& cluster_;
        int i_;
    };
    // Waits until at least `calls` MakeMove calls are in flight to replica i.
    bool wait_moves_in_flight(int i, int calls, Clock::duration timeout) {
        std::unique_lock lock(in_flight_mutex_);
        return in_flight_changed_.wait_for(lock, timeout,
                                           [&] { return at(i).moves_in_flight.load() >= calls; });
    }

    // The last lines of every replica's logs, for a failure message.
    std::string logs_tail() const {
        std::string text;
        for (const auto& r : replicas_) {
            for (const fs::path& log : r->logs) {
                text += "--- " + log.string() + " (last 60 lines)\n" + last_lines(log, 60);
            }
        }
        return text;
    }

  private:
    fs::path dir_;
    std::string database_url_;
    std::vector<std::unique_ptr<Replica>> replicas_;
    // Guards the increments of moves_in_flight, so a waiter cannot miss one.
    std::mutex in_flight_mutex_;
    std::condition_variable in_flight_changed_;
};

// One client's idea of which replicas are alive: round robin over those,
// where a replica that failed a call is left out for kEjectFor (as a load
// balancer ejects it) and taken back at once when it is announced ready.
// Every client finds out about a dead replica by itself.
class ClientView {
  public:
    explicit ClientView(Cluster& cluster) : cluster_(cluster) {}

    void eject(int i) {
        auto& e = ejections_[static_cast<std::size_t>(i)];
        e.until = Clock::now() + kEjectFor;
        e.generation = cluster_.at(i).ready_generation.load();
    }
    bool believed_alive(int i) const {
        const auto& e = ejections_[static_cast<std::size_t>(i)];
        return Clock::now() >= e.until || cluster_.at(i).ready_generation.load() != e.generation;
    }

    // The next replica after `previous` in round robin that is believed
    // alive and is neither `previous` nor `avoid`. With too few replicas
    // left, the rules give way in that order: first `avoid` is allowed, then
    // `previous`; with none believed alive, the next in turn is tried (the
    // call will tell whether it is back).
    int pick(int previous, int avoid = -1) const {
        // Round-robin order after `previous`; `previous` itself comes last.
        std::array<int, kReplicas> order{};
        for (int step = 1; step <= kReplicas; ++step) {
            order[static_cast<std::size_t>(step - 1)] =
                ((previous + step) % kReplicas + kReplicas) % kReplicas;
        }
        for (const int candidate : order) {
            if (candidate != previous && candidate != avoid && believed_alive(candidate)) {
                return candidate;
            }
        }
        for (const int candidate : order) {
            if (candidate != previous && believed_alive(candidate)) return candidate;
        }
        return believed_alive(order.back()) ? order.back() : order.front();
    }

  private:
    struct Ejection {
        Clock::time_point until{};
        int generation = 0;
    };
    Cluster& cluster_;
    std::array<Ejection, kReplicas> ejections_{};
};

// ---------------------------------------------------------------------------
// The games, their players and their watchers.

// What the clients did, for the summary at the end.
struct Counters {
    std::atomic<int> moves_acked{0};
    std::atomic<int> transport_retries{0};       // requests sent again after a failure
    std::atomic<int> retries_answered_first{0};  // ... whose earlier try had been applied
    std::atomic<int> impatient_first_tries{0};   // first tries given a few ms only
    std::atomic<int> impatient_timeouts{0};      // ... that timed out and were sent again
    std::atomic<int> duplicate_deliveries{0};    // moves sent twice on purpose
    std::atomic<int> watcher_reconnects{0};      // broken watch streams resumed elsewhere
    std::atomic<int> watcher_connect_failures{0};

    // Transport failures of MakeMove by status code, for the summary.
    void count_failure(const grpc::Status& status) {
        std::lock_guard lock(mutex);
        ++failures[status.error_code()];
    }
    std::string failures_text() {
        std::lock_guard lock(mutex);
        std::string text;
        for (const auto& [code, n] : failures)
            text += (text.empty() ? "" : ", ") + code_name(code) + " " + std::to_string(n);
        return text.empty() ? "none" : text;
    }

  private:
    static std::string code_name(grpc::StatusCode code) {
        switch (code) {
            case grpc::StatusCode::UNAVAILABLE:
                return "UNAVAILABLE";
            case grpc::StatusCode::DEADLINE_EXCEEDED:
                return "DEADLINE_EXCEEDED";
            case grpc::StatusCode::RESOURCE_EXHAUSTED:
                return "RESOURCE_EXHAUSTED";
            case grpc::StatusCode::CANCELLED:
                return "CANCELLED";
            case grpc::StatusCode::UNKNOWN:
                return "UNKNOWN";
            case grpc::StatusCode::INTERNAL:
                return "INTERNAL";
            default:
                return "code " + std::to_string(code);
        }
    }
    std::mutex mutex;
    std::map<grpc::StatusCode, int> failures;
};

// Shared by the players and the scenario: how far the games are, and
// whether the restarts are over.
struct Progress {
    std::mutex mutex;
    std::condition_variable changed;
    int acked = 0;
    int players_running = 0;
    bool restarts_over = false;
    std::atomic<bool> abort{false};  // the test is failing: every thread stops

    void add_ack() {
        {
            std::lock_guard lock(mutex);
            ++acked;
        }
        changed.notify_all();
    }
    int running() {
        std::lock_guard lock(mutex);
        return players_running;
    }
    // Waits until `moves` moves are acknowledged or no player is left.
    bool wait_for_moves(int moves) {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, kMilestoneTimeout,
                                [&] { return acked >= moves || players_running == 0; });
    }
};

struct GameSpec {
    std::string variant;
    std::optional<int> geese;
    std::optional<bool> geese_sideways;
    std::string start_position;  // empty: the variant's start
    int start_after_moves = 0;   // the first move waits for this many moves in all games
};

// One game: the player's record (written by its player thread, read after
// it is joined) and the watcher's (guarded by watch_mutex).
struct GameRun {
    int index = 0;
    GameSpec spec;
    std::string id;
    std::string token;
    v1::Game created;

    // Every MakeMove answer the player received, in order, with the
    // request_id and the number of tries it took.
    struct Ack {
        v1::MakeMoveResponse response;
        std::string request_id;
        int tries = 0;
    };
    std::vector<Ack> acks;
    // A move sent but never answered (the player gave up): the only move the
    // database may hold beyond the acknowledged ones.
    std::optional<v1::MakeMoveRequest> unanswered;
    std::atomic<int> last_replica{-1};  // where the player sent its last move

    std::mutex watch_mutex;
    std::condition_variable watch_changed;
    std::vector<v1::Move> seen;  // every move the watcher received, in order
    int last_seen = 0;           // the highest ply the watcher saw
    bool watch_started = false;  // the first snapshot arrived
    bool watch_over = false;     // the watcher returned
    bool saw_end = false;        // GameEnded, or a finished game's snapshot
    bool stop_watching = false;
    grpc::ClientContext* stream = nullptr;  // the stream being read, to cancel
};

// What one player works with.
struct Player {
    Cluster& cluster;
    ClientView view;
    Counters& counters;
    const Progress& progress;
    const GameRun& run;
};

// How one MakeMove request went.
struct Sent {
    grpc::Status status;
    v1::MakeMoveResponse response;
    int replica = -1;  // the replica that answered (or failed last)
    int tries = 0;
};

// Sends `request` until some replica answers: first to the replica after
// `previous`, then, after each transport failure, to the next one believed
// alive, always with the same request_id. An `impatient` first try gives up
// after a few milliseconds, as a client does whose answer got lost: the
// first try may well be applied while the retry is on its way.
Sent send_move(Player& p, const v1::MakeMoveRequest& request, int previous, bool impatient) {
    const auto give_up = Clock::now() + kGiveUpAfter;
    Sent sent;
    sent.replica = previous;
    int failures_in_a_row = 0;
    while (true) {
        sent.replica = p.view.pick(sent.replica);
        const bool hurried = impatient && sent.tries == 0;
        ++sent.tries;
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() +
                             (hurried ? kImpatientDeadline : kCallDeadline));
        context.AddMetadata("authorization", "Bearer " + p.run.token);
        const auto sent_at = std::chrono::system_clock::now();
        sent.response.Clear();
        {
            const Cluster::MoveInFlight in_flight(p.cluster, sent.replica);
            sent.status = p.cluster.stub(sent.replica).MakeMove(&context, request, &sent.response);
        }
        if (sent.status.ok()) {
            if (sent.tries > 1) {
                // The stored move is older than this try: an earlier try was
                // applied and this one got its answer back.
                const auto& time = sent.response.move().time();
                const auto applied =
                    std::chrono::system_clock::time_point(std::chrono::seconds(time.seconds())) +
                    std::chrono::nanoseconds(time.nanos());
                if (applied < sent_at) ++p.counters.retries_answered_first;
            }
            return sent;
        }
        if (!is_transport_failure(sent.status)) return sent;
        if (Clock::now() >= give_up || p.progress.abort) return sent;
        if (hurried) {
            // It failed by its own doing, not the replica's.
            ++p.counters.impatient_timeouts;
            continue;
        }
        ++p.counters.transport_retries;
        p.counters.count_failure(sent.status);
        p.view.eject(sent.replica);
        // Straight to the next replica; once every replica has failed in a
        // row, back off a little so a replica that is starting is not
        // hammered.
        if (++failures_in_a_row >= kReplicas) {
            std::this_thread::sleep_for(
                std::chrono::milliseconds(50 * std::min(failures_in_a_row, 10)));
        }
    }
}

// The player of one game: random legal moves (the fox side prefers captures,
// so some games end), each to another replica, each with expected_ply and a
// fresh request_id.
void play(GameRun& run, Cluster& cluster, Counters& counters, Progress& progress,
          std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Player player{cluster, ClientView(cluster), counters, progress, run};
    v1::Game game = run.created;
    if (run.spec.start_after_moves > 0) {
        std::unique_lock lock(progress.mutex);
        progress.changed.wait_for(lock, kMilestoneTimeout, [&] {
            return progress.acked >= run.spec.start_after_moves || progress.abort;
        });
    }
    int previous = run.index % kReplicas;  // the watcher's replica: moves start elsewhere
    std::optional<int> ply_when_restarts_over;
    while (!progress.abort && game.state() == v1::GAME_STATE_ACTIVE && game.ply() < kMaxPlies) {
        if (!ply_when_restarts_over) {
            std::lock_guard lock(progress.mutex);
            if (progress.restarts_over) ply_when_restarts_over = game.ply();
        }
        if (game.ply() >= kTargetPlies && ply_when_restarts_over &&
            game.ply() - *ply_when_restarts_over >= kMovesAfterRestarts) {
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(
            kMinThinkMs + static_cast<int>(rng() % (kMaxThinkMs - kMinThinkMs + 1))));

        if (game.legal_moves().empty()) {
            ADD_FAILURE() << "game " << run.id << " is active at ply " << game.ply()
                          << " but lists no legal move";
            break;
        }
        std::vector<std::string> choices(game.legal_moves().begin(), game.legal_moves().end());
        if (game.side_to_move() == v1::SIDE_FOX && rng() % 4 != 0) {
            std::vector<std::string> captures;
            for (const std::string& m : choices) {
                if (m.find('x') != std::string::npos) captures.push_back(m);
            }
            if (!captures.empty()) choices = captures;
        }
        v1::MakeMoveRequest request;
        request.set_game_id(run.id);
        request.set_move(choices[rng() % choices.size()]);
        request.set_expected_ply(game.ply());
        request.set_request_id(uuid_v4(rng));

        const bool impatient = rng() % kImpatientOneIn == 0;
        if (impatient) ++counters.impatient_first_tries;
        const Sent sent = send_move(player, request, previous, impatient);
        if (!sent.status.ok()) {
            // Only this player moves this game, so any refusal (PLY_MISMATCH
            // above all) means a move was lost or applied twice.
            ADD_FAILURE() << "game " << run.id << " ply " << game.ply() << " move "
                          << request.move() << " (request_id " << request.request_id() << ", "
                          << sent.tries << " tries, last to replica " << sent.replica
                          << "): " << describe(sent.status);
            run.unanswered = request;
            break;
        }
        run.last_replica = sent.replica;
        previous = sent.replica;
        const v1::Move& move = sent.response.move();
        if (move.ply() != game.ply() + 1 || move.notation() != request.move() ||
            sent.response.game().ply() != move.ply()) {
            ADD_FAILURE() << "game " << run.id << ": sent " << request.move() << " at ply "
                          << game.ply() << " (" << sent.tries << " tries), the answer is move "
                          << move.notation() << " at ply " << move.ply() << ", game at ply "
                          << sent.response.game().ply();
            break;
        }
        Replica& served = cluster.at(sent.replica);
        ++served.moves_served[static_cast<std::size_t>(std::clamp(served.starts.load() - 1, 0, 3))];
        run.acks.push_back({sent.response, request.request_id(), sent.tries});
        ++counters.moves_acked;
        progress.add_ack();

        if (rng() % kDuplicateOneIn == 0) {
            // The same request again, to another replica, as a client would
            // after losing the answer: the first answer comes back, byte for
            // byte, and the game does not move.
            const Sent again = send_move(player, request, sent.replica, false);
            ++counters.duplicate_deliveries;
            EXPECT_TRUE(again.status.ok() &&
                        again.response.SerializeAsString() == sent.response.SerializeAsString())
                << "game " << run.id << ": request_id " << request.request_id() << " sent again"
                << " to replica " << again.replica << ": " << describe(again.status)
                << "\nfirst answer: " << sent.response.move().ShortDebugString()
                << "\nagain:        " << again.response.move().ShortDebugString();
        }
        game = sent.response.game();
    }
    {
        std::lock_guard lock(progress.mutex);
        --progress.players_running;
    }
    progress.changed.notify_all();
}

// The watcher of one game: WatchGame on a replica other than the player's
// last one; whenever the stream breaks, again on another live replica with
// from_ply = the last ply seen. It checks as it goes that the moves come
// exactly once and in order, and keeps them for the final comparison.
void watch(GameRun& run, Cluster& cluster, Counters& counters, Progress& progress) {
    ClientView view(cluster);
    int replica = run.index % kReplicas;
    int failures_in_a_row = 0;
    auto last_progress = Clock::now();

    const auto accept = [&run](const v1::Move& move, const char* where) {
        std::lock_guard lock(run.watch_mutex);
        if (move.ply() != run.last_seen + 1) {
            ADD_FAILURE() << "watcher of game " << run.id << " got ply " << move.ply() << " ("
                          << move.notation() << ") in a " << where << " after ply " << run.last_seen
                          << ": " << (move.ply() <= run.last_seen ? "a duplicate" : "a gap");
        }
        run.seen.push_back(move);
        run.last_seen = std::max(run.last_seen, move.ply());
        run.watch_changed.notify_all();
    };

    while (!progress.abort) {
        grpc::ClientContext context;
        v1::WatchGameRequest request;
        {
            std::lock_guard lock(run.watch_mutex);
            if (run.stop_watching) break;
            run.stream = &context;
            request.set_game_id(run.id);
            request.set_from_ply(run.last_seen);
        }
        context.set_deadline(std::chrono::system_clock::now() + kWatchStreamDeadline);
        const auto reader = cluster.stub(replica).WatchGame(&context, request);
        bool got_snapshot = false;
        bool ended = false;
        v1::WatchGameResponse event;
        while (reader->Read(&event)) {
            if (event.has_snapshot()) {
                got_snapshot = true;
                for (const v1::Move& move : event.snapshot().moves())
                    accept(move, "snapshot");
                std::lock_guard lock(run.watch_mutex);
                // The snapshot's moves lead exactly to the snapshot's game.
                EXPECT_EQ(event.snapshot().game().ply(), run.last_seen)
                    << "watcher of game " << run.id << ": snapshot from replica " << replica
                    << " after from_ply " << request.from_ply();
                if (event.snapshot().game().state() == v1::GAME_STATE_FINISHED) {
                    ended = true;
                    run.saw_end = true;
                }
                run.watch_started = true;
                run.watch_changed.notify_all();
            } else if (event.has_move_made()) {
                accept(event.move_made().move(), "MoveMade");
                EXPECT_EQ(event.move_made().game().ply(), event.move_made().move().ply());
            } else if (event.has_game_ended()) {
                std::lock_guard lock(run.watch_mutex);
                EXPECT_EQ(event.game_ended().game().ply(), run.last_seen)
                    << "watcher of game " << run.id << ": GameEnded before the last move";
                ended = true;
                run.saw_end = true;
                run.watch_changed.notify_all();
            }
            // Presence and heartbeats say nothing about the moves.
        }
        const grpc::Status status = reader->Finish();
        bool stopped = false;
        {
            std::lock_guard lock(run.watch_mutex);
            run.stream = nullptr;
            stopped = run.stop_watching;
        }
        if (ended) {
            // A finished game's stream ends OK, unless its replica went away
            // in between (then there is nothing left to see anyway).
            EXPECT_TRUE(status.ok() || is_transport_failure(status))
                << "watcher of game " << run.id << ": the stream of a finished game ended with "
                << describe(status);
            break;
        }
        if (stopped || progress.abort) break;
        if (!is_transport_failure(status)) {
            ADD_FAILURE() << "watcher of game " << run.id << " on replica " << replica
                          << " (from_ply " << request.from_ply() << "): " << describe(status);
            break;
        }
        if (got_snapshot) {
            // A stream that had been running broke (its replica went away).
            ++counters.watcher_reconnects;
            failures_in_a_row = 0;
            last_progress = Clock::now();
        } else {
            ++counters.watcher_connect_failures;
            ++failures_in_a_row;
        }
        view.eject(replica);
        if (Clock::now() - last_progress > kGiveUpAfter) {
            ADD_FAILURE() << "watcher of game " << run.id << " found no replica to resume on for "
                          << std::chrono::duration_cast<std::chrono::seconds>(kGiveUpAfter).count()
                          << " s; last error " << describe(status);
            break;
        }
        if (failures_in_a_row >= kReplicas) {
            std::this_thread::sleep_for(
                std::chrono::milliseconds(50 * std::min(failures_in_a_row, 10)));
        }
        replica = view.pick(replica, run.last_replica.load());
    }
    {
        std::lock_guard lock(run.watch_mutex);
        run.watch_over = true;
    }
    run.watch_changed.notify_all();
}

// ---------------------------------------------------------------------------
// The final checks.

v1::GameState api_state(const GameStatus& status) {
    return status.over() ? v1::GAME_STATE_FINISHED : v1::GAME_STATE_ACTIVE;
}

v1::GameResult api_result(const GameStatus& status) {
    switch (status.outcome) {
        case Outcome::kOngoing:
            return v1::GAME_RESULT_UNSPECIFIED;
        case Outcome::kFoxSideWins:
            return v1::GAME_RESULT_FOX_SIDE_WINS;
        case Outcome::kGeeseWin:
            return v1::GAME_RESULT_GEESE_WIN;
        case Outcome::kDraw:
            return v1::GAME_RESULT_DRAW;
    }
    return v1::GAME_RESULT_UNSPECIFIED;
}

v1::EndReason api_end_reason(const GameStatus& status) {
    switch (status.reason) {
        case EndReason::kNone:
            return v1::END_REASON_UNSPECIFIED;
        case EndReason::kGeeseBelowThreshold:
            return v1::END_REASON_GEESE_BELOW_THRESHOLD;
        case EndReason::kPenFilled:
            return v1::END_REASON_PEN_FILLED;
        case EndReason::kNoLegalMove:
            return v1::END_REASON_NO_LEGAL_MOVE;
        case EndReason::kThreefoldRepetition:
            return v1::END_REASON_THREEFOLD_REPETITION;
        case EndReason::kFiftyMoveRule:
            return v1::END_REASON_FIFTY_MOVE_RULE;
    }
    return v1::END_REASON_UNSPECIFIED;
}

// Replays the stored moves through the engine from the stored start: every
// move must be legal, in canonical notation, by the side to move, and lead to
// the stored position and status; the game must end where the database says.
void expect_replays(const v1::ListMovesResponse& stored) {
    const v1::Game& game = stored.game();
    VariantOptions options;
    if (game.options().has_geese()) options.geese = game.options().geese();
    if (game.options().has_geese_sideways()) {
        options.geese_sideways = game.options().geese_sideways();
    }
    const Result<const Variant*> variant = Variant::find(game.variant(), options);
    ASSERT_TRUE(variant.ok()) << variant.error().message;
    const Result<Position> start = parse_position_code(**variant, stored.start_position());
    ASSERT_TRUE(start.ok()) << start.error().message;
    EXPECT_EQ(stored.start_position(), game.start_position());

    Game replay(*start);
    for (const v1::Move& move : stored.moves()) {
        const v1::Side mover =
            replay.position().side_to_move() == Side::kFox ? v1::SIDE_FOX : v1::SIDE_GEESE;
        const Result<Move> played = replay.play(move.notation());
        ASSERT_TRUE(played.ok()) << "ply " << move.ply() << " " << move.notation() << ": "
                                 << played.error().message;
        const Board& board = replay.position().board();
        // The geese captured, in any order (the API lists them in jump order).
        std::vector<std::string> captured;
        for (Bitboard left = played->captured; left != 0;)
            captured.push_back(board.point_name(pop_lowest(left)));
        std::vector<std::string> listed(move.captured().begin(), move.captured().end());
        std::sort(captured.begin(), captured.end());
        std::sort(listed.begin(), listed.end());
        // The engine's view of the move, in the API's terms, to compare with
        // the stored one in a single message.
        v1::Move expected = move;
        expected.set_notation(format_move(board, *played));
        expected.set_side(mover);
        expected.set_from(board.point_name(played->from));
        expected.set_to(board.point_name(played->to));
        expected.set_position(format_position_code(replay.position()));
        expected.set_state(api_state(replay.status()));
        expected.set_result(api_result(replay.status()));
        expected.set_end_reason(api_end_reason(replay.status()));
        // Only the first divergence: every later position would differ too.
        ASSERT_EQ(move.ShortDebugString(), expected.ShortDebugString())
            << "ply " << move.ply() << ": stored vs replayed";
        ASSERT_EQ(listed, captured) << "ply " << move.ply() << " " << move.notation();
    }
    EXPECT_EQ(game.position(), format_position_code(replay.position()));
    EXPECT_EQ(game.ply(), replay.position().ply());
    EXPECT_EQ(game.state(), api_state(replay.status()));
    EXPECT_EQ(game.result(), api_result(replay.status()));
    EXPECT_EQ(game.end_reason(), api_end_reason(replay.status()));
    if (!replay.status().over()) {
        std::vector<std::string> legal;
        for_each_legal_move(replay.position(), [&](const Move& m) {
            legal.push_back(format_move(replay.position().board(), m));
        });
        std::sort(legal.begin(), legal.end());
        EXPECT_EQ(std::vector<std::string>(game.legal_moves().begin(), game.legal_moves().end()),
                  legal);
    }
}

void expect_consistent(const GameRun& run, const v1::ListMovesResponse& stored) {
    SCOPED_TRACE("game " + std::to_string(run.index) + " (" + run.spec.variant + ") " + run.id);
    const auto& moves = stored.moves();
    const std::size_t count = static_cast<std::size_t>(moves.size());

    // Plies are consecutive from the start. (Each loop reports only the first
    // divergence: everything after it would differ too.)
    for (int i = 0; i < moves.size(); ++i) {
        if (moves[i].ply() != i + 1) {
            ADD_FAILURE() << "stored move " << i << " " << moves[i].notation() << " has ply "
                          << moves[i].ply() << ", expected " << i + 1;
            break;
        }
    }
    EXPECT_EQ(stored.game().ply(), moves.empty() ? 0 : moves.rbegin()->ply());

    // Every acknowledged move is stored once, at its ply, exactly as the
    // player was told; nothing else is stored but a move the player gave up
    // on.
    const std::size_t acked = run.acks.size();
    if (run.unanswered && count == acked + 1) {
        EXPECT_EQ(moves.rbegin()->notation(), run.unanswered->move())
            << "the move beyond the acknowledged ones is not the unanswered request";
    } else {
        EXPECT_EQ(count, acked) << "stored moves vs acknowledged moves";
    }
    for (std::size_t i = 0; i < std::min(count, acked); ++i) {
        const v1::Move& told = run.acks[i].response.move();
        const v1::Move& kept = moves[static_cast<int>(i)];
        if (kept.SerializeAsString() != told.SerializeAsString()) {
            ADD_FAILURE() << "ply " << i + 1 << " (request_id " << run.acks[i].request_id << ", "
                          << run.acks[i].tries << " tries) is stored otherwise than acknowledged"
                          << "\nstored: " << kept.ShortDebugString()
                          << "\ntold:   " << told.ShortDebugString();
            break;
        }
    }
    // The last answer described the game as it is now.
    if (!run.acks.empty() && !run.unanswered) {
        const v1::Game& last = run.acks.back().response.game();
        EXPECT_EQ(stored.game().position(), last.position());
        EXPECT_EQ(stored.game().state(), last.state());
        EXPECT_EQ(stored.game().result(), last.result());
    }

    expect_replays(stored);

    // The watcher saw exactly the stored moves, in order, each once (the
    // order and uniqueness were also checked as they came). Its thread has
    // been joined: no lock needed.
    EXPECT_EQ(run.seen.size(), count) << "moves the watcher saw vs stored moves";
    for (std::size_t i = 0; i < std::min(count, run.seen.size()); ++i) {
        const v1::Move& kept = moves[static_cast<int>(i)];
        if (run.seen[i].SerializeAsString() != kept.SerializeAsString()) {
            ADD_FAILURE() << "the watcher's move " << i
                          << " is not the stored one\nwatched: " << run.seen[i].ShortDebugString()
                          << "\nstored:  " << kept.ShortDebugString();
            break;
        }
    }
    if (stored.game().state() == v1::GAME_STATE_FINISHED) {
        EXPECT_TRUE(run.saw_end) << "the watcher never saw the game end";
    }
}

// ListMoves from whichever replica answers.
std::optional<v1::ListMovesResponse> list_moves(Cluster& cluster, const std::string& id) {
    ClientView view(cluster);
    const auto give_up = Clock::now() + kGiveUpAfter;
    int replica = 0;
    while (Clock::now() < give_up) {
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + kCallDeadline);
        v1::ListMovesRequest request;
        request.set_game_id(id);
        v1::ListMovesResponse response;
        const grpc::Status status = cluster.stub(replica).ListMoves(&context, request, &response);
        if (status.ok()) return response;
        if (!is_transport_failure(status)) {
            ADD_FAILURE() << "ListMoves " << id << ": " << describe(status);
            return std::nullopt;
        }
        view.eject(replica);
        replica = view.pick(replica);
        std::this_thread::sleep_for(50ms);
    }
    ADD_FAILURE() << "ListMoves " << id << ": no replica answered";
    return std::nullopt;
}

// CreateGame with SEAT_CHOICE_BOTH on replica `replica` or, after a transport
// failure, the next ones (same request_id).
std::optional<v1::CreateGameResponse> create_game(Cluster& cluster, const GameSpec& spec,
                                                  int replica, std::mt19937_64& rng) {
    ClientView view(cluster);
    v1::CreateGameRequest request;
    request.set_variant(spec.variant);
    if (spec.geese) request.mutable_options()->set_geese(*spec.geese);
    if (spec.geese_sideways) request.mutable_options()->set_geese_sideways(*spec.geese_sideways);
    request.set_start_position(spec.start_position);
    request.set_seat(v1::SEAT_CHOICE_BOTH);
    request.set_visibility(v1::VISIBILITY_PRIVATE);
    request.set_request_id(uuid_v4(rng));
    const auto give_up = Clock::now() + kGiveUpAfter;
    while (true) {
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + kCallDeadline);
        v1::CreateGameResponse response;
        const grpc::Status status = cluster.stub(replica).CreateGame(&context, request, &response);
        if (status.ok()) return response;
        if (!is_transport_failure(status) || Clock::now() >= give_up) {
            ADD_FAILURE() << "CreateGame " << spec.variant << ": " << describe(status);
            return std::nullopt;
        }
        view.eject(replica);
        replica = view.pick(replica);
        std::this_thread::sleep_for(50ms);
    }
}

// ---------------------------------------------------------------------------
// The scenario.

std::vector<GameSpec> game_specs() {
    // Standard with goose side steps (the variant whose positions can repeat),
    // in its three sizes, big_cross and two_foxes, four games each.
    std::vector<GameSpec> specs;
    const std::array<int, 3> sizes = {13, 15, 17};
    for (int i = 0; i < kGames; ++i) {
        switch (i % 3) {
            case 0:
                specs.push_back({"standard", sizes[static_cast<std::size_t>(i / 3 % 3)], true, ""});
                break;
            case 1:
                specs.push_back({"big_cross", std::nullopt, std::nullopt, ""});
                break;
            default:
                specs.push_back({"two_foxes", std::nullopt, std::nullopt, ""});
                break;
        }
    }
    // The short games: few geese left (six, and nine where the fox side wins
    // below nine), so that they end within a few plies (GameEnded to the
    // watchers, moves sent again after the end); their first move waits for
    // the kill, so they end while replicas fail.
    static_assert(kShortGames == 2);
    specs[kGames - 3].start_position = "3/3/7/3F3/7/GGG/GGG f 0 0";
    specs[kGames - 3].start_after_moves = kKillAfterMoves;
    specs[kGames - 1].start_position = "3/3/3F2G/3F3/G5G/GGG/GGG f 0 0";
    specs[kGames - 1].start_after_moves = kKillAfterMoves;
    return specs;
}

// Stops replica i with SIGTERM and expects it to drain and exit 0 in time
// (a replica frozen with SIGSTOP is let go right after the SIGTERM). Returns
// how long it took, in seconds.
double stop_gracefully(Cluster& cluster, int i, bool frozen = false) {
    Replica& r = cluster.at(i);
    if (!r.process.running()) return 0;
    const auto signalled = Clock::now();
    r.process.send(SIGTERM);
    if (frozen) r.process.send(SIGCONT);
    const std::optional<int> status =
        r.process.wait_exit(std::chrono::seconds(kDrainSeconds) + kExitGrace);
    const double seconds = std::chrono::duration<double>(Clock::now() - signalled).count();
    if (!status) {
        ADD_FAILURE() << "replica " << i << " (pid " << r.process.pid() << ") still runs "
                      << kDrainSeconds << " + "
                      << std::chrono::duration_cast<std::chrono::seconds>(kExitGrace).count()
                      << " s after SIGTERM: a hang on shutdown";
        r.process.kill_and_reap();
        return seconds;
    }
    EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0)
        << "replica " << i << " after SIGTERM: " << describe_wait_status(*status);
    return seconds;
}

TEST(Statelessness, GamesSurviveAKilledAndARestartedReplicaWithNoMoveLostOrDoubled) {
    const auto started = Clock::now();
    std::random_device entropy;
    std::uint64_t seed = (static_cast<std::uint64_t>(entropy()) << 32) | entropy();
    if (const char* fixed = std::getenv("FOXGEESE_E2E_SEED")) seed = std::stoull(fixed);
    std::printf("statelessness: seed %llu (set FOXGEESE_E2E_SEED to replay the same moves)\n",
                static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);

    // The replicas' logs go to a temporary directory, kept when the test
    // fails.
    std::string dir_template = (fs::temp_directory_path() / "foxgeese-e2e-XXXXXX").string();
    ASSERT_NE(::mkdtemp(dir_template.data()), nullptr) << std::strerror(errno);
    const fs::path dir = dir_template;

    Cluster cluster(dir, test_database_url());
    ASSERT_TRUE(cluster.init()) << "no free ports";
    // Runs last: on failure, what the servers said; then their removal.
    // (The processes themselves are killed by the Replica destructors, which
    // run right after this, if they are still there.)
    const ScopeExit report_logs([&] {
        if (::testing::Test::HasFailure()) {
            std::printf("statelessness: replica logs kept in %s\n%s", dir.c_str(),
                        cluster.logs_tail().c_str());
        } else {
            std::error_code ignored;
            fs::remove_all(dir, ignored);
        }
    });

    // Three servers on one database, started together (they also migrate
    // it together, which the migration lock must make safe).
    for (int i = 0; i < kReplicas; ++i) {
        const std::string error = cluster.start(i);
        ASSERT_EQ(error, "");
    }
    for (int i = 0; i < kReplicas; ++i) {
        const std::string error = cluster.wait_serving(i);
        ASSERT_EQ(error, "");
    }

    // The games, created on every replica in turn.
    const std::vector<GameSpec> specs = game_specs();
    std::vector<std::unique_ptr<GameRun>> runs;
    for (int i = 0; i < kGames; ++i) {
        auto run = std::make_unique<GameRun>();
        run->index = i;
        run->spec = specs[static_cast<std::size_t>(i)];
        const auto created = create_game(cluster, run->spec, i % kReplicas, rng);
        ASSERT_TRUE(created.has_value());
        ASSERT_EQ(created->seat(), v1::SEAT_BOTH);
        ASSERT_EQ(created->game().state(), v1::GAME_STATE_ACTIVE);
        run->id = created->game().game_id();
        run->token = created->seat_token();
        run->created = created->game();
        runs.push_back(std::move(run));
    }

    Counters counters;
    Progress progress;
    progress.players_running = kGames;
    std::vector<std::thread> watchers;
    std::vector<std::thread> players;
    // However the test ends, every thread is stopped and joined before the
    // cluster goes away.
    const ScopeExit join_threads([&] {
        progress.abort = true;
        {
            std::lock_guard lock(progress.mutex);
            progress.restarts_over = true;
        }
        progress.changed.notify_all();
        for (auto& run : runs) {
            std::lock_guard lock(run->watch_mutex);
            run->stop_watching = true;
            if (run->stream) run->stream->TryCancel();
        }
        for (std::thread& t : players)
            if (t.joinable()) t.join();
        for (std::thread& t : watchers)
            if (t.joinable()) t.join();
    });

    // Watchers first: each game is watched from its first move on.
    for (auto& run : runs) {
        watchers.emplace_back(watch, std::ref(*run), std::ref(cluster), std::ref(counters),
                              std::ref(progress));
    }
    for (auto& run : runs) {
        std::unique_lock lock(run->watch_mutex);
        ASSERT_TRUE(run->watch_changed.wait_for(
            lock, kMilestoneTimeout, [&] { return run->watch_started || run->watch_over; }));
        ASSERT_TRUE(run->watch_started) << "the watcher of game " << run->id << " never started";
    }
    for (auto& run : runs) {
        players.emplace_back(play, std::ref(*run), std::ref(cluster), std::ref(counters),
                             std::ref(progress), rng());
    }

    // A third of the way: replica 0 dies without warning. It is frozen
    // first (SIGSTOP) until a few moves are in flight to it, so that the kill
    // surely cuts calls off mid-way, as a real crash under load does.
    EXPECT_TRUE(progress.wait_for_moves(kKillAfterMoves)) << "the games stalled";
    const int acked_at_kill = counters.moves_acked;
    cluster.at(0).process.send(SIGSTOP);
    const bool calls_cut = cluster.wait_moves_in_flight(0, kMovesCutByTheKill, 5s);
    const int in_flight_at_kill = cluster.at(0).moves_in_flight;
    cluster.at(0).process.send(SIGKILL);
    const std::optional<int> killed = cluster.at(0).process.wait_exit(10s);
    ASSERT_TRUE(killed.has_value()) << "replica 0 survived SIGKILL";
    EXPECT_TRUE(WIFSIGNALED(*killed) && WTERMSIG(*killed) == SIGKILL)
        << describe_wait_status(*killed);
    // Not a failure of the servers, but the scenario did not happen as meant.
    EXPECT_TRUE(calls_cut || progress.running() == 0)
        << "no move was in flight to the frozen replica 0 within 5 s";

    // Half way: replica 1 is stopped the polite way, as for a deploy: it
    // drains and exits 0, and comes back on the same ports. Meanwhile only
    // replica 2 serves. It too is frozen first until moves are in flight to
    // it, so that the SIGTERM has calls to drain.
    EXPECT_TRUE(progress.wait_for_moves(kStopAfterMoves)) << "the games stalled";
    const int acked_at_stop = counters.moves_acked;
    cluster.at(1).process.send(SIGSTOP);
    const bool calls_to_drain = cluster.wait_moves_in_flight(1, kMovesInFlightAtTheStop, 5s);
    const int in_flight_at_stop = cluster.at(1).moves_in_flight;
    const int served_before_stop = cluster.at(1).moves_served[0];
    const double stop_seconds = stop_gracefully(cluster, 1, /*frozen=*/true);
    const int answered_while_draining = cluster.at(1).moves_served[0] - served_before_stop;
    EXPECT_TRUE(calls_to_drain || progress.running() == 0)
        << "no move was in flight to the frozen replica 1 within 5 s";
    ASSERT_EQ(cluster.start(1), "");
    ASSERT_EQ(cluster.wait_serving(1), "");
    cluster.announce_ready(1);

    // Two thirds: the killed replica comes back too.
    EXPECT_TRUE(progress.wait_for_moves(kRestartKilledAfterMoves)) << "the games stalled";
    const int acked_at_restart = counters.moves_acked;
    ASSERT_EQ(cluster.start(0), "");
    ASSERT_EQ(cluster.wait_serving(0), "");
    cluster.announce_ready(0);
    {
        std::lock_guard lock(progress.mutex);
        progress.restarts_over = true;
    }
    progress.changed.notify_all();

    // The players stop by themselves (ply 40 or the game's end).
    {
        std::unique_lock lock(progress.mutex);
        EXPECT_TRUE(progress.changed.wait_for(lock, kMilestoneTimeout, [&] {
            return progress.players_running == 0;
        })) << "the players did not finish";
    }
    {
        std::lock_guard lock(progress.mutex);
        if (progress.players_running != 0) progress.abort = true;
    }
    for (std::thread& t : players)
        t.join();

    // Every watcher catches up with its game's last move; then its stream is
    // cancelled, since a game still in progress never ends its stream. The
    // watcher of a finished game ends by itself after GameEnded, which comes
    // right after the last MoveMade: cancelling it on the last move could
    // cut GameEnded off.
    const auto watch_deadline = Clock::now() + 30s;
    for (auto& run : runs) {
        const int final_ply = run->acks.empty() ? 0 : run->acks.back().response.move().ply();
        const bool finished = !run->acks.empty() &&
                              run->acks.back().response.game().state() == v1::GAME_STATE_FINISHED;
        std::unique_lock lock(run->watch_mutex);
        run->watch_changed.wait_until(lock, watch_deadline, [&] {
            return run->watch_over || (!finished && run->last_seen >= final_ply);
        });
        run->stop_watching = true;
        if (run->stream) run->stream->TryCancel();
    }
    for (std::thread& t : watchers)
        t.join();

    // The database agrees with what everyone was told.
    int stored_moves = 0;
    int finished = 0;
    for (auto& run : runs) {
        const std::optional<v1::ListMovesResponse> stored = list_moves(cluster, run->id);
        if (!stored) continue;
        stored_moves += stored->moves_size();
        if (stored->game().state() == v1::GAME_STATE_FINISHED) ++finished;
        expect_consistent(*run, *stored);
    }

    // The restarted processes took part.
    EXPECT_GT(cluster.at(1).moves_served[1].load(), 0) << "the restarted replica 1 served no move";
    EXPECT_GT(cluster.at(0).moves_served[1].load(), 0) << "the restarted replica 0 served no move";

    // And every replica still stops cleanly.
    double final_stop_seconds = 0;
    for (int i = 0; i < kReplicas; ++i)
        final_stop_seconds = std::max(final_stop_seconds, stop_gracefully(cluster, i));

    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    int ply_min = kMaxPlies;
    int ply_max = 0;
    for (const auto& run : runs) {
        const int ply = static_cast<int>(run->acks.size());
        ply_min = std::min(ply_min, ply);
        ply_max = std::max(ply_max, ply);
    }
    std::printf(
        "statelessness: %d games (%d finished), %d moves stored, %d acknowledged "
        "(%d to %d per game)\n"
        "statelessness: %d retries after a transport failure, %d after an impatient first try "
        "(of %d); %d of all retries answered from an earlier, applied try; "
        "%d duplicate deliveries on purpose\n"
        "statelessness: 1 replica killed (SIGKILL after %d moves, %d moves in flight to it), "
        "1 stopped (SIGTERM after %d moves, %d moves in flight to it, %d answered while it "
        "drained, exit 0 after %.2f s) and restarted, the killed one "
        "restarted after %d moves; all stopped at the end (slowest exit %.2f s)\n"
        "statelessness: transport failures of MakeMove: %s\n"
        "statelessness: %d watcher reconnects (%d failed connection attempts)\n",
        kGames, finished, stored_moves, counters.moves_acked.load(), ply_min, ply_max,
        counters.transport_retries.load(), counters.impatient_timeouts.load(),
        counters.impatient_first_tries.load(), counters.retries_answered_first.load(),
        counters.duplicate_deliveries.load(), acked_at_kill, in_flight_at_kill, acked_at_stop,
        in_flight_at_stop, answered_while_draining, stop_seconds, acked_at_restart,
        final_stop_seconds, counters.failures_text().c_str(), counters.watcher_reconnects.load(),
        counters.watcher_connect_failures.load());
    for (int i = 0; i < kReplicas; ++i) {
        Replica& r = cluster.at(i);
        std::printf("statelessness: replica %d served moves: first process %d, second %d\n", i,
                    r.moves_served[0].load(), r.moves_served[1].load());
    }
    std::printf("statelessness: %.1f s\n", seconds);
}

}  // namespace
}  // namespace foxgeese::test
