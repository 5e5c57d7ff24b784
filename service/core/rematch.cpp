// Rematches: after a game, one side offers and the other accepts (or offers
// too); the new game has the same variant, options, start position and time
// control, with the seats swapped.
//
// No transaction spans two games: accepting commits the link on the finished
// game (with the new game's id, chosen then), and the new game is created
// from the finished game's row afterwards, by whichever call gets there
// first (an insert that does nothing when it exists already). Its two seats
// are kept for the finished game's seat holders, by the digest of their old
// seat tokens: each takes a fresh token once (JoinRematch; the one who
// accepts at once), and spectators, who learn the new id from the events,
// hold no old token and so can take nothing. The game starts when both
// seats are taken.
#include <spdlog/spdlog.h>

#include <functional>
#include <optional>

#include "engine/rules/position_code.h"
#include "service/core/database_errors.h"
#include "service/core/game_clock.h"
#include "service/core/game_rules.h"
#include "service/core/game_service.h"
#include "service/core/game_views.h"
#include "service/core/overdue_games.h"
#include "service/core/secrets.h"
#include "service/core/stored_codes.h"

namespace foxgeese::service {
namespace {

using storage::GameRow;

ServiceError no_rematch_offer() {
    return make_error(StatusCode::kFailedPrecondition, "NO_REMATCH_OFFER",
                      "no rematch offer is pending");
}

ServiceError game_not_over() {
    return make_error(StatusCode::kFailedPrecondition, "GAME_NOT_OVER",
                      "a rematch can be offered once the game is over");
}

v1::WatchGameResponse rematch_answered_event(bool accepted, storage::Side by,
                                             const std::string& game_id) {
    v1::WatchGameResponse e;
    e.mutable_rematch_answered()->set_accepted(accepted);
    e.mutable_rematch_answered()->set_by(api(by));
    e.mutable_rematch_answered()->set_game_id(game_id);
    return e;
}

// The new game a finished game's rematch is: the same set-up, the seats
// swapped and kept for the old seat holders.
GameRow rematch_row(const GameRow& old, std::int64_t now_us, std::int64_t open_ttl_us) {
    GameRow g;
    g.game_id = old.rematch.game_id;
    g.variant = old.variant;
    g.geese_option = old.geese_option;
    g.geese_sideways = old.geese_sideways;
    g.visibility = old.visibility;
    g.state = storage::GameState::kWaiting;
    g.start_position = old.start_position;
    g.start_geese = old.start_geese;
    g.position = old.start_position;
    g.ply = old.start_ply;
    g.start_ply = old.start_ply;
    g.quiet_plies = parse_position_code(variant_of(old), old.start_position).value().quiet_plies();
    g.clocks.time_control = old.clocks.time_control;
    g.clocks.initial_ms = old.clocks.initial_ms;
    g.clocks.increment_ms = old.clocks.increment_ms;
    g.clocks.move_period_ms = old.clocks.move_period_ms;
    g.clocks.first_move_ms = old.clocks.first_move_ms;
    const std::int64_t start_clock =
        old.clocks.time_control == storage::TimeControl::kCorrespondence ? old.clocks.move_period_ms
                                                                         : old.clocks.initial_ms;
    g.clocks.fox_ms = g.clocks.geese_ms = start_clock;
    g.seats.fox.reserved_hash = old.seats.geese.token_hash;
    g.seats.geese.reserved_hash = old.seats.fox.token_hash;
    // Nobody joins a rematch by invite: both seats are kept. The code only
    // fills the column.
    g.seats.invite_code_hash = sha256_hex(new_invite_code());
    g.rematch.of_game_id = old.game_id;
    g.created_us = g.updated_us = now_us;
    g.clocks.deadline_us = now_us + open_ttl_us;
    return g;
}

// Which seats of the rematch a finished game's token may take.
v1::Seat kept_for(const GameRow& rematch, const std::string& old_token_hash) {
    const bool fox = !rematch.seats.fox.reserved_hash.empty() &&
                     constant_time_equal(rematch.seats.fox.reserved_hash, old_token_hash);
    const bool geese = !rematch.seats.geese.reserved_hash.empty() &&
                       constant_time_equal(rematch.seats.geese.reserved_hash, old_token_hash);
    return fox && geese ? v1::SEAT_BOTH
           : fox        ? v1::SEAT_FOX
           : geese      ? v1::SEAT_GEESE
                        : v1::SEAT_UNSPECIFIED;
}

// The seat and token a caller got in a rematch.
struct RematchSeat {
    v1::Game game;
    v1::Seat seat = v1::SEAT_UNSPECIFIED;
    std::string token;
};

// Creates the rematch of a finished game if it is not there yet, then gives
// the holder of `old_token_hash` their kept seat(s) with a fresh token.
ServiceResult<RematchSeat> take_rematch_seat(storage::GameStore& store, Clock& clock,
                                             const GameRow& old, const std::string& old_token_hash,
                                             std::int64_t open_ttl_us,
                                             const storage::CallBudget& budget) {
    const GameRow fresh = rematch_row(old, clock.now_us(), open_ttl_us);
    store.insert_game(
        fresh,
        format_repetition_key(parse_position_code(variant_of(old), fresh.start_position).value()),
        budget);
    const std::string token = new_seat_token();
    RematchSeat taken;
    std::optional<ServiceError> error;
    auto row = store.modify_game(
        fresh.game_id,
        [&](storage::GameWithLastMove& current, std::vector<std::string>& events) {
            GameRow& g = current.game;
            taken.seat = kept_for(g, old_token_hash);
            if (taken.seat == v1::SEAT_UNSPECIFIED) {
                error = make_error(StatusCode::kAlreadyExists, "SEAT_TAKEN",
                                   "your seat in the rematch was taken already: with the token "
                                   "JoinRematch or RespondRematch returned then");
                return false;
            }
            const std::int64_t now = clock.now_us();
            const std::string hash = sha256_hex(token);
            if (taken.seat != v1::SEAT_GEESE) {
                g.seats.fox.token_hash = hash;
                g.seats.fox.reserved_hash.clear();
            }
            if (taken.seat != v1::SEAT_FOX) {
                g.seats.geese.token_hash = hash;
                g.seats.geese.reserved_hash.clear();
            }
            g.updated_us = now;
            if (!g.seats.fox.token_hash.empty() && !g.seats.geese.token_hash.empty()) {
                g.state = storage::GameState::kActive;
                start_turn(g, now);
            }
            v1::WatchGameResponse joined;
            joined.mutable_seat_joined()->set_seat(taken.seat);
            *joined.mutable_seat_joined()->mutable_game() = game_view(g, current.last_move, now);
            events.push_back(event_bytes(std::move(joined), now));
            return true;
        },
        budget);
    if (!row) return game_not_found(fresh.game_id);
    if (error) return *error;
    taken.game = game_view(row->game, row->last_move, clock.now_us());
    taken.token = token;
    return taken;
}

// The part of offering and answering that happens on the finished game.
struct RematchDecision {
    std::optional<ServiceError> error;
    std::optional<storage::GameWithLastMove> game;
    bool accepted = false;  // a rematch now exists for the caller to take
};

// `may_create` is asked once the decision would bring the rematch into
// being: a new game counts against its client's creation limit.
ServiceResult<RematchDecision> decide_rematch(
    storage::GameStore& store, Clock& clock, const std::string& id, const Bearer& token,
    RematchAct act, const std::function<std::optional<ServiceError>()>& may_create,
    const storage::CallBudget& budget) {
    RematchDecision decision;
    decision.game = store.modify_game(
        id,
        [&](storage::GameWithLastMove& current, std::vector<std::string>& recorded) {
            GameRow& g = current.game;
            const Held held = seat_of(g, token);
            if (held == Held::kNone) {
                decision.error = token_rejected(token);
                return false;
            }
            const std::int64_t now = clock.now_us();
            if (g.state != storage::GameState::kFinished &&
                !settle_overdue(current, now, recorded)) {
                decision.error = game_not_over();
                return false;
            }
            if (g.bot.side != storage::Side::kNone) {
                decision.error = make_error(
                    StatusCode::kFailedPrecondition, "NO_REMATCH_WITH_BOT",
                    "the bot plays no rematch: create a new game against it (CreateGame with "
                    "bot_level), on the other side if you like");
                return !recorded.empty();  // an overdue clock settled here is still written
            }
            if (!g.rematch.game_id.empty()) {
                if (act == RematchAct::kDecline) {
                    decision.error = no_rematch_offer();
                    return false;
                }
                // Accepted already: the caller may still take their seat.
                decision.accepted = true;
                return !recorded.empty();
            }
            const storage::Side side =
                held == Held::kGeese ? storage::Side::kGeese : storage::Side::kFox;
            // A token holding both seats is its own opponent: offering accepts.
            const bool other_offered = g.rematch.offered_by != storage::Side::kNone &&
                                       (g.rematch.offered_by != side || held == Held::kBoth);
            if (act != RematchAct::kOffer && !other_offered) {
                decision.error = g.rematch.offered_by == storage::Side::kNone
                                     ? no_rematch_offer()
                                     : make_error(StatusCode::kPermissionDenied, "WRONG_SEAT",
                                                  "the pending rematch offer is your own; the "
                                                  "other side answers it");
                return false;
            }
            g.updated_us = now;
            if (act == RematchAct::kDecline) {
                g.rematch.offered_by = storage::Side::kNone;
                recorded.push_back(event_bytes(rematch_answered_event(false, side, ""), now));
                return true;
            }
            if (act == RematchAct::kOffer && !other_offered && held != Held::kBoth) {
                if (g.rematch.offered_by == side) return !recorded.empty();  // already standing
                g.rematch.offered_by = side;
                v1::WatchGameResponse offered;
                offered.mutable_rematch_offered()->set_by(api(side));
                recorded.push_back(event_bytes(std::move(offered), now));
                return true;
            }
            if ((decision.error = may_create())) return !recorded.empty();
            g.rematch.offered_by = storage::Side::kNone;
            g.rematch.game_id = new_game_id();
            recorded.push_back(
                event_bytes(rematch_answered_event(true, side, g.rematch.game_id), now));
            decision.accepted = true;
            return true;
        },
        budget);
    if (!decision.game) return game_not_found(id);
    if (decision.error) return *decision.error;
    return decision;
}

}  // namespace

ServiceResult<v1::OfferRematchResponse> GameService::offer_rematch(
    const v1::OfferRematchRequest& request, const CallContext& call) {
    return act_on_rematch<v1::OfferRematchResponse>("OfferRematch", request.game_id(),
                                                    RematchAct::kOffer, call);
}

ServiceResult<v1::RespondRematchResponse> GameService::respond_rematch(
    const v1::RespondRematchRequest& request, const CallContext& call) {
    return act_on_rematch<v1::RespondRematchResponse>(
        "RespondRematch", request.game_id(),
        request.accept() ? RematchAct::kAccept : RematchAct::kDecline, call);
}

// Offering and answering alike: decide on the finished game, and when that
// made (or found) an accepted rematch, take the caller's seat in it.
template <class Response>
ServiceResult<Response> GameService::act_on_rematch(const char* rpc, const std::string& raw_id,
                                                    RematchAct act, const CallContext& call) {
    std::string id;
    if (auto e = normalize_game_id(raw_id, id)) return *e;
    ServiceResult<Bearer> token = require_bearer(call);
    if (!token.ok()) return token.error();
    if (auto e = take_seat_action(seat_action_limit_, token.value().hash)) return *e;
    return guarded<Response>(rpc, [&]() -> ServiceResult<Response> {
        const storage::CallBudget budget = call.budget();
        auto decided = decide_rematch(
            store_, clock_, id, token.value(), act, [&] { return count_new_game(call); }, budget);
        if (!decided.ok()) return decided.error();
        Response response;
        const GameRow& old = decided.value().game->game;
        *response.mutable_game() = game_view(old, decided.value().game->last_move, clock_.now_us());
        if (!decided.value().accepted) return response;
        auto seat =
            take_rematch_seat(store_, clock_, old, token.value().hash, open_game_ttl_us(), budget);
        if (!seat.ok()) return seat.error();
        spdlog::info("game {}: rematch {} seat taken", id, old.rematch.game_id);
        *response.mutable_rematch() = seat.value().game;
        response.set_seat(seat.value().seat);
        response.set_seat_token(seat.value().token);
        return response;
    });
}

ServiceResult<v1::JoinRematchResponse> GameService::join_rematch(
    const v1::JoinRematchRequest& request, const CallContext& call) {
    std::string id;
    if (auto e = normalize_game_id(request.game_id(), id)) return *e;
    ServiceResult<Bearer> token = require_bearer(call);
    if (!token.ok()) return token.error();
    return guarded<v1::JoinRematchResponse>(
        "JoinRematch", [&]() -> ServiceResult<v1::JoinRematchResponse> {
            const storage::CallBudget budget = call.budget();
            const auto found = store_.find_game(id, budget);
            if (!found) return game_not_found(id);
            if (seat_of(found->game, token.value()) == Held::kNone)
                return token_rejected(token.value());
            if (found->game.rematch.game_id.empty()) {
                return make_error(StatusCode::kFailedPrecondition, "NO_REMATCH",
                                  "no rematch of this game was accepted");
            }
            auto seat = take_rematch_seat(store_, clock_, found->game, token.value().hash,
                                          open_game_ttl_us(), budget);
            if (!seat.ok()) return seat.error();
            v1::JoinRematchResponse response;
            *response.mutable_game() = seat.value().game;
            response.set_seat(seat.value().seat);
            response.set_seat_token(seat.value().token);
            return response;
        });
}

}  // namespace foxgeese::service
