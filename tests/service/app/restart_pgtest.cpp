// A server restart (a deploy, a crash) in the middle of games: a new server
// on the same database must carry on every game exactly where it was, with
// the same seat tokens, invite codes and request_ids.
#include <string>

#include "tests/service/harness/service_harness.h"

namespace foxgeese::test {
namespace {

using Restart = ServiceTest;

TEST_F(Restart, AHalfPlayedGameContinuesOnANewServerWithTheSameTokens) {
    const SeatedGame game = start_game("two_foxes");
    play_all(game, {"c7-c6", "c4-c5", "c6xc4", "a4-a5"});
    ASSERT_TRUE(IsOk(client().offer_draw(game.id, game.geese_token)));
    const GameSnapshot before = snapshot(game.id);

    restart_server();
    const GameSnapshot after = snapshot(game.id);
    EXPECT_TRUE(after == before) << "before " << before.debug_string() << "\nafter  "
                                 << after.debug_string();
    EXPECT_EQ(after.get.game().draw_offered_by(), v1::SIDE_GEESE);

    // Both tokens still act, each for its own side only.
    EXPECT_TRUE(IsError(client().move(game.id, "e7-e6", game.geese_token),
                        grpc::StatusCode::FAILED_PRECONDITION, "NOT_YOUR_TURN"));
    const Reply<v1::GetGameResponse> current = client().get(game.id);
    ASSERT_TRUE(IsOk(current));
    ASSERT_FALSE(current->game().legal_moves().empty());
    const std::string fox_move = current->game().legal_moves(0);
    const Reply<v1::MakeMoveResponse> moved = client().move(game.id, fox_move, game.fox_token);
    ASSERT_TRUE(IsOk(moved));
    EXPECT_EQ(moved->move().ply(), 5);
    // Moving declined the geese's offer, as it would have without the restart.
    EXPECT_EQ(moved->game().draw_offered_by(), v1::SIDE_UNSPECIFIED);
    EXPECT_EQ(to_vector(moved->game().legal_moves()),
              engine_legal_moves("two_foxes", {}, moved->game().position()));
    ASSERT_FALSE(moved->game().legal_moves().empty());
    EXPECT_TRUE(IsOk(client().move(game.id, moved->game().legal_moves(0), game.geese_token)));
    const Reply<v1::ListMovesResponse> moves = client().list_moves(game.id);
    ASSERT_TRUE(IsOk(moves));
    EXPECT_EQ(moves->moves_size(), 6);
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(moves->moves(i).SerializeAsString(), before.moves.moves(i).SerializeAsString());
    }
    ASSERT_TRUE(IsOk(client().resign(game.id, game.geese_token)));
}

TEST_F(Restart, AWaitingGameIsJoinedWithItsInviteCodeAfterARestart) {
    const v1::CreateGameResponse created = create_game(create_request("big_cross"));
    restart_server();
    const std::string& id = created.game().game_id();
    EXPECT_TRUE(
        IsError(client().join(id, "wrong"), grpc::StatusCode::PERMISSION_DENIED, "INVITE_INVALID"));
    const Reply<v1::JoinGameResponse> joined = client().join(id, created.invite_code());
    ASSERT_TRUE(IsOk(joined));
    EXPECT_EQ(joined->seat(), v1::SEAT_GEESE);
    EXPECT_TRUE(IsOk(client().move(id, "e7-e6", created.seat_token())));
}

TEST_F(Restart, ARetriedRequestIdGetsTheFirstAnswerFromTheNewServer) {
    const SeatedGame game = start_game();
    v1::MakeMoveRequest request;
    request.set_game_id(game.id);
    request.set_move("d4-d5");
    request.set_request_id("before-the-restart");
    const Reply<v1::MakeMoveResponse> first = client().move(request, game.fox_token);
    ASSERT_TRUE(IsOk(first));
    restart_server();
    const Reply<v1::MakeMoveResponse> retried = client().move(request, game.fox_token);
    ASSERT_TRUE(IsOk(retried));
    EXPECT_EQ(retried->SerializeAsString(), first->SerializeAsString());
    const Reply<v1::ListMovesResponse> moves = client().list_moves(game.id);
    ASSERT_TRUE(IsOk(moves));
    EXPECT_EQ(moves->moves_size(), 1);
}

}  // namespace
}  // namespace foxgeese::test
