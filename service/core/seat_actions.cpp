// What a seat does to a game besides moving: resign, offer or answer a
// draw, abort before the first moves, cancel an open game, claim the win
// when the opponent left. Each is one locked read-modify-write of the row.
#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <functional>
#include <variant>

#include "service/core/database_errors.h"
#include "service/core/game_clock.h"
#include "service/core/game_rules.h"
#include "service/core/game_service.h"
#include "service/core/game_views.h"
#include "service/core/overdue_games.h"
#include "service/core/stored_codes.h"
#include "storage/database_failure.h"

namespace foxgeese::service {
namespace {

using storage::GameRow;

// What a seat action decides: write the row (true), leave it (false), or refuse.
using ActionResult = std::variant<bool, ServiceError>;
// Edits the locked row and lists the watch events of the change; a GameEnded
// event's game is filled in afterwards, from the row as changed.
using SeatChange = std::function<ActionResult(GameRow& game, Held held, std::int64_t now,
                                              std::vector<v1::WatchGameResponse>& events)>;

// The state a seat action needs the game in.
enum class Needs { kInProgress, kOpen };

std::optional<ServiceError> check_state(const GameRow& g, Needs needs) {
    if (needs == Needs::kInProgress) return check_playing(g);
    if (g.state == storage::GameState::kActive) {
        return make_error(
            StatusCode::kFailedPrecondition, "GAME_STARTED",
            "an opponent has joined: abort (before the first moves) or resign instead");
    }
    if (g.state == storage::GameState::kFinished)
        return make_error(StatusCode::kFailedPrecondition, "GAME_OVER", "the game is over");
    return std::nullopt;
}

// A seat's action on a game: the token and the game's state are checked on
// the locked row (an overdue clock is settled first), `change` decides, and
// the reply holds the game as it stands after.
template <class Response>
ServiceResult<Response> seat_action(storage::GameStore& store, Clock& clock, RateLimiter& limit,
                                    const char* rpc, const std::string& raw_id,
                                    const CallContext& call, Needs needs,
                                    const SeatChange& change) {
    std::string id;
    if (auto e = normalize_game_id(raw_id, id)) return *e;
    ServiceResult<Bearer> token = require_bearer(call);
    if (!token.ok()) return token.error();
    if (auto e = take_seat_action(limit, token.value().hash)) return *e;
    return guarded<Response>(rpc, [&]() -> ServiceResult<Response> {
        std::optional<ServiceError> error;
        std::optional<v1::Game> after;
        auto found = store.modify_game(
            id,
            [&](storage::GameWithLastMove& current, std::vector<std::string>& recorded) {
                GameRow& g = current.game;
                const Held held = seat_of(g, token.value());
                if (held == Held::kNone) {
                    error = token_rejected(token.value());
                    return false;
                }
                const std::int64_t now = clock.now_us();
                if (settle_overdue(current, now, recorded)) {
                    error = make_error(StatusCode::kFailedPrecondition, "GAME_OVER",
                                       "the game is over: it ended on time");
                    return true;  // the settlement is written
                }
                if ((error = check_state(g, needs))) return false;
                std::vector<v1::WatchGameResponse> events;
                const ActionResult decided = change(g, held, now, events);
                if (decided.index() == 1) {
                    error = std::get<1>(decided);
                    return false;
                }
                // Acting with the token closes its seats' retry windows, even
                // when the action itself changes nothing.
                const auto windows =
                    std::make_pair(g.seats.fox.retry_until_us, g.seats.geese.retry_until_us);
                close_retry_windows(g, held);
                const bool retry_closed = windows != std::make_pair(g.seats.fox.retry_until_us,
                                                                    g.seats.geese.retry_until_us);
                if (!std::get<0>(decided)) return retry_closed;
                g.updated_us = now;
                after = game_view(g, current.last_move, now);
                for (v1::WatchGameResponse& e : events) {
                    if (e.has_game_ended()) *e.mutable_game_ended()->mutable_game() = *after;
                    recorded.push_back(event_bytes(std::move(e), now));
                }
                return true;
            },
            call.budget());
        if (!found) return game_not_found(id);
        if (error) return *error;
        Response response;
        // The view built for the events when the row was written; otherwise
        // (nothing changed) the row as read.
        *response.mutable_game() =
            after ? *after : game_view(found->game, found->last_move, clock.now_us());
        return response;
    });
}

}  // namespace

ServiceResult<v1::ResignGameResponse> GameService::resign_game(const v1::ResignGameRequest& request,
                                                               const CallContext& call) {
    return seat_action<v1::ResignGameResponse>(
        store_, clock_, seat_action_limit_, "ResignGame", request.game_id(), call,
        Needs::kInProgress,
        [&](GameRow& g, Held held, std::int64_t now,
            std::vector<v1::WatchGameResponse>& events) -> ActionResult {
            const Side resigning = acting_side(held, side_to_move_of(g));
            // A pending draw offer dies with the game.
            if (g.draw_offered_by != storage::Side::kNone)
                events.push_back(draw_answered_event(false, other(g.draw_offered_by)));
            finish(
                g,
                resigning == Side::kFox ? v1::GAME_RESULT_GEESE_WIN : v1::GAME_RESULT_FOX_SIDE_WINS,
                v1::END_REASON_RESIGNATION, now);
            events.push_back(game_ended_event({}));
            return true;
        });
}

ServiceResult<v1::OfferDrawResponse> GameService::offer_draw(const v1::OfferDrawRequest& request,
                                                             const CallContext& call) {
    return seat_action<v1::OfferDrawResponse>(
        store_, clock_, seat_action_limit_, "OfferDraw", request.game_id(), call,
        Needs::kInProgress,
        [&](GameRow& g, Held held, std::int64_t now,
            std::vector<v1::WatchGameResponse>& events) -> ActionResult {
            const storage::Side offering = stored(acting_side(held, side_to_move_of(g)));
            if (g.draw_offered_by == offering) return false;  // already standing
            v1::WatchGameResponse offered;
            offered.mutable_draw_offered()->set_by(api(offering));
            if (g.bot.side != storage::Side::kNone) {
                // The bot plays every game out: it declines at once, and
                // watchers see the offer and the answer.
                events.push_back(std::move(offered));
                events.push_back(draw_answered_event(false, g.bot.side));
                return true;
            }
            if (g.draw_offered_by != storage::Side::kNone) {
                // Both sides want a draw: offering accepts the other's offer.
                events.push_back(draw_answered_event(true, offering));
                finish(g, v1::GAME_RESULT_DRAW, v1::END_REASON_DRAW_AGREED, now);
                events.push_back(game_ended_event({}));
            } else {
                g.draw_offered_by = offering;
                events.push_back(std::move(offered));
            }
            return true;
        });
}

ServiceResult<v1::RespondDrawResponse> GameService::respond_draw(
    const v1::RespondDrawRequest& request, const CallContext& call) {
    return seat_action<v1::RespondDrawResponse>(
        store_, clock_, seat_action_limit_, "RespondDraw", request.game_id(), call,
        Needs::kInProgress,
        [&](GameRow& g, Held held, std::int64_t now,
            std::vector<v1::WatchGameResponse>& events) -> ActionResult {
            if (g.draw_offered_by == storage::Side::kNone) {
                return make_error(StatusCode::kFailedPrecondition, "NO_DRAW_OFFER",
                                  "no draw offer is pending");
            }
            const Side offered_by = engine_side(g.draw_offered_by);
            if (acting_side(held, opponent(offered_by)) == offered_by) {
                return make_error(StatusCode::kPermissionDenied, "WRONG_SEAT",
                                  "the pending draw offer is your own; the other side answers it");
            }
            events.push_back(draw_answered_event(request.accept(), other(g.draw_offered_by)));
            if (request.accept()) {
                finish(g, v1::GAME_RESULT_DRAW, v1::END_REASON_DRAW_AGREED, now);
                events.push_back(game_ended_event({}));
            } else {
                g.draw_offered_by = storage::Side::kNone;
            }
            return true;
        });
}

ServiceResult<v1::AbortGameResponse> GameService::abort_game(const v1::AbortGameRequest& request,
                                                             const CallContext& call) {
    return seat_action<v1::AbortGameResponse>(
        store_, clock_, seat_action_limit_, "AbortGame", request.game_id(), call,
        Needs::kInProgress,
        [&](GameRow& g, Held, std::int64_t now,
            std::vector<v1::WatchGameResponse>& events) -> ActionResult {
            if (has_moved(g, Side::kFox) && has_moved(g, Side::kGeese)) {
                return make_error(StatusCode::kFailedPrecondition, "ABORT_TOO_LATE",
                                  "both sides have made their first move: resign instead");
            }
            if (g.draw_offered_by != storage::Side::kNone)
                events.push_back(draw_answered_event(false, other(g.draw_offered_by)));
            finish(g, v1::GAME_RESULT_NONE, v1::END_REASON_ABORTED, now);
            events.push_back(game_ended_event({}));
            return true;
        });
}

ServiceResult<v1::CancelGameResponse> GameService::cancel_game(const v1::CancelGameRequest& request,
                                                               const CallContext& call) {
    return seat_action<v1::CancelGameResponse>(
        store_, clock_, seat_action_limit_, "CancelGame", request.game_id(), call, Needs::kOpen,
        [&](GameRow& g, Held, std::int64_t now,
            std::vector<v1::WatchGameResponse>& events) -> ActionResult {
            finish(g, v1::GAME_RESULT_NONE, v1::END_REASON_CANCELLED, now);
            events.push_back(game_ended_event({}));
            return true;
        });
}

ServiceResult<v1::ClaimVictoryResponse> GameService::claim_victory(
    const v1::ClaimVictoryRequest& request, const CallContext& call) {
    std::string id;
    if (auto e = normalize_game_id(request.game_id(), id)) return *e;
    // Presence is read first, on its own: the claim is then decided on the
    // locked row, against the turn it holds.
    std::pair<storage::SeatPresence, storage::SeatPresence> seen;
    try {
        seen = presence_.presence(id, clock_.now_us(), call.budget());
    } catch (const storage::DatabaseFailure& e) {
        return database_error("ClaimVictory", e);
    }
    const std::int64_t gone_threshold_us =
        std::chrono::duration_cast<std::chrono::microseconds>(options_.opponent_gone).count();
    return seat_action<v1::ClaimVictoryResponse>(
        store_, clock_, seat_action_limit_, "ClaimVictory", id, call, Needs::kInProgress,
        [&](GameRow& g, Held held, std::int64_t now,
            std::vector<v1::WatchGameResponse>& events) -> ActionResult {
            if (held == Held::kBoth) {
                return make_error(
                    StatusCode::kPermissionDenied, "WRONG_SEAT",
                    "this token holds both seats: there is no opponent to claim against");
            }
            if (g.bot.side != storage::Side::kNone) {
                return make_error(StatusCode::kFailedPrecondition, "CLAIM_NOT_ALLOWED",
                                  "the bot never leaves a game: it moves within its level's "
                                  "time, and its clock decides if it does not");
            }
            if (g.clocks.time_control == storage::TimeControl::kCorrespondence) {
                return make_error(
                    StatusCode::kFailedPrecondition, "CLAIM_NOT_ALLOWED",
                    "a correspondence game ends by its move deadline, not by a claim");
            }
            const Side claimant = held == Held::kFox ? Side::kFox : Side::kGeese;
            if (side_to_move(g) == claimant) {
                return make_error(StatusCode::kFailedPrecondition, "NOT_OPPONENTS_TURN",
                                  "it is your turn: the opponent is not holding up the game");
            }
            const storage::SeatPresence& opponent =
                claimant == Side::kFox ? seen.second : seen.first;
            // Gone since they left, or since their turn began if later (a
            // seat holder who never watched counts from the turn's start).
            const std::int64_t gone_since = std::max(opponent.since_us, g.clocks.turn_started_us);
            const std::int64_t claimable_at = gone_since + gone_threshold_us;
            if (opponent.connected || now < claimable_at) {
                google::protobuf::Timestamp at;
                set_timestamp(claimable_at, &at);
                return make_error(
                    StatusCode::kFailedPrecondition, "OPPONENT_PRESENT",
                    opponent.connected
                        ? "the opponent is connected"
                        : "the opponent has been gone " +
                              std::to_string((now - gone_since) / 1'000'000) + " s of the " +
                              std::to_string(gone_threshold_us / 1'000'000) + " s a claim needs",
                    {{"claimable_at", opponent.connected
                                          ? std::string()
                                          : google::protobuf::util::TimeUtil::ToString(at)}});
            }
            if (g.draw_offered_by != storage::Side::kNone)
                events.push_back(draw_answered_event(false, other(g.draw_offered_by)));
            const v1::GameResult result = request.draw()           ? v1::GAME_RESULT_DRAW
                                          : claimant == Side::kFox ? v1::GAME_RESULT_FOX_SIDE_WINS
                                                                   : v1::GAME_RESULT_GEESE_WIN;
            finish(g, result, v1::END_REASON_OPPONENT_LEFT, now);
            events.push_back(game_ended_event({}));
            return true;
        });
}

}  // namespace foxgeese::service
