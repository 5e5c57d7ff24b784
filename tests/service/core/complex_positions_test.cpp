// A contrived position with hundreds of thousands of legal moves (two foxes
// among 20 geese on a lattice): no game may start in it, and a game that
// reaches it in play costs its readers no more than others do, since GetGame
// and ListGames count its moves only as far as the list goes; an analysis of
// it keeps its time limit. Work is the CPU time of this process, where the
// server runs, with bounds far above what the calls need and far below what
// counting every move cost (14 ms a GetGame, half a second for a page of 40
// such games, 0.9 s for a 1 ms analysis).
#include <string>
#include <vector>

#include "tests/service/harness/memory_service_harness.h"
#include "tests/support/cpu_time.h"

namespace foxgeese::test {
namespace {

using ComplexPositions = MemoryServiceTest;
using std::chrono::milliseconds;
using testing::cpu_bound;

// 407,217 jump paths (tests/engine/search/complex_positions_test.cpp).
const std::string kLattice = "1G1/GGG/1G1G1G1/GGGGGGG/1G1G1GF/GGG/F2 f 0 0";
// One goose step (d1-d2) before it, the geese to move.
const std::string kBeforeLattice = "1G1/GGG/1G1G1G1/GGGGGGG/1G1G1GF/G1G/FG1 g 0 0";

// The CPU time the whole process (client and server) spends on `work`.
template <class Work>
std::chrono::nanoseconds cpu_time_of(Work&& work) {
    return testing::cpu_time_of(CLOCK_PROCESS_CPUTIME_ID, work);
}

TEST_F(ComplexPositions, NoGameStartsInSuchAPosition) {
    const Reply<v1::CreateGameResponse> created = client().create(
        create_request("two_foxes", v1::SEAT_CHOICE_BOTH, v1::VISIBILITY_PUBLIC, kLattice));
    EXPECT_TRUE(IsError(created, grpc::StatusCode::INVALID_ARGUMENT, "POSITION_TOO_COMPLEX"));
    EXPECT_EQ(bad_request_field(created.status), "start_position");
    EXPECT_NE(created.status.error_message().find("more than 100000 legal moves"),
              std::string::npos)
        << created.status.error_message();

    const Reply<v1::ImportGameResponse> imported = client().import_game(
        "[Variant \"two_foxes\"]\n[Start \"" + kLattice + "\"]\n[Result \"*\"]\n\n*\n");
    EXPECT_TRUE(IsError(imported, grpc::StatusCode::INVALID_ARGUMENT, "POSITION_TOO_COMPLEX"));
    EXPECT_EQ(bad_request_field(imported.status), "record");
    const auto info = error_info(imported.status);
    ASSERT_TRUE(info.has_value());
    EXPECT_EQ(info->metadata().at("line"), "2");
    EXPECT_EQ(info->metadata().at("column"), "9");
    EXPECT_EQ(info->metadata().at("problem"), "start_too_complex");
    EXPECT_EQ(count_rows("games"), 0);
}

TEST_F(ComplexPositions, ReadingGamesThatReachItInPlayStaysCheap) {
    constexpr int kGames = 40;
    std::vector<std::string> ids;
    for (int i = 0; i < kGames; ++i) {
        const v1::CreateGameResponse created = create_game(create_request(
            "two_foxes", v1::SEAT_CHOICE_BOTH, v1::VISIBILITY_PUBLIC, kBeforeLattice));
        ASSERT_TRUE(IsOk(client().move(created.game().game_id(), "d1-d2", created.seat_token())));
        ids.push_back(created.game().game_id());
    }
    const v1::Game game = client().get(ids[0])->game();
    EXPECT_EQ(game.position(), "1G1/GGG/1G1G1G1/GGGGGGG/1G1G1GF/GGG/F2 f 0 1");
    EXPECT_TRUE(game.legal_moves_omitted());
    EXPECT_TRUE(game.legal_moves().empty());

    // About 50 ms here, and 0.7 s when every move was counted.
    const auto gets = cpu_time_of([&] {
        for (int round = 0; round < 2; ++round) {
            for (const std::string& id : ids)
                ASSERT_TRUE(IsOk(client().get(id)));
        }
    });
    EXPECT_LT(gets, cpu_bound(milliseconds(200))) << "for " << 2 * kGames << " GetGame calls";

    v1::ListGamesRequest request;
    request.set_filter(v1::GAME_LIST_FILTER_ACTIVE);
    request.set_page_size(100);
    // About 30 ms here, and 0.95 s when every move was counted.
    const auto lists = cpu_time_of([&] {
        for (int i = 0; i < 3; ++i) {
            const Reply<v1::ListGamesResponse> page = client().list_games(request);
            ASSERT_TRUE(IsOk(page));
            ASSERT_EQ(page->games_size(), kGames);
            for (const v1::Game& listed : page->games())
                ASSERT_TRUE(listed.legal_moves_omitted());
        }
    });
    EXPECT_LT(lists, cpu_bound(milliseconds(200))) << "for three pages of " << kGames << " games";
}

TEST_F(ComplexPositions, AnAnalysisOfSuchAPositionKeepsItsTimeLimit) {
    v1::AnalyzePositionRequest request;
    request.set_variant("two_foxes");
    request.set_position(kLattice);
    request.set_time_ms(1);
    Reply<v1::AnalyzePositionResponse> reply;
    // About 15 ms here (the search table's set-up included), and 0.9 s when
    // the root's moves were all generated first.
    const auto spent = cpu_time_of([&] { reply = client().analyze_position(request); });
    ASSERT_TRUE(IsOk(reply));
    ASSERT_EQ(reply->lines_size(), 1);
    EXPECT_LT(spent, cpu_bound(milliseconds(200)));
}

}  // namespace
}  // namespace foxgeese::test
