// Time controls over gRPC: the limits of CreateGame's time_control, clocks
// that run only on their side's turn with the increment after each move,
// first-move deadlines that abort, correspondence periods, and a move that
// arrives after the flag fell. The service reads the test's clock, which the
// tests move forward instead of waiting; real time still passes between
// calls, so clock readings are compared within a tolerance.
#include <google/protobuf/util/time_util.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;
using TimeUtil = google::protobuf::util::TimeUtil;

using TimeControls = MemoryServiceTest;
using Clocks = MemoryServiceTest;
using FirstMove = MemoryServiceTest;
using Correspondence = MemoryServiceTest;
using Flag = MemoryServiceTest;

// Real time that passes between a test's calls on a busy machine.
constexpr std::int64_t kSlackMs = 3'000;

v1::TimeControl real_time(std::int64_t initial_ms, std::int64_t increment_ms) {
    v1::TimeControl control;
    *control.mutable_real_time()->mutable_initial() = TimeUtil::MillisecondsToDuration(initial_ms);
    *control.mutable_real_time()->mutable_increment() =
        TimeUtil::MillisecondsToDuration(increment_ms);
    return control;
}

v1::TimeControl days_per_move(int days) {
    v1::TimeControl control;
    control.mutable_correspondence()->set_days_per_move(days);
    return control;
}

v1::CreateGameRequest timed(const v1::TimeControl& control,
                            const std::string& variant = "standard") {
    v1::CreateGameRequest request = create_request(variant);
    *request.mutable_time_control() = control;
    return request;
}

std::int64_t ms(const google::protobuf::Duration& d) {
    return TimeUtil::DurationToMilliseconds(d);
}

// Passes when `actual` is `expected` or up to kSlackMs less (time passes).
::testing::AssertionResult AboutMs(std::int64_t actual, std::int64_t expected) {
    if (actual <= expected && actual >= expected - kSlackMs) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << actual << " ms, expected " << expected << " ms (less at most " << kSlackMs << ")";
}

// Passes when a thinking time is `expected` or up to kSlackMs more.
::testing::AssertionResult TookAboutMs(std::int64_t actual, std::int64_t expected) {
    if (actual >= expected && actual <= expected + kSlackMs) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << actual << " ms, expected " << expected << " ms (more at most " << kSlackMs << ")";
}

TEST_F(TimeControls, OutOfRangeValuesAreRefusedNamingTheField) {
    struct Case {
        v1::TimeControl control;
        std::string field;
    };
    const Case cases[] = {
        {real_time(14'999, 0), "time_control.real_time.initial"},
        {real_time(3 * 3'600'000 + 1, 0), "time_control.real_time.initial"},
        {real_time(0, 0), "time_control.real_time.initial"},
        {real_time(60'000, -1), "time_control.real_time.increment"},
        {real_time(60'000, 180'001), "time_control.real_time.increment"},
        {days_per_move(0), "time_control.correspondence.days_per_move"},
        {days_per_move(15), "time_control.correspondence.days_per_move"},
        {days_per_move(-3), "time_control.correspondence.days_per_move"},
    };
    for (const Case& c : cases) {
        const Reply<v1::CreateGameResponse> reply = client().create(timed(c.control));
        EXPECT_TRUE(IsError(reply, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"))
            << c.control.ShortDebugString();
        EXPECT_EQ(bad_request_field(reply.status), c.field) << c.control.ShortDebugString();
    }
    // The limits themselves are accepted.
    for (const v1::TimeControl& ok : {real_time(15'000, 0), real_time(3 * 3'600'000, 180'000),
                                      days_per_move(1), days_per_move(14)}) {
        const Reply<v1::CreateGameResponse> reply = client().create(timed(ok));
        ASSERT_TRUE(IsOk(reply)) << ok.ShortDebugString();
        EXPECT_EQ(reply->game().time_control().ShortDebugString(), ok.ShortDebugString());
    }
}

TEST_F(TimeControls, AGameWithoutOneHasNoClocksAndNoDeadline) {
    const SeatedGame game = start_game();
    EXPECT_FALSE(game.game.has_time_control());
    EXPECT_FALSE(game.game.has_clocks());
    // An hour later the untimed game still waits for its first move.
    clock().advance(1h);
    const Reply<v1::GetGameResponse> got = client().get(game.id);
    ASSERT_TRUE(IsOk(got));
    EXPECT_EQ(got->game().state(), v1::GAME_STATE_ACTIVE);
    ASSERT_TRUE(IsOk(play_any(game)));
}

TEST_F(Clocks, RunOnlyOnTheirTurnAndGainTheIncrementAfterEachMove) {
    const SeatedGame game = start_game_with(timed(real_time(60'000, 5'000)));
    ASSERT_TRUE(game.game.has_clocks());
    // Until both sides have moved, the first-move deadlines apply.
    EXPECT_TRUE(game.game.clocks().first_move_deadline());
    EXPECT_EQ(game.game.clocks().running(), v1::SIDE_UNSPECIFIED);
    EXPECT_TRUE(AboutMs(micros(game.game.clocks().deadline()) / 1000 -
                            micros(game.game.clocks().read_time()) / 1000,
                        30'000));

    // First moves cost no clock time and earn no increment.
    clock().advance(10s);
    const Reply<v1::MakeMoveResponse> first = play_any(game);
    ASSERT_TRUE(IsOk(first));
    EXPECT_TRUE(TookAboutMs(ms(first->move().think_time()), 10'000));
    EXPECT_EQ(ms(first->move().fox_clock()), 60'000);
    EXPECT_EQ(ms(first->move().geese_clock()), 60'000);
    clock().advance(20s);
    const Reply<v1::MakeMoveResponse> second = play_any(game);
    ASSERT_TRUE(IsOk(second));
    EXPECT_TRUE(TookAboutMs(ms(second->move().think_time()), 20'000));

    // Now the side to move's clock runs.
    const v1::Game& running = second->game();
    EXPECT_FALSE(running.clocks().first_move_deadline());
    EXPECT_EQ(running.clocks().running(), running.side_to_move());
    const v1::Side mover = running.side_to_move();
    clock().advance(12s);
    const Reply<v1::GetGameResponse> ticking = client().get(game.id);
    ASSERT_TRUE(IsOk(ticking));
    const v1::Clocks& seen = ticking->game().clocks();
    EXPECT_TRUE(
        AboutMs(ms(mover == v1::SIDE_FOX ? seen.fox_remaining() : seen.geese_remaining()), 48'000));
    // The other side's clock stands still.
    EXPECT_EQ(ms(mover == v1::SIDE_FOX ? seen.geese_remaining() : seen.fox_remaining()), 60'000);
    EXPECT_GE(micros(seen.read_time()), micros(running.clocks().read_time()) + 12'000'000);

    const Reply<v1::MakeMoveResponse> third = play_any(game);
    ASSERT_TRUE(IsOk(third));
    const std::int64_t after =
        ms(mover == v1::SIDE_FOX ? third->move().fox_clock() : third->move().geese_clock());
    // 60 s - 12 s + the 5 s increment.
    EXPECT_TRUE(AboutMs(after, 53'000));
    EXPECT_TRUE(TookAboutMs(ms(third->move().think_time()), 12'000));

    // Replay shows each move's time and the clocks after it.
    const Reply<v1::ListMovesResponse> moves = client().list_moves(game.id);
    ASSERT_TRUE(IsOk(moves));
    ASSERT_EQ(moves->moves_size(), 3);
    EXPECT_EQ(moves->moves(2).think_time().ShortDebugString(),
              third->move().think_time().ShortDebugString());
    EXPECT_EQ(ms(moves->moves(2).fox_clock()), ms(third->move().fox_clock()));
    EXPECT_EQ(ms(moves->moves(2).geese_clock()), ms(third->move().geese_clock()));
}

TEST_F(FirstMove, AMissedFirstMoveAbortsTheGameWithNoResult) {
    const SeatedGame game = start_game_with(timed(real_time(300'000, 0)));
    clock().advance(31s);
    // The read settles the overdue game (no sweeper runs in this test).
    const Reply<v1::GetGameResponse> got = client().get(game.id);
    ASSERT_TRUE(IsOk(got));
    EXPECT_EQ(got->game().state(), v1::GAME_STATE_FINISHED);
    EXPECT_EQ(got->game().result(), v1::GAME_RESULT_NONE);
    EXPECT_EQ(got->game().end_reason(), v1::END_REASON_ABORTED);
    EXPECT_TRUE(got->game().legal_moves().empty());
    EXPECT_FALSE(got->game().clocks().has_deadline());
}

TEST_F(FirstMove, TheSecondSideHasAFirstMoveDeadlineOfItsOwn) {
    const SeatedGame game = start_game_with(timed(real_time(300'000, 0)));
    clock().advance(25s);
    ASSERT_TRUE(IsOk(play_any(game)));
    // The second side's own 30 s start with the first move.
    clock().advance(25s);
    const Reply<v1::GetGameResponse> still = client().get(game.id);
    ASSERT_TRUE(IsOk(still));
    EXPECT_EQ(still->game().state(), v1::GAME_STATE_ACTIVE);
    clock().advance(6s);
    const std::string& token =
        still->game().side_to_move() == v1::SIDE_FOX ? game.fox_token : game.geese_token;
    const Reply<v1::MakeMoveResponse> late =
        client().move(game.id, still->game().legal_moves(0), token);
    EXPECT_TRUE(IsError(late, grpc::StatusCode::FAILED_PRECONDITION, "GAME_OVER"));
    const Reply<v1::GetGameResponse> ended = client().get(game.id);
    ASSERT_TRUE(IsOk(ended));
    EXPECT_EQ(ended->game().end_reason(), v1::END_REASON_ABORTED);
    EXPECT_EQ(ended->game().result(), v1::GAME_RESULT_NONE);
    const Reply<v1::ListMovesResponse> moves = client().list_moves(game.id);
    ASSERT_TRUE(IsOk(moves));
    EXPECT_EQ(moves->moves_size(), 1);
}

TEST_F(Flag, AMoveAfterTheFlagFellIsRefusedAndTheGameEndsOnTime) {
    const SeatedGame game = start_game_with(timed(real_time(20'000, 0)));
    ASSERT_TRUE(IsOk(play_any(game)));
    ASSERT_TRUE(IsOk(play_any(game)));
    const Reply<v1::GetGameResponse> before = client().get(game.id);
    ASSERT_TRUE(IsOk(before));
    const v1::Side flagged = before->game().side_to_move();
    WatchStream watch(server().grpc_port(), game.id);
    ASSERT_TRUE(watch.next());  // the snapshot

    clock().advance(21s);
    const std::string& token = flagged == v1::SIDE_FOX ? game.fox_token : game.geese_token;
    const Reply<v1::MakeMoveResponse> late =
        client().move(game.id, before->game().legal_moves(0), token);
    EXPECT_TRUE(IsError(late, grpc::StatusCode::FAILED_PRECONDITION, "GAME_OVER"));

    const Reply<v1::GetGameResponse> after = client().get(game.id);
    ASSERT_TRUE(IsOk(after));
    const v1::Game& g = after->game();
    EXPECT_EQ(g.state(), v1::GAME_STATE_FINISHED);
    EXPECT_EQ(g.end_reason(), v1::END_REASON_TIMEOUT);
    EXPECT_EQ(g.result(),
              flagged == v1::SIDE_FOX ? v1::GAME_RESULT_GEESE_WIN : v1::GAME_RESULT_FOX_SIDE_WINS);
    EXPECT_EQ(
        ms(flagged == v1::SIDE_FOX ? g.clocks().fox_remaining() : g.clocks().geese_remaining()), 0);
    EXPECT_EQ(g.clocks().running(), v1::SIDE_UNSPECIFIED);
    // The late move was not stored.
    const Reply<v1::ListMovesResponse> moves = client().list_moves(game.id);
    ASSERT_TRUE(IsOk(moves));
    EXPECT_EQ(moves->moves_size(), 2);
    EXPECT_EQ(g.ply(), before->game().ply());
    // Watchers learn the end.
    const auto ended =
        watch.wait_for_event([](const v1::WatchGameResponse& e) { return e.has_game_ended(); });
    ASSERT_TRUE(ended) << watch.describe_received();
    EXPECT_EQ(ended->game_ended().game().end_reason(), v1::END_REASON_TIMEOUT);
}

TEST_F(Flag, AMoveJustBeforeTheFlagCounts) {
    const SeatedGame game = start_game_with(timed(real_time(20'000, 2'000)));
    ASSERT_TRUE(IsOk(play_any(game)));
    ASSERT_TRUE(IsOk(play_any(game)));
    // 20 s minus the slack the calls themselves may take.
    clock().advance(20s - std::chrono::milliseconds(kSlackMs));
    const Reply<v1::MakeMoveResponse> moved = play_any(game);
    ASSERT_TRUE(IsOk(moved));
    EXPECT_EQ(moved->game().state(), v1::GAME_STATE_ACTIVE);
    const v1::Side mover = moved->move().side();
    const std::int64_t left =
        ms(mover == v1::SIDE_FOX ? moved->move().fox_clock() : moved->move().geese_clock());
    EXPECT_GT(left, 2'000);  // what was left plus the increment
    EXPECT_LE(left, 2'000 + kSlackMs);
}

TEST_F(Correspondence, EachMoveGetsItsPeriodAfreshAndAMissedOneLoses) {
    const SeatedGame game = start_game_with(timed(days_per_move(1)));
    EXPECT_EQ(game.game.time_control().correspondence().days_per_move(), 1);
    // First moves have the period too.
    clock().advance(20h);
    ASSERT_TRUE(IsOk(play_any(game)));
    clock().advance(20h);
    ASSERT_TRUE(IsOk(play_any(game)));
    clock().advance(23h);
    const Reply<v1::MakeMoveResponse> third = play_any(game);
    ASSERT_TRUE(IsOk(third));
    EXPECT_TRUE(TookAboutMs(ms(third->move().think_time()), 23LL * 3'600'000));
    // The next mover has a whole day again, whatever the last one used.
    EXPECT_TRUE(AboutMs(micros(third->game().clocks().deadline()) / 1000 -
                            micros(third->game().clocks().read_time()) / 1000,
                        24LL * 3'600'000));
    const v1::Side next = third->game().side_to_move();
    clock().advance(25h);
    const Reply<v1::GetGameResponse> ended = client().get(game.id);
    ASSERT_TRUE(IsOk(ended));
    EXPECT_EQ(ended->game().end_reason(), v1::END_REASON_TIMEOUT);
    EXPECT_EQ(ended->game().result(),
              next == v1::SIDE_FOX ? v1::GAME_RESULT_GEESE_WIN : v1::GAME_RESULT_FOX_SIDE_WINS);
}

TEST_F(Correspondence, AMissedFirstMoveAbortsAfterThePeriod) {
    const SeatedGame game = start_game_with(timed(days_per_move(2)));
    clock().advance(47h);
    const Reply<v1::GetGameResponse> waiting = client().get(game.id);
    ASSERT_TRUE(IsOk(waiting));
    EXPECT_EQ(waiting->game().state(), v1::GAME_STATE_ACTIVE);
    clock().advance(2h);
    const Reply<v1::GetGameResponse> ended = client().get(game.id);
    ASSERT_TRUE(IsOk(ended));
    EXPECT_EQ(ended->game().end_reason(), v1::END_REASON_ABORTED);
}

}  // namespace
}  // namespace foxgeese::test
