// WatchGame through a real second process: foxgeese-server started on the
// run's database next to the in-process servers, watched while games are
// played through this process, then killed with SIGKILL, as a crashed replica
// would be, while a seat holder watched through it.
#include <arpa/inet.h>
#include <fcntl.h>
#include <google/protobuf/util/time_util.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/service/harness/service_harness.h"
#include "tests/support/child_process.h"

#ifndef FOXGEESE_SERVER_BINARY
#error "FOXGEESE_SERVER_BINARY must name the foxgeese-server executable"
#endif

extern char** environ;

namespace foxgeese::test {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using Event = v1::WatchGameResponse;

std::int64_t now_micros() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// A database timestamp may come back a microsecond off (floating-point
// epochs on some PostgreSQL versions).
constexpr std::int64_t kClockSlackUs = 1000;

// One foxgeese-server process, its output in a log file (killed and reaped
// at the end of its scope).
class ServerProcess : public test::ChildProcess {
  public:
    // Starts the binary; "" or what went wrong.
    std::string start(const std::vector<std::string>& args, const fs::path& log) {
        std::vector<std::string> all = {FOXGEESE_SERVER_BINARY};
        all.insert(all.end(), args.begin(), args.end());
        return ChildProcess::start(all, log.string());
    }
};

// The in-process replica's presence settings: it re-reads presence every
// 300 ms. A presence row counts for the TTL of the server that writes it, so
// the process's rows (its defaults: refreshed every 5 s, counting 20 s) decide
// when its seat holder shows as gone.
constexpr auto kPresenceInterval = 300ms;
constexpr auto kPresenceTtl = 8s;
// The process's refresh interval and the lifetime it gives its presence rows
// (WatchHubOptions' defaults): a row counts for the TTL its writer set.
constexpr auto kProcessRefreshInterval = 5s;
constexpr auto kProcessPresenceTtl = 20s;

class WatchProcess : public ServiceTest {
  protected:
    void SetUp() override {
        ServiceTest::SetUp();
        dir_ = make_temp_dir("foxgeese-watch-process");
        ASSERT_FALSE(dir_.empty()) << std::strerror(errno);
        service::ReplicaOptions options = test_replica_options(database_url());
        options.db_pool_size = 4;
        options.drain_timeout = 2s;
        options.watch.presence_interval = kPresenceInterval;
        options.watch.presence_ttl = kPresenceTtl;
        local_ = std::make_unique<service::Replica>(options);
    }

    void TearDown() override {
        process_.kill_now();
        if (HasFailure()) std::cerr << log_for_failure(log_.string());
        if (!HasFailure()) fs::remove_all(dir_);
        local_.reset();
        ServiceTest::TearDown();
    }

    // Starts foxgeese-server on free ports and waits until it answers.
    ::testing::AssertionResult StartProcess() {
        const std::vector<int> ports = free_ports(2);
        if (ports.size() != 2) return ::testing::AssertionFailure() << "no free ports";
        process_port_ = ports[0];
        log_ = dir_ / "foxgeese-server.log";
        const std::string error = process_.start(
            {"--database-url", database_url(), "--grpc-port", std::to_string(ports[0]),
             "--http-port", std::to_string(ports[1]), "--log-level", "warn", "--drain-seconds", "2",
             "--rematch-linger-seconds", "0"},
            log_);
        if (!error.empty()) return ::testing::AssertionFailure() << error;
        // A channel that retries soon after a refused connection, instead of
        // gRPC's default backoff of a second and more.
        grpc::ChannelArguments args;
        args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
        args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
        args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 100);
        args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 300);
        process_channel_ = grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(ports[0]),
                                                     grpc::InsecureChannelCredentials(), args);
        auto stub = v1::FoxGeeseService::NewStub(process_channel_);
        const auto deadline = Clock::now() + 60s;
        while (true) {
            grpc::ClientContext context;
            context.set_deadline(std::chrono::system_clock::now() + 2s);
            context.set_wait_for_ready(true);
            v1::ListVariantsResponse response;
            const grpc::Status status =
                stub->ListVariants(&context, v1::ListVariantsRequest(), &response);
            if (status.ok()) return ::testing::AssertionSuccess();
            if (process_.exited()) {
                return ::testing::AssertionFailure() << "foxgeese-server exited at start";
            }
            if (Clock::now() > deadline) {
                return ::testing::AssertionFailure()
                       << "foxgeese-server did not answer within 60 s: " << describe(status);
            }
        }
    }

    // Makes the next quiet move through A with the token of the side to move.
    v1::MakeMoveResponse play_next(const SeatedGame& game) {
        Reply<v1::GetGameResponse> current = client().get(game.id);
        EXPECT_TRUE(IsOk(current));
        std::string notation =
            current->game().legal_moves_size() > 0 ? current->game().legal_moves(0) : std::string();
        for (const std::string& m : current->game().legal_moves()) {
            if (m.find('x') == std::string::npos) {
                notation = m;
                break;
            }
        }
        const std::string& token =
            current->game().side_to_move() == v1::SIDE_FOX ? game.fox_token : game.geese_token;
        Reply<v1::MakeMoveResponse> moved = client().move(game.id, notation, token);
        EXPECT_TRUE(IsOk(moved)) << "move " << notation;
        return moved.response;
    }

    fs::path dir_;
    fs::path log_;
    ServerProcess process_;
    int process_port_ = 0;
    std::shared_ptr<grpc::Channel> process_channel_;
    std::unique_ptr<service::Replica> local_;  // small presence interval and TTL
};

TEST_F(WatchProcess, AServerProcessStreamsEveryEventOfAGamePlayedThroughAnother) {
    ASSERT_TRUE(StartProcess());
    const v1::CreateGameResponse created = create_game(create_request("standard"));
    const std::string id = created.game().game_id();
    WatchStream watch(process_channel_, id);
    std::optional<Event> e = watch.next();
    ASSERT_TRUE(e && e->has_snapshot()) << watch.describe_received();
    EXPECT_EQ(e->snapshot().game().SerializeAsString(),
              client().get(id)->game().SerializeAsString());
    e = watch.next();
    ASSERT_TRUE(e && e->has_presence()) << watch.describe_received();

    const Reply<v1::JoinGameResponse> joined = client().join(id, created.invite_code());
    ASSERT_TRUE(IsOk(joined));
    e = watch.next_change();
    ASSERT_TRUE(e && e->has_seat_joined()) << watch.describe_received();
    EXPECT_EQ(e->seat_joined().seat(), v1::SEAT_GEESE);
    EXPECT_EQ(e->seat_joined().game().SerializeAsString(), joined->game().SerializeAsString());
    const SeatedGame game{id, created.seat_token(), joined->seat_token(), created.invite_code(),
                          joined->game()};

    // A burst of moves, then each must arrive once and in order.
    std::vector<v1::MakeMoveResponse> played;
    for (int i = 0; i < 10; ++i)
        played.push_back(play_next(game));
    for (const v1::MakeMoveResponse& move : played) {
        e = watch.next_change();
        ASSERT_TRUE(e && e->has_move_made()) << watch.describe_received();
        EXPECT_EQ(e->move_made().move().SerializeAsString(), move.move().SerializeAsString())
            << "ply " << move.move().ply();
        EXPECT_EQ(e->move_made().game().ply(), move.game().ply());
        EXPECT_EQ(e->move_made().game().position(), move.game().position());
        EXPECT_EQ(to_vector(e->move_made().game().legal_moves()),
                  to_vector(move.game().legal_moves()));
    }

    ASSERT_TRUE(IsOk(client().offer_draw(id, game.geese_token)));
    e = watch.next_change();
    ASSERT_TRUE(e && e->has_draw_offered()) << watch.describe_received();
    EXPECT_EQ(e->draw_offered().by(), v1::SIDE_GEESE);
    ASSERT_TRUE(IsOk(client().respond_draw(id, false, game.fox_token)));
    e = watch.next_change();
    ASSERT_TRUE(e && e->has_draw_answered()) << watch.describe_received();
    EXPECT_FALSE(e->draw_answered().accepted());
    EXPECT_EQ(e->draw_answered().by(), v1::SIDE_FOX);

    const Reply<v1::ResignGameResponse> resigned = client().resign(id, game.fox_token);
    ASSERT_TRUE(IsOk(resigned));
    e = watch.next_change();
    ASSERT_TRUE(e && e->has_game_ended()) << watch.describe_received();
    EXPECT_EQ(e->game_ended().game().SerializeAsString(), resigned->game().SerializeAsString());
    const std::optional<grpc::Status> end = watch.wait_for_end();
    ASSERT_TRUE(end) << watch.describe_received();
    EXPECT_TRUE(IsOk(*end));
    EXPECT_TRUE(watch.untaken().empty()) << watch.describe_received();
}

TEST_F(WatchProcess, ASeatHolderOnAKilledProcessShowsAsGoneOnceItsRowsOutliveTheTtl) {
    ASSERT_TRUE(StartProcess());
    const SeatedGame game = start_game();
    WatchStream spectator(local_->grpc_port(), game.id);
    ASSERT_TRUE(spectator.next() && spectator.next()) << spectator.describe_received();

    WatchStream fox(process_channel_, game.id, std::nullopt, game.fox_token);
    std::optional<Event> e = fox.next();
    ASSERT_TRUE(e && e->has_snapshot()) << fox.describe_received();
    e = spectator.wait_for_event([](const Event& event) {
        return event.has_presence() && event.presence().fox().connected();
    });
    ASSERT_TRUE(e) << spectator.describe_received();
    const std::int64_t connected_since = micros(e->presence().fox().since());

    // While the process lives, its refreshes keep the seat connected for
    // longer than one of its refresh intervals (the in-process replica
    // re-reads presence every 300 ms meanwhile).
    EXPECT_FALSE(spectator.wait_for_event(
        [](const Event& event) {
            return event.has_presence() && !event.presence().fox().connected();
        },
        kProcessRefreshInterval + 1s))
        << "the seat went while its holder was still connected:\n"
        << spectator.describe_received();

    const auto killed = Clock::now();
    const std::int64_t killed_us = now_micros();
    process_.kill_now();
    e = spectator.wait_for_event(
        [](const Event& event) {
            return event.has_presence() && !event.presence().fox().connected();
        },
        kProcessPresenceTtl + 15s);
    const auto took = Clock::now() - killed;
    ASSERT_TRUE(e) << spectator.describe_received();
    // The rows were last refreshed at most one refresh interval before the
    // kill and expire the process's TTL after that; the spectator's replica
    // notices on its next presence read (every interval, on a 250 ms timer).
    EXPECT_LE(took, kProcessPresenceTtl + kPresenceInterval + 2s)
        << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms";
    // "Gone since" the process's last sign of life: its last refresh, after
    // the seat holder connected and before the kill.
    ASSERT_TRUE(e->presence().fox().has_since());
    const std::int64_t since = micros(e->presence().fox().since());
    EXPECT_GT(since, connected_since);
    EXPECT_LE(since, killed_us + kClockSlackUs);
    EXPECT_FALSE(e->presence().geese().connected());

    // The stream through the dead process broke; its client sees UNAVAILABLE
    // and reconnects elsewhere.
    const std::optional<grpc::Status> broken = fox.wait_for_end();
    ASSERT_TRUE(broken) << fox.describe_received();
    EXPECT_EQ(broken->error_code(), grpc::StatusCode::UNAVAILABLE) << describe(*broken);
    WatchStream back(local_->grpc_port(), game.id, /*from_ply=*/0, game.fox_token);
    ASSERT_TRUE(back.next()) << back.describe_received();
    e = spectator.wait_for_event([](const Event& event) {
        return event.has_presence() && event.presence().fox().connected();
    });
    ASSERT_TRUE(e) << spectator.describe_received();
    EXPECT_GE(micros(e->presence().fox().since()), killed_us - kClockSlackUs);

    // And the game goes on for the watchers that are left.
    const v1::MakeMoveResponse played = play_next(game);
    e = spectator.wait_for_event([](const Event& event) { return event.has_move_made(); });
    ASSERT_TRUE(e) << spectator.describe_received();
    EXPECT_EQ(e->move_made().move().SerializeAsString(), played.move().SerializeAsString());
}

// The one test of a time control on the wall clock, end to end: a real
// server process with its own sweeper, a 15 s game (the shortest allowed),
// and nobody calling anything while the flag falls.
TEST_F(WatchProcess, AFlagFallsOnTheWallClockAndTheProcessEndsTheGameUnasked) {
    ASSERT_TRUE(StartProcess());
    ServiceClient through(process_port_);
    v1::CreateGameRequest request = create_request("standard");
    request.mutable_time_control()->mutable_real_time()->mutable_initial()->set_seconds(15);
    const Reply<v1::CreateGameResponse> created = through.create(request);
    ASSERT_TRUE(IsOk(created));
    const std::string id = created->game().game_id();
    const Reply<v1::JoinGameResponse> joined = through.join(id, created->invite_code());
    ASSERT_TRUE(IsOk(joined));
    SeatedGame game{id, created->seat_token(), joined->seat_token(), "", joined->game()};

    // Both first moves, then one timed move that takes about a second.
    auto move = [&](const v1::Game& now) {
        const std::string& token =
            now.side_to_move() == v1::SIDE_FOX ? game.fox_token : game.geese_token;
        return through.move(id, now.legal_moves(0), token);
    };
    Reply<v1::MakeMoveResponse> last = move(game.game);
    ASSERT_TRUE(IsOk(last));
    last = move(last->game());
    ASSERT_TRUE(IsOk(last));
    std::this_thread::sleep_for(1s);
    const v1::Side timed_mover = last->game().side_to_move();
    last = move(last->game());
    ASSERT_TRUE(IsOk(last));
    const std::int64_t think_ms =
        google::protobuf::util::TimeUtil::DurationToMilliseconds(last->move().think_time());
    EXPECT_GE(think_ms, 1'000);
    EXPECT_LT(think_ms, 5'000);
    const auto& after =
        timed_mover == v1::SIDE_FOX ? last->move().fox_clock() : last->move().geese_clock();
    EXPECT_EQ(google::protobuf::util::TimeUtil::DurationToMilliseconds(after), 15'000 - think_ms);

    // The other side never moves; the watcher hears the end, unasked.
    const v1::Side flagged = last->game().side_to_move();
    WatchStream watch(process_channel_, id);
    // The snapshot first: it must show the game still running, or the end
    // would be in it with no GameEnded event to follow.
    const auto snapshot = watch.next();
    ASSERT_TRUE(snapshot && snapshot->has_snapshot()) << watch.describe_received();
    ASSERT_NE(snapshot->snapshot().game().state(), v1::GAME_STATE_FINISHED);
    const auto started = Clock::now();
    const auto ended = watch.wait_for_event([](const Event& e) { return e.has_game_ended(); }, 30s);
    ASSERT_TRUE(ended) << watch.describe_received();
    const v1::Game& g = ended->game_ended().game();
    EXPECT_EQ(g.end_reason(), v1::END_REASON_TIMEOUT);
    EXPECT_EQ(g.result(),
              flagged == v1::SIDE_FOX ? v1::GAME_RESULT_GEESE_WIN : v1::GAME_RESULT_FOX_SIDE_WINS);
    // Within a second of the deadline (the sweeper's promise), give or take
    // a loaded machine.
    EXPECT_LT(Clock::now() - started, 18s);
    ASSERT_TRUE(watch.wait_for_end());
}

}  // namespace
}  // namespace foxgeese::test
