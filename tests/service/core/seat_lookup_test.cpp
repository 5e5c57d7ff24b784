// GetSeat over gRPC: a seat token tells its game and seat (fox side, geese
// or both), also after the game; a token nobody holds, a malformed one and
// none at all are refused; a seat kept for a rematch is not held yet.
#include <string>

#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using GetSeat = MemoryServiceTest;

TEST_F(GetSeat, ATokenTellsItsGameAndSeat) {
    const SeatedGame game = start_game("big_cross");
    const Reply<v1::GetSeatResponse> fox = client().get_seat(game.fox_token);
    ASSERT_TRUE(IsOk(fox));
    EXPECT_EQ(fox->seat(), v1::SEAT_FOX);
    EXPECT_EQ(fox->game().game_id(), game.id);
    EXPECT_EQ(fox->game().variant(), "big_cross");
    const Reply<v1::GetSeatResponse> geese = client().get_seat(game.geese_token);
    ASSERT_TRUE(IsOk(geese));
    EXPECT_EQ(geese->seat(), v1::SEAT_GEESE);
    // The reply is the game as GetGame shows it.
    const Reply<v1::GetGameResponse> got = client().get(game.id);
    ASSERT_TRUE(IsOk(got));
    EXPECT_EQ(geese->game().position(), got->game().position());
    EXPECT_EQ(geese->game().legal_moves_size(), got->game().legal_moves_size());

    const v1::CreateGameResponse both =
        create_game(create_request("two_foxes", v1::SEAT_CHOICE_BOTH));
    const Reply<v1::GetSeatResponse> solo = client().get_seat(both.seat_token());
    ASSERT_TRUE(IsOk(solo));
    EXPECT_EQ(solo->seat(), v1::SEAT_BOTH);
    EXPECT_EQ(solo->game().game_id(), both.game().game_id());

    // A finished game's tokens still tell their seat.
    ASSERT_TRUE(IsOk(client().resign(game.id, game.fox_token)));
    const Reply<v1::GetSeatResponse> after = client().get_seat(game.fox_token);
    ASSERT_TRUE(IsOk(after));
    EXPECT_EQ(after->game().state(), v1::GAME_STATE_FINISHED);
}

TEST_F(GetSeat, RefusesTokensThatHoldNothing) {
    EXPECT_TRUE(IsError(client().get_seat(Auth::none()), grpc::StatusCode::UNAUTHENTICATED,
                        "TOKEN_REQUIRED"));
    EXPECT_TRUE(IsError(client().get_seat(kUnknownToken), grpc::StatusCode::UNAUTHENTICATED,
                        "TOKEN_INVALID"));
    EXPECT_TRUE(IsError(client().get_seat(std::string("not a token")),
                        grpc::StatusCode::UNAUTHENTICATED, "TOKEN_INVALID"));
    EXPECT_TRUE(IsError(client().get_seat(Auth::header("Basic Zm94OmdlZXNl")),
                        grpc::StatusCode::UNAUTHENTICATED, "TOKEN_INVALID"));
}

TEST_F(GetSeat, AnOldTokenDoesNotHoldItsKeptRematchSeatUntilItIsTaken) {
    const SeatedGame old = start_game();
    ASSERT_TRUE(IsOk(client().resign(old.id, old.fox_token)));
    ASSERT_TRUE(IsOk(client().offer_rematch(old.id, old.fox_token)));
    const Reply<v1::RespondRematchResponse> accepted =
        client().respond_rematch(old.id, true, old.geese_token);
    ASSERT_TRUE(IsOk(accepted));
    // The old fox's token still points at the old game.
    const Reply<v1::GetSeatResponse> kept = client().get_seat(old.fox_token);
    ASSERT_TRUE(IsOk(kept));
    EXPECT_EQ(kept->game().game_id(), old.id);
    // The new token points at the new game.
    const Reply<v1::GetSeatResponse> fresh = client().get_seat(accepted->seat_token());
    ASSERT_TRUE(IsOk(fresh));
    EXPECT_EQ(fresh->game().game_id(), accepted->rematch().game_id());
    EXPECT_EQ(fresh->seat(), v1::SEAT_FOX);
}

}  // namespace
}  // namespace foxgeese::test
