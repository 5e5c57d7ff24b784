// MakeMove over gRPC: what an accepted move stores and returns, the moves
// that end a game, and every error MakeMove documents, in its documented
// order. Every rejected move must leave the game exactly as it was.
#include <string>
#include <vector>

#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using MakeMove = MemoryServiceTest;

v1::MakeMoveRequest move_request(const std::string& game_id, const std::string& notation) {
    v1::MakeMoveRequest request;
    request.set_game_id(game_id);
    request.set_move(notation);
    return request;
}

std::string metadata(const grpc::Status& status, const std::string& key) {
    const auto info = error_info(status);
    if (!info || !info->metadata().count(key)) return "(absent)";
    return info->metadata().at(key);
}

TEST_F(MakeMove, AStepIsStoredAndReturnedWithTheGameAfterIt) {
    const SeatedGame game = start_game();
    const Reply<v1::MakeMoveResponse> reply = client().move(game.id, "d4-d5", game.fox_token);
    ASSERT_TRUE(IsOk(reply));
    const v1::Move& m = reply->move();
    EXPECT_EQ(m.ply(), 1);
    EXPECT_EQ(m.notation(), "d4-d5");
    EXPECT_EQ(m.side(), v1::SIDE_FOX);
    EXPECT_EQ(m.from(), "d4");
    EXPECT_EQ(m.to(), "d5");
    EXPECT_TRUE(m.captured().empty());
    EXPECT_EQ(m.position(), "3/3/3F3/7/GGGGGGG/GGG/GGG g 1 1");
    EXPECT_EQ(m.state(), v1::GAME_STATE_ACTIVE);
    EXPECT_EQ(m.result(), v1::GAME_RESULT_UNSPECIFIED);
    EXPECT_EQ(m.end_reason(), v1::END_REASON_UNSPECIFIED);
    EXPECT_GT(micros(m.time()), 0);

    const v1::Game& g = reply->game();
    EXPECT_EQ(g.state(), v1::GAME_STATE_ACTIVE);
    EXPECT_EQ(g.position(), m.position());
    EXPECT_EQ(g.side_to_move(), v1::SIDE_GEESE);
    EXPECT_EQ(g.ply(), 1);
    EXPECT_EQ(g.quiet_plies(), 1);
    EXPECT_EQ(g.geese_count(), 13);
    EXPECT_EQ(g.geese_captured(), 0);
    EXPECT_EQ(g.last_move().SerializeAsString(), m.SerializeAsString());
    EXPECT_EQ(to_vector(g.legal_moves()),
              engine_legal_moves("standard", g.options(), m.position()));
    // The move is the last change to the game.
    EXPECT_EQ(micros(g.update_time()), micros(m.time()));
    EXPECT_GE(micros(g.update_time()), micros(game.game.update_time()));

    // GetGame and ListMoves read back exactly what MakeMove returned.
    const Reply<v1::GetGameResponse> got = client().get(game.id);
    ASSERT_TRUE(IsOk(got));
    EXPECT_EQ(got->game().SerializeAsString(), g.SerializeAsString())
        << "returned " << g.ShortDebugString() << "\nread     " << got->game().ShortDebugString();
    const Reply<v1::ListMovesResponse> moves = client().list_moves(game.id);
    ASSERT_TRUE(IsOk(moves));
    ASSERT_EQ(moves->moves_size(), 1);
    EXPECT_EQ(moves->moves(0).SerializeAsString(), m.SerializeAsString());
}

TEST_F(MakeMove, NotationIsAcceptedInAnyCaseWithSpacesAndStoredCanonically) {
    const SeatedGame game = start_game();
    const Reply<v1::MakeMoveResponse> reply = client().move(game.id, "  D4-D5 ", game.fox_token);
    ASSERT_TRUE(IsOk(reply));
    EXPECT_EQ(reply->move().notation(), "d4-d5");
}

TEST_F(MakeMove, AJumpSequenceCapturesEveryGooseItJumps) {
    // Fox d5 over d4 and d2; four other geese stay.
    const SeatedGame game = start_game("standard", {}, "3/3/3F3/3G3/GG3GG/1G1/3 f 0 20");
    const Reply<v1::MakeMoveResponse> reply = client().move(game.id, "d5xd3xd1", game.fox_token);
    ASSERT_TRUE(IsOk(reply));
    const v1::Move& m = reply->move();
    EXPECT_EQ(m.notation(), "d5xd3xd1");
    EXPECT_EQ(m.from(), "d5");
    EXPECT_EQ(m.to(), "d1");
    EXPECT_EQ(to_vector(m.captured()), (std::vector<std::string>{"d4", "d2"}));
    EXPECT_EQ(m.position(), "3/3/7/7/GG3GG/3/1F1 g 0 21");
    EXPECT_EQ(reply->game().geese_count(), 4);
    EXPECT_EQ(reply->game().geese_captured(), 2);
    EXPECT_EQ(reply->game().quiet_plies(), 0);
    EXPECT_EQ(reply->game().state(), v1::GAME_STATE_ACTIVE);
}

TEST_F(MakeMove, AFoxMayStopAfterAnyJumpWhereCaptureIsOptional) {
    const SeatedGame game = start_game("standard", {}, "3/3/3F3/3G3/GG3GG/1G1/3 f 0 20");
    const Reply<v1::MakeMoveResponse> reply = client().move(game.id, "d5xd3", game.fox_token);
    ASSERT_TRUE(IsOk(reply));
    EXPECT_EQ(to_vector(reply->move().captured()), (std::vector<std::string>{"d4"}));
    EXPECT_EQ(reply->game().geese_count(), 5);
}

TEST_F(MakeMove, CapturingBelowFourGeeseEndsTheGameForTheFox) {
    const SeatedGame game = start_game("standard", {}, "3/3/3F3/3G3/GG4G/3/3 f 0 20");
    const Reply<v1::MakeMoveResponse> reply = client().move(game.id, "d5xd3", game.fox_token);
    ASSERT_TRUE(IsOk(reply));
    EXPECT_EQ(reply->move().state(), v1::GAME_STATE_FINISHED);
    EXPECT_EQ(reply->move().result(), v1::GAME_RESULT_FOX_SIDE_WINS);
    EXPECT_EQ(reply->move().end_reason(), v1::END_REASON_GEESE_BELOW_THRESHOLD);
    const v1::Game& g = reply->game();
    EXPECT_EQ(g.state(), v1::GAME_STATE_FINISHED);
    EXPECT_EQ(g.result(), v1::GAME_RESULT_FOX_SIDE_WINS);
    EXPECT_EQ(g.end_reason(), v1::END_REASON_GEESE_BELOW_THRESHOLD);
    EXPECT_TRUE(g.legal_moves().empty());
    // The side that would move next is still reported.
    EXPECT_EQ(g.side_to_move(), v1::SIDE_GEESE);
}

TEST_F(MakeMove, TrappingTheFoxWinsForTheGeese) {
    // c5-d6 closes the last gap around the fox on d7.
    const SeatedGame game = start_game("standard", {}, "GFG/G1G/1GGG1G1/7/7/3/3 g 0 40");
    const Reply<v1::MakeMoveResponse> reply = client().move(game.id, "c5-d6", game.geese_token);
    ASSERT_TRUE(IsOk(reply));
    EXPECT_EQ(reply->game().state(), v1::GAME_STATE_FINISHED);
    EXPECT_EQ(reply->game().result(), v1::GAME_RESULT_GEESE_WIN);
    EXPECT_EQ(reply->game().end_reason(), v1::END_REASON_NO_LEGAL_MOVE);
    EXPECT_EQ(reply->move().end_reason(), v1::END_REASON_NO_LEGAL_MOVE);
}

TEST_F(MakeMove, ExpectedPlyThatMatchesLetsTheMoveThrough) {
    const SeatedGame game = start_game();
    v1::MakeMoveRequest request = move_request(game.id, "d4-d5");
    request.set_expected_ply(0);
    ASSERT_TRUE(IsOk(client().move(request, game.fox_token)));
    request = move_request(game.id, "c3-c4");
    request.set_expected_ply(1);
    const Reply<v1::MakeMoveResponse> reply = client().move(request, game.geese_token);
    ASSERT_TRUE(IsOk(reply));
    EXPECT_EQ(reply->game().ply(), 2);
}

// ---- errors ----

TEST_F(MakeMove, MalformedRequestsAreInvalidArgument) {
    const SeatedGame game = start_game();
    struct Case {
        const char* what;
        v1::MakeMoveRequest request;
        const char* field;
    };
    std::vector<Case> cases;
    cases.push_back({"missing game_id", move_request("", "d4-d5"), "game_id"});
    cases.push_back({"malformed game_id", move_request("1234", "d4-d5"), "game_id"});
    cases.push_back({"missing move", move_request(game.id, ""), "move"});
    cases.push_back(
        {"move of 129 characters", move_request(game.id, std::string(129, 'd')), "move"});
    {
        v1::MakeMoveRequest r = move_request(game.id, "d4-d5");
        r.set_expected_ply(-1);
        cases.push_back({"negative expected_ply", r, "expected_ply"});
    }
    {
        v1::MakeMoveRequest r = move_request(game.id, "d4-d5");
        r.set_request_id(std::string(65, 'x'));
        cases.push_back({"request_id of 65 characters", r, "request_id"});
    }
    for (const Case& c : cases) {
        grpc::Status status;
        EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::INVALID_ARGUMENT,
                                     "INVALID_ARGUMENT",
                                     [&] {
                                         status = client().move(c.request, game.fox_token).status;
                                         return status;
                                     }))
            << c.what;
        EXPECT_EQ(bad_request_field(status), c.field) << c.what;
    }
}

TEST_F(MakeMove, MissingTokenIsTokenRequired) {
    const SeatedGame game = start_game();
    EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::UNAUTHENTICATED, "TOKEN_REQUIRED", [&] {
        return client().move(game.id, "d4-d5", Auth::none()).status;
    }));
}

TEST_F(MakeMove, UnknownGameIsGameNotFound) {
    const Reply<v1::MakeMoveResponse> reply = client().move(kUnknownGameId, "d4-d5", kUnknownToken);
    EXPECT_TRUE(IsError(reply, grpc::StatusCode::NOT_FOUND, "GAME_NOT_FOUND"));
    EXPECT_EQ(metadata(reply.status, "game_id"), kUnknownGameId);
}

TEST_F(MakeMove, TokensThatHoldNoSeatHereAreTokenInvalid) {
    const SeatedGame game = start_game();
    const SeatedGame other = start_game();
    for (const Auth& auth :
         {Auth(other.fox_token), Auth(other.geese_token), Auth(kUnknownToken),
          Auth(game.invite_code), Auth::header("Basic xyz"), Auth::header("Bearer !!not-a-token!!"),
          Auth::header("Bearer"), Auth::header(game.fox_token)}) {
        EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::UNAUTHENTICATED, "TOKEN_INVALID",
                                     [&] { return client().move(game.id, "d4-d5", auth).status; }))
            << "authorization: " << auth.value().value_or("(none)");
    }
}

TEST_F(MakeMove, TextThatIsNoMoveOnThisBoardIsInvalidNotation) {
    const SeatedGame game = start_game();
    for (const std::string text : {"hello", "d4", "d4-", "d4-d9", "a1-a2", "d4-d5-d6", "d4xd6-f6",
                                   "z4-d5", "4d-5d", "d4 d5"}) {
        grpc::Status status;
        EXPECT_TRUE(
            RejectsUnchanged(game.id, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_NOTATION",
                             [&] {
                                 status = client().move(game.id, text, game.fox_token).status;
                                 return status;
                             }))
            << "'" << text << "'";
        EXPECT_EQ(metadata(status, "move"), text);
        EXPECT_EQ(bad_request_field(status), "move");
    }
}

TEST_F(MakeMove, MovesBeforeTheOpponentJoinsAreGameNotStarted) {
    for (const v1::SeatChoice seat : {v1::SEAT_CHOICE_FOX, v1::SEAT_CHOICE_GEESE}) {
        const v1::CreateGameResponse created = create_game(create_request("standard", seat));
        const std::string& id = created.game().game_id();
        const std::string notation = seat == v1::SEAT_CHOICE_FOX ? "d4-d5" : "c3-c4";
        EXPECT_TRUE(RejectsUnchanged(
            id, grpc::StatusCode::FAILED_PRECONDITION, "GAME_NOT_STARTED",
            [&] { return client().move(id, notation, created.seat_token()).status; }));
    }
}

TEST_F(MakeMove, MovesAfterTheEndAreGameOver) {
    const SeatedGame game = start_game();
    ASSERT_TRUE(IsOk(client().resign(game.id, game.geese_token)));
    EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::FAILED_PRECONDITION, "GAME_OVER", [&] {
        return client().move(game.id, "d4-d5", game.fox_token).status;
    }));
    // Also after a game ended by a move.
    const SeatedGame won = start_game("standard", {}, "3/3/3F3/3G3/GG4G/3/3 f 0 20");
    play(won, "d5xd3");
    EXPECT_TRUE(RejectsUnchanged(won.id, grpc::StatusCode::FAILED_PRECONDITION, "GAME_OVER", [&] {
        return client().move(won.id, "a3-a4", won.geese_token).status;
    }));
}

TEST_F(MakeMove, AStaleExpectedPlyIsPlyMismatchWithTheCurrentPly) {
    const SeatedGame game = start_game();
    v1::MakeMoveRequest request = move_request(game.id, "d4-d5");
    request.set_expected_ply(3);
    grpc::Status status;
    EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::ABORTED, "PLY_MISMATCH", [&] {
        status = client().move(request, game.fox_token).status;
        return status;
    }));
    EXPECT_EQ(metadata(status, "current_ply"), "0");

    play(game, "d4-d5");
    request = move_request(game.id, "c3-c4");
    request.set_expected_ply(0);
    EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::ABORTED, "PLY_MISMATCH", [&] {
        status = client().move(request, game.geese_token).status;
        return status;
    }));
    EXPECT_EQ(metadata(status, "current_ply"), "1");
}

TEST_F(MakeMove, TheOtherSidesTokenIsNotYourTurn) {
    const SeatedGame game = start_game();
    EXPECT_TRUE(
        RejectsUnchanged(game.id, grpc::StatusCode::FAILED_PRECONDITION, "NOT_YOUR_TURN",
                         [&] { return client().move(game.id, "c3-c4", game.geese_token).status; }));
    play(game, "d4-d5");
    EXPECT_TRUE(
        RejectsUnchanged(game.id, grpc::StatusCode::FAILED_PRECONDITION, "NOT_YOUR_TURN",
                         [&] { return client().move(game.id, "d5-d6", game.fox_token).status; }));
}

TEST_F(MakeMove, WellFormedMovesAgainstTheRulesAreIllegalMove) {
    const SeatedGame game = start_game();
    const auto illegal = [&](const std::string& token, const std::string& text,
                             const std::string& canonical) {
        grpc::Status status;
        EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::FAILED_PRECONDITION, "ILLEGAL_MOVE",
                                     [&] {
                                         status = client().move(game.id, text, token).status;
                                         return status;
                                     }))
            << text;
        EXPECT_EQ(metadata(status, "move"), canonical) << text;
    };
    illegal(game.fox_token, "d4-d6", "d4-d6");   // no link
    illegal(game.fox_token, "d4-d3", "d4-d3");   // occupied
    illegal(game.fox_token, "d4xd6", "d4xd6");   // nothing to jump
    illegal(game.fox_token, "c3-c4", "c3-c4");   // not a fox
    illegal(game.fox_token, " D4-D6", "d4-d6");  // canonical in the metadata
    play(game, "d4-d5");
    illegal(game.geese_token, "d4-d5", "d4-d5");  // no goose there
    illegal(game.geese_token, "c2-c1", "c2-c1");  // backward, and occupied
    illegal(game.geese_token, "c3-d2", "c3-d2");  // diagonally backward
    illegal(game.geese_token, "a3-c5", "a3-c5");  // two points away
    play(game, "a3-a4");
    play(game, "d5-d6");
    illegal(game.geese_token, "a4-a3", "a4-a3");  // backward to an empty point
    illegal(game.geese_token, "a4-b4", "a4-b4");  // sideways, without the option
}

TEST_F(MakeMove, IgnoringACompulsoryCaptureIsIllegalMove) {
    // two_foxes: after c7-c6 c4-c5 the fox on c6 can jump c5, so it must.
    const SeatedGame game = start_game("two_foxes");
    play_all(game, {"c7-c6", "c4-c5"});
    const Reply<v1::GetGameResponse> got = client().get(game.id);
    ASSERT_TRUE(IsOk(got));
    for (const std::string& m : got->game().legal_moves())
        EXPECT_NE(m.find('x'), std::string::npos) << "non-capture offered: " << m;
    EXPECT_TRUE(
        RejectsUnchanged(game.id, grpc::StatusCode::FAILED_PRECONDITION, "ILLEGAL_MOVE",
                         [&] { return client().move(game.id, "e7-e6", game.fox_token).status; }));
}

// MakeMove checks in this order, and the first failure is returned:
// INVALID_ARGUMENT, TOKEN_REQUIRED, GAME_NOT_FOUND, TOKEN_INVALID, (request_id
// replay), INVALID_NOTATION, GAME_NOT_STARTED, GAME_OVER, PLY_MISMATCH,
// NOT_YOUR_TURN, ILLEGAL_MOVE.
TEST_F(MakeMove, ErrorsComeInTheDocumentedOrder) {
    const SeatedGame game = start_game();
    const SeatedGame other = start_game();
    const v1::CreateGameResponse waiting = create_game(create_request("standard"));
    const SeatedGame over = start_game();
    ASSERT_TRUE(IsOk(client().resign(over.id, over.fox_token)));

    // `other` has a move made with a request_id; the same id with other text
    // is refused as a reuse, before the text is looked at.
    v1::MakeMoveRequest first = move_request(other.id, "d4-d5");
    first.set_request_id("order-1");
    ASSERT_TRUE(IsOk(client().move(first, other.fox_token)));
    v1::MakeMoveRequest replayed = move_request(other.id, "hello");
    replayed.set_request_id("order-1");

    auto req = [](const std::string& id, const std::string& notation,
                  std::optional<int> expected_ply = std::nullopt) {
        v1::MakeMoveRequest r = move_request(id, notation);
        if (expected_ply) r.set_expected_ply(*expected_ply);
        return r;
    };
    struct Case {
        const char* what;
        v1::MakeMoveRequest request;
        Auth auth;
        grpc::StatusCode code;
        const char* reason;
    };
    using C = grpc::StatusCode;
    const std::vector<Case> cases = {
        {"oversized move before a missing token", req(game.id, std::string(200, 'x')), Auth::none(),
         C::INVALID_ARGUMENT, "INVALID_ARGUMENT"},
        {"missing token before an unknown game", req(kUnknownGameId, "d4-d5"), Auth::none(),
         C::UNAUTHENTICATED, "TOKEN_REQUIRED"},
        {"unknown game before a token of another game", req(kUnknownGameId, "d4-d5"),
         other.fox_token, C::NOT_FOUND, "GAME_NOT_FOUND"},
        {"another game's token before bad notation", req(game.id, "hello"), other.fox_token,
         C::UNAUTHENTICATED, "TOKEN_INVALID"},
        {"a reused request_id before bad notation", replayed, other.fox_token, C::INVALID_ARGUMENT,
         "INVALID_ARGUMENT"},
        {"bad notation before a game not started", req(waiting.game().game_id(), "hello"),
         waiting.seat_token(), C::INVALID_ARGUMENT, "INVALID_NOTATION"},
        {"bad notation before a game over", req(over.id, "hello"), over.fox_token,
         C::INVALID_ARGUMENT, "INVALID_NOTATION"},
        {"game not started before a stale ply", req(waiting.game().game_id(), "d4-d5", 7),
         waiting.seat_token(), C::FAILED_PRECONDITION, "GAME_NOT_STARTED"},
        {"game over before a stale ply", req(over.id, "d4-d5", 7), over.fox_token,
         C::FAILED_PRECONDITION, "GAME_OVER"},
        {"stale ply before not your turn", req(game.id, "c3-c4", 7), game.geese_token, C::ABORTED,
         "PLY_MISMATCH"},
        {"bad notation before not your turn", req(game.id, "c3-c9"), game.geese_token,
         C::INVALID_ARGUMENT, "INVALID_NOTATION"},
        {"not your turn before an illegal move", req(game.id, "c3-d2"), game.geese_token,
         C::FAILED_PRECONDITION, "NOT_YOUR_TURN"},
    };
    for (const Case& c : cases) {
        EXPECT_TRUE(IsError(client().move(c.request, c.auth), c.code, c.reason)) << c.what;
    }
    EXPECT_TRUE(
        RejectsUnchanged(game.id, grpc::StatusCode::FAILED_PRECONDITION, "ILLEGAL_MOVE",
                         [&] { return client().move(game.id, "d4-d6", game.fox_token).status; }));
}

// The same order, for a token that is malformed rather than foreign: the
// unknown game is reported first, as for any other token.
TEST_F(MakeMove, AnUnknownGameComesBeforeAMalformedToken) {
    for (const Auth& auth : {Auth::header("Basic xyz"), Auth::header("Bearer !!!")}) {
        EXPECT_TRUE(IsError(client().move(kUnknownGameId, "d4-d5", auth),
                            grpc::StatusCode::NOT_FOUND, "GAME_NOT_FOUND"))
            << *auth.value();
    }
}

}  // namespace
}  // namespace foxgeese::test
