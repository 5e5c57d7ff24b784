// What a request for a new game asks for once checked, and the row such a
// game starts as: shared by CreateGame (game_creation.cpp) and SeekGame
// (seek_game.cpp), so a paired game starts exactly as a created one.
// Internal to service/core.
#pragma once

#include <cstdint>
#include <string>

#include "engine/rules/position.h"
#include "engine/rules/variant.h"
#include "foxgeese/v1/game_service.pb.h"
#include "service/core/game_service.h"
#include "service/core/service_error.h"
#include "storage/game_records.h"

namespace foxgeese::service {

struct NewGame {
    const Variant* variant = nullptr;
    std::string start_code;
    std::string start_key;  // repetition key of the start position
    int start_geese = 0;
    int ply = 0;
    int quiet_plies = 0;
    int choice = v1::SEAT_CHOICE_RANDOM;
    storage::Visibility visibility = storage::Visibility::kPrivate;
    v1::TimeControl time_control;
    int bot_level = 0;         // 0: the other seat is for a person
    std::string request_hash;  // empty without a request_id
};

// Starts `game` in `start`.
void set_start(NewGame& game, const Position& start);

// A request's time control checked as every new game's is
// (INVALID_ARGUMENT naming the field), in the form the game stores it.
ServiceResult<v1::TimeControl> checked_time_control(const v1::TimeControl& control,
                                                    const GameServiceOptions& options);

// The row of a new game as `wanted` describes it at `now_us`: a fresh id,
// the variant and options, the start, the clock. Its seats, state and turn
// are left to the caller.
storage::GameRow new_game_row(const NewGame& wanted, std::int64_t now_us,
                              const GameServiceOptions& options);

// A coin toss from the system's random generator.
int random_bit();

}  // namespace foxgeese::service
