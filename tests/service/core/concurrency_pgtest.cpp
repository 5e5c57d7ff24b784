// Racing and repeated requests: many clients sending moves to one game at the
// same instant must get exactly one move stored and clean errors for the
// rest; a repeated request_id must give back the first answer, never a
// second move or a second game. Callers back off from RESOURCE_EXHAUSTED and
// send the same request again, as the API tells clients to.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <latch>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/service/harness/service_harness.h"

namespace foxgeese::test {
namespace {

constexpr int kThreads = 16;

// Calls `send` until it answers with something other than RESOURCE_EXHAUSTED
// (the server's "too many requests"), backing off as the API tells clients
// to. `throttled` counts the refusals.
template <class Send>
auto with_backoff(Send send, std::atomic<int>& throttled) {
    auto reply = send();
    for (int attempt = 0;
         attempt < 20 && reply.status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED;
         ++attempt) {
        ++throttled;
        std::this_thread::sleep_for(std::chrono::milliseconds(5 << std::min(attempt, 5)));
        reply = send();
    }
    return reply;
}

class Concurrency : public ServiceTest {
  protected:
    // Sends requests[i] from thread i, all released at once; returns the
    // replies (after backing off from RESOURCE_EXHAUSTED).
    std::vector<Reply<v1::MakeMoveResponse>> race(const std::vector<v1::MakeMoveRequest>& requests,
                                                  const std::string& token) {
        std::vector<std::unique_ptr<ServiceClient>> clients;
        for (std::size_t i = 0; i < requests.size(); ++i)
            clients.push_back(new_client());
        std::vector<Reply<v1::MakeMoveResponse>> replies(requests.size());
        std::latch start(static_cast<std::ptrdiff_t>(requests.size()));
        std::atomic<int> throttled{0};
        std::vector<std::thread> threads;
        for (std::size_t i = 0; i < requests.size(); ++i) {
            threads.emplace_back([&, i] {
                start.arrive_and_wait();
                replies[i] =
                    with_backoff([&] { return clients[i]->move(requests[i], token); }, throttled);
            });
        }
        for (std::thread& t : threads)
            t.join();
        throttled_ += throttled;
        RecordProperty("throttled", throttled_);
        return replies;
    }

    int throttled_ = 0;

    static v1::MakeMoveRequest request(const std::string& game_id, const std::string& move,
                                       const std::string& request_id = "") {
        v1::MakeMoveRequest r;
        r.set_game_id(game_id);
        r.set_move(move);
        r.set_request_id(request_id);
        return r;
    }

    // Exactly one reply succeeded and every other one is a clean "the game
    // moved on" error; returns the index of the success.
    int expect_one_winner(const std::vector<Reply<v1::MakeMoveResponse>>& replies) {
        int winner = -1;
        int successes = 0;
        std::map<std::string, int> errors;
        for (std::size_t i = 0; i < replies.size(); ++i) {
            const Reply<v1::MakeMoveResponse>& r = replies[i];
            if (r.ok()) {
                ++successes;
                winner = static_cast<int>(i);
                continue;
            }
            ++errors[describe(r.status).substr(0, describe(r.status).find(':'))];
            const bool moved_on =
                IsError(r, grpc::StatusCode::ABORTED, "PLY_MISMATCH") ||
                IsError(r, grpc::StatusCode::FAILED_PRECONDITION, "NOT_YOUR_TURN");
            EXPECT_TRUE(moved_on) << "thread " << i << ": " << describe(r.status);
            EXPECT_NE(r.status.error_code(), grpc::StatusCode::INTERNAL);
        }
        EXPECT_EQ(successes, 1);
        std::string summary;
        for (const auto& [what, n] : errors)
            summary += std::to_string(n) + " x " + what + "; ";
        RecordProperty("errors", summary);
        return winner;
    }

    int move_count(const std::string& game_id) {
        const Reply<v1::ListMovesResponse> moves = client().list_moves(game_id);
        EXPECT_TRUE(IsOk(moves));
        return moves->moves_size();
    }
};

TEST_F(Concurrency, TheSameMoveSentSixteenTimesAtOnceIsStoredOnce) {
    // A few rounds, since any single race may happen to serialise itself.
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const SeatedGame game = start_game();
        const auto replies = race(
            std::vector<v1::MakeMoveRequest>(kThreads, request(game.id, "d4-d5")), game.fox_token);
        const int winner = expect_one_winner(replies);
        EXPECT_EQ(move_count(game.id), 1);
        const Reply<v1::GetGameResponse> got = client().get(game.id);
        ASSERT_TRUE(IsOk(got));
        EXPECT_EQ(got->game().ply(), 1);
        if (winner >= 0) {
            EXPECT_EQ(got->game().SerializeAsString(), replies[winner]->game().SerializeAsString());
        }
    }
}

TEST_F(Concurrency, APlyMismatchFromALostRaceCarriesTheCurrentPly) {
    // PLY_MISMATCH is documented with metadata "current_ply", so a client can
    // tell how far the game moved on; that holds for a race lost inside the
    // server as much as for a stale expected_ply.
    int mismatches = 0;
    std::vector<std::string> without;  // messages of those lacking the right current_ply
    for (int round = 0; round < 4; ++round) {
        const SeatedGame game = start_game();
        for (const auto& reply :
             race(std::vector<v1::MakeMoveRequest>(kThreads, request(game.id, "d4-d5")),
                  game.fox_token)) {
            if (!IsError(reply, grpc::StatusCode::ABORTED, "PLY_MISMATCH")) continue;
            ++mismatches;
            const auto info = error_info(reply.status);
            if (!info || !info->metadata().count("current_ply") ||
                info->metadata().at("current_ply") != "1") {
                without.push_back(reply.status.error_message());
            }
        }
    }
    EXPECT_GT(mismatches, 0) << "no race was lost inside the server; nothing was checked";
    EXPECT_TRUE(without.empty()) << without.size() << " of " << mismatches
                                 << " PLY_MISMATCH errors lack current_ply \"1\", e.g.: "
                                 << (without.empty() ? "" : without.front());
}

TEST_F(Concurrency, SixteenDifferentLegalMovesAtOnceApplyExactlyOne) {
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        // After the fox's first move on the big cross the geese have 17 moves.
        const SeatedGame game = start_game("big_cross");
        play(game, "e7-e6");
        const Reply<v1::GetGameResponse> before = client().get(game.id);
        ASSERT_TRUE(IsOk(before));
        ASSERT_GE(before->game().legal_moves_size(), kThreads);
        std::vector<v1::MakeMoveRequest> requests;
        for (int i = 0; i < kThreads; ++i)
            requests.push_back(request(game.id, before->game().legal_moves(i)));
        const auto replies = race(requests, game.geese_token);
        const int winner = expect_one_winner(replies);
        ASSERT_GE(winner, 0);
        const Reply<v1::ListMovesResponse> moves = client().list_moves(game.id);
        ASSERT_TRUE(IsOk(moves));
        ASSERT_EQ(moves->moves_size(), 2);
        EXPECT_EQ(moves->moves(1).notation(), requests[winner].move());
        EXPECT_EQ(moves->moves(1).SerializeAsString(), replies[winner]->move().SerializeAsString());
        EXPECT_EQ(moves->game().position(), replies[winner]->game().position());
        EXPECT_EQ(moves->game().ply(), 2);
    }
}

TEST_F(Concurrency, SixteenCopiesWithOneRequestIdAllGetTheSameAnswer) {
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const SeatedGame game = start_game();
        const auto replies =
            race(std::vector<v1::MakeMoveRequest>(
                     kThreads, request(game.id, "d4-d5", "move-" + std::to_string(round))),
                 game.fox_token);
        for (int i = 0; i < kThreads; ++i) {
            ASSERT_TRUE(IsOk(replies[i])) << "thread " << i;
            EXPECT_EQ(replies[i]->SerializeAsString(), replies[0]->SerializeAsString())
                << "thread " << i << " got " << replies[i]->ShortDebugString() << "\nthread 0 got "
                << replies[0]->ShortDebugString();
        }
        EXPECT_EQ(replies[0]->move().ply(), 1);
        EXPECT_EQ(replies[0]->move().notation(), "d4-d5");
        EXPECT_EQ(move_count(game.id), 1);
    }
}

TEST_F(Concurrency, ARetryAfterSuccessReturnsTheFirstAnswerEvenAfterTheGameMovedOn) {
    const SeatedGame game = start_game();
    const v1::MakeMoveRequest first = request(game.id, "d4-d5", "retry-1");
    const Reply<v1::MakeMoveResponse> original = client().move(first, game.fox_token);
    ASSERT_TRUE(IsOk(original));
    play(game, "c3-c4");

    // The same request again, also spelled differently: the first answer.
    for (const std::string spelling : {"d4-d5", " D4-D5 "}) {
        const Reply<v1::MakeMoveResponse> retried =
            client().move(request(game.id, spelling, "retry-1"), game.fox_token);
        ASSERT_TRUE(IsOk(retried)) << spelling;
        EXPECT_EQ(retried->SerializeAsString(), original->SerializeAsString()) << spelling;
    }
    EXPECT_EQ(move_count(game.id), 2);

    // Still after the game has ended.
    ASSERT_TRUE(IsOk(client().resign(game.id, game.geese_token)));
    const Reply<v1::MakeMoveResponse> late = client().move(first, game.fox_token);
    ASSERT_TRUE(IsOk(late));
    EXPECT_EQ(late->SerializeAsString(), original->SerializeAsString());
    EXPECT_EQ(move_count(game.id), 2);
}

TEST_F(Concurrency, ARequestIdReusedForAnotherMoveIsInvalidArgument) {
    const SeatedGame game = start_game();
    ASSERT_TRUE(IsOk(client().move(request(game.id, "d4-d5", "reused"), game.fox_token)));
    play(game, "c3-c4");
    grpc::Status status;
    EXPECT_TRUE(
        RejectsUnchanged(game.id, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT", [&] {
            status = client().move(request(game.id, "d5-d6", "reused"), game.fox_token).status;
            return status;
        }));
    EXPECT_EQ(bad_request_field(status), "request_id");
}

TEST_F(Concurrency, RequestIdsBelongToOneGame) {
    const SeatedGame a = start_game();
    const SeatedGame b = start_game();
    const Reply<v1::MakeMoveResponse> in_a =
        client().move(request(a.id, "d4-d5", "shared-id"), a.fox_token);
    const Reply<v1::MakeMoveResponse> in_b =
        client().move(request(b.id, "d4-e5", "shared-id"), b.fox_token);
    ASSERT_TRUE(IsOk(in_a));
    ASSERT_TRUE(IsOk(in_b));
    EXPECT_EQ(in_b->move().notation(), "d4-e5");
    EXPECT_EQ(move_count(a.id), 1);
    EXPECT_EQ(move_count(b.id), 1);
}

// Concurrent CreateGame retries, counted in a database of their own (the
// retries one at a time: request_retries_test.cpp).
using Retries = ScratchServiceTest;

TEST_F(Retries, SixteenConcurrentCreatesWithOneRequestIdMakeOneGame) {
    v1::CreateGameRequest request = create_request("big_cross", v1::SEAT_CHOICE_FOX);
    request.set_request_id("6f1c2a52-0d3e-4c8a-9b1e-000000000003");
    std::vector<std::unique_ptr<ServiceClient>> clients;
    for (int i = 0; i < kThreads; ++i)
        clients.push_back(new_client());
    std::vector<Reply<v1::CreateGameResponse>> replies(kThreads);
    std::latch start(kThreads);
    std::atomic<int> throttled{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) {
        threads.emplace_back([&, i] {
            start.arrive_and_wait();
            replies[i] = with_backoff([&] { return clients[i]->create(request); }, throttled);
        });
    }
    for (std::thread& t : threads)
        t.join();
    std::set<std::string> ids;
    for (int i = 0; i < kThreads; ++i) {
        ASSERT_TRUE(IsOk(replies[i])) << "thread " << i;
        ids.insert(replies[i]->game().game_id());
        EXPECT_EQ(replies[i]->seat(), v1::SEAT_FOX);
    }
    EXPECT_EQ(ids.size(), 1u);
    EXPECT_EQ(count_rows("games"), 1);
    RecordProperty("throttled", throttled.load());
}

}  // namespace
}  // namespace foxgeese::test
