// A game's analysis as PostgreSQL keeps it: served from storage the second
// time and after a restart, and one row per game, its latest, whatever the
// number of analyses; and an AnalyzePosition waiting in line on a Replica,
// with its gauge (the rest: analysis_test.cpp).
#include <chrono>
#include <pqxx/pqxx>
#include <string>
#include <thread>

#include "tests/service/core/analysis.h"
#include "tests/service/harness/held_analysis.h"

namespace foxgeese::test {
namespace {

using Analysis = AnalysisOn<ScratchServiceTest>;

TEST_F(Analysis, AGameAnalysedOnceIsServedFromStorageEvenAfterARestart) {
    const SeatedGame game = thrown_away_game();
    const Reply<v1::AnalyzeGameResponse> first = client().analyze_game(game.id);
    ASSERT_TRUE(IsOk(first));
    const Reply<v1::AnalyzeGameResponse> second = client().analyze_game(game.id);
    ASSERT_TRUE(IsOk(second));
    // The same bytes, analyze_time included: nothing was computed again.
    EXPECT_EQ(second->SerializeAsString(), first->SerializeAsString());
    EXPECT_EQ(analyses("AnalyzeGame"), 1);

    restart_server();
    const Reply<v1::AnalyzeGameResponse> after_restart = client().analyze_game(game.id);
    ASSERT_TRUE(IsOk(after_restart));
    EXPECT_EQ(after_restart->SerializeAsString(), first->SerializeAsString());
    EXPECT_EQ(analyses("AnalyzeGame"), 0);
    EXPECT_EQ(count_rows("game_analyses"), 1);
}

TEST_F(Analysis, AGameInProgressIsAnalysedAgainOnlyAfterMoreMovesAndKeepsItsLatest) {
    const SeatedGame game = start_game();
    const Reply<v1::AnalyzeGameResponse> before_moves = client().analyze_game(game.id);
    ASSERT_TRUE(IsOk(before_moves));
    EXPECT_EQ(before_moves->ply(), 0);
    EXPECT_EQ(before_moves->plies_size(), 0);

    play_all(game, {"d4-d5", "c3-c4"});
    const Reply<v1::AnalyzeGameResponse> two = client().analyze_game(game.id);
    ASSERT_TRUE(IsOk(two));
    EXPECT_EQ(two->ply(), 2);
    ASSERT_EQ(two->plies_size(), 2);
    EXPECT_EQ(two->plies(0).move(), "d4-d5");
    EXPECT_EQ(two->plies(1).move(), "c3-c4");
    EXPECT_EQ(client().analyze_game(game.id)->SerializeAsString(), two->SerializeAsString());

    play(game, "d5-d6");
    const Reply<v1::AnalyzeGameResponse> three = client().analyze_game(game.id);
    ASSERT_TRUE(IsOk(three));
    EXPECT_EQ(three->ply(), 3);
    EXPECT_EQ(three->plies_size(), 3);
    EXPECT_EQ(analyses("AnalyzeGame"), 3);
    // The game keeps its latest analysis only, so analysing a game after
    // every move stores one game's worth, not one per ply.
    EXPECT_EQ(count_rows("game_analyses"), 1);
    for (int more = 0; more < 5; ++more) {
        ASSERT_TRUE(IsOk(play_any(game)));
        ASSERT_TRUE(IsOk(client().analyze_game(game.id)));
    }
    const Reply<v1::AnalyzeGameResponse> latest = client().analyze_game(game.id);
    ASSERT_TRUE(IsOk(latest));
    EXPECT_EQ(latest->ply(), 8);
    pqxx::connection conn(database_url());
    pqxx::nontransaction tx(conn);
    const pqxx::row stored =
        tx.exec1("SELECT count(*), sum(octet_length(response)) FROM game_analyses");
    EXPECT_EQ(stored[0].as<long>(), 1);
    EXPECT_EQ(stored[1].as<long>(), static_cast<long>(latest->ByteSizeLong()));
}

// One place, and the default wait in line.
class WaitingAnalysis : public Analysis {
  protected:
    void configure(service::ReplicaOptions& options) override {
        options.game.analysis.concurrency = 1;
        options.game.limits.trusted_proxy_hops = 1;
    }
};

TEST_F(WaitingAnalysis, ACallWaitsInLineForTheRunningAnalysisAndGetsThePlaceItFrees) {
    HeldAnalysis held(server(), "198.51.100.31");
    std::thread caller([&] {
        EXPECT_TRUE(IsOk(client().analyze_position(position_request("standard", kFoxWinsInOne, 2),
                                                   "203.0.113.33")));
    });
    // The place is taken: the call waits in line until it comes free.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (server().logic().analyses_waiting() != 1 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    EXPECT_EQ(server().logic().analyses_waiting(), 1);
    EXPECT_NE(server().metrics().render().find("foxgeese_analyses_waiting 1"), std::string::npos);
    held.release();  // the waiting call's short analysis runs and ends too
    caller.join();
    EXPECT_EQ(server().logic().analyses_waiting(), 0);
}

}  // namespace
}  // namespace foxgeese::test
