// CreateGame and JoinGame retries with the same request_id, one at a time:
// the same game and seat with a fresh token, never a second game; the id
// must be a UUID, and reused for anything else it is refused (sixteen at
// once: concurrency_pgtest.cpp).
#include <string>
#include <vector>

#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using Retries = MemoryServiceTest;

TEST_F(Retries, CreateGameWithTheSameRequestIdMakesOneGame) {
    v1::CreateGameRequest request =
        create_request("two_foxes", v1::SEAT_CHOICE_GEESE, v1::VISIBILITY_PUBLIC);
    request.set_request_id("6f1c2a52-0d3e-4c8a-9b1e-000000000001");
    const v1::CreateGameResponse first = create_game(request);
    const v1::CreateGameResponse again = create_game(request);
    EXPECT_EQ(again.game().game_id(), first.game().game_id());
    EXPECT_EQ(again.seat(), first.seat());
    EXPECT_EQ(count_rows("games"), 1);
    // The retry's token is the one that works now.
    const Reply<v1::ResignGameResponse> waiting =
        client().resign(first.game().game_id(), again.seat_token());
    EXPECT_TRUE(IsError(waiting, grpc::StatusCode::FAILED_PRECONDITION, "GAME_NOT_STARTED"));

    // The same request_id for a different game is refused and creates nothing.
    v1::CreateGameRequest other = create_request("standard");
    other.set_request_id("6f1c2a52-0d3e-4c8a-9b1e-000000000001");
    const Reply<v1::CreateGameResponse> refused = client().create(other);
    EXPECT_TRUE(IsError(refused, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    EXPECT_EQ(bad_request_field(refused.status), "request_id");
    EXPECT_EQ(count_rows("games"), 1);
}

TEST_F(Retries, ARequestIdReusedForAnyOtherCreateGameIsInvalidArgument) {
    // The first request, then requests that differ from it in one field each.
    v1::CreateGameRequest first = create_request(
        "standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PUBLIC, "3/3/7/3F3/G6/GGG/GGG g 7 31");
    first.mutable_options()->set_geese(13);
    first.set_request_id("6f1c2a52-0d3e-4c8a-9b1e-000000000002");
    create_game(first);
    struct Case {
        const char* what;
        v1::CreateGameRequest request;
    };
    std::vector<Case> cases;
    {
        v1::CreateGameRequest r = first;
        r.set_variant("big_cross");
        r.clear_options();
        r.clear_start_position();
        cases.push_back({"another variant", r});
    }
    {
        v1::CreateGameRequest r = first;
        r.set_visibility(v1::VISIBILITY_PRIVATE);
        cases.push_back({"another visibility", r});
    }
    {
        v1::CreateGameRequest r = first;
        r.mutable_options()->set_geese(17);
        cases.push_back({"other options", r});
    }
    {
        v1::CreateGameRequest r = first;
        r.set_seat(v1::SEAT_CHOICE_BOTH);
        cases.push_back({"another seat choice", r});
    }
    {
        v1::CreateGameRequest r = first;
        r.clear_start_position();
        cases.push_back({"no custom start", r});
    }
    for (const Case& c : cases) {
        const Reply<v1::CreateGameResponse> reply = client().create(c.request);
        EXPECT_TRUE(IsError(reply, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"))
            << c.what << ": got game " << reply->game().game_id() << " seat "
            << v1::Seat_Name(reply->seat()) << " options "
            << reply->game().options().ShortDebugString();
    }
    EXPECT_EQ(count_rows("games"), 1);
}

TEST_F(Retries, JoinGameWithTheSameRequestIdGetsTheSameSeatNotSeatTaken) {
    const v1::CreateGameResponse created = create_game(create_request("standard"));
    const std::string& id = created.game().game_id();
    const Reply<v1::JoinGameResponse> first =
        client().join(id, created.invite_code(), "6f1c2a52-0d3e-4c8a-9b1e-000000000004");
    ASSERT_TRUE(IsOk(first));
    const Reply<v1::JoinGameResponse> again =
        client().join(id, created.invite_code(), "6f1c2a52-0d3e-4c8a-9b1e-000000000004");
    ASSERT_TRUE(IsOk(again));
    EXPECT_EQ(again->seat(), first->seat());
    EXPECT_EQ(again->game().game_id(), id);
    // Another request_id finds the seat taken.
    EXPECT_TRUE(
        IsError(client().join(id, created.invite_code(), "6f1c2a52-0d3e-4c8a-9b1e-000000000007"),
                grpc::StatusCode::ALREADY_EXISTS, "SEAT_TAKEN"));
    // The retry's token plays the joined seat.
    ASSERT_TRUE(IsOk(client().move(id, "d4-d5", created.seat_token())));
    EXPECT_TRUE(IsOk(client().move(id, "c3-c4", again->seat_token())));
}

// A CreateGame / JoinGame retry hands out a fresh seat token, so their
// request_id acts as a secret and must be a UUID, never a guessable counter.
TEST_F(Retries, CreateAndJoinRequestIdsMustBeUuids) {
    v1::CreateGameRequest request = create_request("standard", v1::SEAT_CHOICE_FOX);
    request.set_request_id("1");
    EXPECT_TRUE(
        IsError(client().create(request), grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    request.set_request_id("6F1C2A52-0D3E-4C8A-9B1E-00000000000A");
    const Reply<v1::CreateGameResponse> created = client().create(request);
    ASSERT_TRUE(IsOk(created));
    EXPECT_TRUE(IsError(client().join(created->game().game_id(), created->invite_code(), "join"),
                        grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
}

}  // namespace
}  // namespace foxgeese::test
