// WatchGame over gRPC across replicas. Two Replicas in this process share
// the run's database as two replicas would: each has its own pool, LISTEN
// connection and watch hub, so an event made through one reaches the other's
// watchers only through PostgreSQL's NOTIFY. Unless a test says otherwise,
// games are played through the fixture's server (A) and watched through a
// second one (B).
#include <google/protobuf/util/message_differencer.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <pqxx/pqxx>
#include <string>
#include <thread>
#include <vector>

#include "storage/statements.h"
#include "tests/service/harness/service_harness.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using Event = v1::WatchGameResponse;

// Passes when both messages hold the same fields and values; the message
// names each difference.
::testing::AssertionResult SameMessage(const google::protobuf::Message& expected,
                                       const google::protobuf::Message& actual) {
    google::protobuf::util::MessageDifferencer differencer;
    std::string differences;
    differencer.ReportDifferencesToString(&differences);
    if (differencer.Compare(expected, actual)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "expected vs actual:\n" << differences;
}

// The same, ignoring Game.update_time. Where moves may reach a hub together
// (any burst of moves), the game a MoveMade carries for an earlier move of
// the batch has the update_time of the latest one; see
// WatchCoalescing.MovesReadTogetherEachCarryTheGameAsItStoodAfterThem, which
// pins that down. The other tests check everything else.
::testing::AssertionResult SameGameButUpdateTime(v1::Game expected, v1::Game actual) {
    expected.clear_update_time();
    actual.clear_update_time();
    return SameMessage(expected, actual);
}

std::int64_t now_micros() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// The same seat presence (the spectator counts apart).
::testing::AssertionResult SameSeats(v1::Presence expected, v1::Presence actual) {
    expected.clear_spectators();
    actual.clear_spectators();
    return SameMessage(expected, actual);
}

// A database timestamp goes through a floating-point epoch on some
// PostgreSQL versions; it may come back a microsecond off.
constexpr std::int64_t kClockSlackUs = 1000;

WatchStream::Match fox_connected(bool connected) {
    return [connected](const Event& e) {
        return e.has_presence() && e.presence().fox().connected() == connected;
    };
}

WatchStream::Match is_move(int ply) {
    return [ply](const Event& e) { return e.has_move_made() && e.move_made().move().ply() == ply; };
}

bool is_heartbeat(const Event& e) {
    return e.has_heartbeat();
}

// A legal move of the side to move: a quiet one when there is one, so games
// last as long as a test needs them.
std::string quiet_move(const v1::Game& game) {
    for (const std::string& m : game.legal_moves()) {
        if (m.find('x') == std::string::npos) return m;
    }
    return game.legal_moves_size() > 0 ? game.legal_moves(0) : "";
}

// Makes the next (quiet) move with the token of the side to move.
v1::MakeMoveResponse play_next(ServiceClient& client, const SeatedGame& game) {
    Reply<v1::GetGameResponse> current = client.get(game.id);
    EXPECT_TRUE(IsOk(current));
    EXPECT_EQ(current->game().state(), v1::GAME_STATE_ACTIVE)
        << "the test needs the game to go on: " << current->game().ShortDebugString();
    const std::string notation = quiet_move(current->game());
    const std::string& token =
        current->game().side_to_move() == v1::SIDE_FOX ? game.fox_token : game.geese_token;
    Reply<v1::MakeMoveResponse> moved = client.move(game.id, notation, token);
    EXPECT_TRUE(IsOk(moved)) << "move " << notation << " at ply " << current->game().ply();
    return moved.response;
}

// Waits (polling, as the condition lives in the database) until `condition`
// holds or `timeout` passes; returns whether it held.
bool eventually(const std::function<bool()>& condition, Clock::duration timeout = 10s) {
    const auto deadline = Clock::now() + timeout;
    while (!condition()) {
        if (Clock::now() > deadline) return false;
        std::this_thread::sleep_for(20ms);
    }
    return true;
}

class WatchReplicas : public ServiceTest {
  protected:
    // Another replica on the same database, with its own pool, LISTEN
    // connection and hub.
    std::unique_ptr<service::Replica> start_replica(
        service::WatchHubOptions watch = test_watch_options(), int pool_size = 4,
        std::chrono::seconds drain = 10s) {
        service::ReplicaOptions options = test_replica_options(database_url());
        options.db_pool_size = pool_size;
        options.drain_timeout = drain;
        options.watch = watch;
        return std::make_unique<service::Replica>(options);
    }

    v1::MakeMoveResponse play_next(const SeatedGame& game) {
        return ::foxgeese::test::play_next(client(), game);
    }

    // Passes when the stream opens with a snapshot of the game as GetGame
    // shows it (and `moves` moves listed), then a Presence.
    ::testing::AssertionResult Opens(WatchStream& stream, const std::string& game_id,
                                     int moves = 0) {
        const std::optional<Event> snapshot = stream.next();
        if (!snapshot || !snapshot->has_snapshot()) {
            return ::testing::AssertionFailure() << "no snapshot first:\n"
                                                 << stream.describe_received();
        }
        if (!snapshot->has_time()) return ::testing::AssertionFailure() << "snapshot without time";
        Reply<v1::GetGameResponse> got = client().get(game_id);
        if (!got.ok()) return ::testing::AssertionFailure() << "GetGame: " << describe(got.status);
        ::testing::AssertionResult same = SameMessage(got->game(), snapshot->snapshot().game());
        if (!same) return same << "(snapshot vs GetGame)";
        if (snapshot->snapshot().moves_size() != moves) {
            return ::testing::AssertionFailure()
                   << "snapshot lists " << snapshot->snapshot().moves_size() << " moves, expected "
                   << moves;
        }
        const std::optional<Event> presence = stream.next();
        if (!presence || !presence->has_presence()) {
            return ::testing::AssertionFailure() << "no presence after the snapshot:\n"
                                                 << stream.describe_received();
        }
        return ::testing::AssertionSuccess();
    }

    // Passes when the next change on the stream is the MoveMade of `played`:
    // the same move, and the game as MakeMove returned it.
    ::testing::AssertionResult NextIsMove(WatchStream& stream, const v1::MakeMoveResponse& played,
                                          bool ignore_update_time = false) {
        const std::optional<Event> e = stream.next_change();
        if (!e || !e->has_move_made()) {
            return ::testing::AssertionFailure()
                   << "expected the MoveMade of ply " << played.move().ply() << ":\n"
                   << stream.describe_received();
        }
        if (!e->has_time()) return ::testing::AssertionFailure() << "MoveMade without time";
        ::testing::AssertionResult move = SameMessage(played.move(), e->move_made().move());
        if (!move) return move << "(MoveMade.move, ply " << played.move().ply() << ")";
        ::testing::AssertionResult game =
            ignore_update_time ? SameGameButUpdateTime(played.game(), e->move_made().game())
                               : SameMessage(played.game(), e->move_made().game());
        if (!game) return game << "(MoveMade.game, ply " << played.move().ply() << ")";
        return ::testing::AssertionSuccess();
    }

    // Passes when the stream ends with OK and nothing after the event taken
    // last.
    ::testing::AssertionResult EndsOk(WatchStream& stream) {
        const std::optional<grpc::Status> status = stream.wait_for_end();
        if (!status) {
            return ::testing::AssertionFailure() << "the stream is still open:\n"
                                                 << stream.describe_received();
        }
        if (!status->ok()) return ::testing::AssertionFailure() << "ended " << describe(*status);
        if (!stream.untaken().empty()) {
            return ::testing::AssertionFailure() << "events after the last one expected:\n"
                                                 << stream.describe_received();
        }
        return ::testing::AssertionSuccess();
    }
};

// ---------------------------------------------------------------------------
// Events across replicas.

TEST_F(WatchReplicas, AWatcherOnAnotherReplicaSeesTheJoinEveryMoveAndTheDrawsInOrder) {
    const v1::CreateGameResponse created = create_game(create_request("standard"));
    const std::string id = created.game().game_id();
    auto b = start_replica();
    WatchStream watch(b->grpc_port(), id);

    const std::optional<Event> snapshot = watch.next();
    ASSERT_TRUE(snapshot && snapshot->has_snapshot()) << watch.describe_received();
    EXPECT_EQ(snapshot->snapshot().game().state(), v1::GAME_STATE_WAITING);
    EXPECT_TRUE(SameMessage(client().get(id)->game(), snapshot->snapshot().game()));
    EXPECT_EQ(snapshot->snapshot().moves_size(), 0);
    // Presence follows at once, for a game in progress, and nobody is there.
    const std::optional<Event> presence = watch.next();
    ASSERT_TRUE(presence && presence->has_presence()) << watch.describe_received();
    EXPECT_FALSE(presence->presence().fox().connected());
    EXPECT_FALSE(presence->presence().fox().has_since());
    EXPECT_FALSE(presence->presence().geese().connected());
    EXPECT_FALSE(presence->presence().geese().has_since());

    const Reply<v1::JoinGameResponse> joined = client().join(id, created.invite_code());
    ASSERT_TRUE(IsOk(joined));
    const std::optional<Event> seat = watch.next_change();
    ASSERT_TRUE(seat && seat->has_seat_joined()) << watch.describe_received();
    EXPECT_EQ(seat->seat_joined().seat(), v1::SEAT_GEESE);
    EXPECT_EQ(seat->seat_joined().game().state(), v1::GAME_STATE_ACTIVE);
    EXPECT_TRUE(SameMessage(joined->game(), seat->seat_joined().game()));

    SeatedGame game{id, created.seat_token(), joined->seat_token(), created.invite_code(),
                    joined->game()};
    // One move at a time: each MoveMade carries exactly the game MakeMove
    // answered with.
    for (int ply = 1; ply <= 6; ++ply) {
        const v1::MakeMoveResponse played = play_next(game);
        ASSERT_EQ(played.move().ply(), ply);
        ASSERT_TRUE(NextIsMove(watch, played));
    }

    ASSERT_TRUE(IsOk(client().offer_draw(id, game.fox_token)));
    std::optional<Event> e = watch.next_change();
    ASSERT_TRUE(e && e->has_draw_offered()) << watch.describe_received();
    EXPECT_EQ(e->draw_offered().by(), v1::SIDE_FOX);
    ASSERT_TRUE(IsOk(client().respond_draw(id, false, game.geese_token)));
    e = watch.next_change();
    ASSERT_TRUE(e && e->has_draw_answered()) << watch.describe_received();
    EXPECT_FALSE(e->draw_answered().accepted());
    EXPECT_EQ(e->draw_answered().by(), v1::SIDE_GEESE);

    for (int ply = 7; ply <= 8; ++ply)
        ASSERT_TRUE(NextIsMove(watch, play_next(game)));

    ASSERT_TRUE(IsOk(client().offer_draw(id, game.geese_token)));
    e = watch.next_change();
    ASSERT_TRUE(e && e->has_draw_offered()) << watch.describe_received();
    EXPECT_EQ(e->draw_offered().by(), v1::SIDE_GEESE);
    const Reply<v1::RespondDrawResponse> accepted = client().respond_draw(id, true, game.fox_token);
    ASSERT_TRUE(IsOk(accepted));
    e = watch.next_change();
    ASSERT_TRUE(e && e->has_draw_answered()) << watch.describe_received();
    EXPECT_TRUE(e->draw_answered().accepted());
    EXPECT_EQ(e->draw_answered().by(), v1::SIDE_FOX);
    e = watch.next_change();
    ASSERT_TRUE(e && e->has_game_ended()) << watch.describe_received();
    EXPECT_EQ(e->game_ended().game().result(), v1::GAME_RESULT_DRAW);
    EXPECT_EQ(e->game_ended().game().end_reason(), v1::END_REASON_DRAW_AGREED);
    EXPECT_TRUE(SameMessage(accepted->game(), e->game_ended().game()));
    EXPECT_TRUE(EndsOk(watch));

    for (const Event& event : watch.received())
        EXPECT_TRUE(event.has_time()) << event.ShortDebugString();
}

TEST_F(WatchReplicas, MovesMadeInABurstArriveOnceEachAndInOrder) {
    const SeatedGame game = start_game();
    auto b = start_replica();
    WatchStream watch(b->grpc_port(), game.id);
    ASSERT_TRUE(Opens(watch, game.id));

    // No waiting between moves: the hub may read several at once.
    std::vector<v1::MakeMoveResponse> played;
    for (int i = 0; i < 12; ++i)
        played.push_back(play_next(game));
    for (const v1::MakeMoveResponse& move : played)
        ASSERT_TRUE(NextIsMove(watch, move, /*ignore_update_time=*/true));
    // A barrier: nothing was sent twice before the draw offer's event.
    ASSERT_TRUE(IsOk(client().offer_draw(game.id, game.fox_token)));
    const std::optional<Event> offer = watch.next_change();
    ASSERT_TRUE(offer && offer->has_draw_offered()) << watch.describe_received();
}

TEST_F(WatchReplicas, AMoveThatEndsTheGameIsFollowedByGameEndedAndAnOkEnd) {
    // The fox captures one of four geese, leaving fewer than the variant
    // needs to trap it.
    const SeatedGame game = start_game("standard", {}, "3/3/3F3/3G3/GG4G/3/3 f 0 20");
    auto b = start_replica();
    WatchStream watch(b->grpc_port(), game.id);
    ASSERT_TRUE(Opens(watch, game.id));

    const Reply<v1::MakeMoveResponse> moved = client().move(game.id, "d5xd3", game.fox_token);
    ASSERT_TRUE(IsOk(moved));
    ASSERT_EQ(moved->game().state(), v1::GAME_STATE_FINISHED);
    ASSERT_TRUE(NextIsMove(watch, moved.response));
    const std::optional<Event> ended = watch.next_change();
    ASSERT_TRUE(ended && ended->has_game_ended()) << watch.describe_received();
    EXPECT_EQ(ended->game_ended().game().result(), v1::GAME_RESULT_FOX_SIDE_WINS);
    EXPECT_EQ(ended->game_ended().game().end_reason(), v1::END_REASON_GEESE_BELOW_THRESHOLD);
    EXPECT_TRUE(SameMessage(moved->game(), ended->game_ended().game()));
    EXPECT_TRUE(EndsOk(watch));
}

TEST_F(WatchReplicas, AResignationEndsTheStreamWithGameEndedAndOk) {
    const SeatedGame game = start_game();
    auto b = start_replica();
    WatchStream watch(b->grpc_port(), game.id);
    ASSERT_TRUE(Opens(watch, game.id));
    for (int i = 0; i < 3; ++i)
        ASSERT_TRUE(NextIsMove(watch, play_next(game)));

    const Reply<v1::ResignGameResponse> resigned = client().resign(game.id, game.geese_token);
    ASSERT_TRUE(IsOk(resigned));
    const std::optional<Event> ended = watch.next_change();
    ASSERT_TRUE(ended && ended->has_game_ended()) << watch.describe_received();
    EXPECT_EQ(ended->game_ended().game().result(), v1::GAME_RESULT_FOX_SIDE_WINS);
    EXPECT_EQ(ended->game_ended().game().end_reason(), v1::END_REASON_RESIGNATION);
    EXPECT_TRUE(SameMessage(resigned->game(), ended->game_ended().game()));
    EXPECT_TRUE(EndsOk(watch));
    EXPECT_TRUE(eventually([&] { return b->hub().active_watchers() == 0; }));
}

// As a server of the release before migration 0014 records it: an event
// without its kind. The hub reads the kind from the body, so GameEnded still
// ends the stream.
TEST_F(WatchReplicas, AGameEndedRecordedWithoutItsKindStillEndsTheStream) {
    const SeatedGame game = start_game();
    WatchStream watch(server().grpc_port(), game.id);
    ASSERT_TRUE(Opens(watch, game.id));
    Event ended;
    ended.mutable_game_ended()->mutable_game()->set_game_id(game.id);
    {
        pqxx::connection connection(database_url());
        pqxx::work tx(connection);
        tx.exec_params("UPDATE games SET event_seq = event_seq + 1 WHERE game_id = $1::uuid",
                       game.id);
        tx.exec_params(
            "INSERT INTO game_events (game_id, seq, body, created_at)"
            " SELECT game_id, event_seq, $2, now() FROM games WHERE game_id = $1::uuid",
            game.id, pqxx::binarystring(ended.SerializeAsString()));
        tx.exec_params("SELECT pg_notify('foxgeese_events', $1)", game.id);
        tx.commit();
    }
    const std::optional<Event> heard = watch.next_change();
    ASSERT_TRUE(heard && heard->has_game_ended()) << watch.describe_received();
    EXPECT_EQ(heard->game_ended().game().game_id(), game.id);
    EXPECT_TRUE(EndsOk(watch));
}

// ---------------------------------------------------------------------------
// Changes the hub reads together. Holding every connection of B's pool keeps
// B's hub from reading the game until the test lets go, so everything done
// through A meanwhile reaches B's watchers in one read, deterministically.

using WatchCoalescing = WatchReplicas;

// Runs `body` while B's hub cannot read the database.
void while_unable_to_read(service::Replica& server, const std::function<void()>& body) {
    std::vector<storage::ConnectionPool::Lease> held;
    held.reserve(static_cast<std::size_t>(server.pool().size()));
    for (int i = 0; i < server.pool().size(); ++i)
        held.push_back(server.pool().acquire());
    body();
}

TEST_F(WatchCoalescing, MovesReadTogetherArriveOnceEachAndInOrder) {
    const SeatedGame game = start_game();
    auto b = start_replica({}, /*pool_size=*/2);
    WatchStream watch(b->grpc_port(), game.id);
    ASSERT_TRUE(Opens(watch, game.id));

    std::vector<v1::MakeMoveResponse> played;
    while_unable_to_read(*b, [&] {
        for (int i = 0; i < 4; ++i)
            played.push_back(play_next(game));
    });
    for (const v1::MakeMoveResponse& move : played)
        ASSERT_TRUE(NextIsMove(watch, move, /*ignore_update_time=*/true));
}

// The proto: MoveMade.game is "the game right after the move". For a move
// read together with later changes the hub sends the latest game with that
// move's position, so its update_time and draw_offered_by belong to a later
// state: here the first two moves arrive with the draw offered after them
// already pending, before the DrawOffered event.
TEST_F(WatchCoalescing, MovesReadTogetherEachCarryTheGameAsItStoodAfterThem) {
    const SeatedGame game = start_game();
    auto b = start_replica({}, /*pool_size=*/2);
    WatchStream watch(b->grpc_port(), game.id);
    ASSERT_TRUE(Opens(watch, game.id));

    std::vector<v1::MakeMoveResponse> played;
    while_unable_to_read(*b, [&] {
        for (int i = 0; i < 2; ++i)
            played.push_back(play_next(game));
        ASSERT_TRUE(IsOk(client().offer_draw(game.id, game.fox_token)));
    });
    for (const v1::MakeMoveResponse& move : played)
        EXPECT_TRUE(NextIsMove(watch, move));
    const std::optional<Event> offer = watch.next_change();
    ASSERT_TRUE(offer && offer->has_draw_offered()) << watch.describe_received();
}

// The same for SeatJoined, "the game after the join": read together with the
// first moves, it carries the game as it stood after them, so a client that
// takes it as its state jumps ahead, then gets those moves again.
TEST_F(WatchCoalescing, ASeatJoinedReadTogetherWithMovesCarriesTheGameAsItStoodAfterTheJoin) {
    const v1::CreateGameResponse created = create_game(create_request("standard"));
    const std::string id = created.game().game_id();
    auto b = start_replica({}, /*pool_size=*/2);
    WatchStream watch(b->grpc_port(), id);
    ASSERT_TRUE(Opens(watch, id));

    Reply<v1::JoinGameResponse> joined;
    std::vector<v1::MakeMoveResponse> played;
    while_unable_to_read(*b, [&] {
        joined = client().join(id, created.invite_code());
        ASSERT_TRUE(IsOk(joined));
        const SeatedGame game{id, created.seat_token(), joined->seat_token(), created.invite_code(),
                              joined->game()};
        for (int i = 0; i < 2; ++i)
            played.push_back(play_next(game));
    });
    const std::optional<Event> seat = watch.next_change();
    ASSERT_TRUE(seat && seat->has_seat_joined()) << watch.describe_received();
    EXPECT_EQ(seat->seat_joined().game().ply(), 0);
    EXPECT_TRUE(SameMessage(joined->game(), seat->seat_joined().game()));
    for (const v1::MakeMoveResponse& move : played)
        EXPECT_TRUE(NextIsMove(watch, move, /*ignore_update_time=*/true));
}

// The hub derives DrawOffered / DrawAnswered from the difference between two
// reads of the game, so an offer made and answered between two reads leaves
// no trace. The proto promises watchers every event.
TEST_F(WatchCoalescing, ADrawOfferedAndDeclinedBetweenTwoReadsStillReachesWatchers) {
    const SeatedGame game = start_game();
    auto b = start_replica({}, /*pool_size=*/2);
    WatchStream watch(b->grpc_port(), game.id);
    ASSERT_TRUE(Opens(watch, game.id));

    v1::MakeMoveResponse played;
    while_unable_to_read(*b, [&] {
        ASSERT_TRUE(IsOk(client().offer_draw(game.id, game.fox_token)));
        ASSERT_TRUE(IsOk(client().respond_draw(game.id, false, game.geese_token)));
        played = play_next(game);
    });
    std::optional<Event> e = watch.next_change();
    ASSERT_TRUE(e && e->has_draw_offered()) << watch.describe_received();
    EXPECT_EQ(e->draw_offered().by(), v1::SIDE_FOX);
    e = watch.next_change();
    ASSERT_TRUE(e && e->has_draw_answered()) << watch.describe_received();
    EXPECT_FALSE(e->draw_answered().accepted());
    EXPECT_EQ(e->draw_answered().by(), v1::SIDE_GEESE);
    EXPECT_TRUE(NextIsMove(watch, played, /*ignore_update_time=*/true));
}

// ---------------------------------------------------------------------------
// Resuming with from_ply, and errors before the first event.

using WatchResume = WatchReplicas;

TEST_F(WatchResume, ReconnectingWithFromPlyGetsExactlyTheMissedMovesThenLiveOnes) {
    const SeatedGame game = start_game();
    auto b = start_replica();
    std::vector<int> plies;  // every ply seen, over all streams

    {
        WatchStream first(b->grpc_port(), game.id);
        ASSERT_TRUE(Opens(first, game.id));
        for (int i = 0; i < 3; ++i) {
            const v1::MakeMoveResponse played = play_next(game);
            ASSERT_TRUE(NextIsMove(first, played));
            plies.push_back(played.move().ply());
        }
        first.cancel();
    }
    // Missed while disconnected.
    for (int i = 0; i < 3; ++i)
        play_next(game);

    WatchStream second(b->grpc_port(), game.id, /*from_ply=*/3);
    const std::optional<Event> snapshot = second.next();
    ASSERT_TRUE(snapshot && snapshot->has_snapshot()) << second.describe_received();
    const Reply<v1::ListMovesResponse> stored = client().list_moves(game.id);
    ASSERT_TRUE(IsOk(stored));
    ASSERT_EQ(stored->moves_size(), 6);
    ASSERT_EQ(snapshot->snapshot().moves_size(), 3);
    for (int i = 0; i < 3; ++i) {
        EXPECT_TRUE(SameMessage(stored->moves(3 + i), snapshot->snapshot().moves(i)));
        plies.push_back(snapshot->snapshot().moves(i).ply());
    }
    EXPECT_EQ(snapshot->snapshot().game().ply(), 6);
    EXPECT_TRUE(SameMessage(stored->game(), snapshot->snapshot().game()));
    const std::optional<Event> presence = second.next();
    ASSERT_TRUE(presence && presence->has_presence()) << second.describe_received();

    // Live again.
    for (int i = 0; i < 3; ++i) {
        const v1::MakeMoveResponse played = play_next(game);
        ASSERT_TRUE(NextIsMove(second, played));
        plies.push_back(played.move().ply());
    }
    EXPECT_EQ(plies, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
    EXPECT_TRUE(second.untaken().empty()) << second.describe_received();
}

TEST_F(WatchResume, ResumingWhileMovesKeepComingMissesNothingAndRepeatsNothing) {
    const SeatedGame game = start_game();
    auto b = start_replica();
    constexpr int kMoves = 24;
    // The player plays through A as fast as it can while the watcher keeps
    // dropping its stream and resuming on the other replica.
    std::unique_ptr<ServiceClient> player_client = new_client();
    std::vector<v1::MakeMoveResponse> played;
    std::thread player([&] {
        for (int i = 0; i < kMoves; ++i)
            played.push_back(::foxgeese::test::play_next(*player_client, game));
    });
    struct JoinAtExit {
        std::thread& t;
        ~JoinAtExit() {
            if (t.joinable()) t.join();
        }
    } join_player{player};

    std::vector<v1::Move> seen;
    int last = 0;
    int streams = 0;
    const auto give_up = Clock::now() + 90s;
    while (last < kMoves && Clock::now() < give_up) {
        const int port = streams % 2 == 0 ? b->grpc_port() : server().grpc_port();
        ++streams;
        WatchStream watch(port, game.id, last);
        const std::optional<Event> snapshot = watch.next();
        ASSERT_TRUE(snapshot && snapshot->has_snapshot()) << watch.describe_received();
        for (const v1::Move& m : snapshot->snapshot().moves()) {
            ASSERT_EQ(m.ply(), last + 1)
                << "snapshot of stream " << streams << " from ply " << last << ":\n"
                << watch.describe_received();
            seen.push_back(m);
            last = m.ply();
        }
        ASSERT_EQ(snapshot->snapshot().game().ply(), last)
            << "the snapshot's game and its move list disagree";
        // A few live moves, then the connection drops again.
        for (int i = 0; i < 3 && last < kMoves; ++i) {
            const std::optional<Event> e = watch.next_change();
            ASSERT_TRUE(e && e->has_move_made()) << watch.describe_received();
            ASSERT_EQ(e->move_made().move().ply(), last + 1) << watch.describe_received();
            seen.push_back(e->move_made().move());
            last = e->move_made().move().ply();
        }
        watch.cancel();
    }
    player.join();
    ASSERT_EQ(last, kMoves);
    ASSERT_EQ(static_cast<int>(seen.size()), kMoves);
    ASSERT_EQ(static_cast<int>(played.size()), kMoves);
    for (int i = 0; i < kMoves; ++i)
        EXPECT_TRUE(SameMessage(played[static_cast<std::size_t>(i)].move(),
                                seen[static_cast<std::size_t>(i)]));
}

TEST_F(WatchResume, FromPlyAtTheCurrentPlyGivesAnEmptyMoveList) {
    const SeatedGame game = start_game();
    play_next(game);
    play_next(game);
    auto b = start_replica();
    WatchStream watch(b->grpc_port(), game.id, /*from_ply=*/2);
    ASSERT_TRUE(Opens(watch, game.id, /*moves=*/0));
    // And from 0 the whole game.
    WatchStream whole(b->grpc_port(), game.id, /*from_ply=*/0);
    ASSERT_TRUE(Opens(whole, game.id, /*moves=*/2));
}

TEST_F(WatchResume, FromPlyBeyondTheGameOrNegativeIsInvalidArgument) {
    const SeatedGame game = start_game();
    play_next(game);
    auto b = start_replica();
    for (const int from_ply : {2, 1000, -1}) {
        WatchStream watch(b->grpc_port(), game.id, from_ply);
        const std::optional<grpc::Status> status = watch.wait_for_end();
        ASSERT_TRUE(status) << "from_ply " << from_ply;
        EXPECT_TRUE(IsError(*status, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"))
            << "from_ply " << from_ply;
        EXPECT_EQ(bad_request_field(*status), "from_ply");
        EXPECT_TRUE(watch.received().empty()) << watch.describe_received();
    }
}

TEST_F(WatchResume, AnUnknownGameIsNotFound) {
    auto b = start_replica();
    WatchStream watch(b->grpc_port(), kUnknownGameId);
    const std::optional<grpc::Status> status = watch.wait_for_end();
    ASSERT_TRUE(status);
    EXPECT_TRUE(IsError(*status, grpc::StatusCode::NOT_FOUND, "GAME_NOT_FOUND"));
    const auto info = error_info(*status);
    ASSERT_TRUE(info);
    EXPECT_EQ(info->metadata().at("game_id"), kUnknownGameId);
    EXPECT_TRUE(watch.received().empty());
    // An unknown game leaves nothing watched behind.
    EXPECT_EQ(b->hub().active_watchers(), 0);
}

TEST_F(WatchResume, AMalformedOrMissingGameIdIsInvalidArgument) {
    auto b = start_replica();
    for (const std::string id : {"", "not-a-uuid", "00000000-0000-4000-8000-00000000000g"}) {
        WatchStream watch(b->grpc_port(), id);
        const std::optional<grpc::Status> status = watch.wait_for_end();
        ASSERT_TRUE(status) << "'" << id << "'";
        EXPECT_TRUE(IsError(*status, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"))
            << "'" << id << "'";
        EXPECT_EQ(bad_request_field(*status), "game_id") << "'" << id << "'";
        EXPECT_TRUE(watch.received().empty());
    }
}

TEST_F(WatchResume, AnInvalidTokenIsRefusedBeforeTheFirstEvent) {
    const SeatedGame game = start_game();
    const SeatedGame other = start_game();
    auto b = start_replica();
    for (const Auth& auth :
         {Auth::header("Bearer not-a-token"), Auth(kUnknownToken), Auth(other.fox_token),
          Auth::header("Basic " + game.fox_token), Auth::header(game.fox_token)}) {
        WatchStream watch(b->grpc_port(), game.id, std::nullopt, auth);
        const std::optional<grpc::Status> status = watch.wait_for_end();
        ASSERT_TRUE(status) << *auth.value();
        EXPECT_TRUE(IsError(*status, grpc::StatusCode::UNAUTHENTICATED, "TOKEN_INVALID"))
            << *auth.value();
        EXPECT_TRUE(watch.received().empty()) << *auth.value();
    }
    // The game's own tokens are accepted.
    WatchStream fox(b->grpc_port(), game.id, std::nullopt, game.fox_token);
    EXPECT_TRUE(Opens(fox, game.id));
}

TEST_F(WatchResume, AFinishedGameGetsItsSnapshotAndTheStreamEndsAtOnce) {
    const SeatedGame game = start_game();
    play_next(game);
    ASSERT_TRUE(IsOk(client().resign(game.id, game.fox_token)));
    auto b = start_replica();
    for (const std::optional<int> from_ply : {std::optional<int>(), std::optional<int>(0)}) {
        WatchStream watch(b->grpc_port(), game.id, from_ply, game.geese_token);
        const std::optional<Event> snapshot = watch.next();
        ASSERT_TRUE(snapshot && snapshot->has_snapshot()) << watch.describe_received();
        EXPECT_EQ(snapshot->snapshot().game().state(), v1::GAME_STATE_FINISHED);
        EXPECT_TRUE(SameMessage(client().get(game.id)->game(), snapshot->snapshot().game()));
        EXPECT_EQ(snapshot->snapshot().moves_size(), from_ply ? 1 : 0);
        // No presence for a finished game: the snapshot is all.
        EXPECT_TRUE(EndsOk(watch));
    }
    EXPECT_EQ(b->hub().active_watchers(), 0);
}

// ---------------------------------------------------------------------------
// Presence.

using WatchPresence = WatchReplicas;

TEST_F(WatchPresence, ASeatHolderWatchingOnOneReplicaShowsAsConnectedOnTheOther) {
    const SeatedGame game = start_game();
    auto b = start_replica();
    WatchStream spectator(b->grpc_port(), game.id);
    ASSERT_TRUE(Opens(spectator, game.id));

    const std::int64_t before_connect = now_micros();
    auto fox = std::make_unique<WatchStream>(server().grpc_port(), game.id, std::nullopt,
                                             Auth(game.fox_token));
    std::optional<Event> e = fox->next();
    ASSERT_TRUE(e && e->has_snapshot()) << fox->describe_received();
    // The seat holder's own stream shows its seat connected.
    e = fox->next();
    ASSERT_TRUE(e && e->has_presence()) << fox->describe_received();
    EXPECT_TRUE(e->presence().fox().connected());
    EXPECT_FALSE(e->presence().geese().connected());
    const std::int64_t after_connect = now_micros();

    e = spectator.wait_for_event(fox_connected(true));
    ASSERT_TRUE(e) << spectator.describe_received();
    EXPECT_FALSE(e->presence().geese().connected());
    ASSERT_TRUE(e->presence().fox().has_since());
    const std::int64_t connected_since = micros(e->presence().fox().since());
    EXPECT_GE(connected_since, before_connect - kClockSlackUs);
    EXPECT_LE(connected_since, after_connect + kClockSlackUs);

    // The seat holder leaves: gone, since it left.
    const std::int64_t before_leave = now_micros();
    fox->cancel();
    e = spectator.wait_for_event(fox_connected(false));
    ASSERT_TRUE(e) << spectator.describe_received();
    ASSERT_TRUE(e->presence().fox().has_since());
    EXPECT_GE(micros(e->presence().fox().since()), before_leave - kClockSlackUs);
    EXPECT_LE(micros(e->presence().fox().since()), now_micros() + kClockSlackUs);
    EXPECT_FALSE(e->presence().geese().connected());
}

TEST_F(WatchPresence, AReconnectingWatcherGetsTheCurrentPresenceRightAfterItsSnapshot) {
    const SeatedGame game = start_game();
    auto b = start_replica();
    WatchStream spectator(b->grpc_port(), game.id);
    ASSERT_TRUE(Opens(spectator, game.id));
    auto fox = std::make_unique<WatchStream>(server().grpc_port(), game.id, std::nullopt,
                                             Auth(game.fox_token));
    const std::optional<Event> connected = spectator.wait_for_event(fox_connected(true));
    ASSERT_TRUE(connected) << spectator.describe_received();

    // Nothing changed for these newcomers, yet each gets presence as it is,
    // on the replica that already watches the game and on the other (the
    // seats; the spectators count the newcomer too: WatchSpectators).
    for (const int port : {b->grpc_port(), server().grpc_port()}) {
        WatchStream late(port, game.id, /*from_ply=*/0);
        ASSERT_TRUE(late.next()) << late.describe_received();
        const std::optional<Event> presence = late.next();
        ASSERT_TRUE(presence && presence->has_presence()) << late.describe_received();
        EXPECT_TRUE(SameSeats(connected->presence(), presence->presence()));
    }

    fox->cancel();
    const std::optional<Event> gone = spectator.wait_for_event(fox_connected(false));
    ASSERT_TRUE(gone) << spectator.describe_received();
    WatchStream late(b->grpc_port(), game.id);
    ASSERT_TRUE(late.next()) << late.describe_received();
    const std::optional<Event> presence = late.next();
    ASSERT_TRUE(presence && presence->has_presence()) << late.describe_received();
    EXPECT_TRUE(SameSeats(gone->presence(), presence->presence()));
}

TEST_F(WatchPresence, ABothSeatsTokenMarksBothSidesConnected) {
    const v1::CreateGameResponse created =
        create_game(create_request("standard", v1::SEAT_CHOICE_BOTH));
    ASSERT_EQ(created.seat(), v1::SEAT_BOTH);
    const std::string id = created.game().game_id();
    auto b = start_replica();
    WatchStream spectator(b->grpc_port(), id);
    ASSERT_TRUE(Opens(spectator, id));

    auto both = std::make_unique<WatchStream>(server().grpc_port(), id, std::nullopt,
                                              Auth(created.seat_token()));
    ASSERT_TRUE(Opens(*both, id));
    const std::optional<Event> on = spectator.wait_for_event([](const Event& e) {
        return e.has_presence() && e.presence().fox().connected() &&
               e.presence().geese().connected();
    });
    ASSERT_TRUE(on) << spectator.describe_received();

    both->cancel();
    const std::optional<Event> off = spectator.wait_for_event([](const Event& e) {
        return e.has_presence() && !e.presence().fox().connected() &&
               !e.presence().geese().connected();
    });
    ASSERT_TRUE(off) << spectator.describe_received();
    EXPECT_TRUE(off->presence().fox().has_since());
    EXPECT_TRUE(off->presence().geese().has_since());
}

TEST_F(WatchPresence, ASeatStaysConnectedUntilItsLastStreamCloses) {
    const SeatedGame game = start_game();
    auto b = start_replica();
    WatchStream spectator(b->grpc_port(), game.id);
    ASSERT_TRUE(Opens(spectator, game.id));
    // The fox side watches from two devices, one on each replica.
    auto on_a = std::make_unique<WatchStream>(server().grpc_port(), game.id, std::nullopt,
                                              Auth(game.fox_token));
    auto on_b =
        std::make_unique<WatchStream>(b->grpc_port(), game.id, std::nullopt, Auth(game.fox_token));
    ASSERT_TRUE(Opens(*on_a, game.id));
    ASSERT_TRUE(Opens(*on_b, game.id));
    ASSERT_TRUE(spectator.wait_for_event(fox_connected(true))) << spectator.describe_received();

    on_a->cancel();
    // Once A has recorded the departure, a move is a barrier: its NOTIFY
    // comes after the departure's, so any Presence the departure caused
    // reaches the spectator before the MoveMade.
    pqxx::connection db(database_url());
    ASSERT_TRUE(eventually([&] {
        pqxx::nontransaction tx(db);
        return tx.exec_params1(
                     "SELECT count(*) FROM seat_presence WHERE game_id = $1::uuid"
                     " AND side = 1",
                     game.id)[0]
                   .as<int>() == 1;
    }));
    const v1::MakeMoveResponse played = play_next(game);
    ASSERT_TRUE(spectator.wait_for_event(is_move(played.move().ply())))
        << spectator.describe_received();
    for (const Event& e : spectator.received()) {
        EXPECT_FALSE(e.has_presence() && e.presence().fox().has_since() &&
                     !e.presence().fox().connected())
            << "the fox side still watches on B:\n"
            << spectator.describe_received();
    }

    on_b->cancel();
    EXPECT_TRUE(spectator.wait_for_event(fox_connected(false))) << spectator.describe_received();
}

// ---------------------------------------------------------------------------
// Heartbeats.

using WatchHeartbeat = WatchReplicas;

TEST_F(WatchHeartbeat, AQuietStreamGetsHeartbeatsAtTheConfiguredInterval) {
    const SeatedGame game = start_game();
    service::WatchHubOptions watch;
    watch.heartbeat_interval = 300ms;
    auto b = start_replica(watch);
    WatchStream spectator(b->grpc_port(), game.id);
    WatchStream fox(b->grpc_port(), game.id, std::nullopt, game.fox_token);
    ASSERT_TRUE(Opens(spectator, game.id));
    ASSERT_TRUE(Opens(fox, game.id));

    for (WatchStream* stream : {&spectator, &fox}) {
        std::vector<std::int64_t> times;
        for (int i = 0; i < 3; ++i) {
            const std::optional<Event> beat = stream->wait_for_event(is_heartbeat);
            ASSERT_TRUE(beat) << stream->describe_received();
            ASSERT_TRUE(beat->has_time());
            times.push_back(micros(beat->time()));
        }
        // Not more often than the interval (300 ms, less a little for the
        // gap between stamping an event and noting that it was sent).
        for (std::size_t i = 1; i < times.size(); ++i)
            EXPECT_GE(times[i] - times[i - 1], 250'000) << stream->describe_received();
    }
    // A heartbeat never stands in for an event: a move still arrives.
    const v1::MakeMoveResponse played = play_next(game);
    EXPECT_TRUE(NextIsMove(spectator, played));
}

// ---------------------------------------------------------------------------
// Shutdown.

using WatchShutdown = WatchReplicas;

TEST_F(WatchShutdown, ShuttingAReplicaDownEndsItsStreamsWithUnavailableWellBeforeTheDrainTime) {
    const SeatedGame game = start_game();
    play_next(game);
    auto b = start_replica({}, 4, /*drain=*/10s);
    WatchStream spectator(b->grpc_port(), game.id);
    WatchStream fox(b->grpc_port(), game.id, std::nullopt, game.fox_token);
    ASSERT_TRUE(Opens(spectator, game.id));
    ASSERT_TRUE(Opens(fox, game.id));

    const auto start = Clock::now();
    b->shutdown();
    const auto shutdown_took = Clock::now() - start;
    for (WatchStream* stream : {&spectator, &fox}) {
        const std::optional<grpc::Status> status = stream->wait_for_end(5s);
        ASSERT_TRUE(status) << "still open after the shutdown:\n" << stream->describe_received();
        EXPECT_EQ(status->error_code(), grpc::StatusCode::UNAVAILABLE) << describe(*status);
    }
    const auto streams_ended = Clock::now() - start;
    EXPECT_LT(shutdown_took, 5s);
    EXPECT_LT(streams_ended, 5s);

    // The client's way on: resume on another replica from the last ply seen.
    WatchStream resumed(server().grpc_port(), game.id, /*from_ply=*/1, game.fox_token);
    ASSERT_TRUE(Opens(resumed, game.id, /*moves=*/0));
    EXPECT_TRUE(NextIsMove(resumed, play_next(game)));
}

TEST_F(WatchShutdown, AReplicaThatShutsDownMarksItsSeatHoldersGoneAtOnce) {
    const SeatedGame game = start_game();
    auto b = start_replica();
    WatchStream spectator(server().grpc_port(), game.id);
    ASSERT_TRUE(Opens(spectator, game.id));
    WatchStream fox(b->grpc_port(), game.id, std::nullopt, game.fox_token);
    ASSERT_TRUE(Opens(fox, game.id));
    ASSERT_TRUE(spectator.wait_for_event(fox_connected(true))) << spectator.describe_received();

    // A's presence TTL is the default 20 s: seeing the seat gone sooner means
    // B said so when it stopped, not that its rows expired.
    const auto start = Clock::now();
    b->shutdown();
    const std::optional<Event> gone = spectator.wait_for_event(fox_connected(false));
    ASSERT_TRUE(gone) << spectator.describe_received();
    EXPECT_LT(Clock::now() - start, 10s);
    EXPECT_TRUE(gone->presence().fox().has_since());
}

// ---------------------------------------------------------------------------
// Fan-out.

class WatchFanOut : public WatchReplicas {
  protected:
    // 200 watchers of one game on replica B (its hub with `watch`), ten moves
    // and a resignation: each watcher gets every move once, in order, then
    // GameEnded and the end.
    void every_watcher_gets_every_move(const service::WatchHubOptions& watch);
};

void WatchFanOut::every_watcher_gets_every_move(const service::WatchHubOptions& watch) {
    constexpr int kWatchers = 200;
    constexpr int kChannels = 8;
    constexpr int kMoves = 10;
    const SeatedGame game = start_game();
    auto b = start_replica(watch);
    std::vector<std::shared_ptr<grpc::Channel>> channels;
    for (int i = 0; i < kChannels; ++i)
        channels.push_back(new_channel(b->grpc_port()));
    std::vector<std::unique_ptr<WatchStream>> watchers;
    for (int i = 0; i < kWatchers; ++i) {
        watchers.push_back(std::make_unique<WatchStream>(
            channels[static_cast<std::size_t>(i % kChannels)], game.id));
    }
    for (auto& w : watchers) {
        const std::optional<Event> snapshot = w->next(30s);
        ASSERT_TRUE(snapshot && snapshot->has_snapshot()) << w->describe_received();
        ASSERT_TRUE(w->wait_for_event([](const Event& e) { return e.has_presence(); }, 30s));
    }
    ASSERT_EQ(b->hub().active_watchers(), kWatchers);

    std::vector<v1::MakeMoveResponse> played;
    for (int i = 0; i < kMoves; ++i)
        played.push_back(play_next(game));
    ASSERT_TRUE(IsOk(client().resign(game.id, game.geese_token)));

    for (std::size_t i = 0; i < watchers.size(); ++i) {
        WatchStream& w = *watchers[i];
        for (const v1::MakeMoveResponse& move : played) {
            const std::optional<Event> e = w.next_change(30s);
            ASSERT_TRUE(e && e->has_move_made()) << "watcher " << i << ":\n"
                                                 << w.describe_received();
            ASSERT_TRUE(SameMessage(move.move(), e->move_made().move())) << "watcher " << i;
        }
        const std::optional<Event> ended = w.next_change(30s);
        ASSERT_TRUE(ended && ended->has_game_ended()) << "watcher " << i << ":\n"
                                                      << w.describe_received();
        ASSERT_TRUE(EndsOk(w)) << "watcher " << i;
    }
    EXPECT_TRUE(eventually([&] { return b->hub().active_watchers() == 0; }));
}

TEST_F(WatchFanOut, TwoHundredWatchersOnOneReplicaEachGetEveryMoveInOrder) {
    service::WatchHubOptions one_thread = test_watch_options();
    one_thread.walk_helpers = 0;
    every_watcher_gets_every_move(one_thread);
}

// The walk over the 200 split into parts of 16 on four threads: a watcher's
// events still arrive once each and in order.
TEST_F(WatchFanOut, WithTheWalkSplitAcrossThreadsEachWatcherStillGetsEveryMoveInOrder) {
    service::WatchHubOptions split = test_watch_options();
    split.walk_helpers = 3;
    split.watchers_per_walk_part = 16;
    every_watcher_gets_every_move(split);
}

// A sink that notes, in a log shared with others, the order in which the
// hub's walk handed MoveMade events to it.
class OrderSink : public service::WatchSink {
  public:
    struct Log {
        std::mutex mutex;
        std::vector<int> moves;  // the sinks' numbers, in delivery order
    };
    OrderSink(Log& log, int number, bool inline_sends)
        : log_(log), number_(number), inline_(inline_sends) {}
    void deliver(const std::shared_ptr<const service::WatchEvent>& event) override {
        if (!event->message().has_move_made()) return;
        std::lock_guard lock(log_.mutex);
        log_.moves.push_back(number_);
    }
    void close(service::WatchEnd) override {}
    bool sends_inline() const override { return inline_; }

  private:
    Log& log_;
    const int number_;
    const bool inline_;
};

// Watchers whose sink sends inline (NDJSON) get an event before those whose
// sink hands it to another thread (gRPC), however they were subscribed.
TEST_F(WatchFanOut, SinksThatSendInlineGetAMoveBeforeTheOthers) {
    service::WatchHubOptions one_thread = test_watch_options();
    one_thread.walk_helpers = 0;
    auto b = start_replica(one_thread);
    const SeatedGame game = start_game();
    constexpr int kSinks = 40;
    OrderSink::Log log;
    std::vector<std::shared_ptr<service::WatchHub::Subscription>> subscriptions;
    v1::WatchGameRequest request;
    request.set_game_id(game.id);
    for (int i = 0; i < kSinks; ++i) {
        // Every third one sends inline, spread among the others.
        auto sink = std::make_shared<OrderSink>(log, i, i % 3 == 0);
        auto subscribed = b->hub().subscribe(request, service::CallContext{}, sink);
        ASSERT_TRUE(subscribed.ok());
        subscriptions.push_back(subscribed.value());
    }
    play_next(game);
    ASSERT_TRUE(eventually([&] {
        std::lock_guard lock(log.mutex);
        return log.moves.size() == kSinks;
    }));
    std::lock_guard lock(log.mutex);
    const auto first_other =
        std::find_if(log.moves.begin(), log.moves.end(), [](int i) { return i % 3 != 0; });
    EXPECT_TRUE(std::all_of(first_other, log.moves.end(), [](int i) { return i % 3 != 0; }))
        << "an inline sink got the move after a sink that does not send inline";
    EXPECT_EQ(first_other - log.moves.begin(), (kSinks + 2) / 3);
    for (auto& s : subscriptions)
        s->unsubscribe();
}

// A replica that dies between a move's commit and its announcement (or
// whose notification is lost) still gets the move to every watcher: the
// hubs' catch-up finds the game's newer events by sequence number.
using WatchCatchUp = WatchReplicas;

TEST_F(WatchCatchUp, AMoveWhoseAnnouncementWasLostReachesWatchersThroughTheCatchUp) {
    const SeatedGame game = start_game();
    service::WatchHubOptions catching_up = test_watch_options();
    catching_up.catch_up_interval = 200ms;
    auto b = start_replica(catching_up);
    // A hub that only catches up once an hour hears nothing but notifications.
    service::WatchHubOptions deaf = test_watch_options();
    deaf.catch_up_interval = std::chrono::hours(1);
    auto c = start_replica(deaf);
    WatchStream on_b(b->grpc_port(), game.id);
    WatchStream on_c(c->grpc_port(), game.id);
    ASSERT_TRUE(Opens(on_b, game.id));
    ASSERT_TRUE(Opens(on_c, game.id));

    // The dying replica: the move commits, its announcement never goes out.
    storage::ConnectionPool pool(database_url(), {}, &storage::prepare_statements);
    storage::PostgresGameStore store(pool);
    int announcements = 0;
    store.announce_changes_with([&](const std::string&) { ++announcements; });
    storage::PostgresPresenceStore presence(pool);
    service::GameService dying(store, presence, clock());
    v1::MakeMoveRequest request;
    request.set_game_id(game.id);
    request.set_move("d4-d5");
    service::CallContext call;
    call.authorization = {"Bearer " + game.fox_token};
    const service::ServiceResult<v1::MakeMoveResponse> played = dying.make_move(request, call);
    ASSERT_TRUE(played.ok()) << played.error().message;
    EXPECT_EQ(announcements, 1);  // handed to the announcer, which dropped it

    EXPECT_TRUE(NextIsMove(on_b, played.value()));
    // Without the catch-up the move does not arrive: it is the catch-up
    // that delivered it above.
    EXPECT_FALSE(on_c.next_change(1500ms).has_value()) << on_c.describe_received();

    // The next move is announced as usual and reaches both, in order (the
    // lost one first on c).
    const v1::MakeMoveResponse next = play(game, "c3-c4");
    EXPECT_TRUE(NextIsMove(on_b, next));
    EXPECT_TRUE(NextIsMove(on_c, played.value()));
    EXPECT_TRUE(NextIsMove(on_c, next));
}

// ---------------------------------------------------------------------------
// Spectators: streams without a seat token, counted over every replica.

using WatchSpectators = WatchReplicas;

WatchStream::Match spectators_are(int n) {
    return [n](const Event& e) { return e.has_presence() && e.presence().spectators() == n; };
}

// Rows of a game in spectator_counts.
long spectator_rows(const std::string& database_url, const std::string& game_id) {
    pqxx::connection conn(database_url);
    pqxx::nontransaction tx(conn);
    return tx
        .exec_params1("SELECT count(*) FROM spectator_counts WHERE game_id = $1::uuid", game_id)[0]
        .as<long>();
}

TEST_F(WatchSpectators, SpectatorsOnTwoReplicasAddUpAndDropToZeroWhenTheyLeave) {
    const SeatedGame game = start_game();
    auto b = start_replica();
    // The seat holders watch, one on each replica: they are no spectators.
    WatchStream fox(server().grpc_port(), game.id, std::nullopt, Auth(game.fox_token));
    WatchStream geese(b->grpc_port(), game.id, std::nullopt, Auth(game.geese_token));
    ASSERT_TRUE(fox.wait_for_event(spectators_are(0))) << fox.describe_received();
    ASSERT_TRUE(geese.wait_for_event(spectators_are(0))) << geese.describe_received();

    std::vector<std::unique_ptr<WatchStream>> on_a;
    std::vector<std::unique_ptr<WatchStream>> on_b;
    for (int i = 0; i < 2; ++i)
        on_a.push_back(std::make_unique<WatchStream>(server().grpc_port(), game.id));
    for (int i = 0; i < 3; ++i)
        on_b.push_back(std::make_unique<WatchStream>(b->grpc_port(), game.id));
    // Each seat holder sees all five, whichever replica it is on.
    ASSERT_TRUE(fox.wait_for_event(spectators_are(5))) << fox.describe_received();
    ASSERT_TRUE(geese.wait_for_event(spectators_are(5))) << geese.describe_received();
    for (auto& stream : on_a)
        ASSERT_TRUE(stream->wait_for_event(spectators_are(5))) << stream->describe_received();

    // A newcomer is told the count with itself in it at once.
    {
        WatchStream late(b->grpc_port(), game.id);
        ASSERT_TRUE(Opens(late, game.id));
        const std::vector<Event> first = late.received();
        ASSERT_EQ(first.size(), 2u);
        EXPECT_EQ(first[1].presence().spectators(), 6) << late.describe_received();
        EXPECT_TRUE(first[1].presence().fox().connected());
    }

    // Those on B leave, then those on A.
    on_b.clear();
    ASSERT_TRUE(fox.wait_for_event(spectators_are(2))) << fox.describe_received();
    ASSERT_TRUE(geese.wait_for_event(spectators_are(2))) << geese.describe_received();
    on_a.clear();
    ASSERT_TRUE(fox.wait_for_event(spectators_are(0))) << fox.describe_received();
    ASSERT_TRUE(geese.wait_for_event(spectators_are(0))) << geese.describe_received();
    EXPECT_TRUE(eventually([&] { return spectator_rows(database_url(), game.id) == 0; }));
}

TEST_F(WatchSpectators, TheCountOfAServerThatStopsRefreshingItStopsCounting) {
    const SeatedGame game = start_game();
    WatchStream fox(server().grpc_port(), game.id, std::nullopt, Auth(game.fox_token));
    ASSERT_TRUE(fox.wait_for_event(spectators_are(0))) << fox.describe_received();

    // Two other servers' counts, as they would write them: one alive, one
    // whose rows expired (it died without dropping them).
    pqxx::connection conn(database_url());
    pqxx::nontransaction tx(conn);
    const auto expire = [&](const std::string& server, const std::string& at) {
        tx.exec_params(
            "INSERT INTO spectator_counts (game_id, server_id, spectators, expires_at)"
            " VALUES ($1::uuid, $2, $3, " +
                at +
                ") ON CONFLICT (game_id, server_id)"
                " DO UPDATE SET expires_at = excluded.expires_at",
            game.id, server, server == "alive" ? 4 : 7);
        tx.exec_params("SELECT pg_notify('foxgeese_events', $1 || ' presence')", game.id);
    };
    expire("dead", "now() - interval '1 minute'");
    expire("alive", "now() + interval '1 hour'");
    ASSERT_TRUE(fox.wait_for_event(spectators_are(4))) << fox.describe_received();

    // The live one stops refreshing its rows too.
    expire("alive", "now() - interval '1 second'");
    ASSERT_TRUE(fox.wait_for_event(spectators_are(0))) << fox.describe_received();
    for (const Event& e : fox.received())
        EXPECT_FALSE(e.has_presence() && e.presence().spectators() > 4) << e.ShortDebugString();
}

TEST_F(WatchSpectators, AReplicaThatShutsDownTakesItsSpectatorsOffTheCountAtOnce) {
    const SeatedGame game = start_game();
    auto b = start_replica();
    WatchStream fox(server().grpc_port(), game.id, std::nullopt, Auth(game.fox_token));
    WatchStream on_b(b->grpc_port(), game.id);
    ASSERT_TRUE(fox.wait_for_event(spectators_are(1))) << fox.describe_received();

    // A's presence TTL is the default 20 s: sooner means B said so.
    const auto start = Clock::now();
    b->shutdown();
    ASSERT_TRUE(fox.wait_for_event(spectators_are(0))) << fox.describe_received();
    EXPECT_LT(Clock::now() - start, 10s);
}

}  // namespace
}  // namespace foxgeese::test
