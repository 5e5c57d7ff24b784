// foxgeese-floor-client: drives foxgeese-floor-server (see its header) the
// way foxgeese-load and foxgeese-watch-fanout drive foxgeese-server, but as
// cheaply as a client can, so that the two together give a floor.
//
//   moves:  N clients, each sending MakeMove for its own game number as fast as
//           it is answered, over the sync API (one thread per client, no hop)
//           or the callback API; or, with --api rest, over HTTP/1.1 to the
//           server's --http-port, a keep-alive connection and a thread per
//           client, the JSON written and read as foxgeese-load's REST client
//           does; prints a `result rate=... median_ms=... p99_ms=...` line
//           like foxgeese-load's.
//   fanout: G WatchGame streams over --channels channels and L raw TCP line
//           streams, then one MakeMove at a time, the next when every stream
//           has the last; prints, per kind, the time from the event's send
//           to its arrival.
//
//   foxgeese-floor-client moves --server 127.0.0.1:30844 --clients 4 --seconds 8 --api sync
//   foxgeese-floor-client fanout --server 127.0.0.1:30844 --lines 31844 --grpc-streams 5000
//       --line-streams 5000 --moves 30
#include <google/protobuf/util/json_util.h>
#include <grpcpp/grpcpp.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <latch>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "foxgeese/v1/game_service.grpc.pb.h"

namespace v1 = foxgeese::v1;
using SteadyClock = std::chrono::steady_clock;

namespace {

std::int64_t now_us() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Latencies in microseconds, from several threads.
class Samples {
  public:
    void add(std::int64_t us) {
        std::lock_guard lock(mutex_);
        values_.push_back(us);
    }
    void add_all(Samples& other) {
        std::scoped_lock lock(mutex_, other.mutex_);
        values_.insert(values_.end(), other.values_.begin(), other.values_.end());
    }
    std::size_t size() {
        std::lock_guard lock(mutex_);
        return values_.size();
    }
    // "median_ms=... p99_ms=..." of what was added.
    std::string summary() {
        std::lock_guard lock(mutex_);
        if (values_.empty()) return "median_ms=0 p99_ms=0";
        std::sort(values_.begin(), values_.end());
        const auto at = [&](double q) {
            const double n = static_cast<double>(values_.size());
            const auto i = std::min(values_.size() - 1, static_cast<std::size_t>(q * n));
            return static_cast<double>(values_[i]) / 1000.0;
        };
        char text[96];
        std::snprintf(text, sizeof text, "median_ms=%.3f p99_ms=%.3f max_ms=%.3f", at(0.5),
                      at(0.99), static_cast<double>(values_.back()) / 1000.0);
        return text;
    }

  private:
    std::mutex mutex_;
    std::vector<std::int64_t> values_;
};

v1::MakeMoveRequest move_request(int game) {
    v1::MakeMoveRequest request;
    request.set_game_id(std::to_string(game));
    request.set_move("d4-e4");
    request.set_expected_ply(0);
    return request;
}

void set_token(grpc::ClientContext& context) {
    context.AddMetadata("authorization", "Bearer " + std::string(43, 'k'));
}

struct MovesRun {
    std::string server;
    int clients = 1;
    double seconds = 8;
    double warmup = 2;
    std::string api = "sync";
};

// One callback-API client: the next call from the completion of the last.
class CallbackMover {
  public:
    CallbackMover(v1::FoxGeeseService::Stub& stub, int game, SteadyClock::time_point from,
                  SteadyClock::time_point until, Samples& samples, std::latch& done)
        : stub_(stub),
          request_(move_request(game)),
          from_(from),
          until_(until),
          samples_(samples),
          done_(done) {}
    void next() {
        const auto now = SteadyClock::now();
        if (now >= until_) {
            done_.count_down();
            return;
        }
        context_ = std::make_unique<grpc::ClientContext>();
        set_token(*context_);
        started_ = now;
        stub_.async()->MakeMove(context_.get(), &request_, &reply_, [this](grpc::Status status) {
            if (!status.ok()) std::cerr << "MakeMove: " << status.error_message() << "\n";
            if (started_ >= from_)
                samples_.add(std::chrono::duration_cast<std::chrono::microseconds>(
                                 SteadyClock::now() - started_)
                                 .count());
            next();
        });
    }

  private:
    v1::FoxGeeseService::Stub& stub_;
    v1::MakeMoveRequest request_;
    v1::MakeMoveResponse reply_;
    std::unique_ptr<grpc::ClientContext> context_;
    SteadyClock::time_point started_;
    const SteadyClock::time_point from_, until_;
    Samples& samples_;
    std::latch& done_;
};

// One REST client's moves until `until`, each timed after `from`.
void rest_moves(const std::string& server, int game, SteadyClock::time_point from,
                SteadyClock::time_point until, Samples& samples) {
    namespace http = boost::beast::http;
    const auto colon = server.rfind(':');
    const std::string host = server.substr(0, colon);
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket socket(io);
    boost::asio::ip::tcp::resolver resolver(io);
    boost::asio::connect(socket, resolver.resolve(host, server.substr(colon + 1)));
    socket.set_option(boost::asio::ip::tcp::no_delay(true));
    boost::beast::flat_buffer buffer;
    const v1::MakeMoveRequest request = move_request(game);
    const std::string target = "/v1/games/" + request.game_id() + "/moves";
    google::protobuf::util::JsonParseOptions lenient;
    lenient.ignore_unknown_fields = true;
    for (auto started = SteadyClock::now(); started < until; started = SteadyClock::now()) {
        http::request<http::string_body> post{http::verb::post, target, 11};
        post.set(http::field::host, host);
        post.set(http::field::content_type, "application/json");
        post.set(http::field::authorization, "Bearer " + std::string(43, 'k'));
        (void)google::protobuf::util::MessageToJsonString(request, &post.body());
        post.prepare_payload();
        http::write(socket, post);
        http::response<http::string_body> reply;
        http::read(socket, buffer, reply);
        v1::MakeMoveResponse parsed;
        if (reply.result() != http::status::ok ||
            !google::protobuf::util::JsonStringToMessage(reply.body(), &parsed, lenient).ok())
            std::cerr << "MakeMove over REST: " << reply.result_int() << "\n";
        if (started >= from)
            samples.add(
                std::chrono::duration_cast<std::chrono::microseconds>(SteadyClock::now() - started)
                    .count());
    }
}

int run_moves(const MovesRun& run) {
    auto channel = grpc::CreateChannel(run.server, grpc::InsecureChannelCredentials());
    auto stub = v1::FoxGeeseService::NewStub(channel);
    const auto from = SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                                               std::chrono::duration<double>(run.warmup));
    const auto until = from + std::chrono::duration_cast<SteadyClock::duration>(
                                  std::chrono::duration<double>(run.seconds));
    Samples samples;
    if (run.api == "rest") {
        std::vector<std::thread> threads;
        for (int i = 0; i < run.clients; ++i)
            threads.emplace_back(rest_moves, run.server, i + 1, from, until, std::ref(samples));
        for (std::thread& thread : threads)
            thread.join();
    } else if (run.api == "sync") {
        std::vector<std::thread> threads;
        for (int i = 0; i < run.clients; ++i) {
            threads.emplace_back([&, game = i + 1] {
                const v1::MakeMoveRequest request = move_request(game);
                v1::MakeMoveResponse reply;
                for (auto started = SteadyClock::now(); started < until;
                     started = SteadyClock::now()) {
                    grpc::ClientContext context;
                    set_token(context);
                    const grpc::Status status = stub->MakeMove(&context, request, &reply);
                    if (!status.ok()) std::cerr << "MakeMove: " << status.error_message() << "\n";
                    if (started >= from)
                        samples.add(std::chrono::duration_cast<std::chrono::microseconds>(
                                        SteadyClock::now() - started)
                                        .count());
                }
            });
        }
        for (std::thread& thread : threads)
            thread.join();
    } else {
        std::latch done(run.clients);
        std::vector<std::unique_ptr<CallbackMover>> movers;
        for (int i = 0; i < run.clients; ++i)
            movers.push_back(
                std::make_unique<CallbackMover>(*stub, i + 1, from, until, samples, done));
        for (auto& mover : movers)
            mover->next();
        done.wait();
    }
    const std::size_t calls = samples.size();
    std::printf("result api=%s clients=%d moves=%zu rate=%.1f %s\n", run.api.c_str(), run.clients,
                calls, static_cast<double>(calls) / run.seconds, samples.summary().c_str());
    return 0;
}

struct FanoutRun {
    std::string server;
    int lines_port = 0;
    int grpc_streams = 5000;
    int line_streams = 5000;
    int moves = 30;
    int channels = 10;
};

// One WatchGame stream: each event's delay from its time to now.
class WatchReader : public grpc::ClientReadReactor<v1::WatchGameResponse> {
  public:
    WatchReader(v1::FoxGeeseService::Stub& stub, Samples& samples, std::atomic<long>& arrived)
        : samples_(samples), arrived_(arrived) {
        request_.set_game_id("1");
        stub.async()->WatchGame(&context_, &request_, this);
        StartRead(&event_);
        StartCall();
    }
    void OnReadDone(bool ok) override {
        if (!ok) return;
        const auto& t = event_.time();
        samples_.add(now_us() - (t.seconds() * 1'000'000 + t.nanos() / 1000));
        ++arrived_;
        StartRead(&event_);
    }
    void OnDone(const grpc::Status&) override {}

  private:
    grpc::ClientContext context_;
    v1::WatchGameRequest request_;
    v1::WatchGameResponse event_;
    Samples& samples_;
    std::atomic<long>& arrived_;
};

// Every line stream on one thread, as foxgeese-watch-fanout's NDJSON side.
void read_lines(int epoll, Samples& samples, std::atomic<long>& arrived) {
    epoll_event events[256];
    std::vector<char> buffer(64 * 1024);
    for (;;) {
        const int n = epoll_wait(epoll, events, 256, -1);
        for (int i = 0; i < n; ++i) {
            const ssize_t got = recv(events[i].data.fd, buffer.data(), buffer.size(), 0);
            if (got <= 0) continue;
            const std::int64_t now = now_us();
            // A line is whole in one read here (the server sends each in one
            // call, far below the socket's buffer); its first field is the time.
            for (const char* p = buffer.data(); p < buffer.data() + got;) {
                const char* end =
                    static_cast<const char*>(std::memchr(p, '\n', buffer.data() + got - p));
                if (end == nullptr) break;
                samples.add(now - std::strtoll(p, nullptr, 10));
                ++arrived;
                p = end + 1;
            }
        }
    }
}

int run_fanout(const FanoutRun& run) {
    std::vector<std::unique_ptr<v1::FoxGeeseService::Stub>> stubs;
    for (int i = 0; i < run.channels; ++i) {
        grpc::ChannelArguments args;
        args.SetInt("foxgeese.floor_channel", i);  // a distinct connection per channel
        stubs.push_back(v1::FoxGeeseService::NewStub(
            grpc::CreateCustomChannel(run.server, grpc::InsecureChannelCredentials(), args)));
    }
    Samples grpc_samples, line_samples;
    std::atomic<long> arrived{0};
    std::vector<std::unique_ptr<WatchReader>> readers;
    for (int i = 0; i < run.grpc_streams; ++i)
        readers.push_back(
            std::make_unique<WatchReader>(*stubs[i % run.channels], grpc_samples, arrived));
    const int epoll = epoll_create1(0);
    for (int i = 0; i < run.line_streams; ++i) {
        const int s = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(static_cast<std::uint16_t>(run.lines_port));
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(s, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
            std::perror("connect");
            std::_Exit(1);
        }
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.fd = s;
        epoll_ctl(epoll, EPOLL_CTL_ADD, s, &event);
    }
    std::thread(read_lines, epoll, std::ref(line_samples), std::ref(arrived)).detach();
    std::this_thread::sleep_for(std::chrono::seconds(3));  // every stream registered

    auto stub = v1::FoxGeeseService::NewStub(
        grpc::CreateChannel(run.server, grpc::InsecureChannelCredentials()));
    const long per_move = run.grpc_streams + run.line_streams;
    for (int move = 1; move <= run.moves; ++move) {
        grpc::ClientContext context;
        set_token(context);
        v1::MakeMoveResponse reply;
        const grpc::Status status = stub->MakeMove(&context, move_request(1), &reply);
        if (!status.ok()) {
            std::cerr << "MakeMove: " << status.error_message() << "\n";
            std::_Exit(1);
        }
        const auto deadline = SteadyClock::now() + std::chrono::seconds(10);
        while (arrived.load() < per_move * move) {
            if (SteadyClock::now() > deadline) {
                std::cerr << "move " << move << ": " << arrived.load() - per_move * (move - 1)
                          << " of " << per_move << " deliveries after 10 s\n";
                std::_Exit(1);
            }
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    }
    std::printf("%d streams (%d gRPC, %d lines), %d moves\n", run.grpc_streams + run.line_streams,
                run.grpc_streams, run.line_streams, run.moves);
    if (run.grpc_streams > 0) std::printf("gRPC: %s\n", grpc_samples.summary().c_str());
    if (run.line_streams > 0) std::printf("lines: %s\n", line_samples.summary().c_str());
    if (run.grpc_streams > 0 && run.line_streams > 0) {
        Samples all;
        all.add_all(grpc_samples);
        all.add_all(line_samples);
        std::printf("all: %s\n", all.summary().c_str());
    }
    std::fflush(stdout);
    std::_Exit(0);  // the streams are not wound down: the run is over
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"foxgeese-floor-client: drives foxgeese-floor-server for bench/floor.sh"};
    app.require_subcommand(1);
    MovesRun moves;
    CLI::App* moves_command = app.add_subcommand("moves", "MakeMove throughput and latency");
    moves_command->add_option("--server", moves.server, "host:port")->required();
    moves_command->add_option("--clients", moves.clients)->check(CLI::Range(1, 1024));
    moves_command->add_option("--seconds", moves.seconds, "measured window")
        ->check(CLI::PositiveNumber);
    moves_command->add_option("--warmup-seconds", moves.warmup)->check(CLI::NonNegativeNumber);
    moves_command
        ->add_option("--api", moves.api,
                     "sync: a thread per client; callback; rest: HTTP/1.1, a thread per client")
        ->check(CLI::IsMember({"sync", "callback", "rest"}));
    FanoutRun fanout;
    CLI::App* fanout_command = app.add_subcommand("fanout", "one event to many streams");
    fanout_command->add_option("--server", fanout.server, "host:port")->required();
    fanout_command->add_option("--lines", fanout.lines_port, "the server's --lines-port")
        ->check(CLI::Range(0, 65535));
    fanout_command->add_option("--grpc-streams", fanout.grpc_streams)->check(CLI::Range(0, 20000));
    fanout_command->add_option("--line-streams", fanout.line_streams)->check(CLI::Range(0, 20000));
    fanout_command->add_option("--moves", fanout.moves)->check(CLI::Range(1, 10000));
    fanout_command->add_option("--channels", fanout.channels)->check(CLI::Range(1, 1000));
    CLI11_PARSE(app, argc, argv);
    if (moves_command->parsed()) return run_moves(moves);
    return run_fanout(fanout);
}
