// foxgeese-load: drives a running foxgeese-server over gRPC and reports
// latency percentiles. Each client plays whole games with a both-seats token,
// choosing random legal moves, so every MakeMove is a real validated,
// persisted move.
//
//   foxgeese-load --server localhost:50051 --clients 1 --moves 2000 [--variant standard]
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "foxgeese/v1/game_service.grpc.pb.h"

namespace v1 = foxgeese::v1;

namespace {

struct Options {
    std::string server = "localhost:50051";
    int clients = 1;
    int moves = 1000;  // per client
    std::string variant = "standard";
};

struct Percentiles {
    double median_ms, p90_ms, p99_ms, max_ms;
};

Percentiles percentiles(std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    auto at = [&](double q) {
        return samples[std::min(samples.size() - 1,
                                static_cast<std::size_t>(q * static_cast<double>(samples.size())))];
    };
    return {at(0.5), at(0.9), at(0.99), samples.back()};
}

// Plays games until `moves` MakeMove calls succeeded; returns their latencies.
std::vector<double> run_client(const Options& options, int seed, int& games, int& errors) {
    auto channel = grpc::CreateChannel(options.server, grpc::InsecureChannelCredentials());
    auto stub = v1::FoxGeeseService::NewStub(channel);
    std::mt19937 rng(static_cast<unsigned>(seed));
    std::vector<double> latencies;
    latencies.reserve(options.moves);
    while (static_cast<int>(latencies.size()) < options.moves) {
        v1::CreateGameRequest create;
        create.set_variant(options.variant);
        create.set_seat(v1::SEAT_CHOICE_BOTH);
        v1::CreateGameResponse created;
        grpc::ClientContext create_context;
        if (!stub->CreateGame(&create_context, create, &created).ok()) {
            ++errors;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            continue;
        }
        ++games;
        v1::Game game = created.game();
        while (game.state() == v1::GAME_STATE_ACTIVE &&
               static_cast<int>(latencies.size()) < options.moves) {
            v1::MakeMoveRequest request;
            request.set_game_id(game.game_id());
            request.set_move(game.legal_moves(static_cast<int>(rng() % game.legal_moves_size())));
            request.set_expected_ply(game.ply());
            v1::MakeMoveResponse response;
            grpc::ClientContext context;
            context.AddMetadata("authorization", "Bearer " + created.seat_token());
            const auto start = std::chrono::steady_clock::now();
            const grpc::Status status = stub->MakeMove(&context, request, &response);
            const auto end = std::chrono::steady_clock::now();
            if (!status.ok()) {
                ++errors;
                break;
            }
            latencies.push_back(std::chrono::duration<double, std::milli>(end - start).count());
            game = response.game();
        }
    }
    return latencies;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const std::string value = argv[i + 1];
        if (flag == "--server")
            options.server = value;
        else if (flag == "--clients")
            options.clients = std::stoi(value);
        else if (flag == "--moves")
            options.moves = std::stoi(value);
        else if (flag == "--variant")
            options.variant = value;
        else {
            std::cerr << "unknown flag " << flag << "\n";
            return 2;
        }
    }
    std::vector<double> all;
    std::mutex mutex;
    int games = 0;
    int errors = 0;
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int c = 0; c < options.clients; ++c) {
        threads.emplace_back([&, c] {
            int g = 0;
            int e = 0;
            std::vector<double> mine = run_client(options, 1000 + c, g, e);
            std::lock_guard lock(mutex);
            all.insert(all.end(), mine.begin(), mine.end());
            games += g;
            errors += e;
        });
    }
    for (auto& t : threads)
        t.join();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (all.empty()) {
        std::cerr << "no move succeeded (" << errors << " errors)\n";
        return 1;
    }
    const Percentiles p = percentiles(all);
    std::printf(
        "MakeMove: %zu moves in %d games, %d clients, %.1f s: %.0f moves/s; latency median %.2f "
        "ms, "
        "p90 %.2f ms, p99 %.2f ms, max %.2f ms; %d errors\n",
        all.size(), games, options.clients, seconds, static_cast<double>(all.size()) / seconds,
        p.median_ms, p.p90_ms, p.p99_ms, p.max_ms, errors);
    return errors == 0 ? 0 : 1;
}
