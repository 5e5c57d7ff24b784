// What tests of games against the bot share: the CreateGame request that
// seats a bot, and the moves of the person who plays it.
#pragma once

#include <string>

#include "foxgeese/v1/game_service.pb.h"

namespace foxgeese::test {

// A game of `variant` in which the creator takes `seat` and a bot of
// `level` the other side.
inline v1::CreateGameRequest bot_game_request(const std::string& variant, v1::SeatChoice seat,
                                              int level) {
    v1::CreateGameRequest request;
    request.set_variant(variant);
    request.set_seat(seat);
    request.set_bot_level(level);
    return request;
}

// The person's move: a capture when there is one, else the first legal
// move. Simple and quick, so that games end soon (lost, or drawn by
// repetition).
inline std::string persons_move(const v1::Game& game) {
    for (const std::string& move : game.legal_moves())
        if (move.find('x') != std::string::npos) return move;
    return game.legal_moves_size() > 0 ? game.legal_moves(0) : std::string();
}

}  // namespace foxgeese::test
