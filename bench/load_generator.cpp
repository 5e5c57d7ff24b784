// foxgeese-load: drives a running foxgeese-server with MakeMove calls, over
// gRPC or REST/JSON, and reports throughput and latency percentiles. Each
// client plays whole games with a both-seats token, choosing random legal
// moves with expected_ply set, so every call is a real validated, persisted
// move. A client is one connection (one HTTP/2 channel, or one HTTP/1.1
// keep-alive connection) making one call at a time. Over gRPC the clients
// use the callback API (--sync: a thread per client on the synchronous one).
//
//   foxgeese-load --server localhost:50051 --clients 4 --seconds 15
//   foxgeese-load --transport rest --server localhost:8080 --clients 4 --seconds 15
//   foxgeese-load --server localhost:50051 --clients 1 --moves 2000
//
// The last line of the output is one `key=value` record for scripts
// (bench/compare_moves.sh reads it).
#include <google/protobuf/util/json_util.h>
#include <grpcpp/grpcpp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <latch>
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
    bool sync = false;  // gRPC: a thread per client on the synchronous API
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

// A stub on a channel of its own (not shared by the clients): one connection
// per client.
std::unique_ptr<v1::FoxGeeseService::Stub> own_stub(const std::string& server) {
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    return v1::FoxGeeseService::NewStub(
        grpc::CreateCustomChannel(server, grpc::InsecureChannelCredentials(), args));
}

class GrpcMoveClient final : public MoveClient {
  public:
    explicit GrpcMoveClient(const std::string& server) : stub_(own_stub(server)) {}

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
            std::optional<v1::MakeMoveResponse> moved =
                client->move(request, created->seat_token());
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

// The same client over gRPC's callback API: each answer's callback sends the
// client's next call, so no thread of the load generator waits for an
// answer (a thread per client blocking in the synchronous API cost about as
// much CPU as the server's handling of the move). One call at a time per
// client, as above.
class AsyncGrpcClient {
  public:
    AsyncGrpcClient(const Options& options, int seed, Clock::time_point measure_from,
                    Clock::time_point measure_until, std::function<void()> finished)
        : options_(options),
          stub_(own_stub(options.server)),
          rng_(static_cast<unsigned>(seed)),
          measure_from_(measure_from),
          measure_until_(measure_until),
          finished_(std::move(finished)) {}

    void start() { create(); }
    ClientTally& tally() { return tally_; }

  private:
    bool done() const {
        return options_.moves > 0 ? static_cast<int>(tally_.latencies_ms.size()) >= options_.moves
                                  : Clock::now() >= measure_until_;
    }

    // A call's context lives on until the next call's begins: the call that
    // used it may still be unwinding when its callback starts the next one.
    void new_context() {
        previous_context_ = std::move(context_);
        context_ = std::make_unique<grpc::ClientContext>();
    }

    void create() {
        if (done()) return finished_();
        new_context();
        create_request_.set_variant(options_.variant);
        create_request_.set_seat(v1::SEAT_CHOICE_BOTH);
        stub_->async()->CreateGame(
            context_.get(), &create_request_, &created_, [this](grpc::Status status) {
                if (!status.ok()) {
                    ++tally_.errors;
                    std::this_thread::sleep_for(std::chrono::milliseconds(100));
                    return create();
                }
                ++tally_.games;
                token_ = "Bearer " + created_.seat_token();
                game_ = created_.game();
                move();
            });
    }

    void move() {
        if (done()) return finished_();
        if (game_.state() != v1::GAME_STATE_ACTIVE) return create();
        new_context();
        context_->AddMetadata("authorization", token_);
        move_request_.set_game_id(game_.game_id());
        move_request_.set_move(
            game_.legal_moves(static_cast<int>(rng_() % game_.legal_moves_size())));
        move_request_.set_expected_ply(game_.ply());
        sent_ = Clock::now();
        stub_->async()->MakeMove(
            context_.get(), &move_request_, &moved_, [this](grpc::Status status) {
                const auto end = Clock::now();
                if (!status.ok()) {
                    std::cerr << "MakeMove: " << status.error_message() << "\n";
                    ++tally_.errors;
                    return create();
                }
                if (options_.moves > 0 || (sent_ >= measure_from_ && end <= measure_until_)) {
                    tally_.latencies_ms.push_back(
                        std::chrono::duration<double, std::milli>(end - sent_).count());
                }
                game_.Swap(moved_.mutable_game());
                move();
            });
    }

    const Options& options_;
    std::unique_ptr<v1::FoxGeeseService::Stub> stub_;
    std::mt19937 rng_;
    Clock::time_point measure_from_;
    Clock::time_point measure_until_;
    std::function<void()> finished_;
    ClientTally tally_;
    std::unique_ptr<grpc::ClientContext> context_;
    std::unique_ptr<grpc::ClientContext> previous_context_;
    v1::CreateGameRequest create_request_;
    v1::CreateGameResponse created_;
    v1::MakeMoveRequest move_request_;
    v1::MakeMoveResponse moved_;
    v1::Game game_;
    std::string token_;
    Clock::time_point sent_;
};

// Runs every client on gRPC's callback API until each has finished. The
// clients and the latch are left to the process's exit: the last callback of
// each may still be returning on a gRPC thread when the tallies are read.
std::vector<ClientTally> run_async_grpc(const Options& options, Clock::time_point measure_from,
                                        Clock::time_point measure_until) {
    auto* finished = new std::latch(options.clients);
    std::vector<AsyncGrpcClient*> clients;
    for (int c = 0; c < options.clients; ++c) {
        clients.push_back(new AsyncGrpcClient(options, 1000 + c, measure_from, measure_until,
                                              [finished] { finished->count_down(); }));
    }
    for (AsyncGrpcClient* client : clients)
        client->start();
    finished->wait();
    std::vector<ClientTally> tallies;
    for (AsyncGrpcClient* client : clients)
        tallies.push_back(client->tally());
    return tallies;
}

double percentile(const std::vector<double>& sorted, double q) {
    return sorted[std::min(sorted.size() - 1,
                           static_cast<std::size_t>(q * static_cast<double>(sorted.size())))];
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    CLI::App app{
        "foxgeese-load: MakeMove throughput and latency against a running foxgeese-server"};
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
    app.add_flag("--sync", options.sync,
                 "gRPC: a thread per client blocking in the synchronous API (the default is "
                 "the callback API, no thread waiting per client)");
    CLI11_PARSE(app, argc, argv);

    const auto begin = Clock::now();
    const bool by_count = options.moves > 0;
    const auto measure_from = by_count ? begin
                                       : begin + std::chrono::duration_cast<Clock::duration>(
                                                     std::chrono::duration<double>(options.warmup));
    const auto measure_until = measure_from + std::chrono::duration_cast<Clock::duration>(
                                                  std::chrono::duration<double>(options.seconds));
    std::vector<double> all;
    std::mutex mutex;
    int games = 0;
    int errors = 0;
    auto add = [&](const ClientTally& mine) {
        std::lock_guard lock(mutex);
        all.insert(all.end(), mine.latencies_ms.begin(), mine.latencies_ms.end());
        games += mine.games;
        errors += mine.errors;
    };
    if (options.transport == "grpc" && !options.sync) {
        for (const ClientTally& mine : run_async_grpc(options, measure_from, measure_until))
            add(mine);
    } else {
        std::vector<std::thread> threads;
        for (int c = 0; c < options.clients; ++c) {
            threads.emplace_back(
                [&, c] { add(run_client(options, 1000 + c, measure_from, measure_until)); });
        }
        for (auto& t : threads)
            t.join();
    }
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
        options.transport.c_str(), options.clients, all.size(), seconds, rate, percentile(all, 0.5),
        percentile(all, 0.9), percentile(all, 0.99), all.back(), errors);
    return errors == 0 ? 0 : 1;
}
