// Rate limits over gRPC, with small limits so that a test reaches them:
// CreateGame, ImportGame and JoinGame per client address (from X-Forwarded-For behind
// one trusted proxy), MakeMove per seat token, WatchGame streams open at
// once per address. A refusal is RESOURCE_EXHAUSTED, reason RATE_LIMITED,
// with a RetryInfo saying how long to wait, and writes nothing.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "tests/service/harness/bot_games.h"
#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;

class RateLimits : public MemoryServiceTest {
  protected:
    void configure(service::ReplicaOptions& options) override {
        service::RateLimitOptions& limits = options.game.limits;
        limits.create_per_address = {3, 60s, 3};  // one more every 20 s
        limits.import_per_address = {2, 60s, 2};  // one more every 30 s
        limits.join_per_address = {2, 60s, 2};
        limits.moves_per_token = {1, 1s, 2};
        limits.seat_actions_per_token = {3, 60s, 3};  // one more every 20 s
        limits.trusted_proxy_hops = 1;
        options.watch.streams_per_address = 2;
    }
};

::testing::AssertionResult IsRateLimited(const grpc::Status& status, std::int64_t min_ms,
                                         std::int64_t max_ms) {
    auto result = IsError(status, grpc::StatusCode::RESOURCE_EXHAUSTED, "RATE_LIMITED");
    if (!result) return result;
    const std::optional<std::int64_t> delay = retry_delay_ms(status);
    if (!delay) return ::testing::AssertionFailure() << "no RetryInfo in " << describe(status);
    if (*delay < min_ms || *delay > max_ms) {
        return ::testing::AssertionFailure()
               << "retry in " << *delay << " ms, expected " << min_ms << ".." << max_ms;
    }
    return ::testing::AssertionSuccess();
}

TEST_F(RateLimits, CreateGamePerAddressWithHowLongToWait) {
    const v1::CreateGameRequest request = create_request("standard");
    for (int i = 0; i < 3; ++i)
        ASSERT_TRUE(IsOk(client().create_forwarded(request, "198.51.100.7")));
    const long games = count_rows("games");
    const Reply<v1::CreateGameResponse> refused =
        client().create_forwarded(request, "198.51.100.7");
    EXPECT_TRUE(IsRateLimited(refused.status, 19'000, 20'000));
    EXPECT_EQ(count_rows("games"), games);  // nothing written

    // Another address has its own bucket.
    EXPECT_TRUE(IsOk(client().create_forwarded(request, "198.51.100.8")));
    // After the wait, one more passes (and only one).
    clock().advance(20s);
    EXPECT_TRUE(IsOk(client().create_forwarded(request, "198.51.100.7")));
    EXPECT_TRUE(
        IsRateLimited(client().create_forwarded(request, "198.51.100.7").status, 1, 20'000));
}

TEST_F(RateLimits, ImportGamePerAddressCountsRefusedRecordsToo) {
    const std::string record = "[Variant \"standard\"]\n[Result \"*\"]\n\n*\n";
    ASSERT_TRUE(IsOk(client().import_game(record)));
    // A refused record cost the engine a replay all the same.
    EXPECT_TRUE(IsError(client().import_game("[Variant \"chess\"]\n"),
                        grpc::StatusCode::INVALID_ARGUMENT, "RECORD_INVALID"));
    const long games = count_rows("games");
    EXPECT_TRUE(IsRateLimited(client().import_game(record).status, 29'000, 30'000));
    EXPECT_EQ(count_rows("games"), games);
    // New games have a limit of their own.
    EXPECT_TRUE(IsOk(client().create(create_request("standard"))));
    clock().advance(30s);
    EXPECT_TRUE(IsOk(client().import_game(record)));
}

TEST_F(RateLimits, RematchesAndImportsCountAgainstTheCreationLimit) {
    // One token holding both seats aborts its game and accepts its own
    // rematch offer: each rematch is a new game, as a CreateGame would be.
    v1::CreateGameResponse solo = create_game(create_request("standard", v1::SEAT_CHOICE_BOTH));
    for (int rematch = 0; rematch < 2; ++rematch) {
        ASSERT_TRUE(IsOk(client().abort(solo.game().game_id(), solo.seat_token())));
        const Reply<v1::OfferRematchResponse> made =
            client().offer_rematch(solo.game().game_id(), solo.seat_token());
        ASSERT_TRUE(IsOk(made));
        ASSERT_TRUE(made->has_rematch());
        *solo.mutable_game() = made->rematch();
        solo.set_seat_token(made->seat_token());
    }
    // The bucket of three is empty: the next rematch is refused and no game
    // comes into being.
    const std::string id = solo.game().game_id();
    ASSERT_TRUE(IsOk(client().abort(id, solo.seat_token())));
    const long games = count_rows("games");
    EXPECT_TRUE(RejectsUnchanged(id, grpc::StatusCode::RESOURCE_EXHAUSTED, "RATE_LIMITED", [&] {
        return client().offer_rematch(id, solo.seat_token()).status;
    }));
    EXPECT_EQ(count_rows("games"), games);
    // An import is a new game too (its own, stricter limit still has room).
    EXPECT_TRUE(IsRateLimited(
        client().import_game("[Variant \"standard\"]\n[Result \"*\"]\n\n*\n").status, 1, 20'000));
    EXPECT_EQ(count_rows("games"), games);
    // Once the bucket refills, the rematch is made.
    clock().advance(20s);
    const Reply<v1::OfferRematchResponse> later = client().offer_rematch(id, solo.seat_token());
    ASSERT_TRUE(IsOk(later));
    EXPECT_TRUE(later->has_rematch());
}

TEST_F(RateLimits, OnlyTheTrustedHopOfForwardedForCounts) {
    const v1::CreateGameRequest request = create_request("standard");
    // The client may write anything before what the gateway appends.
    for (const std::string forged :
         {"10.0.0.1, 203.0.113.5", "10.0.0.2, 203.0.113.5", "garbage, 203.0.113.5"})
        ASSERT_TRUE(IsOk(client().create_forwarded(request, forged))) << forged;
    EXPECT_TRUE(IsRateLimited(client().create_forwarded(request, "10.0.0.3,203.0.113.5").status, 1,
                              20'000));
    // An IPv6 client is limited by its /64: walking the prefix does not help.
    for (const std::string address : {"2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff::9"})
        ASSERT_TRUE(IsOk(client().create_forwarded(request, address))) << address;
    EXPECT_TRUE(
        IsRateLimited(client().create_forwarded(request, "2001:db8:1:2::77").status, 1, 20'000));
    EXPECT_TRUE(IsOk(client().create_forwarded(request, "2001:db8:1:3::1")));
}

TEST_F(RateLimits, JoinGamePerAddress) {
    std::vector<v1::CreateGameResponse> games;
    for (int i = 0; i < 3; ++i) {
        games.push_back(
            client().create_forwarded(create_request("standard"), "192.0.2.1").response);
        clock().advance(20s);  // keep the creator under its own limit
    }
    // The test's client connects from 127.0.0.1 without a forwarded header,
    // which counts as its own address.
    ASSERT_TRUE(IsOk(client().join(games[0].game().game_id(), games[0].invite_code())));
    ASSERT_TRUE(IsOk(client().join(games[1].game().game_id(), games[1].invite_code())));
    const std::string id = games[2].game().game_id();
    EXPECT_TRUE(RejectsUnchanged(id, grpc::StatusCode::RESOURCE_EXHAUSTED, "RATE_LIMITED",
                                 [&] { return client().join(id, games[2].invite_code()).status; }));
    clock().advance(30s);
    EXPECT_TRUE(IsOk(client().join(id, games[2].invite_code())));
}

TEST_F(RateLimits, MakeMovePerSeatToken) {
    const SeatedGame game = start_game();
    // The same token plays both moves of the burst (both seats in one game).
    const v1::CreateGameResponse solo =
        create_game(create_request("standard", v1::SEAT_CHOICE_BOTH));
    const std::string id = solo.game().game_id();
    SeatedGame both{id, solo.seat_token(), solo.seat_token(), "", solo.game()};
    ASSERT_TRUE(IsOk(play_any(both)));
    ASSERT_TRUE(IsOk(play_any(both)));
    const Reply<v1::GetGameResponse> before = client().get(id);
    ASSERT_TRUE(IsOk(before));
    const Reply<v1::MakeMoveResponse> third =
        client().move(id, before->game().legal_moves(0), solo.seat_token());
    EXPECT_TRUE(IsRateLimited(third.status, 1, 1'000));
    const Reply<v1::ListMovesResponse> moves = client().list_moves(id);
    ASSERT_TRUE(IsOk(moves));
    EXPECT_EQ(moves->moves_size(), 2);  // the refused move was not stored
    // Another token is not slowed down by this one.
    ASSERT_TRUE(IsOk(play_any(game)));
    clock().advance(1s);
    EXPECT_TRUE(IsOk(play_any(both)));
}

TEST_F(RateLimits, DrawOffersAndOtherSeatActionsPerSeatToken) {
    // The bot declines a draw at once, so its opponent could offer again and
    // again, each offer storing two events that every watcher is sent.
    const v1::CreateGameResponse game =
        create_game(bot_game_request("standard", v1::SEAT_CHOICE_FOX, 1));
    const std::string id = game.game().game_id();
    for (int offer = 0; offer < 3; ++offer)
        ASSERT_TRUE(IsOk(client().offer_draw(id, game.seat_token())));
    const long events = count_rows("game_events");
    EXPECT_TRUE(RejectsUnchanged(id, grpc::StatusCode::RESOURCE_EXHAUSTED, "RATE_LIMITED", [&] {
        return client().offer_draw(id, game.seat_token()).status;
    }));
    EXPECT_TRUE(IsRateLimited(client().claim(id, false, game.seat_token()).status, 1, 20'000));
    EXPECT_EQ(count_rows("game_events"), events);
    // Another seat token has a bucket of its own.
    const SeatedGame other = start_game();
    EXPECT_TRUE(IsOk(client().offer_draw(other.id, other.fox_token)));
    EXPECT_TRUE(IsOk(client().respond_draw(other.id, false, other.geese_token)));
    // And the token may act again once its bucket refills.
    clock().advance(20s);
    EXPECT_TRUE(IsOk(client().offer_draw(id, game.seat_token())));
}

TEST_F(RateLimits, WatchStreamsOpenAtOncePerAddress) {
    const SeatedGame game = start_game();
    auto first = std::make_unique<WatchStream>(server().grpc_port(), game.id);
    WatchStream second(server().grpc_port(), game.id);
    ASSERT_TRUE(first->next());
    ASSERT_TRUE(second.next());
    WatchStream third(server().grpc_port(), game.id);
    const auto refused = third.wait_for_end();
    ASSERT_TRUE(refused);
    EXPECT_TRUE(IsRateLimited(*refused, 1, 5'000));
    // A closed stream gives its place back.
    first->cancel();
    first.reset();
    bool opened = false;
    for (int attempt = 0; attempt < 50 && !opened; ++attempt) {
        WatchStream again(server().grpc_port(), game.id);
        const auto e = again.next(2s);
        opened = e && e->has_snapshot();
    }
    EXPECT_TRUE(opened);
}

}  // namespace
}  // namespace foxgeese::test
