// foxgeese-watch-fanout: how long a move takes to reach many watchers on
// another server process. Opens N WatchGame streams on --watch-server (over
// several channels, callback reactors, no thread per stream), plays moves
// through --move-server, and reports, per move, the time from the server
// accepting the move (Move.time, just before its commit) to each watcher
// receiving it. Also prints the watch server's resident memory before and
// after the watchers connect when --watch-pid is given.
//
//   foxgeese-watch-fanout --move-server A:P --watch-server B:Q --watchers 1000 --moves 50
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
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

namespace v1 = foxgeese::v1;
using Clock = std::chrono::system_clock;

namespace {

struct Options {
    std::string move_server = "localhost:50051";
    std::string watch_server = "localhost:50052";
    int watchers = 1000;
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
    std::vector<double> delays_ms;
    std::map<int, int> arrivals;  // ply -> watchers that got it
    int ready = 0;                // streams that got their snapshot
    int ended = 0;
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
        {
            std::lock_guard lock(recorder_.mutex);
            if (event_.has_snapshot()) {
                ++recorder_.ready;
            } else if (event_.has_move_made()) {
                recorder_.delays_ms.push_back(
                    static_cast<double>(arrived - micros(event_.move_made().move().time())) / 1000.0);
                ++recorder_.arrivals[event_.move_made().move().ply()];
            }
        }
        recorder_.changed.notify_all();
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

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const std::string value = argv[i + 1];
        if (flag == "--move-server") o.move_server = value;
        else if (flag == "--watch-server") o.watch_server = value;
        else if (flag == "--watchers") o.watchers = std::stoi(value);
        else if (flag == "--moves") o.moves = std::stoi(value);
        else if (flag == "--channels") o.channels = std::stoi(value);
        else if (flag == "--watch-pid") o.watch_pid = std::stoi(value);
        else {
            std::cerr << "unknown flag " << flag << "\n";
            return 2;
        }
    }
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
    const long rss_before = o.watch_pid ? rss_kib(o.watch_pid) : -1;

    // Separate channels, so the streams spread over several HTTP/2 connections.
    std::vector<std::unique_ptr<v1::FoxGeeseService::Stub>> stubs;
    for (int c = 0; c < o.channels; ++c) {
        grpc::ChannelArguments args;
        args.SetInt("foxgeese.channel", c);  // distinct args: no channel sharing
        stubs.push_back(v1::FoxGeeseService::NewStub(grpc::CreateCustomChannel(
            o.watch_server, grpc::InsecureChannelCredentials(), args)));
    }
    Recorder recorder;
    std::vector<std::unique_ptr<Watcher>> watchers;
    for (int w = 0; w < o.watchers; ++w) {
        watchers.push_back(std::make_unique<Watcher>(stubs[w % o.channels].get(),
                                                     created.game().game_id(), recorder));
    }
    {
        std::unique_lock lock(recorder.mutex);
        if (!recorder.changed.wait_for(lock, std::chrono::seconds(60),
                                       [&] { return recorder.ready == o.watchers; })) {
            std::cerr << "only " << recorder.ready << " watchers connected\n";
            return 1;
        }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
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
        // One move at a time: wait until every watcher has it.
        std::unique_lock lock(recorder.mutex);
        if (!recorder.changed.wait_for(lock, std::chrono::seconds(10), [&] {
                return recorder.arrivals[ply] == o.watchers || recorder.ended > 0;
            })) {
            std::cerr << "ply " << ply << " reached only " << recorder.arrivals[ply]
                      << " watchers\n";
            return 1;
        }
        if (game.state() != v1::GAME_STATE_ACTIVE) break;
    }
    for (auto& w : watchers) w->cancel();
    {
        std::unique_lock lock(recorder.mutex);
        recorder.changed.wait_for(lock, std::chrono::seconds(10),
                                  [&] { return recorder.ended == o.watchers; });
    }
    std::vector<double> delays = recorder.delays_ms;
    if (delays.empty()) {
        std::cerr << "no move reached a watcher\n";
        return 1;
    }
    const double median = percentile(delays, 0.5);
    const double p99 = percentile(delays, 0.99);
    std::printf("%d watchers, %d moves, %zu deliveries: accept-to-watcher median %.2f ms, p99 %.2f ms, "
                "max %.2f ms\n",
                o.watchers, played, delays.size(), median, p99, delays.back());
    if (o.watch_pid) {
        std::printf("watch server RSS: %ld KiB before, %ld KiB with the watchers: %.1f KiB per watcher\n",
                    rss_before, rss_after,
                    static_cast<double>(rss_after - rss_before) / o.watchers);
    }
    return 0;
}
