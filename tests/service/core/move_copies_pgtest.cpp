// A replica's copies of the games it moved in (storage/move_context_cache.h):
// the next move skips the read, and a copy that another replica or another
// RPC made stale costs a read again, never a wrong answer.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "storage/connection_pool.h"
#include "storage/postgres_game_store.h"
#include "storage/statements.h"
#include "tests/service/harness/service_harness.h"

namespace foxgeese::test {
namespace {

class MoveCopies : public ServiceTest {
  protected:
    void SetUp() override {
        ServiceTest::SetUp();
        pool_ = std::make_unique<storage::ConnectionPool>(database_url(), storage::PoolOptions{},
                                                          &storage::prepare_statements);
        store_ = std::make_unique<storage::PostgresGameStore>(*pool_);
    }
    void TearDown() override {
        store_.reset();
        pool_.reset();
        ServiceTest::TearDown();
    }

    // Another replica on the same database, reading the same clock.
    std::unique_ptr<service::Replica> start_replica(std::size_t copies = 10000) {
        service::ReplicaOptions options = test_replica_options(database_url(), &clock());
        options.game.move_cache_games = copies;
        return std::make_unique<service::Replica>(options);
    }

    // The side to move's token.
    static const std::string& mover(const SeatedGame& game, const v1::Game& now) {
        return now.side_to_move() == v1::SIDE_FOX ? game.fox_token : game.geese_token;
    }

    double reads(service::Replica& replica, const std::string& source) {
        return replica.metrics().move_reads.value({source});
    }

    // Fails unless the server's copy of the game is exactly what a read of
    // the database gives (the row, the repetition window, the version).
    void expect_copy_is_current(const std::string& game_id) {
        const auto copy = server().logic().move_cache().find(game_id, clock().now_us());
        ASSERT_NE(copy, nullptr) << "no copy kept";
        const std::optional<storage::MoveContext> read = store_->load_move_context(game_id, "");
        ASSERT_TRUE(read.has_value());
        EXPECT_TRUE(copy->game == read->game) << "the copied game row differs at ply "
                                              << read->game.ply;
        EXPECT_EQ(copy->window_occurrences, read->window_occurrences) << "at ply "
                                                                      << read->game.ply;
        EXPECT_EQ(copy->version, read->version);
        EXPECT_FALSE(copy->earlier_try.has_value());
    }

    std::unique_ptr<storage::ConnectionPool> pool_;
    std::unique_ptr<storage::PostgresGameStore> store_;
};

TEST_F(MoveCopies, AfterEveryMoveTheCopyIsWhatAReadGives) {
    // Captures (fox first: the first legal move is a jump when there is
    // one), quiet plies and repetitions over a whole game.
    const SeatedGame game = start_game("two_foxes");
    v1::Game now = game.game;
    int moves = 0;
    while (now.state() == v1::GAME_STATE_ACTIVE && moves < 80) {
        const Reply<v1::MakeMoveResponse> moved =
            client().move(game.id, now.legal_moves(0), mover(game, now));
        ASSERT_TRUE(IsOk(moved)) << "ply " << now.ply();
        now = moved->game();
        ++moves;
        if (now.state() == v1::GAME_STATE_ACTIVE) expect_copy_is_current(game.id);
    }
    // The first move read the game; every later one used the copy.
    EXPECT_EQ(reads(server(), "read"), 1);
    EXPECT_EQ(reads(server(), "copy"), moves - 1);
    EXPECT_EQ(reads(server(), "stale_copy"), 0);
    // A finished game is not kept.
    if (now.state() == v1::GAME_STATE_FINISHED) {
        EXPECT_EQ(server().logic().move_cache().find(game.id, clock().now_us()), nullptr);
    }
}

TEST_F(MoveCopies, ADrawOfferMakesTheCopyStaleAndTheMoveThatFollowsDeclinesIt) {
    const SeatedGame game = start_game();
    play(game, "d4-d5");
    // The fox offers while the geese are to move: the row changes, the copy
    // does not.
    ASSERT_TRUE(IsOk(client().offer_draw(game.id, game.fox_token)));
    WatchStream watch(server().grpc_port(), game.id);
    ASSERT_TRUE(watch.next().has_value());  // the snapshot
    const v1::MakeMoveResponse moved = play(game, "c3-c4");
    EXPECT_EQ(moved.game().draw_offered_by(), v1::SIDE_UNSPECIFIED);
    EXPECT_EQ(reads(server(), "stale_copy"), 1);
    const auto declined = watch.wait_for_event(
        [](const v1::WatchGameResponse& e) { return e.has_draw_answered(); });
    ASSERT_TRUE(declined.has_value()) << watch.describe_received();
    EXPECT_FALSE(declined->draw_answered().accepted());
    expect_copy_is_current(game.id);
}

TEST_F(MoveCopies, MovesAlternatingBetweenTwoReplicasAllApply) {
    const SeatedGame game = start_game("big_cross");
    const auto other = start_replica();
    ServiceClient other_client(other->grpc_port());
    v1::Game now = game.game;
    for (int ply = 0; ply < 12; ++ply) {
        ServiceClient& via = ply % 2 == 0 ? client() : other_client;
        const Reply<v1::MakeMoveResponse> moved =
            via.move(game.id, now.legal_moves(0), mover(game, now));
        ASSERT_TRUE(IsOk(moved)) << "ply " << ply;
        now = moved->game();
    }
    const Reply<v1::ListMovesResponse> listed = client().list_moves(game.id);
    ASSERT_TRUE(IsOk(listed));
    EXPECT_EQ(listed->moves_size(), 12);
    // Each replica's copy was one move behind every time but its first.
    EXPECT_EQ(reads(server(), "stale_copy"), 5);
    EXPECT_EQ(reads(*other, "stale_copy"), 5);
    EXPECT_EQ(reads(server(), "copy") + reads(*other, "copy"), 0);
}

TEST_F(MoveCopies, AMoveOnAStaleCopyAfterAResignationElsewhereIsGameOverAndWritesNothing) {
    const SeatedGame game = start_game();
    play(game, "d4-d5");  // this server keeps a copy: geese to move
    const auto other = start_replica();
    ServiceClient other_client(other->grpc_port());
    ASSERT_TRUE(IsOk(other_client.resign(game.id, game.fox_token)));
    EXPECT_TRUE(RejectsUnchanged(game.id, grpc::StatusCode::FAILED_PRECONDITION, "GAME_OVER", [&] {
        return client().move(game.id, "c3-c4", game.geese_token).status;
    }));
    EXPECT_EQ(reads(server(), "stale_copy"), 1);
}

TEST_F(MoveCopies, ARetryAfterTheGameMovedOnElsewhereGetsTheFirstAnswer) {
    const SeatedGame game = start_game();
    play(game, "d4-d5");  // this server's copy: ply 1, geese to move
    const auto other = start_replica();
    ServiceClient other_client(other->grpc_port());
    v1::MakeMoveRequest request;
    request.set_game_id(game.id);
    request.set_move("c3-c4");
    request.set_request_id(random_request_id());
    const Reply<v1::MakeMoveResponse> first = other_client.move(request, game.geese_token);
    ASSERT_TRUE(IsOk(first));
    // The same request here: legal on the stale copy, but the write finds
    // the row changed, and the read finds the first try.
    const Reply<v1::MakeMoveResponse> retry = client().move(request, game.geese_token);
    ASSERT_TRUE(IsOk(retry));
    EXPECT_EQ(retry->SerializeAsString(), first->SerializeAsString());
    const Reply<v1::ListMovesResponse> listed = client().list_moves(game.id);
    ASSERT_TRUE(IsOk(listed));
    EXPECT_EQ(listed->moves_size(), 2);
}

TEST_F(MoveCopies, ARetryLegalAgainOnACurrentCopyIsNotMadeASecondTime) {
    // The request_id's move is made at ply 2 and becomes legal again at
    // ply 7; every move goes through this server, so its copy is current
    // when the retry comes. The write's request_id check is what stops it.
    const SeatedGame game = start_game();
    play(game, "d4-d5");
    v1::MakeMoveRequest request;
    request.set_game_id(game.id);
    request.set_move("c3-d4");
    request.set_request_id(random_request_id());
    const Reply<v1::MakeMoveResponse> first = client().move(request, game.geese_token);
    ASSERT_TRUE(IsOk(first));
    play_all(game, {"d5-e5", "d4-d5", "e5-e6", "c2-c3", "e6-e7"});
    const Reply<v1::GetGameResponse> before = client().get(game.id);
    ASSERT_TRUE(IsOk(before));
    ASSERT_EQ(before->game().ply(), 7);
    const auto legal = to_vector(before->game().legal_moves());
    ASSERT_NE(std::find(legal.begin(), legal.end(), "c3-d4"), legal.end())
        << "the retried move is not legal again: the test checks nothing";

    const Reply<v1::MakeMoveResponse> retry = client().move(request, game.geese_token);
    ASSERT_TRUE(IsOk(retry));
    EXPECT_EQ(retry->SerializeAsString(), first->SerializeAsString());
    const Reply<v1::ListMovesResponse> listed = client().list_moves(game.id);
    ASSERT_TRUE(IsOk(listed));
    EXPECT_EQ(listed->moves_size(), 7);
}

TEST_F(MoveCopies, AWriteOnAContextReadBeforeAnotherChangeOfTheRowAppliesNothing) {
    // The compare-and-swap on the row version, on the store itself: a draw
    // offer changes neither the ply nor the state, only the version.
    const SeatedGame game = start_game();
    const std::optional<storage::MoveContext> read = store_->load_move_context(game.id, "");
    ASSERT_TRUE(read.has_value());
    ASSERT_TRUE(IsOk(client().offer_draw(game.id, game.geese_token)));

    storage::MoveWrite write;
    write.previous_ply = read->game.ply;
    write.previous_version = read->version;
    write.game_after = read->game;
    write.game_after.ply = read->game.ply + 1;
    write.move.game_id = game.id;
    write.move.ply = write.game_after.ply;
    write.move.notation = "d4-d5";
    write.move.side = storage::Side::kFox;
    write.move.position = read->game.position;
    write.move.state = storage::GameState::kActive;
    write.position_key = "never played";
    write.events = {"event"};
    EXPECT_FALSE(store_->apply_move(write).has_value());
    const Reply<v1::ListMovesResponse> listed = client().list_moves(game.id);
    ASSERT_TRUE(IsOk(listed));
    EXPECT_EQ(listed->moves_size(), 0);
    EXPECT_EQ(listed->game().draw_offered_by(), v1::SIDE_GEESE);
}

TEST_F(MoveCopies, AReplicaWithoutCopiesReadsForEveryMove) {
    const SeatedGame game = start_game();
    const auto reading = start_replica(0);
    ServiceClient reading_client(reading->grpc_port());
    v1::Game now = game.game;
    for (int ply = 0; ply < 6; ++ply) {
        const Reply<v1::MakeMoveResponse> moved =
            reading_client.move(game.id, now.legal_moves(0), mover(game, now));
        ASSERT_TRUE(IsOk(moved)) << "ply " << ply;
        now = moved->game();
    }
    EXPECT_EQ(reads(*reading, "read"), 6);
    EXPECT_EQ(reads(*reading, "copy"), 0);
    EXPECT_EQ(reading->logic().move_cache().size(), 0u);
}

}  // namespace
}  // namespace foxgeese::test
