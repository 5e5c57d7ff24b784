// CreateGame and JoinGame: who gets which seat, and what a retry with the
// same request_id may hand out again.
//
// Only digests of seat tokens are kept, so a retry cannot return the token it
// sent before: it issues a fresh one for the same seat and the old one stops
// working. That makes a request_id a key to the seat, so it is kept short-
// lived: it must be a random UUIDv4, a retry is honoured only within the
// retry window and only until the seat's token is first used (a move, a draw
// action, a watch with the token), a JoinGame retry needs the invite code
// again, and after that the same id is refused while the token stays valid.
#include <openssl/rand.h>
#include <spdlog/spdlog.h>

#include "engine/rules/game_status.h"
#include "engine/rules/position_code.h"
#include "engine/search/bot_level.h"
#include "service/core/database_errors.h"
#include "service/core/game_clock.h"
#include "service/core/game_rules.h"
#include "service/core/game_service.h"
#include "service/core/game_views.h"
#include "service/core/new_game.h"
#include "service/core/overdue_games.h"
#include "service/core/secrets.h"
#include "service/core/stored_codes.h"

namespace foxgeese::service {
namespace {

using storage::GameRow;

std::optional<ServiceError> check_seat_request_id(const std::string& request_id) {
    if (request_id.empty() || is_random_uuid(request_id)) return std::nullopt;
    return invalid_argument(
        "request_id",
        "request_id of CreateGame and JoinGame must be a random (version 4) UUID, such as "
        "crypto.randomUUID() makes: a retry with it can take the seat, so it must be unguessable");
}

std::string request_hash_of(std::string_view rpc, const std::string& request_id) {
    return request_id.empty() ? "" : sha256_hex(std::string(rpc) + ":" + lowercase(request_id));
}

// JoinGame on a game that was cancelled or expired before anyone joined.
ServiceError game_closed(const GameRow& g) {
    if (api(g.end_reason) == v1::END_REASON_CANCELLED) {
        return make_error(StatusCode::kFailedPrecondition, "GAME_CANCELLED",
                          "the game was cancelled by its creator before anyone joined");
    }
    return make_error(StatusCode::kFailedPrecondition, "GAME_EXPIRED",
                      "the game expired: nobody joined it in time");
}

ServiceError request_id_used() {
    return make_error(StatusCode::kAlreadyExists, "REQUEST_ID_USED",
                      "this request_id already took a seat and can no longer be retried: its "
                      "seat token has been used, or the retry window has passed. The token it "
                      "returned stays valid; send a new request_id for a new request");
}

bool has_fox(v1::Seat seat) {
    return seat == v1::SEAT_FOX || seat == v1::SEAT_BOTH;
}
bool has_geese(v1::Seat seat) {
    return seat == v1::SEAT_GEESE || seat == v1::SEAT_BOTH;
}

// Gives `seat` to a token: its digest, the request id that took it, and until
// when a retry with that id may hand it out again.
void give_seat(GameRow& g, v1::Seat seat, const std::string& token_hash,
               const std::string& request_hash, std::int64_t retry_until_us) {
    if (has_fox(seat)) {
        g.seats.fox.token_hash = token_hash;
        g.seats.fox.request_hash = request_hash;
        g.seats.fox.retry_until_us = retry_until_us;
    }
    if (has_geese(seat)) {
        g.seats.geese.token_hash = token_hash;
        g.seats.geese.request_hash = request_hash;
        g.seats.geese.retry_until_us = retry_until_us;
    }
}

// The seat(s) a request id took in a game (SEAT_UNSPECIFIED: none).
v1::Seat seat_taken_by(const GameRow& g, const std::string& request_hash) {
    if (request_hash.empty()) return v1::SEAT_UNSPECIFIED;
    const bool fox = g.seats.fox.request_hash == request_hash;
    const bool geese = g.seats.geese.request_hash == request_hash;
    return fox && geese ? v1::SEAT_BOTH
           : fox        ? v1::SEAT_FOX
           : geese      ? v1::SEAT_GEESE
                        : v1::SEAT_UNSPECIFIED;
}

// A retry may hand the seat out again only within its window and before its
// token was first used (which sets the window to 0).
bool retry_still_open(const GameRow& g, v1::Seat seat, std::int64_t now_us) {
    if (has_fox(seat) && g.seats.fox.retry_until_us <= now_us) return false;
    if (has_geese(seat) && g.seats.geese.retry_until_us <= now_us) return false;
    return true;
}

// A retry: the same seat with a fresh token; its window is not extended.
void reissue_seat(GameRow& g, v1::Seat seat, const std::string& token_hash) {
    if (has_fox(seat)) g.seats.fox.token_hash = token_hash;
    if (has_geese(seat)) g.seats.geese.token_hash = token_hash;
}

v1::Seat seat_for(int choice) {
    switch (choice) {
        case v1::SEAT_CHOICE_FOX:
            return v1::SEAT_FOX;
        case v1::SEAT_CHOICE_GEESE:
            return v1::SEAT_GEESE;
        case v1::SEAT_CHOICE_BOTH:
            return v1::SEAT_BOTH;
        default:
            return random_bit() ? v1::SEAT_FOX : v1::SEAT_GEESE;
    }
}

// Whether a seat the request took fits the choice it made.
bool seat_fits(v1::Seat seat, int choice) {
    switch (choice) {
        case v1::SEAT_CHOICE_FOX:
            return seat == v1::SEAT_FOX;
        case v1::SEAT_CHOICE_GEESE:
            return seat == v1::SEAT_GEESE;
        case v1::SEAT_CHOICE_BOTH:
            return seat == v1::SEAT_BOTH;
        default:
            return seat == v1::SEAT_FOX || seat == v1::SEAT_GEESE;
    }
}

// Whether a stored game is the one a request describes (a true retry).
bool same_game(const GameRow& g, const NewGame& wanted) {
    const Variant& v = *wanted.variant;
    const bool same_options = v.has_options() ? g.geese_option.value_or(0) == v.geese_option() &&
                                                    g.geese_sideways.has_value() &&
                                                    *g.geese_sideways == v.geese_sideways()
                                              : !g.geese_option && !g.geese_sideways;
    return g.variant == v.name() && same_options && g.visibility == wanted.visibility &&
           g.start_position == wanted.start_code &&
           time_control_view(g).SerializeAsString() == wanted.time_control.SerializeAsString() &&
           g.bot.level == wanted.bot_level &&
           seat_fits(seat_taken_by(g, wanted.request_hash), wanted.choice);
}

ServiceResult<NewGame> check_create_request(const v1::CreateGameRequest& request,
                                            const GameServiceOptions& service_options) {
    ServiceResult<const Variant*> found = requested_variant(request.variant(), request.options());
    if (!found.ok()) return found.error();
    if (auto e = check_seat_request_id(request.request_id())) return *e;
    NewGame game;
    game.variant = found.value();
    ServiceResult<Position> parsed =
        requested_position(*game.variant, request.start_position(), "start_position");
    if (!parsed.ok()) return parsed.error();
    const Position& start = parsed.value();
    if (const GameStatus status = evaluate_status(start, 0); status.over()) {
        return invalid_position("start_position",
                                "the game would already be over in this position (" +
                                    std::string(outcome_name(status.outcome)) + ", " +
                                    std::string(end_reason_name(status.reason)) + ")");
    }
    if (auto e = check_start_complexity(start, "start_position")) return *e;
    game.choice =
        request.seat() == v1::SEAT_CHOICE_UNSPECIFIED ? v1::SEAT_CHOICE_RANDOM : request.seat();
    if (!v1::SeatChoice_IsValid(game.choice))
        return invalid_argument("seat", "unknown seat choice");
    if (!v1::Visibility_IsValid(request.visibility()))
        return invalid_argument("visibility", "unknown visibility");
    if (request.visibility() != v1::VISIBILITY_UNSPECIFIED)
        game.visibility = stored(request.visibility());
    if (request.bot_level() != 0) {
        if (request.bot_level() < kMinBotLevel || request.bot_level() > kMaxBotLevel) {
            return invalid_argument("bot_level", "bot_level is " + std::to_string(kMinBotLevel) +
                                                     " (a beginner) to " +
                                                     std::to_string(kMaxBotLevel) +
                                                     " (the full engine), or 0 for no bot");
        }
        if (game.choice == v1::SEAT_CHOICE_BOTH) {
            return invalid_argument("bot_level",
                                    "a bot needs a seat: choose fox, geese or random, not both");
        }
        game.bot_level = request.bot_level();
    }
    ServiceResult<v1::TimeControl> control =
        checked_time_control(request.time_control(), service_options);
    if (!control.ok()) return control.error();
    game.time_control = control.value();
    set_start(game, start);
    game.request_hash = request_hash_of("create", request.request_id());
    return game;
}

v1::CreateGameResponse created_reply(const storage::GameWithLastMove& game, v1::Seat seat,
                                     std::string token, std::string invite, std::int64_t now_us) {
    v1::CreateGameResponse response;
    *response.mutable_game() = game_view(game.game, game.last_move, now_us);
    response.set_seat(seat);
    response.set_seat_token(std::move(token));
    // Nobody joins a game against the bot: an invite would open nothing.
    if (game.game.bot.side == storage::Side::kNone) response.set_invite_code(std::move(invite));
    return response;
}

// The bot takes the seat the creator did not.
storage::Side bot_side_for(v1::Seat creator) {
    return creator == v1::SEAT_FOX ? storage::Side::kGeese : storage::Side::kFox;
}

// The client a bot game is counted to (bot_moves.h, the bound below): a
// digest of its address, so that the address itself is not stored.
std::string bot_client_key(const std::string& client_address) {
    return sha256_hex("foxgeese bot client " + client_address).substr(0, 32);
}

ServiceError too_many_bot_games(const GameServiceOptions& options) {
    ServiceError error = make_error(
        StatusCode::kResourceExhausted, "RATE_LIMITED",
        "your address has " + std::to_string(options.bot_games_per_address) +
            " games against the bot in progress, the most it may have at once: finish or "
            "resign one first (a game whose first move is never made ends after " +
            std::to_string(options.first_move_timeout.count()) + " s)");
    error.retry_after = options.first_move_timeout;
    return error;
}

}  // namespace

void set_start(NewGame& game, const Position& start) {
    game.start_code = format_position_code(start);
    game.start_key = format_repetition_key(start);
    game.start_geese = start.geese_count();
    game.ply = start.ply();
    game.quiet_plies = start.quiet_plies();
}

ServiceResult<v1::TimeControl> checked_time_control(const v1::TimeControl& control,
                                                    const GameServiceOptions& options) {
    // Checked on a scratch row; the new game's row gets the same again.
    storage::GameRow scratch;
    const auto first_move_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(options.first_move_timeout).count();
    if (auto e = apply_time_control(control, first_move_ms, scratch)) return *e;
    return time_control_view(scratch);
}

storage::GameRow new_game_row(const NewGame& wanted, std::int64_t now_us,
                              const GameServiceOptions& options) {
    GameRow g;
    g.game_id = new_game_id();
    g.variant = std::string(wanted.variant->name());
    if (wanted.variant->has_options()) {
        g.geese_option = wanted.variant->geese_option();
        g.geese_sideways = wanted.variant->geese_sideways();
    }
    g.visibility = wanted.visibility;
    g.start_position = wanted.start_code;
    g.start_geese = wanted.start_geese;
    g.position = wanted.start_code;
    g.ply = wanted.ply;
    g.start_ply = wanted.ply;
    g.quiet_plies = wanted.quiet_plies;
    const auto first_move_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(options.first_move_timeout).count();
    apply_time_control(wanted.time_control, first_move_ms, g);
    g.created_us = g.updated_us = now_us;
    return g;
}

int random_bit() {
    unsigned char b = 0;
    if (RAND_bytes(&b, 1) != 1) throw std::runtime_error("the system random generator failed");
    return b & 1;
}

std::int64_t GameService::retry_until(std::int64_t now_us) const {
    return now_us +
           std::chrono::duration_cast<std::chrono::microseconds>(options_.seat_retry_window)
               .count();
}

std::optional<ServiceError> GameService::count_new_game(const CallContext& call) {
    if (auto wait = create_limit_.take(call.client_address))
        return rate_limited("new games from your address", *wait);
    return std::nullopt;
}

ServiceResult<v1::CreateGameResponse> GameService::create_game(const v1::CreateGameRequest& request,
                                                               const CallContext& call) {
    ServiceResult<NewGame> checked = check_create_request(request, options_);
    if (!checked.ok()) return checked.error();
    const NewGame& wanted = checked.value();
    if (auto e = count_new_game(call)) return *e;

    return guarded<v1::CreateGameResponse>(
        "CreateGame", [&]() -> ServiceResult<v1::CreateGameResponse> {
            const storage::CallBudget budget = call.budget();
            // A retry: the same seat of the same game, with fresh secrets.
            auto retry = [&](const GameRow& existing) -> ServiceResult<v1::CreateGameResponse> {
                if (!same_game(existing, wanted)) {
                    return invalid_argument(
                        "request_id", "request_id was already used for a different CreateGame");
                }
                const std::string token = new_seat_token();
                const std::string invite = new_invite_code();
                std::optional<ServiceError> error;
                v1::Seat seat = v1::SEAT_UNSPECIFIED;
                auto row = store_.modify_game(
                    existing.game_id,
                    [&](storage::GameWithLastMove& current, storage::EventRecords&) {
                        GameRow& g = current.game;
                        seat = seat_taken_by(g, wanted.request_hash);
                        if (!retry_still_open(g, seat, clock_.now_us())) {
                            error = request_id_used();
                            return false;
                        }
                        reissue_seat(g, seat, sha256_hex(token));
                        g.seats.invite_code_hash = sha256_hex(invite);
                        return true;
                    },
                    budget);
                if (!row) return game_not_found(existing.game_id);
                if (error) return *error;
                return created_reply(*row, seat, token, invite, clock_.now_us());
            };

            // Twice at most: a concurrent twin with the same request_id may insert
            // first, and is then there to be retried.
            for (int attempt = 0; attempt < 2; ++attempt) {
                if (!wanted.request_hash.empty()) {
                    if (auto existing =
                            store_.find_game_by_create_request(wanted.request_hash, budget))
                        return retry(existing->game);
                }
                const std::int64_t now = clock_.now_us();
                const std::string token = new_seat_token();
                const std::string invite = new_invite_code();
                const v1::Seat seat = seat_for(wanted.choice);
                GameRow g = new_game_row(wanted, now, options_);
                if (wanted.bot_level != 0) {
                    g.bot.side = bot_side_for(seat);
                    g.bot.level = wanted.bot_level;
                }
                g.state = seat == v1::SEAT_BOTH || g.bot.side != storage::Side::kNone
                              ? storage::GameState::kActive
                              : storage::GameState::kWaiting;
                give_seat(g, seat, sha256_hex(token), wanted.request_hash,
                          wanted.request_hash.empty() ? 0 : retry_until(now));
                g.seats.invite_code_hash = sha256_hex(invite);
                g.create_request_hash = wanted.request_hash;
                if (g.state == storage::GameState::kActive) {
                    start_turn(g, now);
                } else {
                    g.clocks.deadline_us =
                        now + std::chrono::duration_cast<std::chrono::microseconds>(
                                  options_.open_game_ttl)
                                  .count();
                }
                if (g.bot.side != storage::Side::kNone) {
                    g.bot.client_key = bot_client_key(call.client_address);
                    using Insert = storage::GameStore::BotGameInsert;
                    const Insert inserted = store_.insert_bot_game(
                        g, wanted.start_key, options_.bot_games_per_address, budget);
                    if (inserted == Insert::kOverLimit) return too_many_bot_games(options_);
                    if (inserted == Insert::kDuplicate) continue;
                } else if (!store_.insert_game(g, wanted.start_key, budget)) {
                    continue;
                }
                spdlog::info("game {} created: {} seat {}{}", g.game_id, g.variant,
                             v1::Seat_Name(seat),
                             g.bot.side != storage::Side::kNone
                                 ? " against the bot, level " + std::to_string(g.bot.level)
                                 : std::string());
                if (is_bot_turn(g)) notify_bot_turn();
                return created_reply({g, std::nullopt}, seat, token, invite, now);
            }
            return make_error(
                StatusCode::kAborted, "CONFLICT",
                "a concurrent request with the same request_id is in progress; retry");
        });
}

ServiceResult<v1::JoinGameResponse> GameService::join_game(const v1::JoinGameRequest& request,
                                                           const CallContext& call) {
    std::string id;
    if (auto e = normalize_game_id(request.game_id(), id)) return *e;
    if (request.invite_code().size() > kMaxInviteCodeLength) {
        return invalid_argument(
            "invite_code",
            "invite_code is at most " + std::to_string(kMaxInviteCodeLength) + " characters");
    }
    if (auto e = check_seat_request_id(request.request_id())) return *e;
    const std::string request_hash = request_hash_of("join", request.request_id());
    if (auto wait = join_limit_.take(call.client_address))
        return rate_limited("joins from your address", *wait);
    return guarded<v1::JoinGameResponse>("JoinGame", [&]() -> ServiceResult<v1::JoinGameResponse> {
        const std::string token = new_seat_token();
        std::optional<ServiceError> error;
        v1::Seat seat = v1::SEAT_UNSPECIFIED;
        auto found = store_.modify_game(
            id,
            [&](storage::GameWithLastMove& current, storage::EventRecords& events) {
                GameRow& g = current.game;
                const std::int64_t now = clock_.now_us();
                // Its seats are nobody's: the game was played elsewhere.
                if (g.record.imported) {
                    error = make_error(StatusCode::kFailedPrecondition, "GAME_OVER",
                                       "the game is over: it was imported from a record and has "
                                       "no seats to join");
                    return false;
                }
                // An open game past its expiry ends now (and that is written).
                if (g.state == storage::GameState::kWaiting &&
                    settle_overdue(current, now, events)) {
                    error = game_closed(g);
                    return true;
                }
                // The invite first, retry or not: a request id alone never
                // opens a private game.
                if (g.visibility != storage::Visibility::kPublic &&
                    !constant_time_equal(sha256_hex(request.invite_code()),
                                         g.seats.invite_code_hash)) {
                    error = make_error(StatusCode::kPermissionDenied, "INVITE_INVALID",
                                       request.invite_code().empty()
                                           ? "this game is private: joining needs its invite code"
                                           : "the invite code is not this game's");
                    return false;
                }
                seat = seat_taken_by(g, request_hash);
                if (seat != v1::SEAT_UNSPECIFIED) {
                    if (!retry_still_open(g, seat, now)) {
                        error = request_id_used();
                        return false;
                    }
                    reissue_seat(g, seat, sha256_hex(token));
                    return true;
                }
                if (g.state == storage::GameState::kFinished &&
                    (api(g.end_reason) == v1::END_REASON_CANCELLED ||
                     api(g.end_reason) == v1::END_REASON_EXPIRED)) {
                    error = game_closed(g);
                    return false;
                }
                // A seat kept for a rematch, or the bot's, is as taken as a held one.
                const bool fox_open = g.seats.fox.token_hash.empty() &&
                                      g.seats.fox.reserved_hash.empty() &&
                                      g.bot.side != storage::Side::kFox;
                const bool geese_open = g.seats.geese.token_hash.empty() &&
                                        g.seats.geese.reserved_hash.empty() &&
                                        g.bot.side != storage::Side::kGeese;
                if (!fox_open && !geese_open) {
                    error = make_error(StatusCode::kAlreadyExists, "SEAT_TAKEN",
                                       "both seats of this game are taken");
                    return false;
                }
                seat = fox_open ? v1::SEAT_FOX : v1::SEAT_GEESE;
                give_seat(g, seat, sha256_hex(token), request_hash,
                          request_hash.empty() ? 0 : retry_until(now));
                g.state = storage::GameState::kActive;
                g.updated_us = now;
                start_turn(g, now);
                v1::WatchGameResponse joined;
                joined.mutable_seat_joined()->set_seat(seat);
                *joined.mutable_seat_joined()->mutable_game() =
                    game_view(g, current.last_move, now);
                events.push_back(recorded_event(std::move(joined), now));
                return true;
            },
            call.budget());
        if (!found) return game_not_found(id);
        if (error) return *error;
        spdlog::info("game {}: seat {} joined", id, v1::Seat_Name(seat));
        v1::JoinGameResponse response;
        *response.mutable_game() = game_view(found->game, found->last_move, clock_.now_us());
        response.set_seat(seat);
        response.set_seat_token(token);
        return response;
    });
}

}  // namespace foxgeese::service
