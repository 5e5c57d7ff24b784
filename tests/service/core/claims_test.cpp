// ClaimVictory over gRPC: the side not to move may claim the win (or a draw)
// once the seat holder to move has had no WatchGame stream open for the
// threshold (60 s) during their turn; never against a connected opponent,
// never on one's own turn, never in correspondence games.
#include <chrono>
#include <string>

#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;

class Claims : public MemoryServiceTest {
  protected:
    // The test's clock jumps by minutes; presence rows must not expire as
    // if their server had died (that is the TTL's only purpose).
    void configure(service::ReplicaOptions& options) override {
        options.watch.presence_ttl = std::chrono::hours(2);
    }
};

struct Sides {
    std::string to_move;   // the token of the side to move (the one who may leave)
    std::string claimant;  // the other side's
    v1::Side claimant_side;
};

Sides sides_of(const SeatedGame& game, const v1::Game& now) {
    if (now.side_to_move() == v1::SIDE_FOX)
        return {game.fox_token, game.geese_token, v1::SIDE_GEESE};
    return {game.geese_token, game.fox_token, v1::SIDE_FOX};
}

v1::GameResult win_for(v1::Side side) {
    return side == v1::SIDE_FOX ? v1::GAME_RESULT_FOX_SIDE_WINS : v1::GAME_RESULT_GEESE_WIN;
}

// Waits on a spectator's stream until the side's presence reads `connected`.
bool presence_becomes(WatchStream& spectator, v1::Side side, bool connected) {
    return spectator
        .wait_for_event([&](const v1::WatchGameResponse& e) {
            if (!e.has_presence()) return false;
            const v1::SidePresence& p =
                side == v1::SIDE_FOX ? e.presence().fox() : e.presence().geese();
            return p.connected() == connected;
        })
        .has_value();
}

TEST_F(Claims, AnOpponentWhoNeverCameIsClaimableAfterTheThreshold) {
    const SeatedGame game = start_game();
    const Sides s = sides_of(game, game.game);
    clock().advance(50s);
    const Reply<v1::ClaimVictoryResponse> early = client().claim(game.id, false, s.claimant);
    EXPECT_TRUE(IsError(early, grpc::StatusCode::FAILED_PRECONDITION, "OPPONENT_PRESENT"));
    // The refusal says when a claim could succeed: the turn's start + 60 s.
    const auto info = error_info(early.status);
    ASSERT_TRUE(info);
    ASSERT_TRUE(info->metadata().contains("claimable_at")) << info->ShortDebugString();
    EXPECT_FALSE(info->metadata().at("claimable_at").empty());

    clock().advance(11s);
    const Reply<v1::ClaimVictoryResponse> won = client().claim(game.id, false, s.claimant);
    ASSERT_TRUE(IsOk(won));
    EXPECT_EQ(won->game().state(), v1::GAME_STATE_FINISHED);
    EXPECT_EQ(won->game().end_reason(), v1::END_REASON_OPPONENT_LEFT);
    EXPECT_EQ(won->game().result(), win_for(s.claimant_side));
}

TEST_F(Claims, AnOpponentWhoseTokenIsInUseWithoutAStreamIsNotGone) {
    const SeatedGame game = start_game();
    const Sides s = sides_of(game, game.game);
    // No stream, but the player's client asks after its seat (GetSeat):
    // whoever uses their token is there.
    clock().advance(61s);
    ASSERT_TRUE(IsOk(client().get_seat(s.to_move)));
    EXPECT_TRUE(
        RejectsUnchanged(game.id, grpc::StatusCode::FAILED_PRECONDITION, "OPPONENT_PRESENT",
                         [&] { return client().claim(game.id, false, s.claimant).status; }));
    // Gone from their last use on: claimable a full threshold after it.
    clock().advance(59s);
    EXPECT_TRUE(IsError(client().claim(game.id, false, s.claimant),
                        grpc::StatusCode::FAILED_PRECONDITION, "OPPONENT_PRESENT"));
    clock().advance(2s);
    EXPECT_TRUE(IsOk(client().claim(game.id, false, s.claimant)));
}

TEST_F(Claims, AConnectedOpponentCannotBeClaimedAgainstHoweverLongTheyThink) {
    const SeatedGame game = start_game();
    const Sides s = sides_of(game, game.game);
    WatchStream spectator(server().grpc_port(), game.id);
    WatchStream present(server().grpc_port(), game.id, std::nullopt, s.to_move);
    ASSERT_TRUE(presence_becomes(spectator, game.game.side_to_move(), true))
        << spectator.describe_received();
    clock().advance(10min);
    EXPECT_TRUE(
        RejectsUnchanged(game.id, grpc::StatusCode::FAILED_PRECONDITION, "OPPONENT_PRESENT",
                         [&] { return client().claim(game.id, false, s.claimant).status; }));
}

TEST_F(Claims, AnOpponentWhoLeftIsClaimableForAWinOrADraw) {
    for (const bool draw : {false, true}) {
        const SeatedGame game = start_game();
        const Sides s = sides_of(game, game.game);
        WatchStream spectator(server().grpc_port(), game.id);
        {
            WatchStream leaving(server().grpc_port(), game.id, std::nullopt, s.to_move);
            ASSERT_TRUE(presence_becomes(spectator, game.game.side_to_move(), true));
            leaving.cancel();
        }
        ASSERT_TRUE(presence_becomes(spectator, game.game.side_to_move(), false))
            << spectator.describe_received();
        clock().advance(59s);
        EXPECT_TRUE(IsError(client().claim(game.id, draw, s.claimant),
                            grpc::StatusCode::FAILED_PRECONDITION, "OPPONENT_PRESENT"));
        clock().advance(2s);
        const Reply<v1::ClaimVictoryResponse> claimed = client().claim(game.id, draw, s.claimant);
        ASSERT_TRUE(IsOk(claimed));
        EXPECT_EQ(claimed->game().end_reason(), v1::END_REASON_OPPONENT_LEFT);
        EXPECT_EQ(claimed->game().result(), draw ? v1::GAME_RESULT_DRAW : win_for(s.claimant_side));
        const auto ended = spectator.wait_for_event(
            [](const v1::WatchGameResponse& e) { return e.has_game_ended(); });
        ASSERT_TRUE(ended) << spectator.describe_received();
        EXPECT_EQ(ended->game_ended().game().end_reason(), v1::END_REASON_OPPONENT_LEFT);
    }
}

TEST_F(Claims, TimeGoneCountsOnlyFromTheStartOfTheOpponentsTurn) {
    const SeatedGame game = start_game();
    // The side to move moves after a long think; the other side, who never
    // watched, now has the turn, and its 60 s start now.
    clock().advance(5min);
    ASSERT_TRUE(IsOk(play_any(game)));
    const Reply<v1::GetGameResponse> now = client().get(game.id);
    ASSERT_TRUE(IsOk(now));
    const Sides s = sides_of(game, now->game());
    clock().advance(30s);
    EXPECT_TRUE(IsError(client().claim(game.id, false, s.claimant),
                        grpc::StatusCode::FAILED_PRECONDITION, "OPPONENT_PRESENT"));
    clock().advance(31s);
    EXPECT_TRUE(IsOk(client().claim(game.id, false, s.claimant)));
}

TEST_F(Claims, ErrorsOfTheCall) {
    const SeatedGame game = start_game();
    const Sides s = sides_of(game, game.game);
    clock().advance(2min);
    // On one's own turn there is nobody to wait for.
    EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::FAILED_PRECONDITION,
                                 "NOT_OPPONENTS_TURN",
                                 [&] { return client().claim(game.id, false, s.to_move).status; }));
    EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::UNAUTHENTICATED, "TOKEN_REQUIRED", [&] {
        return client().claim(game.id, false, Auth::none()).status;
    }));
    EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::UNAUTHENTICATED, "TOKEN_INVALID", [&] {
        return client().claim(game.id, false, kUnknownToken).status;
    }));
    EXPECT_TRUE(IsError(client().claim(kUnknownGameId, false, s.claimant),
                        grpc::StatusCode::NOT_FOUND, "GAME_NOT_FOUND"));

    // A token holding both seats has no opponent.
    const v1::CreateGameResponse both =
        create_game(create_request("standard", v1::SEAT_CHOICE_BOTH));
    clock().advance(2min);
    EXPECT_TRUE(IsError(client().claim(both.game().game_id(), false, both.seat_token()),
                        grpc::StatusCode::PERMISSION_DENIED, "WRONG_SEAT"));

    // Correspondence games end by their move deadline instead.
    v1::CreateGameRequest slow = create_request("standard");
    slow.mutable_time_control()->mutable_correspondence()->set_days_per_move(3);
    const SeatedGame letter = start_game_with(slow);
    clock().advance(2h);
    const Sides ls = sides_of(letter, letter.game);
    EXPECT_TRUE(
        RejectsUnchanged(letter.id, grpc::StatusCode::FAILED_PRECONDITION, "CLAIM_NOT_ALLOWED",
                         [&] { return client().claim(letter.id, false, ls.claimant).status; }));

    // A game nobody joined, and a finished one.
    const v1::CreateGameResponse open = create_game(create_request("standard"));
    EXPECT_TRUE(IsError(client().claim(open.game().game_id(), false, open.seat_token()),
                        grpc::StatusCode::FAILED_PRECONDITION, "GAME_NOT_STARTED"));
    ASSERT_TRUE(IsOk(client().resign(game.id, s.to_move)));
    EXPECT_TRUE(IsError(client().claim(game.id, false, s.claimant),
                        grpc::StatusCode::FAILED_PRECONDITION, "GAME_OVER"));
}

}  // namespace
}  // namespace foxgeese::test
