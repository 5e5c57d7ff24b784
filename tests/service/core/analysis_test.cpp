// AnalyzePosition and AnalyzeGame over gRPC: forced wins found for both
// sides, several lines best first, the depth kept, positions where the game
// is over, every bad input refused with its reason; a finished game whose
// fox passed up a winning capture, marked and stored; and the limits on
// analyses running at once, per replica and per client address, as
// RESOURCE_EXHAUSTED with a RetryInfo. On the memory store; what
// PostgreSQL keeps of an analysis, across a restart too: analysis_pgtest.cpp.
#include "tests/service/core/analysis.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/search/score.h"
#include "service/core/analysis_budget.h"
#include "tests/service/harness/held_analysis.h"
#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using C = grpc::StatusCode;
using Analysis = AnalysisOn<MemoryServiceTest>;

// A win in 1 for the geese (from tests/engine/search/search_test.cpp): they shut
// the fox in with e5-e6.
constexpr const char* kGeeseWinInOne = "GFG/GG1/1G1GG2/1GG1GGG/7/1G1/3 g 1 67";
// The capture kCaptureWins offers.
constexpr const char* kTheCapture = "e5xg3xe3xe1xc3xc5xc7xe5";
constexpr const char* kStandardStart = "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0";

// A Score as the engine orders them: any win above any estimate above any loss.
int engine_score(const v1::Score& score) {
    if (score.has_win_in_plies()) return win_in(score.win_in_plies());
    if (score.has_loss_in_plies()) return loss_in(score.loss_in_plies());
    return score.points();
}

TEST_F(Analysis, FindsTheFoxsWinInOne) {
    const Reply<v1::AnalyzePositionResponse> reply =
        client().analyze_position(position_request("standard", kFoxWinsInOne, 3));
    ASSERT_TRUE(IsOk(reply));
    EXPECT_EQ(reply->position(), kFoxWinsInOne);
    EXPECT_EQ(reply->side_to_move(), v1::SIDE_FOX);
    ASSERT_EQ(reply->lines_size(), 1);
    const v1::AnalysisLine& line = reply->lines(0);
    EXPECT_EQ(line.move(), "g3xg5xe3");
    EXPECT_EQ(line.score().win_in_plies(), 1);
    EXPECT_EQ(line.score().text(), "win in 1");
    ASSERT_GE(line.pv_size(), 1);
    EXPECT_EQ(line.pv(0), line.move());
    EXPECT_GE(line.depth(), 1);
    EXPECT_LE(line.depth(), 3);
    EXPECT_EQ(reply->result(), v1::GAME_RESULT_UNSPECIFIED);
}

TEST_F(Analysis, FindsTheGeeseWinInOne) {
    const Reply<v1::AnalyzePositionResponse> reply =
        client().analyze_position(position_request("standard", kGeeseWinInOne, 3));
    ASSERT_TRUE(IsOk(reply));
    EXPECT_EQ(reply->side_to_move(), v1::SIDE_GEESE);
    ASSERT_EQ(reply->lines_size(), 1);
    EXPECT_EQ(reply->lines(0).move(), "e5-e6");
    EXPECT_EQ(reply->lines(0).score().win_in_plies(), 1);
}

TEST_F(Analysis, ReportsSeveralDistinctLegalLinesBestFirst) {
    const Reply<v1::AnalyzePositionResponse> reply =
        client().analyze_position(position_request("standard", kFoxWinsInOne, 4, 3));
    ASSERT_TRUE(IsOk(reply));
    ASSERT_EQ(reply->lines_size(), 3);
    EXPECT_EQ(reply->lines(0).score().win_in_plies(), 1);
    const std::vector<std::string> legal = engine_legal_moves("standard", {}, kFoxWinsInOne);
    std::set<std::string> moves;
    for (int i = 0; i < reply->lines_size(); ++i) {
        const v1::AnalysisLine& line = reply->lines(i);
        SCOPED_TRACE(line.move());
        EXPECT_NE(std::find(legal.begin(), legal.end(), line.move()), legal.end());
        ASSERT_GE(line.pv_size(), 1);
        EXPECT_EQ(line.pv(0), line.move());
        moves.insert(line.move());
        if (i > 0) {
            EXPECT_LE(engine_score(line.score()), engine_score(reply->lines(i - 1).score()));
        }
    }
    EXPECT_EQ(moves.size(), 3u);
}

TEST_F(Analysis, SearchesToTheDepthAskedTheSameWayEveryTime) {
    for (const int depth : {1, 2, 5}) {
        SCOPED_TRACE(depth);
        const v1::AnalyzePositionRequest request = position_request("two_foxes", "", depth, 2);
        const Reply<v1::AnalyzePositionResponse> first = client().analyze_position(request);
        ASSERT_TRUE(IsOk(first));
        ASSERT_EQ(first->lines_size(), 2);
        for (const v1::AnalysisLine& line : first->lines()) {
            EXPECT_EQ(line.depth(), depth);
            EXPECT_GE(line.pv_size(), 1);
        }
        const Reply<v1::AnalyzePositionResponse> again = client().analyze_position(request);
        ASSERT_TRUE(IsOk(again));
        EXPECT_EQ(again->SerializeAsString(), first->SerializeAsString());
    }
    EXPECT_EQ(analyses("AnalyzePosition"), 6);
}

TEST_F(Analysis, AnEmptyPositionIsTheStartOfTheVariantWithItsOptions) {
    v1::AnalyzePositionRequest request = position_request("standard", "", 1);
    EXPECT_EQ(client().analyze_position(request)->position(), kStandardStart);
    request.mutable_options()->set_geese(15);
    const Reply<v1::AnalyzePositionResponse> fifteen = client().analyze_position(request);
    ASSERT_TRUE(IsOk(fifteen));
    EXPECT_EQ(fifteen->position(), "3/3/7/G2F2G/GGGGGGG/GGG/GGG f 0 0");
    EXPECT_EQ(fifteen->lines_size(), 1);
}

TEST_F(Analysis, APositionWhereTheGameIsOverHasNoLinesButItsResult) {
    const Reply<v1::AnalyzePositionResponse> won =
        client().analyze_position(position_request("standard", "3/3/7/3F3/1G1G1G1/3/3 g 0 40", 4));
    ASSERT_TRUE(IsOk(won));
    EXPECT_EQ(won->lines_size(), 0);
    EXPECT_EQ(won->result(), v1::GAME_RESULT_FOX_SIDE_WINS);
    EXPECT_EQ(won->end_reason(), v1::END_REASON_GEESE_BELOW_THRESHOLD);
    const Reply<v1::AnalyzePositionResponse> drawn = client().analyze_position(
        position_request("big_cross", "3/3/1F1/9/9/GGGGGGGGG/GGG/GGG/GGG g 100 140", 4));
    ASSERT_TRUE(IsOk(drawn));
    EXPECT_EQ(drawn->lines_size(), 0);
    EXPECT_EQ(drawn->result(), v1::GAME_RESULT_DRAW);
    EXPECT_EQ(drawn->end_reason(), v1::END_REASON_FIFTY_MOVE_RULE);
    EXPECT_EQ(analyses("AnalyzePosition"), 0);  // nothing to search
}

TEST_F(Analysis, EveryBadAnalyzePositionIsRefusedWithItsReasonAndField) {
    struct Bad {
        std::string what;
        v1::AnalyzePositionRequest request;
        std::string reason;
        std::string field;
    };
    auto with = [](auto edit) {
        v1::AnalyzePositionRequest request = position_request("standard", kFoxWinsInOne, 2);
        edit(request);
        return request;
    };
    using R = v1::AnalyzePositionRequest;
    const std::vector<Bad> cases = {
        {"no variant", with([](R& r) { r.clear_variant(); }), "INVALID_ARGUMENT", "variant"},
        {"unknown variant", with([](R& r) { r.set_variant("chess"); }), "INVALID_ARGUMENT",
         "variant"},
        {"geese 14", with([](R& r) { r.mutable_options()->set_geese(14); }), "INVALID_OPTIONS",
         "options"},
        {"options of a variant without", with([](R& r) {
             r.set_variant("big_cross");
             r.clear_position();
             r.mutable_options()->set_geese_sideways(true);
         }),
         "INVALID_OPTIONS", "options"},
        {"garbage position", with([](R& r) { r.set_position("garbage"); }), "INVALID_POSITION",
         "position"},
        {"overlong position", with([](R& r) { r.set_position(std::string(300, 'G')); }),
         "INVALID_POSITION", "position"},
        {"another variant's position",
         with([](R& r) { r.set_position("3/3/1F1/9/9/GGGGGGGGG/GGG/GGG/GGG f 0 0"); }),
         "INVALID_POSITION", "position"},
        {"negative depth", with([](R& r) { r.set_depth(-1); }), "INVALID_ARGUMENT", "depth"},
        {"too deep", with([](R& r) { r.set_depth(service::kMaxAnalysisDepth + 1); }),
         "INVALID_ARGUMENT", "depth"},
        {"negative time", with([](R& r) { r.set_time_ms(-5); }), "INVALID_ARGUMENT", "time_ms"},
        {"too long", with([](R& r) { r.set_time_ms(service::kMaxAnalysisTimeMs + 1); }),
         "INVALID_ARGUMENT", "time_ms"},
        {"negative lines", with([](R& r) { r.set_lines(-1); }), "INVALID_ARGUMENT", "lines"},
        {"too many lines", with([](R& r) { r.set_lines(service::kMaxAnalysisLines + 1); }),
         "INVALID_ARGUMENT", "lines"},
    };
    for (const Bad& bad : cases) {
        SCOPED_TRACE(bad.what);
        const Reply<v1::AnalyzePositionResponse> reply = client().analyze_position(bad.request);
        EXPECT_TRUE(IsError(reply, C::INVALID_ARGUMENT, bad.reason));
        EXPECT_EQ(bad_request_field(reply.status), bad.field);
    }
    // Refused before any search, and nothing stored.
    EXPECT_EQ(analyses("AnalyzePosition"), 0);
    EXPECT_EQ(count_rows("game_analyses"), 0);
}

TEST_F(Analysis, AFinishedGameMarksTheMoveThatThrewAwayAForcedWin) {
    const SeatedGame game = thrown_away_game();
    const Reply<v1::AnalyzeGameResponse> reply = client().analyze_game(game.id);
    ASSERT_TRUE(IsOk(reply));
    EXPECT_EQ(reply->game_id(), game.id);
    EXPECT_EQ(reply->ply(), 22);
    EXPECT_EQ(reply->nodes_per_ply(), static_cast<std::int64_t>(service::kMaxNodesPerPly));
    EXPECT_GT(micros(reply->analyze_time()), 0);
    ASSERT_EQ(reply->plies_size(), 2);

    const v1::PlyAnalysis& passed = reply->plies(0);
    EXPECT_EQ(passed.ply(), 21);
    EXPECT_EQ(passed.side(), v1::SIDE_FOX);
    EXPECT_EQ(passed.move(), "e5-e6");
    EXPECT_EQ(passed.best_move(), kTheCapture);
    EXPECT_EQ(passed.score_before().win_in_plies(), 1);
    EXPECT_TRUE(passed.score_after().has_points()) << passed.score_after().DebugString();
    EXPECT_EQ(passed.mark(), v1::MOVE_MARK_WIN_THROWN_AWAY);

    const v1::PlyAnalysis& reply_move = reply->plies(1);
    EXPECT_EQ(reply_move.ply(), 22);
    EXPECT_EQ(reply_move.side(), v1::SIDE_GEESE);
    EXPECT_EQ(reply_move.move(), "a4-a5");
    EXPECT_EQ(reply_move.mark(), v1::MOVE_MARK_UNSPECIFIED);

    EXPECT_EQ(count_rows("game_analyses"), 1);
    EXPECT_EQ(analyses("AnalyzeGame"), 1);
}

TEST_F(Analysis, BadAnalyzeGameRequestsAreRefusedAndStoreNothing) {
    EXPECT_TRUE(IsError(client().analyze_game(""), C::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    const Reply<v1::AnalyzeGameResponse> malformed = client().analyze_game("not-a-uuid");
    EXPECT_TRUE(IsError(malformed, C::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    EXPECT_EQ(bad_request_field(malformed.status), "game_id");
    EXPECT_TRUE(IsError(client().analyze_game(kUnknownGameId), C::NOT_FOUND, "GAME_NOT_FOUND"));
    EXPECT_EQ(count_rows("game_analyses"), 0);
    EXPECT_EQ(analyses("AnalyzeGame"), 0);
}

TEST_F(Analysis, AGameAnalysisCutShortByTheCallersDeadlineStoresNothing) {
    // Thirty plies in which the geese always step forward, so that nothing repeats.
    const SeatedGame game = start_game("big_cross");
    for (int i = 0; i < 30; ++i) {
        const v1::Game now = client().get(game.id)->game();
        if (now.state() != v1::GAME_STATE_ACTIVE) break;
        std::string chosen = now.legal_moves(0);
        for (const std::string& move : now.legal_moves()) {
            const auto dash = move.find('-');
            if (now.side_to_move() == v1::SIDE_GEESE && dash != std::string::npos &&
                move.back() > move[dash - 1]) {
                chosen = move;
                break;
            }
        }
        play(game, chosen);
    }
    const int ply = client().get(game.id)->game().ply();
    ASSERT_GE(ply, 10);  // some seconds of searching at kMaxNodesPerPly each

    auto stub = v1::FoxGeeseService::NewStub(new_channel(server().grpc_port()));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(300));
    v1::AnalyzeGameRequest request;
    request.set_game_id(game.id);
    v1::AnalyzeGameResponse response;
    EXPECT_EQ(stub->AnalyzeGame(&context, request, &response).error_code(), C::DEADLINE_EXCEEDED);
    // The search ended at the deadline (the whole analysis takes seconds),
    // and its partial result was dropped.
    EXPECT_TRUE(wait_for_analyses(server(), 0, std::chrono::seconds(1)));
    EXPECT_EQ(count_rows("game_analyses"), 0);

    const Reply<v1::AnalyzeGameResponse> whole = client().analyze_game(game.id);
    ASSERT_TRUE(IsOk(whole));
    EXPECT_EQ(whole->plies_size(), ply);
    EXPECT_EQ(count_rows("game_analyses"), 1);
}

::testing::AssertionResult IsBusy(const grpc::Status& status, const std::string& why) {
    auto result = IsError(status, C::RESOURCE_EXHAUSTED, "ANALYSIS_BUSY");
    if (!result) return result;
    if (retry_delay_ms(status) != service::kAnalysisBusyRetry.count())
        return ::testing::AssertionFailure() << "no RetryInfo of 1 s in " << describe(status);
    if (status.error_message().find(why) == std::string::npos)
        return ::testing::AssertionFailure() << "not about '" << why << "': " << describe(status);
    return ::testing::AssertionSuccess();
}

// With --analysis-wait-ms 0: a call that finds no place is refused at once.
class OneAnalysisAtATime : public Analysis {
  protected:
    void configure(service::ReplicaOptions& options) override {
        options.game.analysis.concurrency = 1;
        options.game.analysis.max_wait = std::chrono::milliseconds(0);
        options.game.limits.trusted_proxy_hops = 1;
    }
};

TEST_F(OneAnalysisAtATime, AnotherAnalysisIsRefusedWhileTheRunningOneHoldsThePlace) {
    const SeatedGame game = thrown_away_game();
    HeldAnalysis held(server(), "198.51.100.1");
    // Another address: the replica's limit, not the address's.
    EXPECT_TRUE(IsBusy(
        client().analyze_position(position_request("standard", "", 1), "198.51.100.2").status,
        "this server runs as many analyses as it allows at once (1)"));
    EXPECT_TRUE(IsBusy(client().analyze_game(game.id).status, "this server"));
    EXPECT_EQ(count_rows("game_analyses"), 0);

    // The caller went away: the search stops and the place comes free.
    EXPECT_EQ(held.release().error_code(), C::CANCELLED);
    EXPECT_TRUE(IsOk(client().analyze_game(game.id)));
    EXPECT_EQ(count_rows("game_analyses"), 1);
    // A stored analysis needs no place: it is served while another runs.
    HeldAnalysis again(server(), "198.51.100.1");
    EXPECT_TRUE(IsOk(client().analyze_game(game.id)));
}

class OneAnalysisPerAddress : public Analysis {
  protected:
    void configure(service::ReplicaOptions& options) override {
        options.game.analysis.concurrency = 2;
        options.game.analysis.per_address = 1;
        options.game.analysis.max_wait = std::chrono::milliseconds(0);
        options.game.limits.trusted_proxy_hops = 1;
    }
};

TEST_F(OneAnalysisPerAddress, AnAddressRunsOneAnalysisAtATime) {
    HeldAnalysis held(server(), "203.0.113.5");
    const v1::AnalyzePositionRequest quick = position_request("standard", kFoxWinsInOne, 2);
    EXPECT_TRUE(IsBusy(client().analyze_position(quick, "203.0.113.5").status,
                       "an analysis from your address is running already"));
    EXPECT_TRUE(IsOk(client().analyze_position(quick, "203.0.113.6")));
    held.release();
    EXPECT_TRUE(IsOk(client().analyze_position(quick, "203.0.113.5")));
}

// A client that sends 5 s analyses from one address back to back, and
// again at once when refused, until stopped.
class HammeringClient {
  public:
    HammeringClient(int port, std::string address)
        : address_(std::move(address)), thread_([this, port] { run(port); }) {}
    ~HammeringClient() { stop(); }
    void stop() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
            if (call_) call_->TryCancel();
        }
        if (thread_.joinable()) thread_.join();
    }
    int answered() const { return answered_.load(); }
    int refused() const { return refused_.load(); }

  private:
    void run(int port) {
        auto stub = v1::FoxGeeseService::NewStub(new_channel(port));
        v1::AnalyzePositionRequest request;
        request.set_variant("standard");  // its start: far from any proved result
        request.set_time_ms(5'000);
        while (true) {
            grpc::ClientContext context;
            context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
            context.AddMetadata("x-forwarded-for", address_);
            {
                std::lock_guard lock(mutex_);
                if (stopping_) return;
                call_ = &context;
            }
            v1::AnalyzePositionResponse response;
            const grpc::Status status = stub->AnalyzePosition(&context, request, &response);
            {
                std::lock_guard lock(mutex_);
                call_ = nullptr;
            }
            if (status.ok()) {
                ++answered_;
            } else {
                ++refused_;
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
        }
    }

    const std::string address_;
    std::mutex mutex_;
    bool stopping_ = false;
    grpc::ClientContext* call_ = nullptr;
    std::atomic<int> answered_{0};
    std::atomic<int> refused_{0};
    std::thread thread_;
};

// The defaults: two places, one per address, and a short wait in line.
class FairAnalysis : public Analysis {
  protected:
    void configure(service::ReplicaOptions& options) override {
        options.game.limits.trusted_proxy_hops = 1;
    }
};

TEST_F(FairAnalysis, TwoClientsHammeringLongAnalysesDoNotKeepAThirdOut) {
    ASSERT_EQ(server().logic().options().analysis.concurrency, 2);
    HammeringClient first(server().grpc_port(), "198.51.100.21");
    HammeringClient second(server().grpc_port(), "198.51.100.22");
    ASSERT_TRUE(wait_for_analyses(server(), 2)) << "the hammering clients hold no place";
    // A third client asks now and then: each of its analyses waits at most
    // for one of the running ones (5 s) and is answered.
    const v1::AnalyzePositionRequest quick = position_request("standard", kFoxWinsInOne, 3);
    std::string waits;
    for (int i = 0; i < 3; ++i) {
        const auto asked = std::chrono::steady_clock::now();
        const Reply<v1::AnalyzePositionResponse> reply =
            client().analyze_position(quick, "203.0.113.23");
        const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - asked);
        EXPECT_TRUE(IsOk(reply)) << "analysis " << i;
        EXPECT_LT(waited, std::chrono::seconds(8)) << "analysis " << i;
        waits += (i ? ", " : "") + std::to_string(waited.count()) + " ms";
    }
    // The hammering goes on, and is answered too: the place the third client
    // took was freed by one of its analyses, whose answer may still be on
    // its way back (stopping now would cancel it), so wait for one.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (first.answered() + second.answered() == 0 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    first.stop();
    second.stop();
    EXPECT_GT(first.answered() + second.answered(), 0);
    std::cout << "third client answered after " << waits
              << "; the two others: " << first.answered() + second.answered() << " answered, "
              << first.refused() + second.refused() << " refused\n";
}

}  // namespace
}  // namespace foxgeese::test
