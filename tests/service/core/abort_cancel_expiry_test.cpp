// Games that end with no result over gRPC: AbortGame until both sides have
// made their first move, CancelGame of an open game by its creator, and open
// games that expire when nobody joins. Refused calls change nothing.
#include <chrono>
#include <string>

#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;

using Abort = MemoryServiceTest;
using Cancel = MemoryServiceTest;
using Expiry = MemoryServiceTest;

void expect_no_result(const v1::Game& g, v1::EndReason reason) {
    EXPECT_EQ(g.state(), v1::GAME_STATE_FINISHED);
    EXPECT_EQ(g.result(), v1::GAME_RESULT_NONE);
    EXPECT_EQ(g.end_reason(), reason);
    EXPECT_TRUE(g.legal_moves().empty());
}

TEST_F(Abort, EitherSideMayAbortBeforeBothHaveMoved) {
    // Before any move, by the side not to move.
    const SeatedGame a = start_game();
    WatchStream watch(server().grpc_port(), a.id);
    // The snapshot first: a watch that opened after the abort would see the
    // ended game in its snapshot, with no GameEnded event to follow.
    const auto snapshot = watch.next();
    ASSERT_TRUE(snapshot && snapshot->has_snapshot()) << watch.describe_received();
    const v1::Side to_move = a.game.side_to_move();
    const std::string& other = to_move == v1::SIDE_FOX ? a.geese_token : a.fox_token;
    const Reply<v1::AbortGameResponse> aborted = client().abort(a.id, other);
    ASSERT_TRUE(IsOk(aborted));
    expect_no_result(aborted->game(), v1::END_REASON_ABORTED);
    const auto ended =
        watch.wait_for_event([](const v1::WatchGameResponse& e) { return e.has_game_ended(); });
    ASSERT_TRUE(ended) << watch.describe_received();
    EXPECT_EQ(ended->game_ended().game().end_reason(), v1::END_REASON_ABORTED);

    // After one move, by the side that moved.
    const SeatedGame b = start_game();
    const Reply<v1::MakeMoveResponse> first = play_any(b);
    ASSERT_TRUE(IsOk(first));
    const std::string& mover = first->move().side() == v1::SIDE_FOX ? b.fox_token : b.geese_token;
    const Reply<v1::AbortGameResponse> late_but_allowed = client().abort(b.id, mover);
    ASSERT_TRUE(IsOk(late_but_allowed));
    expect_no_result(late_but_allowed->game(), v1::END_REASON_ABORTED);
}

TEST_F(Abort, IsRefusedOnceBothSidesHaveMoved) {
    const SeatedGame game = start_game();
    ASSERT_TRUE(IsOk(play_any(game)));
    ASSERT_TRUE(IsOk(play_any(game)));
    for (const std::string& token : {game.fox_token, game.geese_token}) {
        EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::FAILED_PRECONDITION,
                                     "ABORT_TOO_LATE",
                                     [&] { return client().abort(game.id, token).status; }));
    }
}

TEST_F(Abort, ErrorsOfTheCall) {
    const SeatedGame game = start_game();
    EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::UNAUTHENTICATED, "TOKEN_REQUIRED",
                                 [&] { return client().abort(game.id, Auth::none()).status; }));
    EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::UNAUTHENTICATED, "TOKEN_INVALID",
                                 [&] { return client().abort(game.id, kUnknownToken).status; }));
    EXPECT_TRUE(IsError(client().abort(kUnknownGameId, game.fox_token), grpc::StatusCode::NOT_FOUND,
                        "GAME_NOT_FOUND"));
    EXPECT_TRUE(IsError(client().abort("not-a-game", game.fox_token),
                        grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    // A game nobody joined is cancelled, not aborted.
    const v1::CreateGameResponse open = create_game(create_request("standard"));
    EXPECT_TRUE(RejectsUnchanged(
        open.game().game_id(), grpc::StatusCode::FAILED_PRECONDITION, "GAME_NOT_STARTED",
        [&] { return client().abort(open.game().game_id(), open.seat_token()).status; }));
    // A finished game.
    ASSERT_TRUE(IsOk(client().resign(game.id, game.fox_token)));
    EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::FAILED_PRECONDITION, "GAME_OVER",
                                 [&] { return client().abort(game.id, game.geese_token).status; }));
}

TEST_F(Cancel, TheCreatorTakesAnOpenGameOffTheLobby) {
    const v1::CreateGameResponse open =
        create_game(create_request("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PUBLIC));
    const std::string id = open.game().game_id();
    const Reply<v1::CancelGameResponse> cancelled = client().cancel(id, open.seat_token());
    ASSERT_TRUE(IsOk(cancelled));
    expect_no_result(cancelled->game(), v1::END_REASON_CANCELLED);
    EXPECT_FALSE(cancelled->game().has_expire_time());

    // Nobody can join it any more, and the lobby no longer lists it.
    EXPECT_TRUE(RejectsUnchanged(id, grpc::StatusCode::FAILED_PRECONDITION, "GAME_CANCELLED",
                                 [&] { return client().join(id, open.invite_code()).status; }));
    v1::ListGamesRequest lobby;
    lobby.set_filter(v1::GAME_LIST_FILTER_OPEN);
    lobby.set_page_size(100);
    const Reply<v1::ListGamesResponse> listed = client().list_games(lobby);
    ASSERT_TRUE(IsOk(listed));
    for (const v1::Game& g : listed->games())
        EXPECT_NE(g.game_id(), id);
}

TEST_F(Cancel, IsRefusedOnceAnOpponentJoined) {
    const SeatedGame game = start_game();
    EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::FAILED_PRECONDITION, "GAME_STARTED",
                                 [&] { return client().cancel(game.id, game.fox_token).status; }));
    EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::UNAUTHENTICATED, "TOKEN_INVALID",
                                 [&] { return client().cancel(game.id, kUnknownToken).status; }));
}

TEST_F(Expiry, AnOpenGameExpiresAfterItsTimeAndCannotBeJoined) {
    const v1::CreateGameResponse open =
        create_game(create_request("standard", v1::SEAT_CHOICE_GEESE, v1::VISIBILITY_PUBLIC));
    const std::string id = open.game().game_id();
    ASSERT_TRUE(open.game().has_expire_time());
    EXPECT_EQ(micros(open.game().expire_time()) - micros(open.game().create_time()),
              24LL * 3600 * 1'000'000);

    clock().advance(23h);
    const Reply<v1::GetGameResponse> waiting = client().get(id);
    ASSERT_TRUE(IsOk(waiting));
    EXPECT_EQ(waiting->game().state(), v1::GAME_STATE_WAITING);

    clock().advance(2h);
    const Reply<v1::JoinGameResponse> late = client().join(id, open.invite_code());
    EXPECT_TRUE(IsError(late, grpc::StatusCode::FAILED_PRECONDITION, "GAME_EXPIRED"));
    const Reply<v1::GetGameResponse> expired = client().get(id);
    ASSERT_TRUE(IsOk(expired));
    expect_no_result(expired->game(), v1::END_REASON_EXPIRED);
    EXPECT_FALSE(expired->game().has_expire_time());
    // Its creator's token can do nothing more with it either.
    EXPECT_TRUE(IsError(client().cancel(id, open.seat_token()),
                        grpc::StatusCode::FAILED_PRECONDITION, "GAME_OVER"));
}

TEST_F(Expiry, AJoinedGameDoesNotExpire) {
    const SeatedGame game = start_game();
    EXPECT_FALSE(game.game.has_expire_time());
    clock().advance(48h);
    const Reply<v1::GetGameResponse> got = client().get(game.id);
    ASSERT_TRUE(IsOk(got));
    EXPECT_EQ(got->game().state(), v1::GAME_STATE_ACTIVE);
}

}  // namespace
}  // namespace foxgeese::test
