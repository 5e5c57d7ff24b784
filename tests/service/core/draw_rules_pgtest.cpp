// The two automatic draws across a server restart, so the count must come
// from the database, not from anything a server keeps in memory (the rules
// themselves: draw_rules_test.cpp).
#include <string>
#include <vector>

#include "tests/service/core/draw_rules.h"

namespace foxgeese::test {
namespace {

using DrawRules = DrawRulesOn<ServiceTest>;

TEST_F(DrawRules, ThreefoldRepetitionIsCountedFromStoredHistoryAcrossARestart) {
    const SeatedGame game = start_game("standard", sideways());
    // Six plies on one server: the position after ply 2 has occurred twice.
    play_ongoing(game,
                 std::vector<std::string>(kStandardShuttle.begin(), kStandardShuttle.begin() + 6));
    restart_server();
    play_ongoing(game,
                 std::vector<std::string>(kStandardShuttle.begin() + 6, kStandardShuttle.end()));
    restart_server();
    play_drawing(game, "b4-a4", v1::END_REASON_THREEFOLD_REPETITION, 10);
}

TEST_F(DrawRules, FiftyMoveRuleAcrossARestart) {
    const SeatedGame game = start_game("standard", sideways(), "3/3/7/3F3/G6/GGG/GGG f 96 120");
    play_ongoing(game, {"d4-d5", "a3-b3"});
    restart_server();
    play_ongoing(game, {"d5-d4"});
    play_drawing(game, "b3-a3", v1::END_REASON_FIFTY_MOVE_RULE, 124);
}

}  // namespace
}  // namespace foxgeese::test
