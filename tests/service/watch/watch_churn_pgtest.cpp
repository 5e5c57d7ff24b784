// Watch streams opened and abandoned at once, by many clients together, leave
// nothing behind: no watcher counted, no game kept in the hub, no presence
// row, and the game is still watched correctly afterwards.
#include <atomic>
#include <map>
#include <mutex>
#include <pqxx/pqxx>
#include <thread>
#include <vector>

#include "tests/service/harness/http_test_client.h"
#include "tests/service/harness/service_harness.h"

namespace foxgeese::test {
namespace {

using WatchChurn = ServiceTest;

TEST_F(WatchChurn, StreamsCancelledAndResetByManyClientsLeaveNothingBehind) {
    const SeatedGame game = start_game();
    play(game, "d4-d5");
    constexpr int kThreads = 8;
    constexpr int kGrpcPerThread = 150;  // 1,200 gRPC streams
    constexpr int kHttpPerThread = 50;   // 400 NDJSON streams
    std::atomic<int> failures{0};
    // Why reads failed, for the failure message: "code message" and count.
    std::mutex failed_mutex;
    std::map<std::string, int> failed_with;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            auto channel = new_channel(server().grpc_port());
            auto stub = v1::FoxGeeseService::NewStub(channel);
            for (int i = 0; i < kGrpcPerThread; ++i) {
                grpc::ClientContext context;
                // Half of them from a seat, so presence rows come and go too.
                if (i % 2 == 0) context.AddMetadata("authorization", "Bearer " + game.geese_token);
                v1::WatchGameRequest request;
                request.set_game_id(game.id);
                auto reader = stub->WatchGame(&context, request);
                // Some read the snapshot first, some go at once.
                if (i % 3 == 0) {
                    v1::WatchGameResponse event;
                    if (!reader->Read(&event)) {
                        ++failures;
                        const grpc::Status status = reader->Finish();
                        std::lock_guard lock(failed_mutex);
                        ++failed_with[std::to_string(status.error_code()) + " " +
                                      status.error_message()];
                        continue;
                    }
                }
                context.TryCancel();
                reader->Finish();
            }
            for (int i = 0; i < kHttpPerThread; ++i) {
                HttpClient client(server().http_port());
                std::map<std::string, std::string> headers;
                if (i % 2 == 1) headers["Authorization"] = "Bearer " + game.fox_token;
                client.send("GET", "/v1/games/" + game.id + ":watch", "", headers);
                if (i % 3 == 0) client.read_header();
                client.reset();
            }
            (void)t;
        });
    }
    for (std::thread& t : threads)
        t.join();
    std::string why;
    for (const auto& [status, count] : failed_with)
        why += "\n  " + std::to_string(count) + " x " + status;
    EXPECT_EQ(failures.load(), 0) << "snapshot reads that failed:" << why;

    service::WatchHub& hub = server().hub();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    long presence_rows = -1;
    while (std::chrono::steady_clock::now() < deadline) {
        pqxx::connection connection(database_url());
        pqxx::nontransaction tx(connection);
        presence_rows =
            tx.exec_params1("SELECT count(*) FROM seat_presence WHERE game_id = $1", game.id)[0]
                .as<long>();
        if (hub.active_watchers() == 0 && hub.watched_games() == 0 && presence_rows == 0) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_EQ(hub.active_watchers(), 0);
    EXPECT_EQ(hub.watched_games(), 0u);
    EXPECT_EQ(presence_rows, 0);

    // The game is still watched as before.
    WatchStream watch(server().grpc_port(), game.id);
    ASSERT_TRUE(watch.next_change().has_value());
    play(game, "c3-c4");
    const auto moved = watch.next_change();
    ASSERT_TRUE(moved.has_value()) << watch.describe_received();
    EXPECT_EQ(moved->move_made().move().notation(), "c3-c4");
}

}  // namespace
}  // namespace foxgeese::test
