// foxgeese-watch-fanout: how long a move takes to reach many watchers on
// another server process. Opens N WatchGame streams on --watch-server, some
// of them gRPC (over several channels, callback reactors, no thread per
// stream) and --ndjson of them NDJSON over HTTP (--watch-http), plays moves
// through --move-server one at a time, and reports, per transport, the time
// from the server accepting each move (Move.time, just before its commit) to
// each watcher receiving it. With --stalled, that many more NDJSON watchers
// request the stream and never read: the run then checks that the watch
// server dropped them (its foxgeese_active_watchers gauge) while the others
// kept getting every move. Prints the watch server's resident memory before
// and after the watchers connect when --watch-pid is given.
//
//   foxgeese-watch-fanout --move-server A:P --watch-server B:Q --watchers 1000 --moves 50
//   foxgeese-watch-fanout --move-server A:P --watch-server B:Q --watch-http B:H
//       --watchers 10000 --ndjson 5000 --stalled 20 --moves 50 --watch-pid PID
#include <grpcpp/grpcpp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "foxgeese/v1/game_service.grpc.pb.h"
#include "ndjson_watchers.h"

namespace v1 = foxgeese::v1;
using Clock = std::chrono::system_clock;

namespace {

struct Options {
    std::string move_server = "localhost:50051";
    std::string watch_server = "localhost:50052";
    std::string watch_http;  // host:port of the watch server's HTTP side
    int watchers = 1000;     // all readers, both transports
    int ndjson = 0;          // of which NDJSON
    int stalled = 0;         // NDJSON streams that never read, on top
    int stall_wait = 45;     // seconds to wait for the server to drop them
    int moves = 50;
    int channels = 10;
    int watch_pid = 0;
};

long rss_kib(int pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    }
    return -1;
}

std::int64_t micros(const google::protobuf::Timestamp& t) {
    return t.seconds() * 1'000'000 + t.nanos() / 1000;
}

std::int64_t now_micros() {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now().time_since_epoch())
        .count();
}

// Collects arrival delays of MoveMade events, by ply.
struct Recorder {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<double> delays_ms;         // gRPC
    std::vector<double> ndjson_delays_ms;  // NDJSON
    std::map<int, int> arrivals;           // ply -> watchers that got it
    int ready = 0;                         // streams that got their snapshot
    int ended = 0;
    int readers = 0;  // reading watchers: a ply is done when all have it

    // Counts one watcher's arrival of `ply`; true when it was the last one,
    // so that the main thread is woken once a move, not once a delivery (ten
    // thousand wake-ups a move cost the watchers' cores as much as reading).
    bool arrived_locked(int ply) { return ++arrivals[ply] == readers; }
};

class Watcher : public grpc::ClientReadReactor<v1::WatchGameResponse> {
  public:
    Watcher(v1::FoxGeeseService::Stub* stub, const std::string& game_id, Recorder& recorder)
        : recorder_(recorder) {
        request_.set_game_id(game_id);
        stub->async()->WatchGame(&context_, &request_, this);
        StartRead(&event_);
        StartCall();
    }
    void OnReadDone(bool ok) override {
        if (!ok) return;
        const std::int64_t arrived = now_micros();
        bool last = false;
        {
            std::lock_guard lock(recorder_.mutex);
            if (event_.has_snapshot()) {
                ++recorder_.ready;
            } else if (event_.has_move_made()) {
                recorder_.delays_ms.push_back(
                    static_cast<double>(arrived - micros(event_.move_made().move().time())) /
                    1000.0);
                last = recorder_.arrived_locked(event_.move_made().move().ply());
            }
        }
        if (last || event_.has_snapshot()) recorder_.changed.notify_all();
        StartRead(&event_);
    }
    void OnDone(const grpc::Status& status) override {
        if (!status.ok() && status.error_code() != grpc::StatusCode::CANCELLED) {
            std::fprintf(stderr, "watch stream ended: %s\n", status.error_message().c_str());
        }
        {
            std::lock_guard lock(recorder_.mutex);
            ++recorder_.ended;
        }
        recorder_.changed.notify_all();
    }
    void cancel() { context_.TryCancel(); }

  private:
    Recorder& recorder_;
    grpc::ClientContext context_;
    v1::WatchGameRequest request_;
    v1::WatchGameResponse event_;
};

double percentile(std::vector<double>& v, double q) {
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))];
}

std::pair<std::string, std::string> host_port(const std::string& address) {
    const auto colon = address.rfind(':');
    return {address.substr(0, colon), address.substr(colon + 1)};
}

// The watch server's foxgeese_active_watchers gauge, from its /metrics.
long active_watchers(const std::string& http_address) {
    namespace beast = boost::beast;
    namespace http = beast::http;
    const auto [host, port] = host_port(http_address);
    boost::asio::io_context io;
    boost::asio::ip::tcp::resolver resolver(io);
    beast::tcp_stream stream(io);
    stream.connect(resolver.resolve(host, port));
    http::request<http::empty_body> request(http::verb::get, "/metrics", 11);
    request.set(http::field::host, host);
    http::write(stream, request);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(stream, buffer, response);
    const std::string& body = response.body();
    const std::string key = "\nfoxgeese_active_watchers ";
    const auto at = body.find(key);
    return at == std::string::npos ? -1 : std::stol(body.substr(at + key.size()));
}

void print_delays(const char* transport, std::vector<double> delays) {
    if (delays.empty()) return;
    const double median = percentile(delays, 0.5);
    const double p99 = percentile(delays, 0.99);
    std::printf("%s: %zu deliveries, accept-to-watcher median %.2f ms, p99 %.2f ms, max %.2f ms\n",
                transport, delays.size(), median, p99, delays.back());
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"Time from a move's acceptance to its arrival at many watchers"};
    app.add_option("--move-server", o.move_server, "gRPC address moves are made through");
    app.add_option("--watch-server", o.watch_server, "gRPC address of the watch server");
    app.add_option("--watch-http", o.watch_http,
                   "HTTP address of the watch server (for --ndjson and --stalled)");
    app.add_option("--watchers", o.watchers, "watch streams that read, both transports")
        ->check(CLI::Range(1, 100000));
    app.add_option("--ndjson", o.ndjson, "how many of them are NDJSON")
        ->check(CLI::Range(0, 100000));
    app.add_option("--stalled", o.stalled, "NDJSON streams on top that never read")
        ->check(CLI::Range(0, 1000));
    app.add_option("--stall-wait", o.stall_wait,
                   "seconds to wait for the server to drop the stalled streams");
    app.add_option("--moves", o.moves, "moves to play")->check(CLI::Range(1, 1000));
    app.add_option("--channels", o.channels, "HTTP/2 connections for the gRPC streams")
        ->check(CLI::Range(1, 1000));
    app.add_option("--watch-pid", o.watch_pid, "the watch server's pid, for its memory");
    CLI11_PARSE(app, argc, argv);
    if ((o.ndjson > 0 || o.stalled > 0) && o.watch_http.empty()) {
        std::cerr << "--ndjson and --stalled need --watch-http\n";
        return 2;
    }
    o.ndjson = std::min(o.ndjson, o.watchers);
    const int grpc_watchers = o.watchers - o.ndjson;

    auto mover = v1::FoxGeeseService::NewStub(
        grpc::CreateChannel(o.move_server, grpc::InsecureChannelCredentials()));
    v1::CreateGameRequest create;
    create.set_variant("standard");
    create.mutable_options()->set_geese_sideways(true);
    create.set_seat(v1::SEAT_CHOICE_BOTH);
    v1::CreateGameResponse created;
    {
        grpc::ClientContext context;
        const grpc::Status status = mover->CreateGame(&context, create, &created);
        if (!status.ok()) {
            std::cerr << "CreateGame: " << status.error_message() << "\n";
            return 1;
        }
    }
    const std::string& game_id = created.game().game_id();
    const long rss_before = o.watch_pid ? rss_kib(o.watch_pid) : -1;

    Recorder recorder;
    recorder.readers = o.watchers;
    // Separate channels, so the streams spread over several HTTP/2 connections.
    std::vector<std::unique_ptr<v1::FoxGeeseService::Stub>> stubs;
    for (int c = 0; c < o.channels; ++c) {
        grpc::ChannelArguments args;
        args.SetInt("foxgeese.channel", c);  // distinct args: no channel sharing
        stubs.push_back(v1::FoxGeeseService::NewStub(
            grpc::CreateCustomChannel(o.watch_server, grpc::InsecureChannelCredentials(), args)));
    }
    std::vector<std::unique_ptr<Watcher>> watchers;
    std::unique_ptr<foxgeese::bench::NdjsonWatchers> ndjson;
    if (o.ndjson > 0 || o.stalled > 0) {
        const auto [host, port] = host_port(o.watch_http);
        ndjson = std::make_unique<foxgeese::bench::NdjsonWatchers>(
            host, port, game_id,
            [&recorder](const foxgeese::bench::NdjsonLine& line) {
                bool last = false;
                {
                    std::lock_guard lock(recorder.mutex);
                    if (line.snapshot) {
                        ++recorder.ready;
                    } else if (line.ply > 0) {
                        recorder.ndjson_delays_ms.push_back(
                            static_cast<double>(line.arrived_us - line.move_time_us) / 1000.0);
                        last = recorder.arrived_locked(line.ply);
                    }
                }
                if (last || line.snapshot) recorder.changed.notify_all();
            },
            [&recorder](const std::string& why) {
                {
                    std::lock_guard lock(recorder.mutex);
                    ++recorder.ended;
                }
                std::fprintf(stderr, "ndjson stream ended: %s\n", why.c_str());
                recorder.changed.notify_all();
            });
        ndjson->start();
    }
    // The watchers arrive in batches, each let in before the next: ten
    // thousand subscriptions at once would overflow the server's work queue,
    // which refuses the excess with UNAVAILABLE (as it should).
    constexpr int kBatch = 500;
    for (int opened = 0, grpc_opened = 0, ndjson_opened = 0; opened < o.watchers;) {
        const int grpc_batch = std::min(kBatch, grpc_watchers - grpc_opened);
        for (int i = 0; i < grpc_batch; ++i, ++grpc_opened) {
            watchers.push_back(std::make_unique<Watcher>(stubs[grpc_opened % o.channels].get(),
                                                         game_id, recorder));
        }
        const int ndjson_batch = std::min(kBatch, o.ndjson - ndjson_opened);
        if (ndjson_batch > 0) ndjson->add_readers(ndjson_batch);
        ndjson_opened += ndjson_batch;
        opened += grpc_batch + ndjson_batch;
        std::unique_lock lock(recorder.mutex);
        if (!recorder.changed.wait_for(
                lock, std::chrono::seconds(60),
                [&] { return recorder.ready == opened || recorder.ended > 0; }) ||
            recorder.ended > 0) {
            std::cerr << "only " << recorder.ready << " of " << opened << " watchers connected\n";
            return 1;
        }
    }
    if (ndjson) ndjson->add_stalled(o.stalled);
    // The crowd's arrival changes the game's spectator count, which goes to
    // every watcher at most once a second: wait until it has, so that what
    // is timed is the moves' fan-out alone (with 500 ms, a presence event to
    // 2,000 watchers landed among the moves and raised p99 by half).
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    const long rss_after = o.watch_pid ? rss_kib(o.watch_pid) : -1;

    std::mt19937 rng(7);
    v1::Game game = created.game();
    int played = 0;
    while (played < o.moves && game.state() == v1::GAME_STATE_ACTIVE) {
        v1::MakeMoveRequest request;
        request.set_game_id(game.game_id());
        request.set_move(game.legal_moves(static_cast<int>(rng() % game.legal_moves_size())));
        v1::MakeMoveResponse response;
        grpc::ClientContext context;
        context.AddMetadata("authorization", "Bearer " + created.seat_token());
        const grpc::Status status = mover->MakeMove(&context, request, &response);
        if (!status.ok()) {
            std::cerr << "MakeMove: " << status.error_message() << "\n";
            return 1;
        }
        game = response.game();
        ++played;
        const int ply = response.move().ply();
        // One move at a time: wait until every reading watcher has it.
        std::unique_lock lock(recorder.mutex);
        if (!recorder.changed.wait_for(lock, std::chrono::seconds(10), [&] {
                return recorder.arrivals[ply] == o.watchers || recorder.ended > 0;
            })) {
            std::cerr << "ply " << ply << " reached only " << recorder.arrivals[ply]
                      << " watchers\n";
            return 1;
        }
        if (recorder.ended > 0) {
            std::cerr << "a reading watcher's stream ended at ply " << ply << "\n";
            return 1;
        }
        if (game.state() != v1::GAME_STATE_ACTIVE) break;
    }
    std::printf("%d watchers (%d gRPC, %d NDJSON), %d moves\n", o.watchers, grpc_watchers, o.ndjson,
                played);
    print_delays("gRPC", recorder.delays_ms);
    print_delays("NDJSON", recorder.ndjson_delays_ms);
    if (!recorder.delays_ms.empty() && !recorder.ndjson_delays_ms.empty()) {
        std::vector<double> all = recorder.delays_ms;
        all.insert(all.end(), recorder.ndjson_delays_ms.begin(), recorder.ndjson_delays_ms.end());
        print_delays("all", std::move(all));
    }
    if (o.watch_pid) {
        std::printf(
            "watch server RSS: %ld KiB before, %ld KiB with the watchers: %.1f KiB per "
            "watcher\n",
            rss_before, rss_after,
            static_cast<double>(rss_after - rss_before) / (o.watchers + o.stalled));
    }
    int exit_code = 0;
    if (o.stalled > 0) {
        // The readers are all still open; the stalled ones should go once the
        // server's writes to them have waited out its timeout.
        const auto began = std::chrono::steady_clock::now();
        long active = active_watchers(o.watch_http);
        while (active > o.watchers &&
               std::chrono::steady_clock::now() - began < std::chrono::seconds(o.stall_wait)) {
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
            active = active_watchers(o.watch_http);
        }
        const double waited =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        ndjson->stop();
        const int closed = ndjson->stalled_closed();
        std::printf(
            "stalled: %d of %d dropped by the server (%ld streams open after %.1f s more; "
            "the %d readers got every move)\n",
            closed, o.stalled, active, waited, o.watchers);
        if (closed != o.stalled) exit_code = 1;
    }
    for (auto& w : watchers)
        w->cancel();
    if (ndjson) ndjson->stop();
    {
        std::unique_lock lock(recorder.mutex);
        recorder.changed.wait_for(lock, std::chrono::seconds(10),
                                  [&] { return recorder.ended >= grpc_watchers; });
    }
    return exit_code;
}
