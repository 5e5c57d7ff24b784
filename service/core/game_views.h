// Building API messages (foxgeese.v1) from stored rows and engine positions.
#pragma once

#include <optional>
#include <string>

#include "engine/rules/game_status.h"
#include "engine/rules/position.h"
#include "engine/rules/variant.h"
#include "foxgeese/v1/game.pb.h"
#include "storage/game_records.h"

namespace foxgeese::service {

// The most legal moves a Game message lists.
constexpr std::uint64_t kMaxListedLegalMoves = 10'000;

// The engine variant a stored game plays.
const Variant& variant_of(const storage::GameRow& row);

// The game as the API shows it at `now_us` (the time its clocks are read at).
v1::Game game_view(const storage::GameRow& row, const std::optional<storage::MoveRow>& last_move,
                   std::int64_t now_us);
v1::Move move_view(const storage::MoveRow& row);

// The geese a move captures, in the order they are jumped, space-separated
// (as moves.captured stores them).
std::string captured_points(const Board& board, const Move& move);

// The API's values of engine values.
v1::Side api_side(Side side);
v1::GameResult api_result(Outcome outcome);
v1::EndReason api_end_reason(EndReason reason);

// A google.protobuf.Timestamp from microseconds since the epoch.
void set_timestamp(std::int64_t us, google::protobuf::Timestamp* out);

}  // namespace foxgeese::service
