// Rematches over gRPC: offering, declining and accepting after a game; the
// new game's set-up (same variant, options and time control, seats
// swapped) and its links to the old one; seat tokens that only the old seat
// holders can take, once each; and watch streams that stay open after the
// end for the offer and its answer, then close.
#include <chrono>
#include <string>

#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;

class Rematch : public MemoryServiceTest {
  protected:
    void configure(service::ReplicaOptions& options) override {
        options.watch.rematch_linger = std::chrono::minutes(2);
    }

    // The stream's snapshot, taken before the test offers: one taken after
    // the offer would hold it, and the offer would then not come as an event.
    static void take_snapshot(WatchStream& watch) {
        const auto snapshot = watch.next();
        ASSERT_TRUE(snapshot && snapshot->has_snapshot()) << watch.describe_received();
    }

    // A real-time big_cross game the fox side resigned.
    SeatedGame finished_game() {
        v1::CreateGameRequest request = create_request("big_cross");
        request.mutable_time_control()->mutable_real_time()->mutable_initial()->set_seconds(300);
        request.mutable_time_control()->mutable_real_time()->mutable_increment()->set_seconds(3);
        const SeatedGame game = start_game_with(request);
        EXPECT_TRUE(IsOk(client().resign(game.id, game.fox_token)));
        return game;
    }
};

bool is_offer(const v1::WatchGameResponse& e) {
    return e.has_rematch_offered();
}
bool is_answer(const v1::WatchGameResponse& e) {
    return e.has_rematch_answered();
}

TEST_F(Rematch, AnAcceptedOfferMakesTheSameGameWithTheSeatsSwapped) {
    const SeatedGame old = finished_game();
    WatchStream watch(server().grpc_port(), old.id);
    ASSERT_NO_FATAL_FAILURE(take_snapshot(watch));

    const Reply<v1::OfferRematchResponse> offered = client().offer_rematch(old.id, old.fox_token);
    ASSERT_TRUE(IsOk(offered));
    EXPECT_EQ(offered->game().rematch_offered_by(), v1::SIDE_FOX);
    EXPECT_FALSE(offered->has_rematch());
    EXPECT_TRUE(offered->seat_token().empty());
    const auto offer_event = watch.wait_for_event(is_offer);
    ASSERT_TRUE(offer_event) << watch.describe_received();
    EXPECT_EQ(offer_event->rematch_offered().by(), v1::SIDE_FOX);

    const Reply<v1::RespondRematchResponse> accepted =
        client().respond_rematch(old.id, true, old.geese_token);
    ASSERT_TRUE(IsOk(accepted));
    const v1::Game& fresh = accepted->rematch();
    EXPECT_EQ(accepted->game().rematch_game_id(), fresh.game_id());
    EXPECT_EQ(accepted->game().rematch_offered_by(), v1::SIDE_UNSPECIFIED);
    EXPECT_EQ(fresh.rematch_of_game_id(), old.id);
    EXPECT_EQ(fresh.variant(), "big_cross");
    EXPECT_EQ(fresh.time_control().ShortDebugString(), old.game.time_control().ShortDebugString());
    EXPECT_EQ(fresh.options().ShortDebugString(), old.game.options().ShortDebugString());
    // The old geese play the fox side now; the other seat waits for its holder.
    EXPECT_EQ(accepted->seat(), v1::SEAT_FOX);
    EXPECT_FALSE(accepted->seat_token().empty());
    EXPECT_EQ(fresh.state(), v1::GAME_STATE_WAITING);

    // Watchers of the old game learn the new id; then their stream ends.
    const auto answer = watch.wait_for_event(is_answer);
    ASSERT_TRUE(answer) << watch.describe_received();
    EXPECT_TRUE(answer->rematch_answered().accepted());
    EXPECT_EQ(answer->rematch_answered().game_id(), fresh.game_id());
    EXPECT_EQ(answer->rematch_answered().by(), v1::SIDE_GEESE);
    const auto end = watch.wait_for_end();
    ASSERT_TRUE(end);
    EXPECT_TRUE(end->ok()) << describe(*end);

    // The old fox takes the geese seat with the old token, and the game starts.
    const Reply<v1::JoinRematchResponse> joined = client().join_rematch(old.id, old.fox_token);
    ASSERT_TRUE(IsOk(joined));
    EXPECT_EQ(joined->seat(), v1::SEAT_GEESE);
    EXPECT_EQ(joined->game().game_id(), fresh.game_id());
    EXPECT_EQ(joined->game().state(), v1::GAME_STATE_ACTIVE);
    SeatedGame next;
    next.id = fresh.game_id();
    next.fox_token = accepted->seat_token();
    next.geese_token = joined->seat_token();
    ASSERT_TRUE(IsOk(play_any(next)));
    // Tokens of the old game hold nothing in the new one.
    EXPECT_TRUE(IsError(client().resign(next.id, old.fox_token), grpc::StatusCode::UNAUTHENTICATED,
                        "TOKEN_INVALID"));
    // Both games read back linked.
    const Reply<v1::GetGameResponse> old_read = client().get(old.id);
    ASSERT_TRUE(IsOk(old_read));
    EXPECT_EQ(old_read->game().rematch_game_id(), next.id);
}

TEST_F(Rematch, EachSeatIsTakenOnceAndOnlyByItsOldHolder) {
    const SeatedGame old = finished_game();
    EXPECT_TRUE(IsError(client().join_rematch(old.id, old.fox_token),
                        grpc::StatusCode::FAILED_PRECONDITION, "NO_REMATCH"));
    ASSERT_TRUE(IsOk(client().offer_rematch(old.id, old.geese_token)));
    const Reply<v1::RespondRematchResponse> accepted =
        client().respond_rematch(old.id, true, old.fox_token);
    ASSERT_TRUE(IsOk(accepted));
    EXPECT_EQ(accepted->seat(), v1::SEAT_GEESE);
    const std::string fresh = accepted->rematch().game_id();

    // Spectators know the new id but hold no old token.
    EXPECT_TRUE(IsError(client().join_rematch(old.id, Auth::none()),
                        grpc::StatusCode::UNAUTHENTICATED, "TOKEN_REQUIRED"));
    EXPECT_TRUE(IsError(client().join_rematch(old.id, kUnknownToken),
                        grpc::StatusCode::UNAUTHENTICATED, "TOKEN_INVALID"));
    // Nor can anyone join the kept seat by the new game's invite.
    EXPECT_TRUE(
        IsError(client().join(fresh, ""), grpc::StatusCode::PERMISSION_DENIED, "INVITE_INVALID"));
    // The one who accepted has its seat already.
    EXPECT_TRUE(IsError(client().join_rematch(old.id, old.fox_token),
                        grpc::StatusCode::ALREADY_EXISTS, "SEAT_TAKEN"));
    const Reply<v1::JoinRematchResponse> first = client().join_rematch(old.id, old.geese_token);
    ASSERT_TRUE(IsOk(first));
    EXPECT_EQ(first->seat(), v1::SEAT_FOX);
    EXPECT_TRUE(IsError(client().join_rematch(old.id, old.geese_token),
                        grpc::StatusCode::ALREADY_EXISTS, "SEAT_TAKEN"));
}

TEST_F(Rematch, ADeclinedOfferMayBeMadeAgainAndCrossingOffersAccept) {
    const SeatedGame old = finished_game();
    WatchStream watch(server().grpc_port(), old.id);
    ASSERT_NO_FATAL_FAILURE(take_snapshot(watch));
    ASSERT_TRUE(IsOk(client().offer_rematch(old.id, old.fox_token)));
    const Reply<v1::RespondRematchResponse> declined =
        client().respond_rematch(old.id, false, old.geese_token);
    ASSERT_TRUE(IsOk(declined));
    EXPECT_FALSE(declined->has_rematch());
    EXPECT_EQ(declined->game().rematch_offered_by(), v1::SIDE_UNSPECIFIED);
    EXPECT_TRUE(declined->game().rematch_game_id().empty());
    const auto answer = watch.wait_for_event(is_answer);
    ASSERT_TRUE(answer) << watch.describe_received();
    EXPECT_FALSE(answer->rematch_answered().accepted());
    // The stream ends at the answer.
    ASSERT_TRUE(watch.wait_for_end());

    // Later the geese offer, and the fox's own offer accepts theirs.
    ASSERT_TRUE(IsOk(client().offer_rematch(old.id, old.geese_token)));
    const Reply<v1::OfferRematchResponse> crossing = client().offer_rematch(old.id, old.fox_token);
    ASSERT_TRUE(IsOk(crossing));
    ASSERT_TRUE(crossing->has_rematch());
    EXPECT_EQ(crossing->seat(), v1::SEAT_GEESE);
    EXPECT_FALSE(crossing->seat_token().empty());
    EXPECT_EQ(crossing->game().rematch_game_id(), crossing->rematch().game_id());
}

TEST_F(Rematch, ErrorsOfTheCalls) {
    const SeatedGame playing = start_game();
    EXPECT_TRUE(RejectsUnchanged(
        playing.id, grpc::StatusCode::FAILED_PRECONDITION, "GAME_NOT_OVER",
        [&] { return client().offer_rematch(playing.id, playing.fox_token).status; }));
    const SeatedGame old = finished_game();
    EXPECT_TRUE(RejectsUnchanged(
        old.id, grpc::StatusCode::FAILED_PRECONDITION, "NO_REMATCH_OFFER",
        [&] { return client().respond_rematch(old.id, true, old.fox_token).status; }));
    ASSERT_TRUE(IsOk(client().offer_rematch(old.id, old.fox_token)));
    // Offering again changes nothing; answering one's own offer is refused.
    EXPECT_TRUE(IsOk(client().offer_rematch(old.id, old.fox_token)));
    EXPECT_TRUE(RejectsUnchanged(old.id, grpc::StatusCode::PERMISSION_DENIED, "WRONG_SEAT", [&] {
        return client().respond_rematch(old.id, true, old.fox_token).status;
    }));
    EXPECT_TRUE(RejectsUnchanged(old.id, grpc::StatusCode::UNAUTHENTICATED, "TOKEN_INVALID", [&] {
        return client().offer_rematch(old.id, kUnknownToken).status;
    }));
    EXPECT_TRUE(IsError(client().offer_rematch(kUnknownGameId, old.fox_token),
                        grpc::StatusCode::NOT_FOUND, "GAME_NOT_FOUND"));
}

TEST_F(Rematch, ABothSeatsTokenGetsBothSeatsAtOnce) {
    const v1::CreateGameResponse solo =
        create_game(create_request("standard", v1::SEAT_CHOICE_BOTH));
    const std::string id = solo.game().game_id();
    ASSERT_TRUE(IsOk(client().resign(id, solo.seat_token())));
    const Reply<v1::OfferRematchResponse> offered = client().offer_rematch(id, solo.seat_token());
    ASSERT_TRUE(IsOk(offered));
    ASSERT_TRUE(offered->has_rematch());
    EXPECT_EQ(offered->seat(), v1::SEAT_BOTH);
    EXPECT_EQ(offered->rematch().state(), v1::GAME_STATE_ACTIVE);
}

TEST_F(Rematch, AWatchOfAFinishedGameStaysOpenForTheLingerThenEnds) {
    const SeatedGame old = finished_game();
    // Opened after the end, within the linger.
    WatchStream late(server().grpc_port(), old.id);
    const auto snapshot = late.next();
    ASSERT_TRUE(snapshot && snapshot->has_snapshot()) << late.describe_received();
    ASSERT_TRUE(IsOk(client().offer_rematch(old.id, old.geese_token)));
    ASSERT_TRUE(late.wait_for_event(is_offer)) << late.describe_received();
    // The linger runs out (on the service's clock) with nobody answering.
    clock().advance(3min);
    const auto end = late.wait_for_end();
    ASSERT_TRUE(end) << late.describe_received();
    EXPECT_TRUE(end->ok()) << describe(*end);
    // A watch opened after the linger gets the snapshot and ends at once.
    WatchStream after(server().grpc_port(), old.id);
    ASSERT_TRUE(after.wait_for_end());
    ASSERT_EQ(after.received().size(), 1u);
    EXPECT_EQ(after.received()[0].snapshot().game().rematch_offered_by(), v1::SIDE_GEESE);
}

}  // namespace
}  // namespace foxgeese::test
