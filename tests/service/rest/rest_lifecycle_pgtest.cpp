// The game lifecycle over REST: a time control in JSON and the clocks in the
// reply, AbortGame, CancelGame, ClaimVictory's refusals, a rematch from offer
// to both new seats, and rate limits as HTTP 429 with Retry-After. Each error
// is compared with the same call over gRPC.
#include <string>

#include "tests/service/harness/rest_harness.h"

namespace foxgeese::test {
namespace {

class RestLifecycle : public RestTest {
  protected:
    void configure(service::ReplicaOptions& options) override {
        // The REST client connects from 127.0.0.1; gRPC calls of the
        // harness come from there too, so only CreateGame is limited here.
        options.game.limits.create_per_address = {30, std::chrono::seconds(60), 8};
    }

    std::string created_id(const HttpReply& reply) {
        v1::CreateGameResponse created;
        EXPECT_EQ(reply.status, 200) << reply.body;
        EXPECT_TRUE(parse_json(reply.body, created));
        return created.game().game_id();
    }
};

TEST_F(RestLifecycle, ATimeControlInJsonAndTheClocksInTheReply) {
    const HttpReply reply = post("/v1/games", R"({"variant":"standard","seat":"SEAT_CHOICE_FOX",
        "timeControl":{"realTime":{"initial":"90s","increment":"2.500s"}}})");
    ASSERT_EQ(reply.status, 200) << reply.body;
    v1::CreateGameResponse created;
    ASSERT_TRUE(parse_json(reply.body, created));
    EXPECT_EQ(created.game().time_control().real_time().initial().seconds(), 90);
    EXPECT_EQ(created.game().time_control().real_time().increment().nanos(), 500'000'000);
    EXPECT_TRUE(created.game().has_clocks());
    EXPECT_TRUE(created.game().has_expire_time());
    // Durations and times travel in proto3 JSON form.
    EXPECT_NE(reply.body.find(R"("initial":"90s")"), std::string::npos) << reply.body;

    const HttpReply bad = post("/v1/games", R"({"variant":"standard",
        "timeControl":{"correspondence":{"daysPerMove":30}}})");
    EXPECT_TRUE(IsRestError(bad, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    EXPECT_EQ(rest_bad_field(bad), "time_control.correspondence.days_per_move");
}

TEST_F(RestLifecycle, AbortCancelAndClaimRoutes) {
    const SeatedGame game = start_game();
    const HttpReply aborted = post("/v1/games/" + game.id + ":abort", "{}", game.fox_token);
    ASSERT_EQ(aborted.status, 200) << aborted.body;
    v1::AbortGameResponse abort;
    ASSERT_TRUE(parse_json(aborted.body, abort));
    EXPECT_EQ(abort.game().end_reason(), v1::END_REASON_ABORTED);
    EXPECT_EQ(abort.game().result(), v1::GAME_RESULT_NONE);
    EXPECT_TRUE(SameError(post("/v1/games/" + game.id + ":abort", "{}", game.geese_token),
                          grpc().abort(game.id, game.geese_token).status));

    const std::string open = created_id(post("/v1/games", R"({"variant":"big_cross"})"));
    const Reply<v1::GetGameResponse> read = grpc().get(open);
    ASSERT_TRUE(IsOk(read));
    // Cancelling needs the creator's token.
    EXPECT_TRUE(IsRestError(post("/v1/games/" + open + ":cancel", "{}"), 401,
                            grpc::StatusCode::UNAUTHENTICATED, "TOKEN_REQUIRED"));

    const SeatedGame playing = start_game();
    const std::string& mover =
        playing.game.side_to_move() == v1::SIDE_FOX ? playing.fox_token : playing.geese_token;
    const std::string& other =
        playing.game.side_to_move() == v1::SIDE_FOX ? playing.geese_token : playing.fox_token;
    EXPECT_TRUE(SameError(post("/v1/games/" + playing.id + ":claimVictory", "{}", mover),
                          grpc().claim(playing.id, false, mover).status));
    const HttpReply early =
        post("/v1/games/" + playing.id + ":claimVictory", R"({"draw":true})", other);
    EXPECT_TRUE(IsRestError(early, 400, grpc::StatusCode::FAILED_PRECONDITION, "OPPONENT_PRESENT"));
}

TEST_F(RestLifecycle, CancelAnOpenGame) {
    const HttpReply reply = post("/v1/games", R"({"variant":"standard","seat":"SEAT_CHOICE_FOX"})");
    v1::CreateGameResponse created;
    ASSERT_TRUE(parse_json(reply.body, created));
    const HttpReply cancelled =
        post("/v1/games/" + created.game().game_id() + ":cancel", "", created.seat_token());
    ASSERT_EQ(cancelled.status, 200) << cancelled.body;
    v1::CancelGameResponse cancel;
    ASSERT_TRUE(parse_json(cancelled.body, cancel));
    EXPECT_EQ(cancel.game().end_reason(), v1::END_REASON_CANCELLED);
    const HttpReply join = post("/v1/games/" + created.game().game_id() + ":join",
                                R"({"inviteCode":")" + created.invite_code() + R"("})");
    EXPECT_TRUE(IsRestError(join, 400, grpc::StatusCode::FAILED_PRECONDITION, "GAME_CANCELLED"));
}

TEST_F(RestLifecycle, ARematchFromOfferToBothSeats) {
    const SeatedGame old = start_game();
    ASSERT_TRUE(IsOk(grpc().resign(old.id, old.geese_token)));
    const HttpReply offered = post("/v1/games/" + old.id + ":offerRematch", "{}", old.fox_token);
    ASSERT_EQ(offered.status, 200) << offered.body;
    const HttpReply accepted =
        post("/v1/games/" + old.id + ":respondRematch", R"({"accept":true})", old.geese_token);
    ASSERT_EQ(accepted.status, 200) << accepted.body;
    v1::RespondRematchResponse answer;
    ASSERT_TRUE(parse_json(accepted.body, answer));
    EXPECT_EQ(answer.seat(), v1::SEAT_FOX);
    const HttpReply joined = post("/v1/games/" + old.id + ":joinRematch", "{}", old.fox_token);
    ASSERT_EQ(joined.status, 200) << joined.body;
    v1::JoinRematchResponse join;
    ASSERT_TRUE(parse_json(joined.body, join));
    EXPECT_EQ(join.seat(), v1::SEAT_GEESE);
    EXPECT_EQ(join.game().game_id(), answer.rematch().game_id());
    EXPECT_EQ(join.game().rematch_of_game_id(), old.id);
    EXPECT_EQ(join.game().state(), v1::GAME_STATE_ACTIVE);
    EXPECT_TRUE(SameError(post("/v1/games/" + old.id + ":joinRematch", "{}", old.fox_token),
                          grpc().join_rematch(old.id, old.fox_token).status));
}

TEST_F(RestLifecycle, GetSeatTellsTheGameAndSeatOfAToken) {
    const SeatedGame game = start_game();
    const HttpReply reply = rest("GET", "/v1/seat", "", game.geese_token);
    ASSERT_EQ(reply.status, 200) << reply.body;
    v1::GetSeatResponse seat;
    ASSERT_TRUE(parse_json(reply.body, seat));
    EXPECT_EQ(seat.seat(), v1::SEAT_GEESE);
    EXPECT_EQ(seat.game().game_id(), game.id);
    EXPECT_TRUE(SameError(rest("GET", "/v1/seat", "", kUnknownToken),
                          grpc().get_seat(kUnknownToken).status));
    EXPECT_TRUE(IsRestError(rest("GET", "/v1/seat"), 401, grpc::StatusCode::UNAUTHENTICATED,
                            "TOKEN_REQUIRED"));
}

TEST_F(RestLifecycle, OverTheLimitIs429WithRetryAfter) {
    // The burst of 8, whoever used part of it.
    int created = 0;
    HttpReply refused;
    for (int i = 0; i < 20; ++i) {
        HttpReply reply = post("/v1/games", R"({"variant":"standard"})");
        if (reply.status == 200) {
            ++created;
            continue;
        }
        refused = reply;
        break;
    }
    EXPECT_LE(created, 8);
    EXPECT_TRUE(IsRestError(refused, 429, grpc::StatusCode::RESOURCE_EXHAUSTED, "RATE_LIMITED"));
    // One more every 2 s: Retry-After in whole seconds, rounded up.
    EXPECT_EQ(refused.header("retry-after"), "2") << refused.body;
    const google::rpc::Status status = rest_status(refused);
    bool has_retry_info = false;
    for (const auto& detail : status.details())
        has_retry_info = has_retry_info || detail.Is<google::rpc::RetryInfo>();
    EXPECT_TRUE(has_retry_info) << refused.body;
}

}  // namespace
}  // namespace foxgeese::test
