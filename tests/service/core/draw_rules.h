// The fixture of the draw-rule tests, on either harness: the memory store
// (draw_rules_test.cpp) or PostgreSQL across restarts (draw_rules_pgtest.cpp).
#pragma once

#include <string>
#include <vector>

#include "tests/service/harness/service_harness.h"

namespace foxgeese::test {

template <class Base>
class DrawRulesOn : public Base {
  protected:
    static v1::GameOptions sideways() {
        v1::GameOptions options;
        options.set_geese_sideways(true);
        return options;
    }

    // Plays moves that must all leave the game going.
    void play_ongoing(const SeatedGame& game, const std::vector<std::string>& moves) {
        for (const std::string& m : moves) {
            const v1::MakeMoveResponse reply = this->play(game, m);
            EXPECT_EQ(reply.game().state(), v1::GAME_STATE_ACTIVE)
                << m << " at ply " << reply.move().ply()
                << " ended the game: " << v1::EndReason_Name(reply.game().end_reason());
        }
    }

    // Plays the move that must end the game in a draw for `reason`.
    void play_drawing(const SeatedGame& game, const std::string& move, v1::EndReason reason,
                      int ply) {
        const v1::MakeMoveResponse reply = this->play(game, move);
        EXPECT_EQ(reply.move().ply(), ply);
        EXPECT_EQ(reply.move().state(), v1::GAME_STATE_FINISHED);
        EXPECT_EQ(reply.move().result(), v1::GAME_RESULT_DRAW);
        EXPECT_EQ(reply.move().end_reason(), reason);
        const Reply<v1::GetGameResponse> got = this->client().get(game.id);
        ASSERT_TRUE(IsOk(got));
        EXPECT_EQ(got->game().state(), v1::GAME_STATE_FINISHED);
        EXPECT_EQ(got->game().result(), v1::GAME_RESULT_DRAW);
        EXPECT_EQ(got->game().end_reason(), reason);
        EXPECT_EQ(got->game().ply(), ply);
        EXPECT_TRUE(got->game().legal_moves().empty());
        // Drawn means over.
        EXPECT_TRUE(IsError(this->client().resign(game.id, game.fox_token),
                            grpc::StatusCode::FAILED_PRECONDITION, "GAME_OVER"));
    }
};

// The fox shuttles d5-d6 and a goose a4-b4 (sideways): the position after
// ply 2 comes back at plies 6 and 10; every other position only twice.
inline const std::vector<std::string> kStandardShuttle = {
    "d4-d5", "a3-a4", "d5-d6", "a4-b4", "d6-d5", "b4-a4", "d5-d6", "a4-b4", "d6-d5"};

}  // namespace foxgeese::test
