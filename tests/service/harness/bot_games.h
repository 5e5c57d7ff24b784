// What tests of games against the bot share: the CreateGame request that
// seats a bot, the moves of the person who plays it, and a wait for the
// bot's count of moves.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

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

// A bot worker counts its move just after the commit, which a poll of the
// game or a watch may already have seen: the count once it reaches
// `at_least`, or what it is after five seconds.
inline std::int64_t settled_count(const std::function<std::int64_t()>& count,
                                  std::int64_t at_least) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (count() < at_least && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return count();
}

}  // namespace foxgeese::test
