// Whole games through the service, one per variant, from the start to the
// end: a seeded random player that prefers captures chooses every move, and
// the rules engine (engine/rules/game.h) plays along, so after every move the
// service must report the engine's position, status and legal moves.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "engine/rules/game.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"
#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

v1::GameResult result_of(Outcome outcome) {
    switch (outcome) {
        case Outcome::kOngoing:
            return v1::GAME_RESULT_UNSPECIFIED;
        case Outcome::kFoxSideWins:
            return v1::GAME_RESULT_FOX_SIDE_WINS;
        case Outcome::kGeeseWin:
            return v1::GAME_RESULT_GEESE_WIN;
        case Outcome::kDraw:
            return v1::GAME_RESULT_DRAW;
    }
    return v1::GAME_RESULT_UNSPECIFIED;
}

v1::EndReason reason_of(EndReason reason) {
    switch (reason) {
        case EndReason::kNone:
            return v1::END_REASON_UNSPECIFIED;
        case EndReason::kGeeseBelowThreshold:
            return v1::END_REASON_GEESE_BELOW_THRESHOLD;
        case EndReason::kPenFilled:
            return v1::END_REASON_PEN_FILLED;
        case EndReason::kNoLegalMove:
            return v1::END_REASON_NO_LEGAL_MOVE;
        case EndReason::kThreefoldRepetition:
            return v1::END_REASON_THREEFOLD_REPETITION;
        case EndReason::kFiftyMoveRule:
            return v1::END_REASON_FIFTY_MOVE_RULE;
    }
    return v1::END_REASON_UNSPECIFIED;
}

std::vector<std::string> sorted_legal_moves(const Position& pos) {
    std::vector<std::string> moves;
    for_each_legal_move(pos, [&](const Move& m) { moves.push_back(format_move(pos.board(), m)); });
    std::sort(moves.begin(), moves.end());
    return moves;
}

// Nine times in ten the fox side takes a capture when it has one.
std::string choose(const std::vector<std::string>& legal, Side side, std::mt19937& rng) {
    std::vector<std::string> captures;
    for (const std::string& m : legal) {
        if (m.find('x') != std::string::npos) captures.push_back(m);
    }
    const std::vector<std::string>& pool =
        side == Side::kFox && !captures.empty() && rng() % 10 != 0 ? captures : legal;
    return pool[rng() % pool.size()];
}

struct Played {
    std::string notation;
    std::string position;
    v1::GameState state;
    v1::GameResult result;
    v1::EndReason end_reason;
};

class FullGames : public MemoryServiceTest {
  protected:
    // Plays one game to its end and checks it move by move against the engine.
    void play_through(const std::string& variant, const v1::GameOptions& options, unsigned seed) {
        VariantOptions engine_options;
        if (options.has_geese()) engine_options.geese = options.geese();
        if (options.has_geese_sideways()) engine_options.geese_sideways = options.geese_sideways();
        const Variant& v = *Variant::find(variant, engine_options).value();
        Game engine{Position(v)};
        const SeatedGame game = start_game(variant, options);
        ASSERT_EQ(game.game.position(), format_position_code(engine.position()));

        std::mt19937 rng(seed);
        std::vector<Played> played;
        v1::Game current = game.game;
        while (!engine.status().over()) {
            ASSERT_LT(played.size(), 5000u) << "the game does not end";
            const std::vector<std::string> legal = sorted_legal_moves(engine.position());
            ASSERT_EQ(to_vector(current.legal_moves()), legal) << "at ply " << current.ply();
            const Side side = engine.position().side_to_move();
            const std::string notation = choose(legal, side, rng);

            v1::MakeMoveRequest request;
            request.set_game_id(game.id);
            request.set_move(notation);
            request.set_expected_ply(current.ply());
            const Reply<v1::MakeMoveResponse> reply =
                client().move(request, side == Side::kFox ? game.fox_token : game.geese_token);
            ASSERT_TRUE(IsOk(reply)) << notation << " at ply " << current.ply();
            ASSERT_TRUE(engine.play(notation)) << notation;

            const GameStatus status = engine.status();
            const v1::Move& m = reply->move();
            current = reply->game();
            SCOPED_TRACE("after " + notation + " at ply " + std::to_string(m.ply()));
            EXPECT_EQ(m.notation(), notation);
            EXPECT_EQ(m.side(), side == Side::kFox ? v1::SIDE_FOX : v1::SIDE_GEESE);
            EXPECT_EQ(m.ply(), engine.position().ply());
            EXPECT_EQ(m.position(), format_position_code(engine.position()));
            EXPECT_EQ(current.position(), m.position());
            EXPECT_EQ(current.ply(), engine.position().ply());
            EXPECT_EQ(current.quiet_plies(), engine.position().quiet_plies());
            EXPECT_EQ(current.geese_count(), engine.position().geese_count());
            EXPECT_EQ(current.geese_captured(), v.start_geese_count() - current.geese_count());
            EXPECT_EQ(current.state(),
                      status.over() ? v1::GAME_STATE_FINISHED : v1::GAME_STATE_ACTIVE);
            EXPECT_EQ(current.result(), result_of(status.outcome));
            EXPECT_EQ(current.end_reason(), reason_of(status.reason));
            EXPECT_EQ(m.state(), current.state());
            EXPECT_EQ(m.result(), current.result());
            EXPECT_EQ(m.end_reason(), current.end_reason());
            if (status.over()) {
                EXPECT_TRUE(current.legal_moves().empty());
            }
            played.push_back({notation, m.position(), m.state(), m.result(), m.end_reason()});
            if (::testing::Test::HasFailure()) return;  // one divergence is enough to report
        }

        // Finished as the engine says, and nothing more can be played.
        const Reply<v1::GetGameResponse> got = client().get(game.id);
        ASSERT_TRUE(IsOk(got));
        EXPECT_EQ(got->game().SerializeAsString(), current.SerializeAsString());
        EXPECT_EQ(got->game().state(), v1::GAME_STATE_FINISHED);
        EXPECT_EQ(got->game().result(), result_of(engine.status().outcome));
        EXPECT_EQ(got->game().end_reason(), reason_of(engine.status().reason));
        EXPECT_NE(got->game().result(), v1::GAME_RESULT_UNSPECIFIED);

        // The replay holds every move with the position and status after it.
        const Reply<v1::ListMovesResponse> replay = client().list_moves(game.id);
        ASSERT_TRUE(IsOk(replay));
        EXPECT_EQ(replay->start_position(), format_position_code(Position(v)));
        ASSERT_EQ(replay->moves_size(), static_cast<int>(played.size()));
        for (std::size_t i = 0; i < played.size(); ++i) {
            const v1::Move& m = replay->moves(static_cast<int>(i));
            EXPECT_EQ(m.ply(), static_cast<int>(i) + 1);
            EXPECT_EQ(m.notation(), played[i].notation);
            EXPECT_EQ(m.position(), played[i].position);
            EXPECT_EQ(m.state(), played[i].state);
            EXPECT_EQ(m.result(), played[i].result);
            EXPECT_EQ(m.end_reason(), played[i].end_reason);
        }
        RecordProperty("plies", static_cast<int>(played.size()));
        RecordProperty("end_reason", v1::EndReason_Name(got->game().end_reason()));
    }
};

TEST_F(FullGames, StandardWithSidewaysGeesePlaysToTheEngineEnd) {
    v1::GameOptions options;
    options.set_geese(13);
    options.set_geese_sideways(true);
    play_through("standard", options, 20240601);
}

TEST_F(FullGames, BigCrossPlaysToTheEngineEnd) {
    play_through("big_cross", {}, 7);
}

TEST_F(FullGames, TwoFoxesPlaysToTheEngineEnd) {
    play_through("two_foxes", {}, 1234);
}

}  // namespace
}  // namespace foxgeese::test
