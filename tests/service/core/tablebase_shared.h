// What the tablebase tests share on either harness (tablebase_test.cpp on the
// memory store, tablebase_pgtest.cpp on PostgreSQL and over REST): the
// requests and the positions whose values they check, which the tests read
// from the table itself rather than trust.
#pragma once

#include <string>

#include "foxgeese/v1/game_service.pb.h"

namespace foxgeese::test {

// Six geese, the geese to move: c4-d5 shuts the fox in on d7 (a win in 1);
// c4-b5 or c4-c5 lets it jump d7xd5 and win. Found by looking up random
// positions near a cornered fox until one had moves of both categories.
inline constexpr const char* kGeeseWinOrThrow = "GFG/GGG/7/2G4/7/3/3 g 0 0";
// Five geese, the fox to move: g3xg5xe3 takes two and leaves three.
inline constexpr const char* kFoxTakesTwoToWin = "3/3/3GG2/5GG/6F/3/G2 f 0 20";

inline v1::GetTablebaseRequest tablebase_request(const std::string& position,
                                                 const std::string& variant = "standard") {
    v1::GetTablebaseRequest request;
    request.set_variant(variant);
    request.set_position(position);
    return request;
}

}  // namespace foxgeese::test
