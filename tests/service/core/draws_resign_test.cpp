// ResignGame, OfferDraw and RespondDraw over gRPC: who wins a resignation,
// how offers stand, are answered, cross and are declined by moving, and the
// errors of the three calls. Rejected calls must leave the game unchanged.
#include <functional>
#include <string>
#include <vector>

#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using Resign = MemoryServiceTest;
using DrawOffer = MemoryServiceTest;
using SeatActions = MemoryServiceTest;

// The three calls that act for a seat but take no move, to check their
// shared errors alike.
struct SeatAction {
    const char* name;
    std::function<grpc::Status(ServiceClient&, const std::string&, const Auth&)> call;
};

std::vector<SeatAction> seat_actions() {
    return {
        {"ResignGame", [](ServiceClient& c, const std::string& id,
                          const Auth& a) { return c.resign(id, a).status; }},
        {"OfferDraw", [](ServiceClient& c, const std::string& id,
                         const Auth& a) { return c.offer_draw(id, a).status; }},
        {"RespondDraw accept", [](ServiceClient& c, const std::string& id,
                                  const Auth& a) { return c.respond_draw(id, true, a).status; }},
        {"RespondDraw decline", [](ServiceClient& c, const std::string& id,
                                   const Auth& a) { return c.respond_draw(id, false, a).status; }},
    };
}

void expect_finished(const v1::Game& g, v1::GameResult result, v1::EndReason reason) {
    EXPECT_EQ(g.state(), v1::GAME_STATE_FINISHED);
    EXPECT_EQ(g.result(), result);
    EXPECT_EQ(g.end_reason(), reason);
    EXPECT_EQ(g.draw_offered_by(), v1::SIDE_UNSPECIFIED);
    EXPECT_TRUE(g.legal_moves().empty());
}

TEST_F(Resign, TheResigningSideLosesOnEitherSidesTurn) {
    const SeatedGame a = start_game();
    const Reply<v1::ResignGameResponse> fox = client().resign(a.id, a.fox_token);
    ASSERT_TRUE(IsOk(fox));
    expect_finished(fox->game(), v1::GAME_RESULT_GEESE_WIN, v1::END_REASON_RESIGNATION);
    EXPECT_GT(micros(fox->game().update_time()), micros(a.game.update_time()));

    // The geese resign while it is the fox's turn.
    const SeatedGame b = start_game("big_cross");
    const Reply<v1::ResignGameResponse> geese = client().resign(b.id, b.geese_token);
    ASSERT_TRUE(IsOk(geese));
    expect_finished(geese->game(), v1::GAME_RESULT_FOX_SIDE_WINS, v1::END_REASON_RESIGNATION);

    // The finished game reads back as returned; its moves are untouched.
    const Reply<v1::GetGameResponse> got = client().get(b.id);
    ASSERT_TRUE(IsOk(got));
    EXPECT_EQ(got->game().SerializeAsString(), geese->game().SerializeAsString());
    const Reply<v1::ListMovesResponse> moves = client().list_moves(b.id);
    ASSERT_TRUE(IsOk(moves));
    EXPECT_EQ(moves->moves_size(), 0);
}

TEST_F(Resign, ABothSeatsTokenResignsForTheSideToMove) {
    const v1::CreateGameResponse first =
        create_game(create_request("standard", v1::SEAT_CHOICE_BOTH));
    const Reply<v1::ResignGameResponse> at_start =
        client().resign(first.game().game_id(), first.seat_token());
    ASSERT_TRUE(IsOk(at_start));
    EXPECT_EQ(at_start->game().result(), v1::GAME_RESULT_GEESE_WIN);

    const v1::CreateGameResponse second =
        create_game(create_request("standard", v1::SEAT_CHOICE_BOTH));
    ASSERT_TRUE(IsOk(client().move(second.game().game_id(), "d4-d5", second.seat_token())));
    const Reply<v1::ResignGameResponse> geese_turn =
        client().resign(second.game().game_id(), second.seat_token());
    ASSERT_TRUE(IsOk(geese_turn));
    EXPECT_EQ(geese_turn->game().result(), v1::GAME_RESULT_FOX_SIDE_WINS);
}

TEST_F(Resign, ResigningWithAnOfferPendingLeavesNoOffer) {
    const SeatedGame game = start_game();
    ASSERT_TRUE(IsOk(client().offer_draw(game.id, game.geese_token)));
    const Reply<v1::ResignGameResponse> resigned = client().resign(game.id, game.fox_token);
    ASSERT_TRUE(IsOk(resigned));
    expect_finished(resigned->game(), v1::GAME_RESULT_GEESE_WIN, v1::END_REASON_RESIGNATION);
}

TEST_F(DrawOffer, AnOfferStandsUntilAcceptedAndTheGameIsDrawn) {
    const SeatedGame game = start_game();
    const Reply<v1::OfferDrawResponse> offered = client().offer_draw(game.id, game.fox_token);
    ASSERT_TRUE(IsOk(offered));
    EXPECT_EQ(offered->game().draw_offered_by(), v1::SIDE_FOX);
    EXPECT_EQ(offered->game().state(), v1::GAME_STATE_ACTIVE);
    EXPECT_FALSE(offered->game().legal_moves().empty());
    const Reply<v1::GetGameResponse> got = client().get(game.id);
    ASSERT_TRUE(IsOk(got));
    EXPECT_EQ(got->game().SerializeAsString(), offered->game().SerializeAsString());

    const Reply<v1::RespondDrawResponse> accepted =
        client().respond_draw(game.id, true, game.geese_token);
    ASSERT_TRUE(IsOk(accepted));
    expect_finished(accepted->game(), v1::GAME_RESULT_DRAW, v1::END_REASON_DRAW_AGREED);
}

TEST_F(DrawOffer, OfferingAgainWhileYourOfferStandsChangesNothing) {
    const SeatedGame game = start_game();
    ASSERT_TRUE(IsOk(client().offer_draw(game.id, game.geese_token)));
    const GameSnapshot before = snapshot(game.id);
    const Reply<v1::OfferDrawResponse> again = client().offer_draw(game.id, game.geese_token);
    ASSERT_TRUE(IsOk(again));
    EXPECT_EQ(again->game().draw_offered_by(), v1::SIDE_GEESE);
    const GameSnapshot after = snapshot(game.id);
    EXPECT_TRUE(after == before) << "before " << before.debug_string() << "\nafter  "
                                 << after.debug_string();
}

TEST_F(DrawOffer, DecliningWithdrawsTheOfferAndPlayGoesOn) {
    const SeatedGame game = start_game();
    ASSERT_TRUE(IsOk(client().offer_draw(game.id, game.fox_token)));
    const Reply<v1::RespondDrawResponse> declined =
        client().respond_draw(game.id, false, game.geese_token);
    ASSERT_TRUE(IsOk(declined));
    EXPECT_EQ(declined->game().state(), v1::GAME_STATE_ACTIVE);
    EXPECT_EQ(declined->game().draw_offered_by(), v1::SIDE_UNSPECIFIED);
    EXPECT_EQ(declined->game().result(), v1::GAME_RESULT_UNSPECIFIED);
    EXPECT_TRUE(IsOk(client().move(game.id, "d4-d5", game.fox_token)));
    // Declined means gone: there is nothing left to answer.
    EXPECT_TRUE(IsError(client().respond_draw(game.id, true, game.geese_token),
                        grpc::StatusCode::FAILED_PRECONDITION, "NO_DRAW_OFFER"));
}

TEST_F(DrawOffer, OfferingWhileTheOtherSidesOfferIsPendingAcceptsIt) {
    const SeatedGame game = start_game();
    ASSERT_TRUE(IsOk(client().offer_draw(game.id, game.geese_token)));
    const Reply<v1::OfferDrawResponse> crossed = client().offer_draw(game.id, game.fox_token);
    ASSERT_TRUE(IsOk(crossed));
    expect_finished(crossed->game(), v1::GAME_RESULT_DRAW, v1::END_REASON_DRAW_AGREED);
}

TEST_F(DrawOffer, MovingDeclinesTheOtherSidesOfferButNotYourOwn) {
    const SeatedGame game = start_game();
    // The geese offer on the fox's turn; the fox answers by moving.
    ASSERT_TRUE(IsOk(client().offer_draw(game.id, game.geese_token)));
    const v1::MakeMoveResponse fox_moved = play(game, "d4-d5");
    EXPECT_EQ(fox_moved.game().draw_offered_by(), v1::SIDE_UNSPECIFIED);

    // The geese offer on their own turn and move: their offer stands...
    ASSERT_TRUE(IsOk(client().offer_draw(game.id, game.geese_token)));
    const v1::MakeMoveResponse geese_moved = play(game, "c3-c4");
    EXPECT_EQ(geese_moved.game().draw_offered_by(), v1::SIDE_GEESE);
    // ...until the fox moves.
    const v1::MakeMoveResponse fox_again = play(game, "d5-d6");
    EXPECT_EQ(fox_again.game().draw_offered_by(), v1::SIDE_UNSPECIFIED);
    const Reply<v1::GetGameResponse> got = client().get(game.id);
    ASSERT_TRUE(IsOk(got));
    EXPECT_EQ(got->game().draw_offered_by(), v1::SIDE_UNSPECIFIED);
}

TEST_F(DrawOffer, ABothSeatsTokenOffersForTheSideToMoveAndAnswersForTheOther) {
    const v1::CreateGameResponse created =
        create_game(create_request("standard", v1::SEAT_CHOICE_BOTH));
    const std::string& id = created.game().game_id();
    const Reply<v1::OfferDrawResponse> offered = client().offer_draw(id, created.seat_token());
    ASSERT_TRUE(IsOk(offered));
    EXPECT_EQ(offered->game().draw_offered_by(), v1::SIDE_FOX);
    const Reply<v1::RespondDrawResponse> accepted =
        client().respond_draw(id, true, created.seat_token());
    ASSERT_TRUE(IsOk(accepted));
    expect_finished(accepted->game(), v1::GAME_RESULT_DRAW, v1::END_REASON_DRAW_AGREED);
}

// ---- errors ----

TEST_F(DrawOffer, AnsweringWithNoOfferPendingIsNoDrawOffer) {
    const SeatedGame game = start_game();
    for (const bool accept : {true, false}) {
        for (const std::string& token : {game.fox_token, game.geese_token}) {
            EXPECT_TRUE(RejectsUnchanged(
                game.id, grpc::StatusCode::FAILED_PRECONDITION, "NO_DRAW_OFFER",
                [&] { return client().respond_draw(game.id, accept, token).status; }));
        }
    }
}

TEST_F(DrawOffer, AnsweringYourOwnOfferIsWrongSeat) {
    const SeatedGame game = start_game();
    ASSERT_TRUE(IsOk(client().offer_draw(game.id, game.fox_token)));
    for (const bool accept : {true, false}) {
        EXPECT_TRUE(RejectsUnchanged(
            game.id, grpc::StatusCode::PERMISSION_DENIED, "WRONG_SEAT",
            [&] { return client().respond_draw(game.id, accept, game.fox_token).status; }))
            << "accept " << accept;
    }
}

TEST_F(SeatActions, MalformedGameIdsAreInvalidArgument) {
    const SeatedGame game = start_game();
    for (const SeatAction& action : seat_actions()) {
        for (const std::string& id : {std::string(), std::string("game-1"), game.id + "x"}) {
            grpc::Status status;
            EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::INVALID_ARGUMENT,
                                         "INVALID_ARGUMENT",
                                         [&] {
                                             status = action.call(client(), id, game.fox_token);
                                             return status;
                                         }))
                << action.name << " '" << id << "'";
            EXPECT_EQ(bad_request_field(status), "game_id") << action.name;
        }
    }
}

TEST_F(SeatActions, MissingTokenIsTokenRequired) {
    const SeatedGame game = start_game();
    ASSERT_TRUE(IsOk(client().offer_draw(game.id, game.fox_token)));
    for (const SeatAction& action : seat_actions()) {
        EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::UNAUTHENTICATED, "TOKEN_REQUIRED",
                                     [&] { return action.call(client(), game.id, Auth::none()); }))
            << action.name;
    }
}

TEST_F(SeatActions, UnknownGameIsGameNotFound) {
    for (const SeatAction& action : seat_actions()) {
        const grpc::Status status = action.call(client(), kUnknownGameId, kUnknownToken);
        EXPECT_TRUE(IsError(status, grpc::StatusCode::NOT_FOUND, "GAME_NOT_FOUND")) << action.name;
        const auto info = error_info(status);
        ASSERT_TRUE(info.has_value()) << action.name;
        EXPECT_EQ(info->metadata().count("game_id") ? info->metadata().at("game_id") : "",
                  kUnknownGameId);
    }
}

TEST_F(SeatActions, TokensThatHoldNoSeatHereAreTokenInvalid) {
    const SeatedGame game = start_game();
    const SeatedGame other = start_game();
    ASSERT_TRUE(IsOk(client().offer_draw(game.id, game.fox_token)));
    for (const SeatAction& action : seat_actions()) {
        for (const Auth& auth : {Auth(other.geese_token), Auth(kUnknownToken),
                                 Auth::header("Basic xyz"), Auth::header("Bearer a b c")}) {
            EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::UNAUTHENTICATED,
                                         "TOKEN_INVALID",
                                         [&] { return action.call(client(), game.id, auth); }))
                << action.name << " with " << auth.value().value_or("");
        }
    }
}

TEST_F(SeatActions, BeforeTheOpponentJoinsTheyAreGameNotStarted) {
    const v1::CreateGameResponse waiting = create_game(create_request("big_cross"));
    for (const SeatAction& action : seat_actions()) {
        EXPECT_TRUE(RejectsUnchanged(
            waiting.game().game_id(), grpc::StatusCode::FAILED_PRECONDITION, "GAME_NOT_STARTED",
            [&] { return action.call(client(), waiting.game().game_id(), waiting.seat_token()); }))
            << action.name;
    }
}

TEST_F(SeatActions, AfterTheEndTheyAreGameOver) {
    // Ended by a draw agreement and by resignation.
    const SeatedGame drawn = start_game();
    ASSERT_TRUE(IsOk(client().offer_draw(drawn.id, drawn.fox_token)));
    ASSERT_TRUE(IsOk(client().respond_draw(drawn.id, true, drawn.geese_token)));
    const SeatedGame resigned = start_game("two_foxes");
    ASSERT_TRUE(IsOk(client().resign(resigned.id, resigned.geese_token)));
    for (const SeatedGame* game : {&drawn, &resigned}) {
        for (const SeatAction& action : seat_actions()) {
            for (const std::string& token : {game->fox_token, game->geese_token}) {
                EXPECT_TRUE(
                    RejectsUnchanged(game->id, grpc::StatusCode::FAILED_PRECONDITION, "GAME_OVER",
                                     [&] { return action.call(client(), game->id, token); }))
                    << action.name;
            }
        }
    }
}

}  // namespace
}  // namespace foxgeese::test
