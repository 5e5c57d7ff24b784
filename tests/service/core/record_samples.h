// A game record the record tests check move by move, on either harness
// (game_records_test.cpp, game_records_pgtest.cpp).
#pragma once

#include <string>

namespace foxgeese::test {

// Records whose moves the tests check one by one: a standard game from a
// custom start with comments, won by a capture.
inline const std::string kFourGeese =
    "[Variant \"standard\"]\n"
    "[Geese \"13\"]\n"
    "[GeeseSideways \"false\"]\n"
    "[Start \"3/3/7/3F3/G2G3/3/G1G g 0 0\"]\n"
    "[TimeControl \"1/172800\"]\n"
    "[Result \"fox_side_wins\"]\n"
    "[EndReason \"geese_below_threshold\"]\n"
    "[Created \"2025-05-04T12:30:00Z\"]\n"
    "\n"
    "1. c1-c2 {the geese close up}\n"
    "2. d4xd2\n"
    "fox_side_wins\n";

}  // namespace foxgeese::test
