// GetTablebase and the tablebase's answers in AnalyzePosition, over gRPC on
// the memory store, with a tablebase of 4 to 6 geese built for the test
// binary (tests/support/small_tablebase.h): each value and each move's
// value as the table has it, from the mover's point of view; every position
// it does not hold refused with NOT_IN_TABLEBASE, bad input with its
// reason; the per-address limit; a server without a tablebase.
#include <set>

#include "engine/rules/legal_move.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"
#include "tests/service/core/analysis.h"
#include "tests/service/core/tablebase_shared.h"
#include "tests/service/harness/memory_service_harness.h"
#include "tests/support/small_tablebase.h"

namespace foxgeese::test {
namespace {

using C = grpc::StatusCode;

class Tablebase : public MemoryServiceTest {
  protected:
    void configure(service::ReplicaOptions& options) override {
        options.game.tablebase = small_tablebase();
        options.bot.tablebase = small_tablebase();
        options.game.limits.trusted_proxy_hops = 1;
    }

    static Position parsed(const std::string& code) {
        return *parse_position_code(**Variant::find("standard", {}), code);
    }
    static Move move_of(const Position& pos, const std::string& text) {
        return *find_legal_move(pos, *parse_move(pos.board(), text));
    }
    static v1::TablebaseCategory category(bool wins) {
        return wins ? v1::TABLEBASE_CATEGORY_WIN : v1::TABLEBASE_CATEGORY_LOSS;
    }
};

TEST_F(Tablebase, GivesThePositionsValueAndEachMovesFromTheMoversView) {
    const auto table = small_tablebase();
    for (const char* code : {kGeeseWinOrThrow, kFoxTakesTwoToWin}) {
        SCOPED_TRACE(code);
        const Position pos = parsed(code);
        const Reply<v1::GetTablebaseResponse> reply =
            client().get_tablebase(tablebase_request(code));
        ASSERT_TRUE(IsOk(reply));
        const auto value = table->value(pos);
        ASSERT_TRUE(value.has_value());
        EXPECT_EQ(reply->position(), code);
        EXPECT_EQ(reply->category(), category(value->mover_wins));
        EXPECT_EQ(reply->plies(), value->plies);
        EXPECT_EQ(reply->result(), v1::GAME_RESULT_UNSPECIFIED);

        // Every legal move once, each valued as the table values the
        // position after it, the best first and carrying the position's value.
        std::set<std::string> legal;
        for_each_legal_move(pos, [&](const Move& m) { legal.insert(format_move(pos.board(), m)); });
        std::set<std::string> listed;
        for (const v1::TablebaseMove& move : reply->moves()) {
            listed.insert(move.move());
            Position after = pos;
            UndoInfo undo;
            after.make(move_of(pos, move.move()), undo);
            if (won_outright(after) || !has_legal_move(after)) {
                EXPECT_EQ(move.category(), v1::TABLEBASE_CATEGORY_WIN) << move.move();
                EXPECT_EQ(move.plies(), 1);
            } else {
                const auto then = table->value(after);
                ASSERT_TRUE(then.has_value()) << move.move();
                EXPECT_EQ(move.category(), category(!then->mover_wins)) << move.move();
                EXPECT_EQ(move.plies(), then->plies + 1) << move.move();
            }
        }
        EXPECT_EQ(listed, legal);
        ASSERT_GT(reply->moves_size(), 0);
        EXPECT_EQ(reply->moves(0).category(), reply->category());
        EXPECT_EQ(reply->moves(0).plies(), reply->plies());
    }

    // The geese to move win in 1; two of their moves lose, in the fox's 4 plies.
    const Reply<v1::GetTablebaseResponse> geese =
        client().get_tablebase(tablebase_request(kGeeseWinOrThrow));
    EXPECT_EQ(geese->side_to_move(), v1::SIDE_GEESE);
    EXPECT_EQ(geese->text(), "win in 1");
    EXPECT_EQ(geese->moves(0).move(), "c4-d5");
    EXPECT_EQ(geese->moves(0).text(), "win in 1");
    EXPECT_EQ(geese->moves(1).category(), v1::TABLEBASE_CATEGORY_LOSS);
    EXPECT_EQ(geese->moves(1).text(), "loss in " + std::to_string(geese->moves(1).plies()));
    // The fox to move takes two geese and wins at once.
    const Reply<v1::GetTablebaseResponse> fox =
        client().get_tablebase(tablebase_request(kFoxTakesTwoToWin));
    EXPECT_EQ(fox->side_to_move(), v1::SIDE_FOX);
    EXPECT_EQ(fox->moves(0).move(), "g3xg5xe3");
    EXPECT_EQ(fox->moves(0).text(), "win in 1");
}

TEST_F(Tablebase, APositionWhoseGameIsOverGivesItsResult) {
    // Three geese: the fox side has won; the geese to move have lost.
    const Reply<v1::GetTablebaseResponse> reply =
        client().get_tablebase(tablebase_request("3/3/7/3F3/GG5/G2/3 g 0 0"));
    ASSERT_TRUE(IsOk(reply));
    EXPECT_EQ(reply->result(), v1::GAME_RESULT_FOX_SIDE_WINS);
    EXPECT_EQ(reply->end_reason(), v1::END_REASON_GEESE_BELOW_THRESHOLD);
    EXPECT_EQ(reply->category(), v1::TABLEBASE_CATEGORY_LOSS);
    EXPECT_EQ(reply->plies(), 0);
    EXPECT_EQ(reply->moves_size(), 0);
}

TEST_F(Tablebase, PositionsItDoesNotHoldAreNotInTheTablebase) {
    auto refused = [&](const v1::GetTablebaseRequest& request, const std::string& why) {
        const Reply<v1::GetTablebaseResponse> reply = client().get_tablebase(request);
        EXPECT_TRUE(IsError(reply, C::NOT_FOUND, "NOT_IN_TABLEBASE")) << request.DebugString();
        EXPECT_NE(reply.status.error_message().find(why), std::string::npos)
            << reply.status.error_message();
    };
    // The start has 13 geese; this server's table goes to 6.
    refused(tablebase_request(""), "up to 6 geese, not 13");
    v1::GetTablebaseRequest sideways = tablebase_request(kFoxTakesTwoToWin);
    sideways.mutable_options()->set_geese_sideways(true);
    refused(sideways, "forward-only geese");
    refused(tablebase_request("", "two_foxes"), "forward-only geese");
    refused(tablebase_request("", "big_cross"), "forward-only geese");
    // A fox step would complete the fifty-move count: a draw the table does
    // not know.
    refused(tablebase_request("3/3/3GG2/5GG/6F/3/G2 f 99 20"), "fifty-move");
}

TEST_F(Tablebase, BadRequestsAreRefusedWithTheirReason) {
    v1::GetTablebaseRequest no_variant = tablebase_request(kFoxTakesTwoToWin, "");
    EXPECT_TRUE(
        IsError(client().get_tablebase(no_variant), C::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    EXPECT_TRUE(IsError(client().get_tablebase(tablebase_request(kFoxTakesTwoToWin, "chess")),
                        C::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    v1::GetTablebaseRequest geese14 = tablebase_request(kFoxTakesTwoToWin);
    geese14.mutable_options()->set_geese(14);
    EXPECT_TRUE(IsError(client().get_tablebase(geese14), C::INVALID_ARGUMENT, "INVALID_OPTIONS"));
    EXPECT_TRUE(IsError(client().get_tablebase(tablebase_request("garbage")), C::INVALID_ARGUMENT,
                        "INVALID_POSITION"));
    EXPECT_TRUE(IsError(client().get_tablebase(tablebase_request(std::string(300, 'G'))),
                        C::INVALID_ARGUMENT, "INVALID_POSITION"));
}

TEST_F(Tablebase, AnalyzePositionAnswersExactlyWithPerfectLinesToTheEnd) {
    const auto table = small_tablebase();
    const Reply<v1::AnalyzePositionResponse> reply =
        client().analyze_position(position_request("standard", kGeeseWinOrThrow, 0, 3));
    ASSERT_TRUE(IsOk(reply));
    EXPECT_TRUE(reply->tablebase());
    ASSERT_EQ(reply->lines_size(), 3);
    const Reply<v1::GetTablebaseResponse> looked_up =
        client().get_tablebase(tablebase_request(kGeeseWinOrThrow));
    for (int i = 0; i < reply->lines_size(); ++i) {
        const v1::AnalysisLine& line = reply->lines(i);
        SCOPED_TRACE(line.move());
        EXPECT_EQ(line.move(), looked_up->moves(i).move());
        const int plies = looked_up->moves(i).plies();
        const bool wins = looked_up->moves(i).category() == v1::TABLEBASE_CATEGORY_WIN;
        EXPECT_EQ(wins ? line.score().win_in_plies() : line.score().loss_in_plies(), plies);
        EXPECT_EQ(line.depth(), plies);
        // The line is perfect play to the end: as long as the value says,
        // and won by the side the value says.
        ASSERT_EQ(line.pv_size(), plies);
        Position pos = parsed(kGeeseWinOrThrow);
        for (const std::string& move : line.pv()) {
            ASSERT_FALSE(won_outright(pos));
            UndoInfo undo;
            pos.make(move_of(pos, move), undo);
        }
        // Over: too few geese (the fox side won), or the side to move is stuck.
        ASSERT_TRUE(won_outright(pos) || !has_legal_move(pos));
        const bool geese_won = !won_outright(pos) && pos.side_to_move() == Side::kFox;
        EXPECT_EQ(geese_won, wins);
    }
    // Nothing was searched.
    EXPECT_EQ(server().metrics().analyses.value({"AnalyzePosition"}), 0);
}

class TablebaseLimited : public Tablebase {
  protected:
    void configure(service::ReplicaOptions& options) override {
        Tablebase::configure(options);
        options.game.limits.tablebase_per_address = service::Rate{2, std::chrono::seconds(60), 2};
    }
};

TEST_F(TablebaseLimited, AnAddressIsLimitedAndAnotherIsNot) {
    const auto request = tablebase_request(kFoxTakesTwoToWin);
    EXPECT_TRUE(IsOk(client().get_tablebase(request, "203.0.113.9")));
    EXPECT_TRUE(IsOk(client().get_tablebase(request, "203.0.113.9")));
    const Reply<v1::GetTablebaseResponse> third = client().get_tablebase(request, "203.0.113.9");
    EXPECT_TRUE(IsError(third, C::RESOURCE_EXHAUSTED, "RATE_LIMITED"));
    EXPECT_GT(retry_delay_ms(third.status), 0);
    EXPECT_TRUE(IsOk(client().get_tablebase(request, "203.0.113.10")));
}

TEST_F(TablebaseLimited, AnAnalysisOverTheLimitIsSearchedInstead) {
    const v1::AnalyzePositionRequest request = position_request("standard", kFoxTakesTwoToWin, 3);
    for (int i = 0; i < 2; ++i) {
        const Reply<v1::AnalyzePositionResponse> exact =
            client().analyze_position(request, "203.0.113.11");
        ASSERT_TRUE(IsOk(exact));
        EXPECT_TRUE(exact->tablebase());
    }
    // The address's lookups are spent: its analysis waits for a search.
    const Reply<v1::AnalyzePositionResponse> searched =
        client().analyze_position(request, "203.0.113.11");
    ASSERT_TRUE(IsOk(searched));
    EXPECT_FALSE(searched->tablebase());
    EXPECT_EQ(searched->lines(0).move(), "g3xg5xe3");
    EXPECT_EQ(server().metrics().analyses.value({"AnalyzePosition"}), 1);
}

// A server started without --tablebase-dir.
class NoTablebase : public MemoryServiceTest {};

TEST_F(NoTablebase, EveryPositionIsNotInTheTablebaseAndAnalysisSearches) {
    const Reply<v1::GetTablebaseResponse> reply =
        client().get_tablebase(tablebase_request(kFoxTakesTwoToWin));
    EXPECT_TRUE(IsError(reply, C::NOT_FOUND, "NOT_IN_TABLEBASE"));
    EXPECT_NE(reply.status.error_message().find("without a tablebase"), std::string::npos);
    const Reply<v1::AnalyzePositionResponse> analysed =
        client().analyze_position(position_request("standard", kFoxTakesTwoToWin, 3));
    ASSERT_TRUE(IsOk(analysed));
    EXPECT_FALSE(analysed->tablebase());
    EXPECT_EQ(server().metrics().analyses.value({"AnalyzePosition"}), 1);
}

}  // namespace
}  // namespace foxgeese::test
