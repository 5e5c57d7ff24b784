// Games against the bot over gRPC: CreateGame seats a bot, the service
// makes its moves through the path a player's MakeMove takes, and every
// replica's bot worker claims owed moves in the database. On scratch
// databases, so that a test's counts of bot moves are its own.
#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <map>
#include <memory>
#include <pqxx/pqxx>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/search/bot_level.h"
#include "service/core/bot_moves.h"
#include "tests/service/harness/bot_games.h"
#include "tests/service/harness/service_harness.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;

class BotGames : public ScratchServiceTest {
  protected:
    void configure(service::ReplicaOptions& options) override {
        options.bot.threads = bot_threads_;
        options.bot.poll = 50ms;
        options.bot.think_delay = think_delay_;
        options.game.bot_games_per_address = bot_games_per_address_;
    }

    // The game once `done` holds, polled (a bot move takes milliseconds);
    // a failure when it does not within `timeout`.
    v1::Game wait_until(const std::string& id, const std::function<bool(const v1::Game&)>& done,
                        std::chrono::seconds timeout = 30s) {
        const auto deadline = SteadyClock::now() + timeout;
        v1::Game game;
        while (SteadyClock::now() < deadline) {
            const Reply<v1::GetGameResponse> got = client().get(id);
            EXPECT_TRUE(IsOk(got));
            if (!got.ok()) break;
            game = got->game();
            if (done(game)) return game;
            std::this_thread::sleep_for(10ms);
        }
        ADD_FAILURE() << "game " << id << " still at ply " << game.ply() << " after "
                      << timeout.count() << " s";
        return game;
    }
    v1::Game wait_for_ply(const std::string& id, int ply) {
        return wait_until(id, [&](const v1::Game& g) { return g.ply() >= ply; });
    }
    // This server's bot moves, once a poll's view of them has been counted.
    std::int64_t bot_moves_here(std::int64_t at_least) {
        return settled_count([&] { return server().bots().moves_made(); }, at_least);
    }

    // Plays the person's side until the game ends; the finished game.
    v1::Game play_out(const std::string& id, const std::string& token, v1::Side person) {
        for (int turn = 0; turn < 600; ++turn) {
            const v1::Game game = wait_until(id, [&](const v1::Game& g) {
                return g.state() == v1::GAME_STATE_FINISHED || g.side_to_move() == person;
            });
            if (game.state() != v1::GAME_STATE_FINISHED && game.side_to_move() != person)
                return game;  // the wait failed
            if (game.state() == v1::GAME_STATE_FINISHED) return game;
            v1::MakeMoveRequest move;
            move.set_game_id(id);
            move.set_move(persons_move(game));
            move.set_expected_ply(game.ply());
            const Reply<v1::MakeMoveResponse> made = client().move(move, token);
            EXPECT_TRUE(IsOk(made)) << "ply " << game.ply() << " " << move.move();
            if (!made.ok()) return game;
        }
        ADD_FAILURE() << "game " << id << " did not end in 600 turns";
        return client().get(id)->game();
    }

    long long scalar(const std::string& sql) {
        pqxx::connection connection(database_url());
        pqxx::nontransaction tx(connection);
        return tx.exec1(sql)[0].as<long long>();
    }

    int bot_threads_ = 1;
    std::chrono::milliseconds think_delay_{0};
    int bot_games_per_address_ = 0;
};

TEST_F(BotGames, EachVariantPlaysToItsEndAgainstTheBot) {
    struct Case {
        std::string variant;
        v1::SeatChoice seat;
        int level;
    };
    const std::vector<Case> cases = {{"standard", v1::SEAT_CHOICE_FOX, 1},
                                     {"standard", v1::SEAT_CHOICE_GEESE, 2},
                                     {"big_cross", v1::SEAT_CHOICE_FOX, 1},
                                     {"two_foxes", v1::SEAT_CHOICE_GEESE, 1},
                                     {"two_foxes", v1::SEAT_CHOICE_FOX, 3}};
    int bot_moves = 0;
    for (const Case& c : cases) {
        SCOPED_TRACE(c.variant + " level " + std::to_string(c.level));
        const v1::CreateGameResponse created =
            create_game(bot_game_request(c.variant, c.seat, c.level));
        const std::string id = created.game().game_id();
        const v1::Side person = created.seat() == v1::SEAT_FOX ? v1::SIDE_FOX : v1::SIDE_GEESE;
        const v1::Side bot = person == v1::SIDE_FOX ? v1::SIDE_GEESE : v1::SIDE_FOX;
        EXPECT_EQ(created.game().state(), v1::GAME_STATE_ACTIVE);
        EXPECT_EQ(created.game().bot_side(), bot);
        EXPECT_EQ(created.game().bot_level(), c.level);
        EXPECT_TRUE(created.game().fox_seat_taken() && created.game().geese_seat_taken());
        EXPECT_TRUE(created.invite_code().empty());

        const v1::Game end = play_out(id, created.seat_token(), person);
        ASSERT_EQ(end.state(), v1::GAME_STATE_FINISHED) << end.DebugString();
        EXPECT_NE(end.result(), v1::GAME_RESULT_NONE);
        // Every ply is stored once, the sides alternate, and the bot's moves
        // are the bot side's.
        const Reply<v1::ListMovesResponse> moves = client().list_moves(id);
        ASSERT_TRUE(IsOk(moves));
        ASSERT_EQ(moves->moves_size(), end.ply());
        for (int i = 0; i < moves->moves_size(); ++i) {
            EXPECT_EQ(moves->moves(i).ply(), i + 1);
            if (i > 0) {
                EXPECT_NE(moves->moves(i).side(), moves->moves(i - 1).side());
            }
            if (moves->moves(i).side() == bot) ++bot_moves;
        }
        EXPECT_GT(end.ply(), 2);
    }
    EXPECT_EQ(bot_moves_here(bot_moves), bot_moves);
    const std::string metrics = server().metrics().render();
    EXPECT_NE(metrics.find("foxgeese_bot_moves_total{variant=\"two_foxes\"}"), std::string::npos)
        << metrics;
    EXPECT_NE(metrics.find("foxgeese_bot_searches_running 0"), std::string::npos) << metrics;
}

TEST_F(BotGames, ABotThatMovesFirstMovesAtOnce) {
    // In the standard game the fox side moves first: the bot is the fox.
    const v1::CreateGameResponse created =
        create_game(bot_game_request("standard", v1::SEAT_CHOICE_GEESE, 4));
    EXPECT_EQ(created.game().bot_side(), v1::SIDE_FOX);
    EXPECT_EQ(created.game().side_to_move(), v1::SIDE_FOX);
    WatchStream watch(server().grpc_port(), created.game().game_id(), 0);
    // The bot may be quicker than the watch: then its move is already in the
    // snapshot (a slow build, such as ThreadSanitizer's, sees that), else it
    // follows as a MoveMade.
    const auto snapshot = watch.next();
    ASSERT_TRUE(snapshot && snapshot->has_snapshot()) << watch.describe_received();
    v1::Move move;
    v1::Game after;
    if (snapshot->snapshot().moves_size() > 0) {
        move = snapshot->snapshot().moves(0);
        after = snapshot->snapshot().game();
    } else {
        const auto made =
            watch.wait_for_event([](const v1::WatchGameResponse& e) { return e.has_move_made(); });
        ASSERT_TRUE(made) << watch.describe_received();
        move = made->move_made().move();
        after = made->move_made().game();
    }
    EXPECT_EQ(move.ply(), 1);
    EXPECT_EQ(move.side(), v1::SIDE_FOX);
    EXPECT_EQ(after.side_to_move(), v1::SIDE_GEESE);
    EXPECT_EQ(after.ply(), 1);
    EXPECT_EQ(bot_moves_here(1), 1);
}

TEST_F(BotGames, ABotLevelOutOfRangeOrWithBothSeatsIsRefusedAndNothingIsStored) {
    const long games = count_rows("games");
    for (const int level : {-1, 9, 100}) {
        const Reply<v1::CreateGameResponse> refused =
            client().create(bot_game_request("standard", v1::SEAT_CHOICE_FOX, level));
        EXPECT_TRUE(IsError(refused, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"))
            << level;
        EXPECT_EQ(bad_request_field(refused.status), "bot_level");
        EXPECT_NE(refused.status.error_message().find("1 (a beginner) to 8"), std::string::npos)
            << refused.status.error_message();
    }
    const Reply<v1::CreateGameResponse> both =
        client().create(bot_game_request("standard", v1::SEAT_CHOICE_BOTH, 3));
    EXPECT_TRUE(IsError(both, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    EXPECT_EQ(bad_request_field(both.status), "bot_level");
    EXPECT_EQ(count_rows("games"), games);
}

TEST_F(BotGames, NobodyJoinsClaimsAgainstOrRematchesTheBotAndItDeclinesDraws) {
    v1::CreateGameRequest request = bot_game_request("two_foxes", v1::SEAT_CHOICE_FOX, 1);
    request.set_visibility(v1::VISIBILITY_PUBLIC);  // no invite code needed to try
    const v1::CreateGameResponse created = create_game(request);
    const std::string id = created.game().game_id();
    const std::string& token = created.seat_token();
    EXPECT_TRUE(IsError(client().join(id, ""), grpc::StatusCode::ALREADY_EXISTS, "SEAT_TAKEN"));

    // The person (the fox side) moves; the bot answers.
    v1::Game game = client().get(id)->game();
    ASSERT_TRUE(IsOk(client().move(id, persons_move(game), token)));
    game = wait_for_ply(id, 2);

    WatchStream watch(server().grpc_port(), id, game.ply());
    ASSERT_TRUE(watch.next());  // the snapshot
    const Reply<v1::OfferDrawResponse> offered = client().offer_draw(id, token);
    ASSERT_TRUE(IsOk(offered));
    EXPECT_EQ(offered->game().draw_offered_by(), v1::SIDE_UNSPECIFIED);
    EXPECT_EQ(offered->game().state(), v1::GAME_STATE_ACTIVE);
    const auto offer = watch.next_change();
    ASSERT_TRUE(offer && offer->has_draw_offered()) << watch.describe_received();
    const auto answer = watch.next_change();
    ASSERT_TRUE(answer && answer->has_draw_answered()) << watch.describe_received();
    EXPECT_FALSE(answer->draw_answered().accepted());
    EXPECT_EQ(answer->draw_answered().by(), v1::SIDE_GEESE);
    EXPECT_TRUE(IsError(client().respond_draw(id, true, token),
                        grpc::StatusCode::FAILED_PRECONDITION, "NO_DRAW_OFFER"));

    EXPECT_TRUE(IsError(client().claim(id, false, token), grpc::StatusCode::FAILED_PRECONDITION,
                        "CLAIM_NOT_ALLOWED"));
    ASSERT_TRUE(IsOk(client().resign(id, token)));
    EXPECT_TRUE(RejectsUnchanged(id, grpc::StatusCode::FAILED_PRECONDITION, "NO_REMATCH_WITH_BOT",
                                 [&] { return client().offer_rematch(id, token).status; }));
}

TEST_F(BotGames, TheBotsSeatActsOnlyForTheBotAndAStaleBotMoveIsRefused) {
    bot_threads_ = 0;  // nobody moves for the bot here unless the test does
    restart_server();
    const v1::CreateGameResponse created =
        create_game(bot_game_request("standard", v1::SEAT_CHOICE_GEESE, 1));
    const std::string id = created.game().game_id();
    // The person cannot move for the bot.
    EXPECT_TRUE(RejectsUnchanged(id, grpc::StatusCode::FAILED_PRECONDITION, "NOT_YOUR_TURN", [&] {
        return client().move(id, "d4-d5", created.seat_token()).status;
    }));
    // The bot's move, by the worker's path: then again at the same ply, as a
    // replica whose claim lapsed would, which the compare-and-swap refuses.
    const auto first = server().logic().make_bot_move(id, 0, "d4-d5", {});
    ASSERT_TRUE(first.ok()) << first.error().message;
    EXPECT_EQ(first.value().move().side(), v1::SIDE_FOX);
    const GameSnapshot before = snapshot(id);
    const auto stale = server().logic().make_bot_move(id, 0, "d4-c4", {});
    ASSERT_FALSE(stale.ok());
    EXPECT_EQ(stale.error().reason, "PLY_MISMATCH");
    // Not the bot's turn now: the bot cannot move for the person.
    const auto not_its_turn = server().logic().make_bot_move(id, 1, "c3-c4", {});
    ASSERT_FALSE(not_its_turn.ok());
    EXPECT_EQ(not_its_turn.error().reason, "NOT_YOUR_TURN");
    EXPECT_TRUE(snapshot(id) == before) << snapshot(id).debug_string();
}

TEST_F(BotGames, AMoveWhoseClaimLapsedIsTakenOverAndMadeOnce) {
    bot_threads_ = 0;
    restart_server();
    const v1::CreateGameResponse created =
        create_game(bot_game_request("standard", v1::SEAT_CHOICE_GEESE, 1));
    const std::string id = created.game().game_id();
    // A replica claimed the move a minute ahead and died without a word.
    const std::int64_t until_us = clock().now_us() + 60'000'000;
    {
        pqxx::connection connection(database_url());
        pqxx::nontransaction tx(connection);
        tx.exec_params(
            "UPDATE games SET bot_claimed_by = 'replica-that-died', bot_claimed_until ="
            " 'epoch'::timestamptz + $2::bigint * interval '1 microsecond' WHERE game_id = "
            "$1::uuid",
            id, until_us);
    }
    bot_threads_ = 1;
    restart_server();
    server().bots().wake();
    // While the claim is live the move is not taken (a few polls).
    std::this_thread::sleep_for(300ms);
    EXPECT_EQ(client().get(id)->game().ply(), 0);
    EXPECT_EQ(server().bots().takeovers(), 0);
    clock().advance(61s);
    const v1::Game moved = wait_for_ply(id, 1);
    EXPECT_EQ(moved.ply(), 1);
    EXPECT_EQ(server().bots().takeovers(), 1);
    EXPECT_EQ(bot_moves_here(1), 1);
    EXPECT_EQ(scalar("SELECT count(*) FROM moves WHERE game_id = '" + id + "'"), 1);
    EXPECT_EQ(scalar("SELECT count(*) FROM games WHERE game_id = '" + id +
                     "' AND bot_claimed_by IS NULL AND bot_claimed_until IS NULL"),
              1);
}

TEST_F(BotGames, TwoReplicasRacingForTheSameBotMovesMakeEachOnce) {
    // This server is woken at once by every bot turn it creates, the other
    // only polls: with two quick threads here the other could lose every
    // race on a busy machine. One thread that holds each claim for 30 ms
    // leaves owed moves for the other's polls, so both take part, while
    // both still try to claim every move.
    bot_threads_ = 1;
    think_delay_ = 30ms;
    restart_server();
    service::ReplicaOptions second = test_replica_options(database_url(), &clock());
    second.db_pool_size = 4;
    second.bot.threads = 2;
    second.bot.poll = 20ms;
    service::Replica other(second);

    // Bots that move first, then three rounds of person and bot.
    constexpr int kGames = 12;
    constexpr int kRounds = 3;
    std::vector<v1::CreateGameResponse> games;
    for (int i = 0; i < kGames; ++i)
        games.push_back(create_game(
            bot_game_request(i % 2 ? "standard" : "two_foxes",
                             i % 2 ? v1::SEAT_CHOICE_GEESE : v1::SEAT_CHOICE_FOX, 1 + i % 3)));
    // The person's turn (the bot has moved), or the end.
    auto persons_turn = [&](const v1::CreateGameResponse& g) {
        return wait_until(g.game().game_id(), [&](const v1::Game& game) {
            return game.state() == v1::GAME_STATE_FINISHED ||
                   game.side_to_move() != g.game().bot_side();
        });
    };
    for (int round = 0; round < kRounds; ++round) {
        for (const v1::CreateGameResponse& g : games) {
            const v1::Game game = persons_turn(g);
            if (game.state() == v1::GAME_STATE_FINISHED) continue;
            ASSERT_TRUE(IsOk(client().move(game.game_id(), persons_move(game), g.seat_token())));
        }
    }
    std::int64_t bot_moves = 0;
    for (const v1::CreateGameResponse& g : games) {
        const v1::Game end = persons_turn(g);
        const Reply<v1::ListMovesResponse> moves = client().list_moves(g.game().game_id());
        ASSERT_TRUE(IsOk(moves));
        ASSERT_EQ(moves->moves_size(), end.ply());
        for (const v1::Move& m : moves->moves())
            if (m.side() == g.game().bot_side()) ++bot_moves;
        // One moveMade event per ply (and nothing else was recorded twice).
        EXPECT_EQ(
            scalar("SELECT count(*) FROM game_events WHERE game_id = '" + g.game().game_id() + "'"),
            end.ply() + (end.state() == v1::GAME_STATE_FINISHED ? 1 : 0));
    }
    EXPECT_GE(bot_moves, kGames * kRounds);
    EXPECT_EQ(
        settled_count([&] { return server().bots().moves_made() + other.bots().moves_made(); },
                      bot_moves),
        bot_moves)
        << "here " << server().bots().moves_made() << ", there " << other.bots().moves_made();
    EXPECT_GT(other.bots().moves_made(), 0);
    EXPECT_GT(server().bots().moves_made(), 0);
    other.shutdown();
}

TEST_F(BotGames, MoreOwedMovesThanThreadsWaitTheirTurnAndAllAreMade) {
    bot_threads_ = 2;
    think_delay_ = 200ms;  // searches long enough to overlap
    restart_server();
    constexpr int kGames = 7;
    std::vector<std::string> ids;
    for (int i = 0; i < kGames; ++i)
        ids.push_back(
            create_game(bot_game_request("standard", v1::SEAT_CHOICE_GEESE, 1)).game().game_id());
    int max_seen = 0;
    const auto deadline = SteadyClock::now() + 30s;
    while (server().bots().moves_made() < kGames && SteadyClock::now() < deadline) {
        max_seen = std::max(max_seen, server().bots().searches_running());
        std::this_thread::sleep_for(5ms);
    }
    for (const std::string& id : ids)
        EXPECT_EQ(wait_for_ply(id, 1).ply(), 1);
    EXPECT_EQ(server().bots().moves_made(), kGames);
    EXPECT_LE(max_seen, 2);
    EXPECT_EQ(server().bots().most_searches_at_once(), 2);
}

TEST_F(BotGames, WithASecondLeftTheBotMovesBeforeItsFlag) {
    // Level 8 searches for a second, which would lose on time here; a
    // twentieth of what is left is 50 ms.
    bot_threads_ = 0;
    restart_server();
    v1::CreateGameRequest request = bot_game_request("standard", v1::SEAT_CHOICE_GEESE, 8);
    request.mutable_time_control()->mutable_real_time()->mutable_initial()->set_seconds(15);
    const v1::CreateGameResponse created = create_game(request);
    const std::string id = created.game().game_id();
    ASSERT_TRUE(server().logic().make_bot_move(id, 0, "d4-d5", {}).ok());
    const v1::Game game = client().get(id)->game();
    // The bot's second move is owed once the person moves; a claim that
    // looks live holds it until the bot's clock shows one second left.
    pqxx::connection connection(database_url());
    pqxx::nontransaction tx(connection);
    ASSERT_TRUE(IsOk(client().move(id, persons_move(game), created.seat_token())));
    tx.exec_params(
        "UPDATE games SET bot_claimed_by = 'held', bot_claimed_until = now() +"
        " interval '1 hour' WHERE game_id = $1::uuid",
        id);
    service::ReplicaOptions options = test_replica_options(database_url(), &clock());
    options.db_pool_size = 4;
    options.bot.threads = 1;
    service::Replica other(options);
    clock().advance(14s);
    tx.exec_params("UPDATE games SET bot_claimed_until = NULL WHERE game_id = $1::uuid", id);
    other.bots().wake();

    const v1::Game moved = wait_for_ply(id, 3);
    ASSERT_EQ(moved.state(), v1::GAME_STATE_ACTIVE) << moved.DebugString();
    ASSERT_EQ(moved.last_move().side(), v1::SIDE_FOX);
    using google::protobuf::util::TimeUtil;
    const std::int64_t left_ms = TimeUtil::DurationToMilliseconds(moved.last_move().fox_clock());
    EXPECT_GT(left_ms, 0);
    EXPECT_LT(left_ms, 1000);
    EXPECT_EQ(settled_count([&] { return other.bots().moves_made(); }, 1), 1);
    other.shutdown();
}

TEST_F(BotGames, TheTopLevelPlaysTheWinItsSolverProves) {
    // Standard without sideways steps: level 8's geese consult the exact
    // solver. The fox at the top is one goose step from being shut in (the
    // search alone sees it as well; what is tested is the solver's path
    // through the service: its verdict, its move, the game's end).
    v1::CreateGameRequest request = bot_game_request("standard", v1::SEAT_CHOICE_FOX, 8);
    request.set_start_position("GFG/GG1/GG1GG2/7/7/3/3 g 1 71");
    const v1::CreateGameResponse created = create_game(request);
    const std::string id = created.game().game_id();
    EXPECT_EQ(created.game().bot_side(), v1::SIDE_GEESE);
    const v1::Game end = play_out(id, created.seat_token(), v1::SIDE_FOX);
    ASSERT_EQ(end.state(), v1::GAME_STATE_FINISHED) << end.DebugString();
    EXPECT_EQ(end.result(), v1::GAME_RESULT_GEESE_WIN) << end.DebugString();
    const Reply<v1::ListMovesResponse> moves = client().list_moves(id);
    ASSERT_TRUE(IsOk(moves));
    ASSERT_EQ(moves->moves_size(), 1);
    EXPECT_EQ(moves->moves(0).notation(), "e5-e6");
}

// A client who answers every bot move at once in games of its own, until
// stopped: a thread and a watch stream per game.
class AnsweringClient {
  public:
    AnsweringClient(int port, const std::vector<v1::CreateGameResponse>& games) {
        for (const v1::CreateGameResponse& game : games)
            threads_.emplace_back([this, port, game] { answer(port, game); });
    }
    ~AnsweringClient() { stop(); }
    void stop() {
        stopping_ = true;
        for (std::thread& t : threads_)
            if (t.joinable()) t.join();
    }

  private:
    void answer(int port, const v1::CreateGameResponse& created) {
        ServiceClient client(port);
        const std::string& id = created.game().game_id();
        const v1::Side person = created.seat() == v1::SEAT_FOX ? v1::SIDE_FOX : v1::SIDE_GEESE;
        WatchStream watch(port, id, 0);
        const auto snapshot = watch.next();
        if (!snapshot || !snapshot->has_snapshot()) return;
        v1::Game game = snapshot->snapshot().game();
        while (!stopping_ && game.state() != v1::GAME_STATE_FINISHED) {
            if (game.side_to_move() == person) {
                v1::MakeMoveRequest move;
                move.set_game_id(id);
                move.set_move(persons_move(game));
                move.set_expected_ply(game.ply());
                client.move(move, created.seat_token());
            }
            // The game after the next move, the person's or the bot's.
            const auto event = watch.wait_for_event(
                [](const v1::WatchGameResponse& e) {
                    return e.has_move_made() || e.has_game_ended();
                },
                500ms);
            if (!event) continue;
            if (event->has_game_ended()) return;
            if (event->move_made().game().ply() > game.ply()) game = event->move_made().game();
        }
    }

    std::atomic<bool> stopping_{false};
    std::vector<std::thread> threads_;
};

// Bot games of several clients, told apart by address (X-Forwarded-For).
class BotFairnessTest : public BotGames {
  protected:
    void configure(service::ReplicaOptions& options) override {
        BotGames::configure(options);
        options.game.limits.trusted_proxy_hops = 1;
    }
    v1::CreateGameResponse create_from(const std::string& address,
                                       const v1::CreateGameRequest& request) {
        const Reply<v1::CreateGameResponse> created = client().create_forwarded(request, address);
        EXPECT_TRUE(IsOk(created));
        return created.response;
    }
    static v1::CreateGameRequest quick_game(v1::SeatChoice seat, int level) {
        v1::CreateGameRequest request = bot_game_request("standard", seat, level);
        request.mutable_time_control()->mutable_real_time()->mutable_initial()->set_seconds(15);
        return request;
    }
    // The bot's thinking times in a game, from the commit of the person's
    // move (or the start) to its own, in milliseconds.
    std::vector<std::int64_t> bot_think_ms(const std::string& id, v1::Side bot) {
        std::vector<std::int64_t> times;
        const Reply<v1::ListMovesResponse> moves = client().list_moves(id);
        EXPECT_TRUE(IsOk(moves));
        for (const v1::Move& move : moves->moves()) {
            if (move.side() == bot) {
                times.push_back(
                    google::protobuf::util::TimeUtil::DurationToMilliseconds(move.think_time()));
            }
        }
        return times;
    }
};

TEST_F(BotFairnessTest, AFloodOfBotGamesFromOneAddressDoesNotDelayAnotherClientsBot) {
    // One bot thread, as in production. One address plays ten level-8 bot
    // games (a second's search each) and answers every bot move at once:
    // nine of its moves are owed at any time.
    std::vector<v1::CreateGameResponse> flood_games;
    for (int i = 0; i < 10; ++i)
        flood_games.push_back(
            create_from("198.51.100.7", bot_game_request("standard", v1::SEAT_CHOICE_FOX, 8)));
    AnsweringClient flood(server().grpc_port(), flood_games);
    ASSERT_GE(settled_count([&] { return server().bots().moves_made(); }, 2), 2)
        << "the flood's bots never moved";

    // Another client's level-1 bot on 15 s + 0, answered at once too: each
    // of its moves comes within a second, and the game ends on the board.
    const v1::CreateGameResponse victim =
        create_from("203.0.113.20", quick_game(v1::SEAT_CHOICE_FOX, 1));
    const std::string id = victim.game().game_id();
    AnsweringClient person(server().grpc_port(), {victim});
    const v1::Game end = wait_until(
        id, [](const v1::Game& g) { return g.state() == v1::GAME_STATE_FINISHED; }, 90s);
    person.stop();
    ASSERT_EQ(end.state(), v1::GAME_STATE_FINISHED) << end.DebugString();
    EXPECT_NE(end.end_reason(), v1::END_REASON_TIMEOUT) << end.DebugString();
    EXPECT_NE(end.end_reason(), v1::END_REASON_ABORTED) << end.DebugString();
    const std::vector<std::int64_t> thinking = bot_think_ms(id, v1::SIDE_GEESE);
    ASSERT_GE(thinking.size(), 3u);
    for (std::size_t i = 0; i < thinking.size(); ++i)
        EXPECT_LT(thinking[i], 1000) << "the bot's move " << i + 1 << " of " << thinking.size();

    // A third client's bot that moves first does so within 2 s of the start.
    const v1::CreateGameResponse first =
        create_from("192.0.2.33", quick_game(v1::SEAT_CHOICE_GEESE, 4));
    wait_for_ply(first.game().game_id(), 1);
    const std::vector<std::int64_t> opening = bot_think_ms(first.game().game_id(), v1::SIDE_FOX);
    ASSERT_EQ(opening.size(), 1u);
    EXPECT_LT(opening[0], 2000);

    // The flood was there all along: its searches gave way to the others.
    EXPECT_GT(server().bots().yields(), 0);
    flood.stop();
    const std::int64_t longest = *std::max_element(thinking.begin(), thinking.end());
    std::cout << "level-1 bot under the flood: " << thinking.size() << " moves, longest " << longest
              << " ms (game ended: " << v1::EndReason_Name(end.end_reason())
              << "); first move of a bot that moves first: " << opening[0] << " ms; searches cut "
              << server().bots().yields() << "\n";
    RecordProperty("longest_bot_think_ms", std::to_string(longest));
}

TEST_F(BotFairnessTest, AnAddressHasABoundedNumberOfBotGamesInProgress) {
    bot_games_per_address_ = 3;
    bot_threads_ = 0;  // the games stay as created
    restart_server();
    std::vector<v1::CreateGameResponse> games;
    for (int i = 0; i < 3; ++i)
        games.push_back(
            create_from("198.51.100.8", bot_game_request("standard", v1::SEAT_CHOICE_FOX, 2)));
    const long stored = count_rows("games");
    const Reply<v1::CreateGameResponse> refused = client().create_forwarded(
        bot_game_request("two_foxes", v1::SEAT_CHOICE_GEESE, 5), "198.51.100.8");
    EXPECT_TRUE(IsError(refused, grpc::StatusCode::RESOURCE_EXHAUSTED, "RATE_LIMITED"));
    EXPECT_NE(refused.status.error_message().find("3 games against the bot in progress"),
              std::string::npos)
        << refused.status.error_message();
    EXPECT_TRUE(retry_delay_ms(refused.status).has_value());
    EXPECT_EQ(count_rows("games"), stored);
    // Games between people and other addresses' bot games are not counted.
    EXPECT_TRUE(IsOk(client().create_forwarded(create_request("standard"), "198.51.100.8")));
    EXPECT_TRUE(IsOk(client().create_forwarded(bot_game_request("standard", v1::SEAT_CHOICE_FOX, 2),
                                               "198.51.100.9")));
    // A game that ends makes room.
    ASSERT_TRUE(IsOk(client().resign(games[0].game().game_id(), games[0].seat_token())));
    EXPECT_TRUE(IsOk(client().create_forwarded(bot_game_request("standard", v1::SEAT_CHOICE_FOX, 2),
                                               "198.51.100.8")));
    // The address is stored only as a digest.
    EXPECT_EQ(scalar("SELECT count(*) FROM games WHERE bot_client_key LIKE '%198.51%'"), 0);
    EXPECT_EQ(scalar("SELECT count(DISTINCT bot_client_key) FROM games WHERE bot_side <> 0"), 2);
}

TEST(BotThinkTime, IsTheLevelsBudgetBoundedByATwentiethOfTheTimeLeft) {
    storage::GameRow game;
    const std::int64_t now = 1'000'000'000;
    EXPECT_EQ(service::bot_think_time(game, 2000ms, now), 2000ms);  // no clock
    game.clocks.deadline_us = now + 10'000'000;                     // 10 s left
    EXPECT_EQ(service::bot_think_time(game, 2000ms, now), 500ms);
    EXPECT_EQ(service::bot_think_time(game, 100ms, now), 100ms);
    game.clocks.deadline_us = now - 1;  // overdue: the shortest search, then GAME_OVER
    EXPECT_EQ(service::bot_think_time(game, 2000ms, now), 1ms);
    EXPECT_NE(service::bot_seed("a"), service::bot_seed("b"));
    EXPECT_EQ(service::bot_seed("0b6f3c1e-6a4e-4c51-9d3a-6f3b2f8f6a2d"),
              service::bot_seed("0b6f3c1e-6a4e-4c51-9d3a-6f3b2f8f6a2d"));
}

}  // namespace
}  // namespace foxgeese::test
