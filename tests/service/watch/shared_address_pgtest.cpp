// Many players behind one address, with the limits a server starts with: a
// school or a mobile network puts hundreds of honest players behind one
// IPv4 address, and none of them may be refused while one abusive client
// behind the same address is held back. And a seat holder who opens and
// closes streams in a loop cannot flood the other watchers with presence.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "tests/service/harness/service_harness.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;

// A server with the production limits (the harness turns them off).
class SharedAddress : public ScratchServiceTest {
  protected:
    void configure(service::ReplicaOptions& options) override {
        options.game.limits = service::RateLimitOptions{};
        const auto linger = options.watch.rematch_linger;
        options.watch = service::WatchHubOptions{};
        options.watch.rematch_linger = linger;
        // The test's clock jumps by minutes; presence rows must not expire as
        // if their server had died.
        options.watch.presence_ttl = std::chrono::hours(2);
    }
};

int presence_events(const WatchStream& stream) {
    int count = 0;
    for (const v1::WatchGameResponse& e : stream.received())
        count += e.has_presence() ? 1 : 0;
    return count;
}

TEST_F(SharedAddress, TwoHundredPlayersBehindOneAddressPlayWithoutARefusal) {
    constexpr int kGames = 100;
    std::vector<SeatedGame> games;
    std::vector<std::unique_ptr<WatchStream>> streams;
    int refused = 0;
    auto count = [&](const grpc::Status& status) {
        if (!status.ok()) {
            ++refused;
            ADD_FAILURE() << describe(status);
        }
    };
    for (int i = 0; i < kGames; ++i) {
        // A hundred tables set within a minute, as a class would.
        clock().advance(500ms);
        const Reply<v1::CreateGameResponse> created = client().create(create_request("standard"));
        count(created.status);
        if (!created.ok()) continue;
        const std::string id = created->game().game_id();
        const Reply<v1::JoinGameResponse> joined = client().join(id, created->invite_code());
        count(joined.status);
        if (!joined.ok()) continue;
        games.push_back({id, created->seat_token(), joined->seat_token(), created->invite_code(),
                         joined->game()});
    }
    ASSERT_EQ(games.size(), static_cast<std::size_t>(kGames));
    // Every player watches their game from their seat: 200 streams, one address.
    for (const SeatedGame& game : games) {
        for (const std::string& token : {game.fox_token, game.geese_token})
            streams.push_back(std::make_unique<WatchStream>(server().grpc_port(), game.id,
                                                            std::nullopt, Auth(token)));
    }
    for (const auto& stream : streams) {
        const auto first = stream->next();
        ASSERT_TRUE(first && first->has_snapshot()) << stream->describe_received();
    }
    // One abusive client behind the same address opens stream after stream
    // without a token: it reaches its limit, and nobody else notices.
    std::vector<std::unique_ptr<WatchStream>> hoarded;
    bool held_back = false;
    for (int i = 0; i < 300 && !held_back; ++i) {
        hoarded.push_back(std::make_unique<WatchStream>(server().grpc_port(), games[0].id));
        const auto first = hoarded.back()->next();
        held_back = !first;
    }
    EXPECT_TRUE(held_back) << "300 streams without a token from one address";
    // Everyone plays a move and sees it; a few ask for an analysis.
    for (const SeatedGame& game : games)
        count(play_any(game).status);
    for (int i = 0; i < 3; ++i) {
        v1::AnalyzePositionRequest analysis;
        analysis.set_variant("standard");
        analysis.set_depth(2);
        count(client().analyze_position(analysis).status);
    }
    for (const auto& stream : streams) {
        EXPECT_TRUE(stream->wait_for_event([](const v1::WatchGameResponse& e) {
            return e.has_move_made();
        })) << stream->describe_received();
    }
    // Every player is present: the opponent of one who thinks long cannot
    // claim the game.
    clock().advance(2min);
    const SeatedGame& last = games.back();
    EXPECT_TRUE(IsError(client().claim(last.id, false, last.fox_token),
                        grpc::StatusCode::FAILED_PRECONDITION, "OPPONENT_PRESENT"));
    EXPECT_EQ(refused, 0);
}

TEST_F(SharedAddress, StreamsOpenedAndClosedInALoopNeitherPassTheirLimitNorFloodPresence) {
    const SeatedGame game = start_game();
    WatchStream spectator(server().grpc_port(), game.id);
    ASSERT_TRUE(spectator.next());  // the snapshot
    ASSERT_TRUE(spectator.wait_for_event([](const v1::WatchGameResponse& e) {
        return e.has_presence();
    })) << spectator.describe_received();
    const int before = presence_events(spectator);
    const auto started = std::chrono::steady_clock::now();
    int opened = 0;
    int limited = 0;
    for (int i = 0; i < 100; ++i) {
        WatchStream flap(server().grpc_port(), game.id, std::nullopt, Auth(game.fox_token));
        const auto first = flap.next();
        if (first && first->has_snapshot()) {
            ++opened;
        } else if (const auto end = flap.wait_for_end();
                   end && IsError(*end, grpc::StatusCode::RESOURCE_EXHAUSTED, "RATE_LIMITED")) {
            ++limited;
        }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // The token's burst passes, the rest is refused.
    EXPECT_GE(opened, 1);
    EXPECT_LE(opened, 21);
    EXPECT_EQ(opened + limited, 100);
    // The fox side ends gone; the spectator hears so, with at most one
    // presence change a second after the first three (and one to settle on
    // the last state).
    ASSERT_TRUE(spectator.wait_for_event([](const v1::WatchGameResponse& e) {
        return e.has_presence() && !e.presence().fox().connected() &&
               e.presence().fox().has_since();
    })) << spectator.describe_received();
    std::this_thread::sleep_for(1500ms);  // any presence event still on its way
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    EXPECT_LE(presence_events(spectator) - before, static_cast<int>(elapsed) + 5)
        << "over " << elapsed << " s (the loop took " << seconds << " s)\n"
        << spectator.describe_received();
}

}  // namespace
}  // namespace foxgeese::test
