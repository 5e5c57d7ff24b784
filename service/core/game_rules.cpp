#include "service/core/game_rules.h"

#include "engine/rules/movegen.h"
#include "engine/rules/position_code.h"
#include "service/core/game_views.h"
#include "service/core/secrets.h"
#include "service/core/stored_codes.h"

namespace foxgeese::service {

using storage::GameRow;

ServiceResult<const Variant*> requested_variant(const std::string& name,
                                                const v1::GameOptions& options) {
    if (name.empty()) {
        return invalid_argument("variant", "variant is required: standard, big_cross or two_foxes");
    }
    VariantOptions wanted;
    if (options.has_geese()) wanted.geese = options.geese();
    if (options.has_geese_sideways()) wanted.geese_sideways = options.geese_sideways();
    Result<const Variant*> found = Variant::find(name, wanted);
    if (found) return *found;
    if (found.error().code == ErrorCode::kInvalidOptions) {
        return ServiceError{StatusCode::kInvalidArgument,
                            "INVALID_OPTIONS",
                            found.error().message,
                            {{"option", wanted.geese ? "geese" : "geese_sideways"}},
                            "options"};
    }
    return invalid_argument("variant", found.error().message);
}

ServiceResult<Position> requested_position(const Variant& variant, const std::string& code,
                                           const std::string& field) {
    if (code.empty()) return Position(variant);
    Result<Position> parsed = parse_position_code(variant, code);
    if (!parsed) return invalid_position(field, parsed.error().message);
    // Stored positions are read back with the same parser, and a search
    // plays on from a position: either has to be able to go far past it
    // without the ply counter passing kMaxPly (no game comes near this margin).
    constexpr int kMaxRequestedPly = kMaxPly - 100'000;
    if (parsed->ply() > kMaxRequestedPly) {
        return invalid_position(field, "the ply counter of a position must be at most " +
                                           std::to_string(kMaxRequestedPly));
    }
    return *parsed;
}

ServiceError invalid_position(std::string field, std::string message) {
    return ServiceError{
        StatusCode::kInvalidArgument, "INVALID_POSITION", std::move(message), {}, std::move(field)};
}

std::optional<ServiceError> check_start_complexity(const Position& start, std::string field) {
    if (count_legal_moves(start, kMaxStartLegalMoves + 1) <= kMaxStartLegalMoves)
        return std::nullopt;
    ServiceError e =
        make_error(StatusCode::kInvalidArgument, "POSITION_TOO_COMPLEX",
                   "the position has more than " + std::to_string(kMaxStartLegalMoves) +
                       " legal moves (jump paths), more than a game may start with");
    e.field = std::move(field);
    return e;
}

std::optional<ServiceError> normalize_game_id(const std::string& raw, std::string& id) {
    if (raw.empty()) return invalid_argument("game_id", "game_id is required");
    if (!is_uuid(raw)) {
        return invalid_argument(
            "game_id", "game_id must be a UUID such as 0b6f3c1e-6a4e-4c51-9d3a-6f3b2f8f6a2d");
    }
    id = lowercase(raw);
    return std::nullopt;
}

ServiceError game_not_found(const std::string& id) {
    return make_error(StatusCode::kNotFound, "GAME_NOT_FOUND", "no game has the id " + id,
                      {{"game_id", id}});
}

std::optional<ServiceError> check_playing(const GameRow& g) {
    if (g.state == storage::GameState::kWaiting) {
        return make_error(StatusCode::kFailedPrecondition, "GAME_NOT_STARTED",
                          "a seat is still open: wait for the opponent to join");
    }
    if (g.state == storage::GameState::kFinished) {
        return make_error(StatusCode::kFailedPrecondition, "GAME_OVER", "the game is over");
    }
    return std::nullopt;
}

Side side_to_move_of(const GameRow& g) {
    return parse_position_code(variant_of(g), g.position).value().side_to_move();
}

bool is_bot_turn(const GameRow& g) {
    return g.bot.side != storage::Side::kNone && g.state == storage::GameState::kActive &&
           stored(side_to_move_of(g)) == g.bot.side;
}

void finish(GameRow& g, v1::GameResult result, v1::EndReason reason, std::int64_t now_us) {
    g.state = storage::GameState::kFinished;
    g.result = stored(result);
    g.end_reason = stored(reason);
    g.draw_offered_by = storage::Side::kNone;
    g.finished_us = now_us;
    // Nothing runs any more: no turn, no deadline.
    g.clocks.turn_started_us = 0;
    g.clocks.deadline_us = 0;
}

void close_retry_windows(GameRow& g, Held held) {
    if (holds_side(held, Side::kFox)) g.seats.fox.retry_until_us = 0;
    if (holds_side(held, Side::kGeese)) g.seats.geese.retry_until_us = 0;
}

std::string event_bytes(v1::WatchGameResponse event, std::int64_t now_us) {
    set_timestamp(now_us, event.mutable_time());
    return event.SerializeAsString();
}

v1::WatchGameResponse game_ended_event(const v1::Game& game) {
    v1::WatchGameResponse e;
    *e.mutable_game_ended()->mutable_game() = game;
    return e;
}

v1::WatchGameResponse draw_answered_event(bool accepted, storage::Side by) {
    v1::WatchGameResponse e;
    e.mutable_draw_answered()->set_accepted(accepted);
    e.mutable_draw_answered()->set_by(api(by));
    return e;
}

}  // namespace foxgeese::service
