// SeekGame on PostgreSQL, end to end over gRPC and REST, with two replicas
// on one database: seekers on different replicas are paired within a
// second, each with its own seat; a seeker who leaves is withdrawn at once
// and never paired; a seek nobody meets ends with SEEK_RESULT_NO_OPPONENT
// and the client plays the bot instead; of two seekers racing for one
// waiting seek exactly one gets it, and two arriving together never both
// wait. Waits here are 1 s at most (the wait's rules on the service's
// Clock: seek_game_test.cpp). Each test has a database of its own, so no
// other test's seekers share its pools.
#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "tests/service/harness/http_test_client.h"
#include "tests/service/harness/service_harness.h"
#include "tests/service/harness/test_replica_options.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;

v1::SeekGameRequest seek_request(int wait_seconds = 0) {
    v1::SeekGameRequest request;
    request.set_variant("standard");
    auto* real_time = request.mutable_time_control()->mutable_real_time();
    real_time->mutable_initial()->set_seconds(300);
    request.set_wait_seconds(wait_seconds);
    return request;
}

// Polls `condition` until it holds, or fails after a generous time (a busy
// machine); no sleep is an assertion here.
::testing::AssertionResult Eventually(const std::function<bool()>& condition,
                                      const std::string& what) {
    const auto until = SteadyClock::now() + 10s;
    while (SteadyClock::now() < until) {
        if (condition()) return ::testing::AssertionSuccess();
        std::this_thread::sleep_for(10ms);
    }
    return ::testing::AssertionFailure() << "never: " << what;
}

class SeekGamePg : public ScratchServiceTest {
  protected:
    void configure(service::ReplicaOptions& options) override {
        // Seekers tell their address through one trusted proxy.
        options.game.limits.trusted_proxy_hops = 1;
    }

    void SetUp() override {
        ScratchServiceTest::SetUp();
        service::ReplicaOptions options = test_replica_options(database_url(), &clock());
        configure(options);
        second_ = std::make_unique<service::Replica>(options);
        second_client_ = std::make_unique<ServiceClient>(second_->grpc_port());
    }
    void TearDown() override {
        second_client_.reset();
        second_.reset();
        ScratchServiceTest::TearDown();
    }

    service::Replica& second() { return *second_; }
    ServiceClient& second_client() { return *second_client_; }

    // Passes when `reply` is a pairing whose token holds its seat.
    ::testing::AssertionResult HoldsItsSeat(const Reply<v1::SeekGameResponse>& reply) {
        if (!reply.ok()) return ::testing::AssertionFailure() << describe(reply.status);
        if (reply->result() != v1::SEEK_RESULT_PAIRED)
            return ::testing::AssertionFailure() << "not paired: " << reply->ShortDebugString();
        const auto seat = client().get_seat(reply->seat_token());
        if (!seat.ok()) return ::testing::AssertionFailure() << describe(seat.status);
        if (seat->game().game_id() != reply->game().game_id() || seat->seat() != reply->seat())
            return ::testing::AssertionFailure() << "the token holds " << seat->ShortDebugString();
        return ::testing::AssertionSuccess();
    }

    std::future<Reply<v1::SeekGameResponse>> seek_async(ServiceClient& on,
                                                        v1::SeekGameRequest request,
                                                        std::string address,
                                                        grpc::ClientContext* context = nullptr) {
        return std::async(std::launch::async, [&on, request, address, context] {
            return on.seek(request, address, context);
        });
    }

  private:
    std::unique_ptr<service::Replica> second_;
    std::unique_ptr<ServiceClient> second_client_;
};

TEST_F(SeekGamePg, TwoSeekersOnTwoReplicasArePairedWithinASecond) {
    auto waiting = seek_async(client(), seek_request(), "198.51.100.1");
    ASSERT_TRUE(Eventually([&] { return server().logic().seeks_waiting() == 1; },
                           "the first seeker waits on the first replica"));
    const auto second_came = SteadyClock::now();
    const auto arriving = second_client().seek(seek_request(), "198.51.100.2");
    ASSERT_EQ(waiting.wait_for(10s), std::future_status::ready);
    const auto first_answered = SteadyClock::now();
    const auto first = waiting.get();
    ASSERT_TRUE(HoldsItsSeat(arriving));
    ASSERT_TRUE(HoldsItsSeat(first));
    EXPECT_LT(first_answered - second_came, 1s) << "the waiting seeker heard of its game late";
    EXPECT_EQ(first->game().game_id(), arriving->game().game_id());
    EXPECT_NE(first->seat(), arriving->seat());
    EXPECT_EQ(first->game().state(), v1::GAME_STATE_ACTIVE);
    EXPECT_EQ(count_rows("seeks"), 0);
    // The fox's token moves on the other replica too.
    const auto& fox = first->seat() == v1::SEAT_FOX ? first.response : arriving.response;
    EXPECT_TRUE(IsOk(
        second_client().move(fox.game().game_id(), fox.game().legal_moves(0), fox.seat_token())));
}

TEST_F(SeekGamePg, ASeekerWhoLeavesIsWithdrawnAndNeverPaired) {
    grpc::ClientContext leaving;
    auto left = seek_async(client(), seek_request(), "198.51.100.1", &leaving);
    ASSERT_TRUE(Eventually([&] { return server().logic().seeks_waiting() == 1; }, "it waits"));
    leaving.TryCancel();
    ASSERT_EQ(left.wait_for(10s), std::future_status::ready);
    EXPECT_EQ(left.get().status.error_code(), grpc::StatusCode::CANCELLED);
    ASSERT_TRUE(Eventually(
        [&] { return server().logic().seeks_waiting() == 0 && count_rows("seeks") == 0; },
        "the seek of the one who left is removed"));

    const auto next = second_client().seek(seek_request(1), "198.51.100.2");
    ASSERT_TRUE(IsOk(next));
    EXPECT_EQ(next->result(), v1::SEEK_RESULT_NO_OPPONENT);
    EXPECT_EQ(count_rows("games"), 0);
    EXPECT_EQ(count_rows("seeks"), 0);
}

TEST_F(SeekGamePg, ASeekNobodyMeetsEndsAndTheBotPlaysInstead) {
    const auto started = SteadyClock::now();
    const auto alone = client().seek(seek_request(1), "198.51.100.1");
    ASSERT_TRUE(IsOk(alone));
    EXPECT_EQ(alone->result(), v1::SEEK_RESULT_NO_OPPONENT);
    EXPECT_GE(SteadyClock::now() - started, 1s) << "it waited its time";
    EXPECT_EQ(count_rows("seeks"), 0);
    EXPECT_EQ(count_rows("games"), 0);

    v1::CreateGameRequest bot = create_request("standard");
    *bot.mutable_time_control() = seek_request().time_control();
    bot.set_bot_level(2);
    const auto created = client().create_forwarded(bot, "198.51.100.1");
    ASSERT_TRUE(IsOk(created));
    EXPECT_EQ(created->game().state(), v1::GAME_STATE_ACTIVE);
}

TEST_F(SeekGamePg, OfTwoSeekersRacingForOneWaitingSeekExactlyOneGetsIt) {
    for (int round = 0; round < 3; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        auto waiting = seek_async(client(), seek_request(), "198.51.100.1");
        ASSERT_TRUE(Eventually([&] { return server().logic().seeks_waiting() == 1; }, "it waits"));
        // Both racers go at once, one per replica; the loser waits 1 s.
        auto racer_a = seek_async(client(), seek_request(1), "198.51.100.2");
        auto racer_b = seek_async(second_client(), seek_request(1), "198.51.100.3");
        const auto first = waiting.get();
        const auto a = racer_a.get();
        const auto b = racer_b.get();
        ASSERT_TRUE(HoldsItsSeat(first));
        ASSERT_TRUE(IsOk(a));
        ASSERT_TRUE(IsOk(b));
        const bool a_won = a->result() == v1::SEEK_RESULT_PAIRED;
        const bool b_won = b->result() == v1::SEEK_RESULT_PAIRED;
        ASSERT_NE(a_won, b_won) << "exactly one racer is paired";
        const auto& winner = a_won ? a : b;
        const auto& loser = a_won ? b : a;
        EXPECT_EQ(winner->game().game_id(), first->game().game_id());
        EXPECT_EQ(loser->result(), v1::SEEK_RESULT_NO_OPPONENT);
        EXPECT_EQ(count_rows("seeks"), 0);
    }
    EXPECT_EQ(count_rows("games"), 3);
}

TEST_F(SeekGamePg, TwoSeekersArrivingTogetherPlayEachOther) {
    for (int round = 0; round < 5; ++round) {
        auto a = seek_async(client(), seek_request(10), "198.51.100.1");
        auto b = seek_async(second_client(), seek_request(10), "198.51.100.2");
        const auto ra = a.get();
        const auto rb = b.get();
        ASSERT_TRUE(HoldsItsSeat(ra));
        ASSERT_TRUE(HoldsItsSeat(rb));
        EXPECT_EQ(ra->game().game_id(), rb->game().game_id());
    }
    EXPECT_EQ(count_rows("games"), 5);
}

TEST_F(SeekGamePg, OverRestTheSeekIsALongPollAndClosingItWithdrawsTheSeek) {
    const std::string body = R"({"variant": "standard", "waitSeconds": 1})";
    const std::map<std::string, std::string> json = {{"content-type", "application/json"}};
    {
        HttpClient alone(server().http_port(), 10s, 0, "127.0.0.1", "127.0.0.2");
        const HttpReply reply = alone.request("POST", "/v1/games:seek", body, json);
        EXPECT_EQ(reply.status, 200) << reply.body;
        EXPECT_NE(reply.body.find("\"SEEK_RESULT_NO_OPPONENT\""), std::string::npos) << reply.body;
    }
    {
        // A long poll whose client goes away.
        HttpClient leaving(server().http_port(), 10s, 0, "127.0.0.1", "127.0.0.3");
        leaving.send("POST", "/v1/games:seek", R"({"variant": "standard", "waitSeconds": 60})",
                     json);
        ASSERT_TRUE(Eventually([&] { return server().logic().seeks_waiting() == 1; }, "it waits"));
        leaving.close();
        ASSERT_TRUE(Eventually(
            [&] { return server().logic().seeks_waiting() == 0 && count_rows("seeks") == 0; },
            "the closed long poll's seek is removed"));
    }
    // A REST seeker meets a gRPC one.
    HttpClient waiting(second().http_port(), 10s, 0, "127.0.0.1", "127.0.0.4");
    waiting.send("POST", "/v1/games:seek", R"({"variant": "standard", "waitSeconds": 30})", json);
    ASSERT_TRUE(Eventually([&] { return second().logic().seeks_waiting() == 1; }, "it waits"));
    v1::SeekGameRequest same;
    same.set_variant("standard");
    const auto grpc_seeker = client().seek(same, "198.51.100.5");
    ASSERT_TRUE(HoldsItsSeat(grpc_seeker));
    const HttpReply paired = waiting.read();
    EXPECT_EQ(paired.status, 200) << paired.body;
    EXPECT_NE(paired.body.find("\"SEEK_RESULT_PAIRED\""), std::string::npos) << paired.body;
    EXPECT_NE(paired.body.find(grpc_seeker->game().game_id()), std::string::npos) << paired.body;
    EXPECT_NE(paired.body.find("\"seatToken\""), std::string::npos) << paired.body;
}

}  // namespace
}  // namespace foxgeese::test
