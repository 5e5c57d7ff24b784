// SeekGame's rules on the in-memory store, through the game service itself
// so that the test holds each seeker's callback and drives the time: two
// seekers of one pool are paired with different seats and working tokens;
// other pools are not; a wait ends on the service's Clock with
// SEEK_RESULT_NO_OPPONENT (then a bot game is one CreateGame away); a
// seeker who left is withdrawn and never paired; a stopping replica ends
// its waits with SHUTTING_DOWN; one seek per address;
// seeks count against the creation limit; bad input writes nothing.
// PostgreSQL (two replicas, races, the REST long poll): seek_game_pgtest.cpp.
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;
using Result = service::ServiceResult<v1::SeekGameResponse>;

v1::SeekGameRequest seek_request(const std::string& variant = "standard", int wait_seconds = 0) {
    v1::SeekGameRequest request;
    request.set_variant(variant);
    request.set_wait_seconds(wait_seconds);
    return request;
}

v1::SeekGameRequest blitz(int initial_seconds) {
    v1::SeekGameRequest request = seek_request();
    auto* real_time = request.mutable_time_control()->mutable_real_time();
    real_time->mutable_initial()->set_seconds(initial_seconds);
    real_time->mutable_increment()->set_seconds(2);
    return request;
}

// One seeker: its answer once it came, and a switch that makes it leave.
struct Seeker {
    std::shared_ptr<std::optional<Result>> answer = std::make_shared<std::optional<Result>>();
    std::shared_ptr<std::atomic<bool>> gone = std::make_shared<std::atomic<bool>>(false);

    bool answered() const { return answer->has_value(); }
    const Result& result() const { return **answer; }
    const v1::SeekGameResponse& response() const { return result().value(); }
};

class SeekGame : public MemoryServiceTest {
  protected:
    void configure(service::ReplicaOptions& options) override {
        options.game.limits.create_per_address = {4, 60s, 4};
    }

    Seeker seek(const v1::SeekGameRequest& request, const std::string& address) {
        Seeker seeker;
        service::CallContext call;
        call.client_address = address;
        call.received_us = clock().now_us();
        call.cancelled = [gone = seeker.gone] { return gone->load(); };
        server().logic().seek_game(request, call,
                                   [answer = seeker.answer](Result r) { *answer = std::move(r); });
        return seeker;
    }

    // Passes when `seeker` was paired, holding a seat its token proves.
    ::testing::AssertionResult HoldsItsSeat(const Seeker& seeker) {
        if (!seeker.answered()) return ::testing::AssertionFailure() << "no answer";
        if (!seeker.result().ok())
            return ::testing::AssertionFailure() << seeker.result().error().message;
        const v1::SeekGameResponse& r = seeker.response();
        if (r.result() != v1::SEEK_RESULT_PAIRED)
            return ::testing::AssertionFailure() << "not paired: " << r.ShortDebugString();
        const auto seat = client().get_seat(r.seat_token());
        if (!seat.ok()) return ::testing::AssertionFailure() << describe(seat.status);
        if (seat->game().game_id() != r.game().game_id() || seat->seat() != r.seat())
            return ::testing::AssertionFailure() << "the token holds " << seat->ShortDebugString();
        return ::testing::AssertionSuccess();
    }

    void expect_no_opponent(const Seeker& seeker) {
        ASSERT_TRUE(seeker.answered());
        ASSERT_TRUE(seeker.result().ok()) << seeker.result().error().message;
        EXPECT_EQ(seeker.response().result(), v1::SEEK_RESULT_NO_OPPONENT);
        EXPECT_FALSE(seeker.response().has_game());
        EXPECT_TRUE(seeker.response().seat_token().empty());
    }

    void expect_error(const Seeker& seeker, const std::string& reason, const std::string& field) {
        ASSERT_TRUE(seeker.answered());
        ASSERT_FALSE(seeker.result().ok());
        EXPECT_EQ(seeker.result().error().reason, reason) << seeker.result().error().message;
        EXPECT_EQ(seeker.result().error().field, field);
    }
};

TEST_F(SeekGame, TwoSeekersOfOnePoolPlayEachOtherFromDifferentSeats) {
    const Seeker first = seek(blitz(180), "198.51.100.1");
    EXPECT_FALSE(first.answered()) << "nobody to play yet: it waits";
    EXPECT_EQ(server().logic().seeks_waiting(), 1u);
    EXPECT_EQ(count_rows("seeks"), 1);

    const Seeker second = seek(blitz(180), "198.51.100.2");
    ASSERT_TRUE(HoldsItsSeat(second));
    ASSERT_TRUE(HoldsItsSeat(first)) << "the waiting seeker hears of its game at once";
    const v1::SeekGameResponse& a = first.response();
    const v1::SeekGameResponse& b = second.response();
    EXPECT_EQ(a.game().game_id(), b.game().game_id());
    EXPECT_NE(a.seat(), b.seat());
    EXPECT_NE(a.seat_token(), b.seat_token());
    EXPECT_EQ(a.game().state(), v1::GAME_STATE_ACTIVE);
    EXPECT_EQ(a.game().time_control().real_time().initial().seconds(), 180);
    EXPECT_EQ(a.game().visibility(), v1::VISIBILITY_PUBLIC);
    EXPECT_EQ(server().logic().seeks_waiting(), 0u);
    EXPECT_EQ(count_rows("seeks"), 0) << "the paired seek is removed once read";

    // Both tokens play: the fox moves first in the standard start.
    const std::string& fox = a.seat() == v1::SEAT_FOX ? a.seat_token() : b.seat_token();
    const auto game = client().get(a.game().game_id());
    ASSERT_TRUE(IsOk(game));
    ASSERT_FALSE(game->game().legal_moves().empty());
    EXPECT_TRUE(IsOk(client().move(a.game().game_id(), game->game().legal_moves(0), fox)));
}

TEST_F(SeekGame, OnlyTheSameVariantOptionsAndTimeControlArePaired) {
    const Seeker blitz3 = seek(blitz(180), "198.51.100.1");
    const Seeker blitz5 = seek(blitz(300), "198.51.100.2");
    const Seeker untimed = seek(seek_request(), "198.51.100.3");
    v1::SeekGameRequest fifteen = seek_request();
    fifteen.mutable_options()->set_geese(15);
    const Seeker more_geese = seek(fifteen, "198.51.100.4");
    const Seeker other_variant = seek(seek_request("two_foxes"), "198.51.100.5");
    for (const Seeker* s : {&blitz3, &blitz5, &untimed, &more_geese, &other_variant})
        EXPECT_FALSE(s->answered());
    EXPECT_EQ(count_rows("games"), 0);

    // The defaults filled in are the same game: 13 geese is "standard" as is.
    v1::SeekGameRequest thirteen = seek_request();
    thirteen.mutable_options()->set_geese(13);
    const Seeker same_as_untimed = seek(thirteen, "198.51.100.6");
    ASSERT_TRUE(HoldsItsSeat(same_as_untimed));
    ASSERT_TRUE(HoldsItsSeat(untimed));
    EXPECT_EQ(count_rows("games"), 1);
}

TEST_F(SeekGame, AWaitEndsOnTheClockWithNoOpponentThenTheBotPlays) {
    const Seeker alone = seek(seek_request("standard", 5), "198.51.100.1");
    clock().advance(4900ms);
    server().logic().end_due_seeks();
    EXPECT_FALSE(alone.answered()) << "still within its 5 s";
    clock().advance(100ms);
    server().logic().end_due_seeks();
    expect_no_opponent(alone);
    EXPECT_EQ(count_rows("seeks"), 0);
    EXPECT_EQ(count_rows("games"), 0) << "nothing is created for a seek nobody met";

    // What the client offers next: the computer.
    v1::CreateGameRequest bot = create_request("standard");
    bot.set_bot_level(1);
    const v1::CreateGameResponse created = create_game(bot);
    EXPECT_EQ(created.game().state(), v1::GAME_STATE_ACTIVE);

    // The default wait is 20 s.
    const Seeker by_default = seek(seek_request(), "198.51.100.1");
    clock().advance(19s);
    server().logic().end_due_seeks();
    EXPECT_FALSE(by_default.answered());
    clock().advance(1s);
    server().logic().end_due_seeks();
    expect_no_opponent(by_default);
}

TEST_F(SeekGame, ASeekerWhoLeftIsWithdrawnAndNeverPaired) {
    const Seeker leaver = seek(seek_request(), "198.51.100.1");
    leaver.gone->store(true);
    server().logic().end_due_seeks();
    ASSERT_TRUE(leaver.answered()) << "withdrawn on the next check";
    EXPECT_EQ(count_rows("seeks"), 0);

    const Seeker next = seek(seek_request(), "198.51.100.2");
    EXPECT_FALSE(next.answered()) << "the one who left is not there to be paired with";
    EXPECT_EQ(count_rows("games"), 0);
    EXPECT_EQ(server().logic().seeks_waiting(), 1u);
}

TEST_F(SeekGame, AStoppingReplicaEndsItsWaitsSoThatTheirClientsSeekElsewhere) {
    const Seeker waiting = seek(seek_request(), "198.51.100.1");
    server().logic().end_all_seeks();
    expect_error(waiting, "SHUTTING_DOWN", "");
    EXPECT_EQ(waiting.result().error().code, service::StatusCode::kUnavailable);
    EXPECT_EQ(count_rows("seeks"), 0) << "its seek is withdrawn, never to be paired";
    // One that comes in meanwhile is ended at once, not left waiting.
    const Seeker late = seek(seek_request(), "198.51.100.2");
    expect_error(late, "SHUTTING_DOWN", "");
    EXPECT_EQ(count_rows("seeks"), 0);
    EXPECT_EQ(server().logic().seeks_waiting(), 0u);
}

TEST_F(SeekGame, OneAddressHasOneSeekWaiting) {
    const Seeker first = seek(blitz(180), "198.51.100.1");
    const Seeker other_pool = seek(seek_request(), "198.51.100.1");
    expect_error(other_pool, "SEEK_ALREADY_OPEN", "");
    EXPECT_EQ(other_pool.result().error().code, service::StatusCode::kAlreadyExists);
    EXPECT_TRUE(other_pool.result().error().retry_after.has_value());
    EXPECT_FALSE(first.answered()) << "the first one waits on";
    EXPECT_EQ(count_rows("seeks"), 1);

    // Once it ended, the address may seek again.
    first.gone->store(true);
    server().logic().end_due_seeks();
    const Seeker again = seek(seek_request(), "198.51.100.1");
    EXPECT_FALSE(again.answered());
}

TEST_F(SeekGame, SeeksCountAgainstTheCreationLimit) {
    // 4 at once from one address: a seek, a seek that pairs with it, a
    // CreateGame, a seek that waits; then seeks and creations are refused
    // alike, writing nothing.
    const std::string address = "198.51.100.9";
    const Seeker waits = seek(seek_request(), address);
    const Seeker pairs = seek(seek_request(), address);
    ASSERT_TRUE(HoldsItsSeat(pairs));
    ASSERT_TRUE(HoldsItsSeat(waits));
    service::CallContext call;
    call.client_address = address;
    ASSERT_TRUE(server().logic().create_game(create_request("standard"), call).ok());
    const Seeker fourth = seek(seek_request(), address);
    EXPECT_FALSE(fourth.answered());

    const Seeker refused = seek(blitz(180), address);
    expect_error(refused, "RATE_LIMITED", "");
    EXPECT_TRUE(refused.result().error().retry_after.has_value());
    const auto create_refused = server().logic().create_game(create_request("standard"), call);
    ASSERT_FALSE(create_refused.ok());
    EXPECT_EQ(create_refused.error().reason, "RATE_LIMITED");
    EXPECT_EQ(count_rows("seeks"), 1) << "only the fourth seek waits";
    EXPECT_EQ(count_rows("games"), 2);

    // Another address has its own allowance.
    EXPECT_FALSE(seek(blitz(180), "198.51.100.10").answered());
    EXPECT_EQ(count_rows("seeks"), 2);
}

TEST_F(SeekGame, BadRequestsGetCreateGamesErrorsAndWriteNothing) {
    const std::string address = "198.51.100.1";
    expect_error(seek(seek_request("chess"), address), "INVALID_ARGUMENT", "variant");
    v1::SeekGameRequest bad_geese = seek_request();
    bad_geese.mutable_options()->set_geese(14);
    expect_error(seek(bad_geese, address), "INVALID_OPTIONS", "options");
    v1::SeekGameRequest bad_clock = blitz(0);
    expect_error(seek(bad_clock, address), "INVALID_ARGUMENT", "time_control.real_time.initial");
    expect_error(seek(seek_request("standard", 61), address), "INVALID_ARGUMENT", "wait_seconds");
    expect_error(seek(seek_request("standard", -1), address), "INVALID_ARGUMENT", "wait_seconds");
    EXPECT_EQ(count_rows("seeks"), 0);
    EXPECT_EQ(count_rows("games"), 0);
    EXPECT_EQ(server().logic().seeks_waiting(), 0u);
}

}  // namespace
}  // namespace foxgeese::test
