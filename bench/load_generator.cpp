// foxgeese-load: drives a running foxgeese-server with MakeMove calls, over
// gRPC or REST/JSON, and reports throughput and latency percentiles. Each
// client plays whole games with a both-seats token, choosing random legal
// moves with expected_ply set, so every call is a real validated, persisted
// move. A client is one connection (one HTTP/2 channel, or one HTTP/1.1
// keep-alive connection) making one call at a time.
//
//   foxgeese-load --server localhost:50051 --clients 4 --seconds 15
//   foxgeese-load --transport rest --server localhost:8080 --clients 4 --seconds 15
//   foxgeese-load --server localhost:50051 --clients 1 --moves 2000
//
// The last line of the output is one `key=value` record for scripts
// (bench/compare_moves.sh reads it).
#include <grpcpp/grpcpp.h>
#include <google/protobuf/util/json_util.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "foxgeese/v1/game_service.grpc.pb.h"

namespace v1 = foxgeese::v1;
namespace http = boost::beast::http;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    std::string server = "localhost:50051";
    std::string transport = "grpc";
    int clients = 1;
    int moves = 0;        // per client; 0: run for `seconds`
    double seconds = 10;  // measured time, after the warm-up
    double warmup = 1;    // seconds of moves not counted
    std::string variant = "standard";
};

// One player's connection: creates games and makes moves, whatever the
// transport. A failed call returns nullopt and counts as an error.
class MoveClient {
public:
    virtual ~MoveClient() = default;
    virtual std::optional<v1::CreateGameResponse> create(const v1::CreateGameRequest& r) = 0;
    virtual std::optional<v1::MakeMoveResponse> move(const v1::MakeMoveRequest& r,
                                                      const std::string& token) = 0;
};

class GrpcMoveClient final : public MoveClient {
public:
    explicit GrpcMoveClient(const std::string& server)
        // A channel of its own (not shared by the clients): one connection each.
        : stub_(v1::FoxGeeseService::NewStub(grpc::CreateCustomChannel(
              server, grpc::InsecureChannelCredentials(), own_connection()))) {}

    std::optional<v1::CreateGameResponse> create(const v1::CreateGameRequest& r) override {
        grpc::ClientContext context;
        v1::CreateGameResponse out;
        if (!stub_->CreateGame(&context, r, &out).ok()) return std::nullopt;
        return out;
    }
    std::optional<v1::MakeMoveResponse> move(const v1::MakeMoveRequest& r,
                                             const std::string& token) override {
        grpc::ClientContext context;
        context.AddMetadata("authorization", "Bearer " + token);
        v1::MakeMoveResponse out;
        const grpc::Status status = stub_->MakeMove(&context, r, &out);
        if (!status.ok()) {
            std::cerr << "MakeMove: " << status.error_message() << "\n";
            return std::nullopt;
        }
        return out;
    }

private:
    static grpc::ChannelArguments own_connection() {
        grpc::ChannelArguments args;
        args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
        return args;
    }
    std::unique_ptr<v1::FoxGeeseService::Stub> stub_;
};

// HTTP/1.1 with keep-alive and the proto's JSON mapping, as a browser would.
class RestMoveClient final : public MoveClient {
public:
    explicit RestMoveClient(const std::string& server) : socket_(io_) {
        const auto colon = server.rfind(':');
        host_ = server.substr(0, colon);
        port_ = colon == std::string::npos ? "80" : server.substr(colon + 1);
        connect();
    }

    std::optional<v1::CreateGameResponse> create(const v1::CreateGameRequest& r) override {
        return call<v1::CreateGameResponse>("/v1/games", r, "");
    }
    std::optional<v1::MakeMoveResponse> move(const v1::MakeMoveRequest& r,
                                             const std::string& token) override {
        return call<v1::MakeMoveResponse>("/v1/games/" + r.game_id() + "/moves", r, token);
    }

private:
    void connect() {
        boost::asio::ip::tcp::resolver resolver(io_);
        boost::asio::connect(socket_, resolver.resolve(host_, port_));
        socket_.set_option(boost::asio::ip::tcp::no_delay(true));
    }

    template <class Response>
    std::optional<Response> call(const std::string& target, const google::protobuf::Message& body,
                                 const std::string& token) {
        http::request<http::string_body> request{http::verb::post, target, 11};
        request.set(http::field::host, host_);
        request.set(http::field::content_type, "application/json");
        if (!token.empty()) request.set(http::field::authorization, "Bearer " + token);
        if (!google::protobuf::util::MessageToJsonString(body, &request.body()).ok())
            return std::nullopt;
        request.prepare_payload();
        http::response<http::string_body> reply;
        boost::system::error_code error;
        http::write(socket_, request, error);
        if (!error) http::read(socket_, buffer_, reply, error);
        if (error) {
            std::cerr << "REST " << target << ": " << error.message() << "\n";
            socket_.close();
            connect();
            return std::nullopt;
        }
        if (reply.result() != http::status::ok) {
            std::cerr << "REST " << target << ": " << reply.result_int() << " " << reply.body()
                      << "\n";
            return std::nullopt;
        }
        Response out;
        google::protobuf::util::JsonParseOptions lenient;
        lenient.ignore_unknown_fields = true;
        if (!google::protobuf::util::JsonStringToMessage(reply.body(), &out, lenient).ok())
            return std::nullopt;
        return out;
    }

    boost::asio::io_context io_;
    boost::asio::ip::tcp::socket socket_;
    boost::beast::flat_buffer buffer_;
    std::string host_;
    std::string port_;
};

struct ClientTally {
    std::vector<double> latencies_ms;  // counted moves only
    int games = 0;
    int errors = 0;
};

// Plays games until the end of the measured window (or `moves` counted
// moves); a move is counted when it was sent after the warm-up ended and
// answered before the window closed.
ClientTally run_client(const Options& options, int seed, Clock::time_point measure_from,
                       Clock::time_point measure_until) {
    std::unique_ptr<MoveClient> client;
    if (options.transport == "rest")
        client = std::make_unique<RestMoveClient>(options.server);
    else
        client = std::make_unique<GrpcMoveClient>(options.server);
    std::mt19937 rng(static_cast<unsigned>(seed));
    ClientTally tally;
    const bool by_count = options.moves > 0;
    auto done = [&] {
        return by_count ? static_cast<int>(tally.latencies_ms.size()) >= options.moves
                        : Clock::now() >= measure_until;
    };
    while (!done()) {
        v1::CreateGameRequest create;
        create.set_variant(options.variant);
        create.set_seat(v1::SEAT_CHOICE_BOTH);
        std::optional<v1::CreateGameResponse> created = client->create(create);
        if (!created) {
            ++tally.errors;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            continue;
        }
        ++tally.games;
        v1::Game game = created->game();
        while (game.state() == v1::GAME_STATE_ACTIVE && !done()) {
            v1::MakeMoveRequest request;
            request.set_game_id(game.game_id());
            request.set_move(game.legal_moves(static_cast<int>(rng() % game.legal_moves_size())));
            request.set_expected_ply(game.ply());
            const auto start = Clock::now();
            std::optional<v1::MakeMoveResponse> moved = client->move(request, created->seat_token());
            const auto end = Clock::now();
            if (!moved) {
                ++tally.errors;
                break;
            }
            if (by_count || (start >= measure_from && end <= measure_until))
                tally.latencies_ms.push_back(
                    std::chrono::duration<double, std::milli>(end - start).count());
            game = moved->game();
        }
    }
    return tally;
}

double percentile(const std::vector<double>& sorted, double q) {
    return sorted[std::min(sorted.size() - 1,
                           static_cast<std::size_t>(q * static_cast<double>(sorted.size())))];
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    CLI::App app{"foxgeese-load: MakeMove throughput and latency against a running foxgeese-server"};
    app.add_option("--server", options.server, "host:port of the gRPC or HTTP port")
        ->capture_default_str();
    app.add_option("--transport", options.transport, "grpc or rest")
        ->check(CLI::IsMember({"grpc", "rest"}))
        ->capture_default_str();
    app.add_option("--clients", options.clients, "connections, each making one call at a time")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    app.add_option("--moves", options.moves,
                   "moves per client, then stop (0: run for --seconds after --warmup-seconds)")
        ->check(CLI::Range(0, 10'000'000))
        ->capture_default_str();
    app.add_option("--seconds", options.seconds, "measured seconds")
        ->check(CLI::Range(0.1, 3600.0))
        ->capture_default_str();
    app.add_option("--warmup-seconds", options.warmup, "seconds of moves not counted first")
        ->check(CLI::Range(0.0, 600.0))
        ->capture_default_str();
    app.add_option("--variant", options.variant, "variant of the games played")
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    const auto begin = Clock::now();
    const bool by_count = options.moves > 0;
    const auto measure_from =
        by_count ? begin
                 : begin + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(options.warmup));
    const auto measure_until =
        measure_from + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(options.seconds));
    std::vector<double> all;
    std::mutex mutex;
    int games = 0;
    int errors = 0;
    std::vector<std::thread> threads;
    for (int c = 0; c < options.clients; ++c) {
        threads.emplace_back([&, c] {
            ClientTally mine = run_client(options, 1000 + c, measure_from, measure_until);
            std::lock_guard lock(mutex);
            all.insert(all.end(), mine.latencies_ms.begin(), mine.latencies_ms.end());
            games += mine.games;
            errors += mine.errors;
        });
    }
    for (auto& t : threads)
        t.join();
    const double seconds =
        by_count ? std::chrono::duration<double>(Clock::now() - begin).count() : options.seconds;
    if (all.empty()) {
        std::cerr << "no move succeeded (" << errors << " errors)\n";
        return 1;
    }
    std::sort(all.begin(), all.end());
    const double rate = static_cast<double>(all.size()) / seconds;
    std::printf(
        "MakeMove over %s: %zu moves in %d games, %d clients, %.1f s: %.0f moves/s; latency "
        "median %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms; %d errors\n",
        options.transport.c_str(), all.size(), games, options.clients, seconds, rate,
        percentile(all, 0.5), percentile(all, 0.9), percentile(all, 0.99), all.back(), errors);
    std::printf(
        "result transport=%s clients=%d moves=%zu seconds=%.2f rate=%.1f median_ms=%.3f "
        "p90_ms=%.3f p99_ms=%.3f max_ms=%.3f errors=%d\n",
        options.transport.c_str(), options.clients, all.size(), seconds, rate,
        percentile(all, 0.5), percentile(all, 0.9), percentile(all, 0.99), all.back(), errors);
    return errors == 0 ? 0 : 1;
}
