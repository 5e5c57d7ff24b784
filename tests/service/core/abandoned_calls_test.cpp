// A call whose caller went away, or whose deadline passed, writes nothing:
// the check runs just before each commit, and the error says so
// (write_outcome NOT_APPLIED), so a client knows to retry as new.
#include <string>

#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using AbandonedCall = MemoryServiceTest;

service::CallContext gone() {
    service::CallContext call;
    call.cancelled = [] { return true; };
    return call;
}

service::CallContext late() {
    service::CallContext call;
    call.deadline = std::chrono::steady_clock::now() - std::chrono::milliseconds(1);
    return call;
}

void expect_not_applied(const service::ServiceError& error, service::StatusCode code,
                        const std::string& reason) {
    EXPECT_EQ(error.code, code) << error.message;
    EXPECT_EQ(error.reason, reason) << error.message;
    EXPECT_EQ(error.metadata.at("write_outcome"), "NOT_APPLIED");
}

TEST_F(AbandonedCall, NoWriteCommitsOnceTheCallerIsGoneOrLate) {
    using service::StatusCode;
    const SeatedGame game = start_game();
    const v1::CreateGameResponse open = create_game(create_request("standard"));
    const GameSnapshot before = snapshot(game.id);
    const GameSnapshot open_before = snapshot(open.game().game_id());
    service::GameService& logic = server().logic();
    for (const auto& [call, code, reason] :
         {std::tuple{gone(), StatusCode::kCancelled, "CANCELLED"},
          std::tuple{late(), StatusCode::kDeadlineExceeded, "DEADLINE_EXCEEDED"}}) {
        SCOPED_TRACE(reason);
        service::CallContext with_token = call;
        with_token.authorization = {"Bearer " + game.fox_token};

        v1::MakeMoveRequest move;
        move.set_game_id(game.id);
        move.set_move("d4-d5");
        auto moved = logic.make_move(move, with_token);
        ASSERT_FALSE(moved.ok());
        expect_not_applied(moved.error(), code, reason);

        v1::OfferDrawRequest offer;
        offer.set_game_id(game.id);
        auto offered = logic.offer_draw(offer, with_token);
        ASSERT_FALSE(offered.ok());
        expect_not_applied(offered.error(), code, reason);

        v1::JoinGameRequest join;
        join.set_game_id(open.game().game_id());
        join.set_invite_code(open.invite_code());
        auto joined = logic.join_game(join, call);
        ASSERT_FALSE(joined.ok());
        expect_not_applied(joined.error(), code, reason);

        v1::CreateGameRequest create = create_request("big_cross");
        create.set_request_id(random_request_id());
        auto created = logic.create_game(create, call);
        ASSERT_FALSE(created.ok());
        expect_not_applied(created.error(), code, reason);
        EXPECT_TRUE(IsOk(client().create(create))) << "the request id was not spent";
    }
    EXPECT_EQ(snapshot(game.id), before);
    EXPECT_EQ(snapshot(open.game().game_id()), open_before);
}

}  // namespace
}  // namespace foxgeese::test
