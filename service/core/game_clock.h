// A game's clock as data: the time control and the clocks live in the game
// row, and these functions read and advance them for a given moment, which
// the caller takes from its Clock. Nothing here reads the time itself.
//
// Rules: a side's clock runs only on its turn. Each side's first move has a
// deadline of its own (first_move_ms); missing it aborts the game. After
// that, real time takes the thinking time (from the commit of the
// opponent's move to the receipt of this one) off the mover's clock and adds
// the increment; correspondence gives each move its period afresh. A side
// whose time runs out loses.
#pragma once

#include <cstdint>
#include <optional>

#include "engine/rules/position.h"
#include "foxgeese/v1/game.pb.h"
#include "service/core/service_error.h"
#include "storage/game_records.h"

namespace foxgeese::service {

// Limits of CreateGameRequest.time_control.
inline constexpr std::int64_t kMinInitialMs = 15'000;
inline constexpr std::int64_t kMaxInitialMs = 3 * 3'600'000;
inline constexpr std::int64_t kMaxIncrementMs = 180'000;
inline constexpr int kMinDaysPerMove = 1;
inline constexpr int kMaxDaysPerMove = 14;

// Sets a new game's time control from a request: kind, initial clocks,
// increment, period, and the first-move deadline (`first_move_ms` for real
// time and no time control, the period for correspondence).
std::optional<ServiceError> apply_time_control(const v1::TimeControl& control,
                                               std::int64_t first_move_ms, storage::GameRow& game);

// Whether a side has made its first move in the game.
bool has_moved(const storage::GameRow& game, Side side);

// The side to move in the game's current position.
Side side_to_move(const storage::GameRow& game);

// Starts the turn of the side to move at `now_us` and sets the game's
// deadline for it (none without a time control); clears both once the game
// is not in progress.
void start_turn(storage::GameRow& game, std::int64_t now_us);

// How an overdue game ends at `now_us`: expired (waiting), aborted (a first
// move not made) or lost on time (the side to move's clock ran out).
struct Ending {
    v1::GameResult result = v1::GAME_RESULT_UNSPECIFIED;
    v1::EndReason reason = v1::END_REASON_UNSPECIFIED;
};
std::optional<Ending> overdue_ending(const storage::GameRow& game, std::int64_t now_us);

// Charges a move, received at `received_us`, to the mover's clock and adds
// its increment; the caller has checked that the game was not overdue then.
// Returns the thinking time (nullopt without a time control).
std::optional<std::int64_t> charge_move(storage::GameRow& game, Side mover,
                                        std::int64_t received_us);

// The clocks as the API shows them at `now_us`; nullopt without a time
// control.
std::optional<v1::Clocks> clocks_view(const storage::GameRow& game, std::int64_t now_us);
v1::TimeControl time_control_view(const storage::GameRow& game);

}  // namespace foxgeese::service
