// What a seat does to a game in progress besides moving: resign, offer a
// draw, answer one. Each is one locked read-modify-write of the game row.
#include <functional>
#include <variant>

#include "service/core/database_errors.h"
#include "service/core/game_rules.h"
#include "service/core/game_service.h"
#include "service/core/game_views.h"

namespace foxgeese::service {
namespace {

using storage::GameRow;

// What a seat action decides: write the row (true), leave it (false), or refuse.
using ActionResult = std::variant<bool, ServiceError>;
// Edits the locked row and lists the watch events of the change; a GameEnded
// event's game is filled in afterwards, from the row as changed.
using SeatChange = std::function<ActionResult(GameRow& game, Held held, std::int64_t now,
                                              std::vector<v1::WatchGameResponse>& events)>;

// A seat's action on a game in progress: the token and the game's state are
// checked on the locked row, `change` decides, and the reply holds the game
// as it stands after.
template <class Response>
ServiceResult<Response> seat_action(storage::PostgresGameStore& store, Clock& clock,
                                    const char* rpc, const std::string& raw_id,
                                    const CallContext& call, const SeatChange& change) {
    std::string id;
    if (auto e = normalize_game_id(raw_id, id)) return *e;
    ServiceResult<Bearer> token = require_bearer(call);
    if (!token.ok()) return token.error();
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
                if ((error = check_playing(g))) return false;
                const std::int64_t now = clock.now_us();
                std::vector<v1::WatchGameResponse> events;
                const ActionResult decided = change(g, held, now, events);
                if (decided.index() == 1) {
                    error = std::get<1>(decided);
                    return false;
                }
                // Acting with the token closes its seats' retry windows, even
                // when the action itself changes nothing.
                const auto windows = std::make_pair(g.fox_retry_until_us, g.geese_retry_until_us);
                close_retry_windows(g, held);
                const bool retry_closed =
                    windows != std::make_pair(g.fox_retry_until_us, g.geese_retry_until_us);
                if (!std::get<0>(decided)) return retry_closed;
                g.updated_us = now;
                after = game_view(g, current.last_move);
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
        *response.mutable_game() = after ? *after : game_view(found->game, found->last_move);
        return response;
    });
}

}  // namespace

ServiceResult<v1::ResignGameResponse> GameService::resign_game(
    const v1::ResignGameRequest& request, const CallContext& call) {
    return seat_action<v1::ResignGameResponse>(
        store_, clock_, "ResignGame", request.game_id(), call,
        [&](GameRow& g, Held held, std::int64_t now,
            std::vector<v1::WatchGameResponse>& events) -> ActionResult {
            const Side resigning = acting_side(held, side_to_move_of(g));
            // A pending draw offer dies with the game.
            if (g.draw_offered_by != 0)
                events.push_back(draw_answered_event(false, other_side_number(g.draw_offered_by)));
            finish(g,
                   resigning == Side::kFox ? v1::GAME_RESULT_GEESE_WIN
                                           : v1::GAME_RESULT_FOX_SIDE_WINS,
                   v1::END_REASON_RESIGNATION, now);
            events.push_back(game_ended_event({}));
            return true;
        });
}

ServiceResult<v1::OfferDrawResponse> GameService::offer_draw(const v1::OfferDrawRequest& request,
                                                             const CallContext& call) {
    return seat_action<v1::OfferDrawResponse>(
        store_, clock_, "OfferDraw", request.game_id(), call,
        [&](GameRow& g, Held held, std::int64_t now,
            std::vector<v1::WatchGameResponse>& events) -> ActionResult {
            const int offering = side_number(acting_side(held, side_to_move_of(g)));
            if (g.draw_offered_by == offering) return false;  // already standing
            if (g.draw_offered_by != 0) {
                // Both sides want a draw: offering accepts the other's offer.
                events.push_back(draw_answered_event(true, offering));
                finish(g, v1::GAME_RESULT_DRAW, v1::END_REASON_DRAW_AGREED, now);
                events.push_back(game_ended_event({}));
            } else {
                g.draw_offered_by = offering;
                v1::WatchGameResponse offered;
                offered.mutable_draw_offered()->set_by(static_cast<v1::Side>(offering));
                events.push_back(std::move(offered));
            }
            return true;
        });
}

ServiceResult<v1::RespondDrawResponse> GameService::respond_draw(
    const v1::RespondDrawRequest& request, const CallContext& call) {
    return seat_action<v1::RespondDrawResponse>(
        store_, clock_, "RespondDraw", request.game_id(), call,
        [&](GameRow& g, Held held, std::int64_t now,
            std::vector<v1::WatchGameResponse>& events) -> ActionResult {
            if (g.draw_offered_by == 0) {
                return make_error(StatusCode::kFailedPrecondition, "NO_DRAW_OFFER",
                                  "no draw offer is pending");
            }
            const Side offered_by = g.draw_offered_by == v1::SIDE_FOX ? Side::kFox : Side::kGeese;
            if (acting_side(held, opponent(offered_by)) == offered_by) {
                return make_error(StatusCode::kPermissionDenied, "WRONG_SEAT",
                                  "the pending draw offer is your own; the other side answers it");
            }
            events.push_back(
                draw_answered_event(request.accept(), other_side_number(g.draw_offered_by)));
            if (request.accept()) {
                finish(g, v1::GAME_RESULT_DRAW, v1::END_REASON_DRAW_AGREED, now);
                events.push_back(game_ended_event({}));
            } else {
                g.draw_offered_by = 0;
            }
            return true;
        });
}

}  // namespace foxgeese::service
