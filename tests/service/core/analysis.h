// The fixture of the analysis tests, on either harness: the memory store
// (analysis_test.cpp) or PostgreSQL, where a game's analysis is stored and
// served across a restart (analysis_pgtest.cpp).
#pragma once

#include <string>

#include "tests/service/harness/service_harness.h"

namespace foxgeese::test {

// A win in 1 for the fox (from tests/engine/search/search_test.cpp): it takes two
// geese with g3xg5xe3, leaving three.
inline constexpr const char* kFoxWinsInOne = "3/3/3GG2/5GG/6F/3/G2 f 0 20";
// Ten geese, and the fox on e5 takes seven at once: a win in 1 that a quiet
// move gives up (service/core's game_analysis_test checks the position).
inline constexpr const char* kCaptureWins = "3/GG1/4F2/G1G2G1/1G3G1/1GG/1G1 f 0 20";

inline v1::AnalyzePositionRequest position_request(const std::string& variant,
                                                   const std::string& position, int depth,
                                                   int lines = 1) {
    v1::AnalyzePositionRequest request;
    request.set_variant(variant);
    request.set_position(position);
    request.set_depth(depth);
    request.set_lines(lines);
    return request;
}

template <class Base>
class AnalysisOn : public Base {
  protected:
    double analyses(const std::string& rpc) {
        return this->server().metrics().analyses.value({rpc});
    }

    // A finished game from kCaptureWins: the fox plays e5-e6 instead of the
    // capture, the geese a4-a5, and the fox resigns.
    SeatedGame thrown_away_game() {
        SeatedGame game = this->start_game_with(
            create_request("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PRIVATE, kCaptureWins));
        this->play_all(game, {"e5-e6", "a4-a5"});
        EXPECT_TRUE(IsOk(this->client().resign(game.id, game.fox_token)));
        return game;
    }
};

}  // namespace foxgeese::test
