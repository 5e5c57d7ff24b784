// Checks and edits the game service's RPCs share: request fields every RPC
// validates the same way, the states a game must be in, and the watch events
// a change records. Internal to service/core.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/rules/position.h"
#include "engine/rules/variant.h"
#include "foxgeese/v1/game_service.pb.h"
#include "service/core/seat_auth.h"
#include "service/core/service_error.h"
#include "storage/game_records.h"

namespace foxgeese::service {

// The variant and options a request names (CreateGame, AnalyzePosition):
// INVALID_ARGUMENT naming `variant`, or INVALID_OPTIONS naming `options`.
ServiceResult<const Variant*> requested_variant(const std::string& name,
                                                const v1::GameOptions& options);
// A position code a request gives for `variant` in `field`; an empty one is
// the variant's start. INVALID_POSITION naming the field.
ServiceResult<Position> requested_position(const Variant& variant, const std::string& code,
                                           const std::string& field);
ServiceError invalid_position(std::string field, std::string message);
// POSITION_TOO_COMPLEX naming `field` when a game would start in a position
// with more legal moves than kMaxStartLegalMoves (engine/rules/movegen.h).
std::optional<ServiceError> check_start_complexity(const Position& start, std::string field);

// A game id from a request, validated and lowercased into `id`.
std::optional<ServiceError> normalize_game_id(const std::string& raw, std::string& id);
ServiceError game_not_found(const std::string& id);

// GAME_NOT_STARTED or GAME_OVER unless the game is in progress.
std::optional<ServiceError> check_playing(const storage::GameRow& game);

// The side to move in a stored game.
Side side_to_move_of(const storage::GameRow& game);

// Whether a game in progress waits for its bot's move.
bool is_bot_turn(const storage::GameRow& game);

// Ends a game: state, result, reason, time; a pending draw offer dies with
// it, and its clock and deadline stop.
void finish(storage::GameRow& game, v1::GameResult result, v1::EndReason reason,
            std::int64_t now_us);

// The seat token has been used: the seats it holds can no longer be handed
// out again by a CreateGame / JoinGame retry.
void close_retry_windows(storage::GameRow& game, Held held);

// A watch event as recorded with the change that makes it: stamped and
// serialized.
std::string event_bytes(v1::WatchGameResponse event, std::int64_t now_us);
v1::WatchGameResponse game_ended_event(const v1::Game& game);
v1::WatchGameResponse draw_answered_event(bool accepted, storage::Side by);

}  // namespace foxgeese::service
