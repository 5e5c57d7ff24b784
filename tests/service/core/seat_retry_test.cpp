// A CreateGame or JoinGame request_id is a key to a seat only briefly: it must
// be a random UUIDv4, a retry hands the seat out again only within the retry
// window and before the seat's token is used, a JoinGame retry needs the
// invite code, and afterwards the id is refused while the token stays valid.
#include <string>

#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using C = grpc::StatusCode;
using SeatRetry = MemoryServiceTest;

v1::CreateGameRequest fox_game_with(const std::string& request_id) {
    v1::CreateGameRequest request = create_request("standard", v1::SEAT_CHOICE_FOX);
    request.set_request_id(request_id);
    return request;
}

TEST_F(SeatRetry, OnlyRandomVersion4UuidsAreAcceptedAsRequestIds) {
    for (const std::string id : {"00000000-0000-0000-0000-000000000000",
                                 "6f1c2a52-0d3e-1c8a-9b1e-000000000001",  // time-based (v1)
                                 "6f1c2a52-0d3e-4c8a-1b1e-000000000001",  // NCS variant
                                 "not-a-uuid"}) {
        SCOPED_TRACE(id);
        const auto created = client().create(fox_game_with(id));
        EXPECT_TRUE(IsError(created, C::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
        EXPECT_EQ(bad_request_field(created.status), "request_id");
        const SeatedGame game = start_game();
        const auto joined = client().join(game.id, game.invite_code, id);
        EXPECT_TRUE(IsError(joined, C::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    }
}

TEST_F(SeatRetry, ACreateRetryBeforeTheTokenIsUsedReissuesTheSeat) {
    const v1::CreateGameRequest request = fox_game_with(random_request_id());
    const v1::CreateGameResponse first = create_game(request);
    const v1::CreateGameResponse again = create_game(request);
    EXPECT_EQ(again.game().game_id(), first.game().game_id());
    EXPECT_EQ(again.seat(), v1::SEAT_FOX);
    EXPECT_NE(again.seat_token(), first.seat_token());
    // The reply that was lost is void; the retry's token is the seat's.
    const auto join = client().join(first.game().game_id(), again.invite_code());
    ASSERT_TRUE(IsOk(join));
    EXPECT_TRUE(IsError(client().move(first.game().game_id(), "d4-d5", first.seat_token()),
                        C::UNAUTHENTICATED, "TOKEN_INVALID"));
    EXPECT_TRUE(IsOk(client().move(first.game().game_id(), "d4-d5", again.seat_token())));
}

// The reproduction of the takeover: the owner plays, then a stranger replays
// the request. The replay is refused and the owner keeps the seat.
TEST_F(SeatRetry, ACreateRetryAfterAMoveIsRefusedAndTheOwnerKeepsTheSeat) {
    const v1::CreateGameRequest request = fox_game_with(random_request_id());
    const v1::CreateGameResponse created = create_game(request);
    const std::string& id = created.game().game_id();
    ASSERT_TRUE(IsOk(client().join(id, created.invite_code())));
    ASSERT_TRUE(IsOk(client().move(id, "d4-d5", created.seat_token())));
    EXPECT_TRUE(RejectsUnchanged(id, C::ALREADY_EXISTS, "REQUEST_ID_USED",
                                 [&] { return client().create(request).status; }));
    const auto owner = client().offer_draw(id, created.seat_token());
    EXPECT_TRUE(IsOk(owner)) << "the owner's token must stay valid";
}

TEST_F(SeatRetry, ADrawActionOrAWatchWithTheTokenAlsoClosesTheRetry) {
    // A both-seats game: the creator's offer of a draw uses the token.
    v1::CreateGameRequest both = create_request("standard", v1::SEAT_CHOICE_BOTH);
    both.set_request_id(random_request_id());
    const v1::CreateGameResponse created = create_game(both);
    ASSERT_TRUE(IsOk(client().offer_draw(created.game().game_id(), created.seat_token())));
    EXPECT_TRUE(IsError(client().create(both), C::ALREADY_EXISTS, "REQUEST_ID_USED"));

    // Watching from the seat uses it too.
    const v1::CreateGameRequest fox = fox_game_with(random_request_id());
    const v1::CreateGameResponse watched = create_game(fox);
    {
        WatchStream watch(server().grpc_port(), watched.game().game_id(), std::nullopt,
                          watched.seat_token());
        ASSERT_TRUE(watch.next().has_value());  // the snapshot: subscribed
        ASSERT_TRUE(
            watch.wait_for_event([](const v1::WatchGameResponse& e) { return e.has_presence(); }));
    }
    EXPECT_TRUE(IsError(client().create(fox), C::ALREADY_EXISTS, "REQUEST_ID_USED"));
}

TEST_F(SeatRetry, ARetryAfterTheWindowIsRefused) {
    const v1::CreateGameRequest request = fox_game_with(random_request_id());
    const v1::CreateGameResponse created = create_game(request);
    clock().advance(std::chrono::seconds(59));
    const v1::CreateGameResponse within = create_game(request);
    EXPECT_EQ(within.game().game_id(), created.game().game_id());
    // The window is not extended by a retry.
    clock().advance(std::chrono::seconds(2));
    EXPECT_TRUE(IsError(client().create(request), C::ALREADY_EXISTS, "REQUEST_ID_USED"));
    EXPECT_TRUE(IsOk(client().join(created.game().game_id(), within.invite_code())));
    EXPECT_TRUE(IsOk(client().move(created.game().game_id(), "d4-d5", within.seat_token())));
}

TEST_F(SeatRetry, AJoinRetryNeedsTheInviteCodeAndEndsWithTheFirstMove) {
    const v1::CreateGameResponse created = create_game(create_request("standard"));
    const std::string& id = created.game().game_id();
    const std::string request_id = random_request_id();
    const auto first = client().join(id, created.invite_code(), request_id);
    ASSERT_TRUE(IsOk(first));
    // Without the invite code a request id opens nothing.
    EXPECT_TRUE(RejectsUnchanged(id, C::PERMISSION_DENIED, "INVITE_INVALID",
                                 [&] { return client().join(id, "", request_id).status; }));
    EXPECT_TRUE(RejectsUnchanged(id, C::PERMISSION_DENIED, "INVITE_INVALID", [&] {
        return client().join(id, "AAAAAAAAAAAAAAAA", request_id).status;
    }));
    const auto again = client().join(id, created.invite_code(), request_id);
    ASSERT_TRUE(IsOk(again));
    EXPECT_EQ(again->seat(), first->seat());
    const std::string& fox = created.seat_token();
    const std::string& geese = again->seat_token();
    const bool creator_is_fox = first->seat() == v1::SEAT_GEESE;
    ASSERT_TRUE(IsOk(client().move(id, "d4-d5", creator_is_fox ? fox : geese)));
    ASSERT_TRUE(IsOk(client().move(id, "c3-c4", creator_is_fox ? geese : fox)));
    EXPECT_TRUE(RejectsUnchanged(id, C::ALREADY_EXISTS, "REQUEST_ID_USED", [&] {
        return client().join(id, created.invite_code(), request_id).status;
    }));
}

}  // namespace
}  // namespace foxgeese::test
