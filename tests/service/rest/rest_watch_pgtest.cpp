// WatchGame over REST: a chunked application/x-ndjson response with one
// WatchGameResponse per line, resumption with fromPly, errors before the
// first event as JSON errors (the same as the hub's), and the end of a
// stream: the game ends, the client leaves, or the server shuts down.
#include <array>
#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "service/core/error_status.h"
#include "tests/service/harness/rest_harness.h"

namespace foxgeese::test {
namespace {

using RestWatch = RestTest;

// One watch stream opened over REST.
class Watch {
  public:
    Watch(int port, const std::string& target, std::map<std::string, std::string> headers = {},
          int receive_buffer_bytes = 0)
        : client_(port, std::chrono::seconds(20), receive_buffer_bytes) {
        client_.send("GET", target, "", headers);
        header_ = client_.read_header();
    }

    const HttpReply& header() const { return header_; }
    HttpClient& client() { return client_; }

    // The next event, or nullopt when the body ended.
    std::optional<v1::WatchGameResponse> next() {
        const std::optional<std::string> line = client_.read_line();
        if (!line) return std::nullopt;
        v1::WatchGameResponse event;
        EXPECT_TRUE(parse_json(*line, event));
        EXPECT_TRUE(event.has_time()) << *line;
        return event;
    }

    // The next event that is neither Presence nor Heartbeat.
    std::optional<v1::WatchGameResponse> next_change() {
        while (true) {
            auto event = next();
            if (!event || (!event->has_presence() && !event->has_heartbeat())) return event;
        }
    }

  private:
    HttpClient client_;
    HttpReply header_;
};

class NullSink : public service::WatchSink {
  public:
    void deliver(const std::shared_ptr<const service::WatchEvent>&) override {}
    void close(service::WatchEnd) override {}
};

// Waits up to five seconds for the hub to hold `count` watchers.
bool watchers_become(service::WatchHub& hub, int count) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (hub.active_watchers() != count) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}

TEST_F(RestWatch, StreamsEveryEventAsOneJsonLine) {
    const Reply<v1::CreateGameResponse> created = grpc().create(create_request("standard"));
    ASSERT_TRUE(IsOk(created));
    const std::string id = created->game().game_id();
    const std::string fox = created->seat_token();
    Watch watch(port(), "/v1/games/" + id + ":watch", {{"Origin", "https://play.example"}});
    EXPECT_EQ(watch.header().status, 200);
    EXPECT_EQ(watch.header().header("Content-Type"), "application/x-ndjson");
    EXPECT_EQ(watch.header().header("Transfer-Encoding"), "chunked");
    EXPECT_EQ(watch.header().header("Cache-Control"), "no-store");
    EXPECT_EQ(watch.header().header("Access-Control-Allow-Origin"), "https://play.example");

    auto snapshot = watch.next();
    ASSERT_TRUE(snapshot && snapshot->has_snapshot());
    EXPECT_EQ(snapshot->snapshot().game().SerializeAsString(),
              grpc().get(id)->game().SerializeAsString());
    EXPECT_EQ(snapshot->snapshot().moves_size(), 0);
    auto presence = watch.next();
    ASSERT_TRUE(presence && presence->has_presence());

    const Reply<v1::JoinGameResponse> joined = grpc().join(id, created->invite_code());
    ASSERT_TRUE(IsOk(joined));
    auto seat = watch.next_change();
    ASSERT_TRUE(seat && seat->has_seat_joined());
    EXPECT_EQ(seat->seat_joined().seat(), v1::SEAT_GEESE);

    const HttpReply moved = post("/v1/games/" + id + "/moves", R"({"move": "d4-d5"})", fox);
    ASSERT_EQ(moved.status, 200) << moved.body;
    auto move = watch.next_change();
    ASSERT_TRUE(move && move->has_move_made());
    EXPECT_EQ(move->move_made().move().notation(), "d4-d5");
    EXPECT_EQ(move->move_made().game().SerializeAsString(),
              grpc().get(id)->game().SerializeAsString());

    ASSERT_TRUE(IsOk(grpc().offer_draw(id, fox)));
    auto offer = watch.next_change();
    ASSERT_TRUE(offer && offer->has_draw_offered());
    EXPECT_EQ(offer->draw_offered().by(), v1::SIDE_FOX);

    // Resigning with an offer pending declines it, then ends the game.
    ASSERT_TRUE(IsOk(grpc().resign(id, joined->seat_token())));
    auto declined = watch.next_change();
    ASSERT_TRUE(declined && declined->has_draw_answered());
    EXPECT_FALSE(declined->draw_answered().accepted());
    auto ended = watch.next_change();
    ASSERT_TRUE(ended && ended->has_game_ended()) << (ended ? ended->ShortDebugString() : "end");
    EXPECT_EQ(ended->game_ended().game().end_reason(), v1::END_REASON_RESIGNATION);
    // GameEnded is the last line; the body ends cleanly and the server closes.
    EXPECT_FALSE(watch.next_change());
    EXPECT_TRUE(watch.client().closed_by_server());
    EXPECT_TRUE(watchers_become(server().hub(), 0));
    EXPECT_GE(server().metrics().watch_events_sent.value({"http"}), 6);
}

TEST_F(RestWatch, FromPlyResumesWithTheMovesAfterIt) {
    const SeatedGame game = start_game();
    ASSERT_TRUE(IsOk(grpc().move(game.id, "d4-d5", game.fox_token)));
    ASSERT_TRUE(IsOk(grpc().move(game.id, "a3-a4", game.geese_token)));
    for (const auto& [query, moves] : std::vector<std::pair<std::string, int>>{
             {"?fromPly=0", 2}, {"?from_ply=1", 1}, {"?fromPly=2", 0}, {"", 0}}) {
        Watch watch(port(), "/v1/games/" + game.id + ":watch" + query);
        ASSERT_EQ(watch.header().status, 200) << query << ": " << watch.client().read_all_raw();
        auto snapshot = watch.next();
        ASSERT_TRUE(snapshot && snapshot->has_snapshot()) << query;
        EXPECT_EQ(snapshot->snapshot().moves_size(), moves) << query;
    }
}

TEST_F(RestWatch, AFinishedGameGetsItsSnapshotAndTheStreamEnds) {
    const SeatedGame game = start_game("3/3/3F3/3G3/GG4G/3/3 f 0 20");
    ASSERT_TRUE(IsOk(grpc().move(game.id, "d5xd3", game.fox_token)));
    Watch watch(port(), "/v1/games/" + game.id + ":watch?fromPly=0");
    ASSERT_EQ(watch.header().status, 200);
    auto snapshot = watch.next();
    ASSERT_TRUE(snapshot && snapshot->has_snapshot());
    EXPECT_EQ(snapshot->snapshot().game().state(), v1::GAME_STATE_FINISHED);
    EXPECT_EQ(snapshot->snapshot().moves_size(), 1);
    EXPECT_FALSE(watch.next());
    EXPECT_TRUE(watch.client().closed_by_server());
}

TEST_F(RestWatch, ErrorsBeforeTheFirstEventAreTheHubsAsJson) {
    const SeatedGame game = start_game();
    struct Case {
        std::string target;
        v1::WatchGameRequest request;
        Auth auth;
    };
    const auto request = [](const std::string& id, std::optional<int> from_ply) {
        v1::WatchGameRequest r;
        r.set_game_id(id);
        if (from_ply) r.set_from_ply(*from_ply);
        return r;
    };
    const std::vector<Case> cases = {
        {"/v1/games/" + kUnknownGameId + ":watch", request(kUnknownGameId, {}), Auth::none()},
        {"/v1/games/nope:watch", request("nope", {}), Auth::none()},
        {"/v1/games/" + game.id + ":watch?fromPly=-1", request(game.id, -1), Auth::none()},
        {"/v1/games/" + game.id + ":watch?fromPly=99", request(game.id, 99), Auth::none()},
        {"/v1/games/" + game.id + ":watch", request(game.id, {}), kUnknownToken},
        {"/v1/games/" + game.id + ":watch", request(game.id, {}), Auth::header("Bearer x")},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.target);
        service::CallContext call;
        if (c.auth.value()) call.authorization.push_back(*c.auth.value());
        auto hub = server().hub().subscribe(c.request, call, std::make_shared<NullSink>());
        ASSERT_FALSE(hub.ok());
        const HttpReply reply = rest("GET", c.target, "", c.auth);
        const google::rpc::Status expected = service::status_of(hub.error());
        EXPECT_EQ(reply.status,
                  documented_http_status(static_cast<grpc::StatusCode>(expected.code())));
        EXPECT_EQ(reply.header("Content-Type"), "application/json");
        EXPECT_EQ(rest_status(reply).SerializeAsString(), expected.SerializeAsString())
            << reply.body;
    }
    for (const std::string query : {"?fromPly=abc", "?fromPly=1&fromPly=2", "?since=1"}) {
        const HttpReply reply = get("/v1/games/" + game.id + ":watch" + query);
        EXPECT_TRUE(IsRestError(reply, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"))
            << query;
    }
    const HttpReply post_watch = post("/v1/games/" + game.id + ":watch", "{}");
    EXPECT_EQ(post_watch.status, 405);
    EXPECT_EQ(server().hub().active_watchers(), 0);
}

TEST_F(RestWatch, AClientThatLeavesIsUnsubscribed) {
    const SeatedGame game = start_game();
    {
        Watch closes(port(), "/v1/games/" + game.id + ":watch");
        ASSERT_TRUE(closes.next());
        Watch resets(port(), "/v1/games/" + game.id + ":watch");
        ASSERT_TRUE(resets.next());
        EXPECT_TRUE(watchers_become(server().hub(), 2));
        resets.client().reset();
        EXPECT_TRUE(watchers_become(server().hub(), 1));
        closes.client().close();
        EXPECT_TRUE(watchers_become(server().hub(), 0));
    }
    // The server is none the worse for it.
    EXPECT_TRUE(SameResponse(get("/v1/games/" + game.id), grpc().get(game.id).response));
}

// Reads the stream's lines until one holds `text`; false if it ends first.
bool line_with(Watch& watch, const std::string& text) {
    while (const std::optional<std::string> line = watch.client().read_line()) {
        if (line->find(text) != std::string::npos) return true;
    }
    return false;
}

TEST_F(RestWatch, PresenceCountsTheSpectatorsButNotTheSeatHolder) {
    const SeatedGame game = start_game();
    Watch fox(port(), "/v1/games/" + game.id + ":watch",
              {{"Authorization", "Bearer " + game.fox_token}});
    ASSERT_EQ(fox.header().status, 200);
    ASSERT_TRUE(line_with(fox, R"("presence":{"fox":{"connected":true)"));
    {
        Watch closes(port(), "/v1/games/" + game.id + ":watch");
        Watch resets(port(), "/v1/games/" + game.id + ":watch");
        ASSERT_TRUE(closes.next());
        ASSERT_TRUE(resets.next());
        // Within a second or so, as one change.
        EXPECT_TRUE(line_with(fox, R"("spectators":2)"));
        resets.client().reset();
        closes.client().close();
    }
    // Nobody watches but the seat holder: zero, which JSON leaves out.
    while (std::optional<v1::WatchGameResponse> e = fox.next()) {
        if (e->has_presence() && e->presence().spectators() == 0) {
            EXPECT_TRUE(e->presence().fox().connected());
            return;
        }
    }
    ADD_FAILURE() << "the stream ended before the count was back to zero";
}

TEST_F(RestWatch, EveryWatcherGetsEveryMove) {
    const SeatedGame game = start_game();
    std::vector<std::unique_ptr<Watch>> watches;
    for (int i = 0; i < 8; ++i) {
        watches.push_back(std::make_unique<Watch>(port(), "/v1/games/" + game.id + ":watch"));
        ASSERT_TRUE(watches.back()->next());
    }
    ASSERT_TRUE(IsOk(grpc().move(game.id, "d4-d5", game.fox_token)));
    ASSERT_TRUE(IsOk(grpc().move(game.id, "a3-a4", game.geese_token)));
    for (auto& watch : watches) {
        auto first = watch->next_change();
        auto second = watch->next_change();
        ASSERT_TRUE(first && first->has_move_made());
        ASSERT_TRUE(second && second->has_move_made());
        EXPECT_EQ(first->move_made().move().ply(), 1);
        EXPECT_EQ(second->move_made().move().ply(), 2);
    }
}

// Most events go out in one send from the hub's thread; one that does not fit
// in the socket's buffers is finished by the connection's own writes, and
// the events after it wait their turn. A reader that falls behind for a
// while and then catches up gets every line whole and in order, and the
// server counts each event once.
TEST_F(RestWatch, AReaderThatFallsBehindGetsEveryLineWholeAndInOrder) {
    http_options().send_buffer_bytes = 4096;
    restart_http();
    const SeatedGame game = start_game();
    const auto sent_before = [&] { return server().metrics().watch_events_sent.value({"http"}); };
    const double counted_before = sent_before();
    Watch watch(port(), "/v1/games/" + game.id + ":watch", {}, 1024);
    ASSERT_EQ(watch.header().status, 200);
    int lines = 0;
    ASSERT_TRUE(watch.next());
    ++lines;
    ASSERT_TRUE(watchers_become(server().hub(), 1));
    // Thirty moves unread: far more than the two small buffers hold, far
    // fewer than the stream's queue limit.
    constexpr int kMoves = 30;
    for (int ply = 1; ply <= kMoves; ++ply) {
        const Reply<v1::GetGameResponse> now = grpc().get(game.id);
        ASSERT_TRUE(IsOk(now));
        ASSERT_EQ(now->game().state(), v1::GAME_STATE_ACTIVE);
        const bool fox = now->game().side_to_move() == v1::SIDE_FOX;
        ASSERT_TRUE(IsOk(grpc().move(game.id, now->game().legal_moves(0),
                                     fox ? game.fox_token : game.geese_token)));
    }
    for (int ply = 1; ply <= kMoves;) {
        const auto event = watch.next();
        ASSERT_TRUE(event) << "the stream ended before ply " << ply;
        ++lines;
        if (!event->has_move_made()) continue;
        EXPECT_EQ(event->move_made().move().ply(), ply);
        EXPECT_EQ(event->move_made().game().ply(), ply);
        ++ply;
    }
    EXPECT_EQ(server().hub().active_watchers(), 1);
    // Every line received was counted as sent, once: at most one more (a
    // presence change the hub may send meanwhile) than the lines read. A
    // send is counted when its write completes, which may be just after the
    // client has read its bytes: wait for the count to catch up.
    const auto counted_lines = [&] { return sent_before() - counted_before; };
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (counted_lines() < lines && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const double counted = counted_lines();
    EXPECT_GE(counted, lines);
    EXPECT_LE(counted, lines + 1);
}

// A hub that cuts a stream off when four events wait for it.
class RestWatchSmallQueue : public RestTest {
  protected:
    void configure(service::ReplicaOptions& options) override {
        options.watch.stream_queue_events = 4;
    }
};

TEST_F(RestWatchSmallQueue, AWatcherThatStopsReadingIsCutOffWhileTheOthersGetEveryMove) {
    // Small enough that a few moves fill the kernel's buffers and the queue.
    http_options().send_buffer_bytes = 4096;
    restart_http();
    const SeatedGame game = start_game();
    const std::string target = "/v1/games/" + game.id + ":watch";
    // The stalled watcher asks for the stream with a small receive window
    // and then never reads.
    namespace net = boost::asio;
    net::io_context io;
    net::ip::tcp::socket stalled(io);
    stalled.open(net::ip::tcp::v4());
    stalled.set_option(net::socket_base::receive_buffer_size(1024));
    stalled.connect({net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port())});
    const std::string request = "GET " + target + " HTTP/1.1\r\nHost: test\r\n\r\n";
    net::write(stalled, net::buffer(request));
    Watch reader(port(), target);
    ASSERT_TRUE(reader.next());
    ASSERT_TRUE(watchers_become(server().hub(), 2));

    int ply = 0;
    while (server().hub().active_watchers() == 2 && ply < 60) {
        const Reply<v1::GetGameResponse> now = grpc().get(game.id);
        ASSERT_TRUE(IsOk(now));
        if (now->game().state() != v1::GAME_STATE_ACTIVE) break;
        const bool fox = now->game().side_to_move() == v1::SIDE_FOX;
        ASSERT_TRUE(IsOk(grpc().move(game.id, now->game().legal_moves(0),
                                     fox ? game.fox_token : game.geese_token)));
        ++ply;
        // The reader is not held back: it has each move before the next.
        const auto event = reader.next_change();
        ASSERT_TRUE(event && event->has_move_made()) << "ply " << ply;
        EXPECT_EQ(event->move_made().move().ply(), ply);
    }
    EXPECT_TRUE(watchers_become(server().hub(), 1)) << "still 2 watchers after " << ply << " moves";
    // What the stalled watcher gets when it reads at last: what had been
    // written before it was cut off, then the end of the connection.
    std::array<char, 65536> sink{};
    std::size_t received = 0;
    boost::system::error_code ec;
    while (!ec)
        received += stalled.read_some(net::buffer(sink), ec);
    EXPECT_TRUE(ec == net::error::eof || ec == net::error::connection_reset) << ec.message();
    EXPECT_GT(received, 0u);
}

TEST_F(RestWatch, ShutdownEndsOpenStreamsCleanly) {
    const SeatedGame game = start_game();
    Watch watch(port(), "/v1/games/" + game.id + ":watch",
                {{"Authorization", "Bearer " + game.fox_token}});
    ASSERT_EQ(watch.header().status, 200);
    ASSERT_TRUE(watch.next());
    ASSERT_TRUE(watchers_become(server().hub(), 1));
    std::thread stopper([&] { http().shutdown(); });
    // The body ends with its terminating chunk (no exception, no reset).
    while (watch.next()) {
    }
    stopper.join();
    EXPECT_TRUE(watch.client().closed_by_server());
    EXPECT_EQ(server().hub().active_watchers(), 0);
}

TEST_F(RestWatch, TheHubStoppingEndsOpenStreamsCleanly) {
    const SeatedGame game = start_game();
    Watch watch(port(), "/v1/games/" + game.id + ":watch");
    ASSERT_TRUE(watch.next());
    server().hub().stop();
    while (watch.next()) {
    }
    EXPECT_TRUE(watch.client().closed_by_server());
}

}  // namespace
}  // namespace foxgeese::test
