#include "service/core/game_service.h"

#include <openssl/rand.h>
#include <spdlog/spdlog.h>

#include <functional>
#include <pqxx/pqxx>
#include <variant>

#include "engine/game_status.h"
#include "engine/legal_move.h"
#include "engine/notation.h"
#include "engine/position_code.h"
#include "service/core/game_views.h"
#include "service/core/secrets.h"
#include "service/core/variant_catalog.h"

namespace foxgeese::service {
namespace {

using storage::GameRow;
using storage::MoveRow;

// Which seat(s) a token holds in a game.
enum class Held { kNone, kFox, kGeese, kBoth };

ServiceError fail(StatusCode code, std::string reason, std::string message,
                  std::map<std::string, std::string> metadata = {}) {
    return ServiceError{code, std::move(reason), std::move(message), std::move(metadata), ""};
}

ServiceError game_not_found(const std::string& id) {
    return fail(StatusCode::kNotFound, "GAME_NOT_FOUND", "no game has the id " + id,
                {{"game_id", id}});
}

// A game id from a request, validated and lowercased.
std::optional<ServiceError> normalize_game_id(const std::string& raw, std::string& id) {
    if (raw.empty()) return invalid_argument("game_id", "game_id is required");
    if (!is_uuid(raw)) {
        return invalid_argument(
            "game_id", "game_id must be a UUID such as 0b6f3c1e-6a4e-4c51-9d3a-6f3b2f8f6a2d");
    }
    id = lowercase(raw);
    return std::nullopt;
}

std::optional<ServiceError> check_request_id(const std::string& request_id) {
    if (request_id.size() > kMaxRequestIdLength) {
        return invalid_argument(
            "request_id",
            "request_id is at most " + std::to_string(kMaxRequestIdLength) + " characters");
    }
    for (unsigned char c : request_id) {
        if (c < 0x21 || c > 0x7e) {
            return invalid_argument("request_id",
                                    "request_id must be printable ASCII without spaces");
        }
    }
    return std::nullopt;
}

// CreateGame and JoinGame retries hand out a fresh seat token, so their
// request_id works as a secret: it must be a UUID (a random UUIDv4 is
// unguessable), never a counter two clients could both pick.
std::optional<ServiceError> check_secret_request_id(const std::string& request_id) {
    if (request_id.empty() || is_uuid(request_id)) return std::nullopt;
    return invalid_argument("request_id",
                            "request_id of CreateGame and JoinGame must be a random UUIDv4 "
                            "(it lets a retry take the seat)");
}

// The bearer token of a call: its SHA-256, or why it is malformed. A missing
// token fails at once (TOKEN_REQUIRED); a malformed one only after the game
// is found, so the documented order of errors holds (GAME_NOT_FOUND first).
struct Bearer {
    std::string hash;
    std::string problem;  // non-empty: malformed
};

ServiceResult<Bearer> bearer(const std::optional<std::string>& authorization) {
    if (!authorization || authorization->empty()) {
        return fail(StatusCode::kUnauthenticated, "TOKEN_REQUIRED",
                    "this call needs the seat token: send 'authorization: Bearer <seat_token>'");
    }
    const std::string& value = *authorization;
    constexpr std::string_view kScheme = "bearer ";
    if (value.size() <= kScheme.size() || lowercase(value.substr(0, kScheme.size())) != kScheme) {
        return Bearer{"", "the authorization value must be 'Bearer <seat_token>'"};
    }
    const std::string token = value.substr(kScheme.size());
    if (!is_well_formed_token(token)) return Bearer{"", "the seat token is malformed"};
    return Bearer{sha256_hex(token), ""};
}

Held seat_held(const GameRow& g, const std::string& hash) {
    // Both comparisons always run, in constant time each.
    const bool fox = !g.fox_token_hash.empty() && constant_time_equal(g.fox_token_hash, hash);
    const bool geese = !g.geese_token_hash.empty() && constant_time_equal(g.geese_token_hash, hash);
    if (fox && geese) return Held::kBoth;
    if (fox) return Held::kFox;
    if (geese) return Held::kGeese;
    return Held::kNone;
}

ServiceError token_rejected(const Bearer& b) {
    return fail(StatusCode::kUnauthenticated, "TOKEN_INVALID",
                b.problem.empty() ? "the seat token holds no seat in this game" : b.problem);
}

// The seat(s) a call's token holds in a game (kNone for a malformed token).
Held seat_of(const GameRow& g, const Bearer& b) {
    return b.problem.empty() ? seat_held(g, b.hash) : Held::kNone;
}

Side side_to_move_of(const GameRow& g) {
    return parse_position_code(variant_of(g), g.position).value().side_to_move();
}

// The side a seat acts for; a both-seats token acts for `default_side`.
Side acting_side(Held held, Side default_side) {
    if (held == Held::kFox) return Side::kFox;
    if (held == Held::kGeese) return Side::kGeese;
    return default_side;
}

std::optional<ServiceError> check_playing(const GameRow& g) {
    if (g.state == v1::GAME_STATE_WAITING) {
        return fail(StatusCode::kFailedPrecondition, "GAME_NOT_STARTED",
                    "a seat is still open: wait for the opponent to join");
    }
    if (g.state == v1::GAME_STATE_FINISHED) {
        return fail(StatusCode::kFailedPrecondition, "GAME_OVER", "the game is over");
    }
    return std::nullopt;
}

void finish(GameRow& g, int result, int reason, std::int64_t now) {
    g.state = v1::GAME_STATE_FINISHED;
    g.result = result;
    g.end_reason = reason;
    g.draw_offered_by = 0;
    g.finished_us = now;
}

// A watch event as recorded with the change that makes it.
std::string event_bytes(v1::WatchGameResponse event, std::int64_t now) {
    set_timestamp(now, event.mutable_time());
    return event.SerializeAsString();
}

v1::WatchGameResponse game_ended_event(const v1::Game& game) {
    v1::WatchGameResponse e;
    *e.mutable_game_ended()->mutable_game() = game;
    return e;
}

v1::WatchGameResponse draw_answered_event(bool accepted, int by_side) {
    v1::WatchGameResponse e;
    e.mutable_draw_answered()->set_accepted(accepted);
    e.mutable_draw_answered()->set_by(static_cast<v1::Side>(by_side));
    return e;
}

int other_side_number(int side) {
    return side == v1::SIDE_FOX ? v1::SIDE_GEESE : v1::SIDE_FOX;
}

std::string to_hex(std::string_view bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    for (unsigned char c : bytes) {
        out += kDigits[c >> 4];
        out += kDigits[c & 15];
    }
    return out;
}

std::optional<std::string> from_hex(std::string_view hex) {
    if (hex.size() % 2 != 0) return std::nullopt;
    std::string out;
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        int value = 0;
        for (char c : hex.substr(i, 2)) {
            value <<= 4;
            if (c >= '0' && c <= '9')
                value |= c - '0';
            else if (c >= 'a' && c <= 'f')
                value |= c - 'a' + 10;
            else
                return std::nullopt;
        }
        out += static_cast<char>(value);
    }
    return out;
}

// Runs a storage-touching body and maps database failures, in one place, to
// UNAVAILABLE (retry) or INTERNAL.
template <class T, class Body>
ServiceResult<T> guarded(const char* rpc, Body&& body) {
    try {
        return body();
    } catch (const storage::PoolExhausted& e) {
        spdlog::warn("{}: {}", rpc, e.what());
        return fail(StatusCode::kUnavailable, "DATABASE_BUSY",
                    "the database is busy; retry shortly");
    } catch (const pqxx::broken_connection& e) {
        spdlog::warn("{}: database connection lost: {}", rpc, e.what());
        return fail(StatusCode::kUnavailable, "DATABASE_UNAVAILABLE",
                    "the database is unreachable; retry shortly (with the same request_id)");
    } catch (const pqxx::in_doubt_error& e) {
        spdlog::warn("{}: commit in doubt: {}", rpc, e.what());
        return fail(StatusCode::kUnavailable, "DATABASE_UNAVAILABLE",
                    "the database connection failed mid-write; retry with the same request_id");
    } catch (const std::exception& e) {
        spdlog::error("{}: {}", rpc, e.what());
        return fail(StatusCode::kInternal, "INTERNAL", "internal error");
    }
}

int random_bit() {
    unsigned char b = 0;
    if (RAND_bytes(&b, 1) != 1) throw std::runtime_error("the system random generator failed");
    return b & 1;
}

// What a seat action decides: write the row (true), leave it (false), or refuse.
using ActionResult = std::variant<bool, ServiceError>;
// Edits the locked row and lists the watch events of the change; a GameEnded
// event's game is filled in afterwards, from the row as changed.
using SeatChange = std::function<ActionResult(GameRow& game, Held held, std::int64_t now,
                                              std::vector<v1::WatchGameResponse>& events)>;

// A seat's action on a game in progress (resign, offer or answer a draw): the
// token and the game's state are checked on the locked row, `change` decides,
// and the reply holds the game as it stands after.
template <class Response>
ServiceResult<Response> seat_action(storage::PostgresGameStore& store, const char* rpc,
                                    const std::string& raw_id,
                                    const std::optional<std::string>& authorization,
                                    const SeatChange& change) {
    std::string id;
    if (auto e = normalize_game_id(raw_id, id)) return *e;
    ServiceResult<Bearer> token = bearer(authorization);
    if (!token.ok()) return token.error();
    return guarded<Response>(rpc, [&]() -> ServiceResult<Response> {
        std::optional<ServiceError> error;
        std::optional<v1::Game> after;
        auto found = store.modify_game(
            id, [&](storage::GameWithLastMove& current, std::vector<std::string>& recorded) {
                GameRow& g = current.game;
                const Held held = seat_of(g, token.value());
                if (held == Held::kNone) {
                    error = token_rejected(token.value());
                    return false;
                }
                if ((error = check_playing(g))) return false;
                const std::int64_t now = now_us();
                std::vector<v1::WatchGameResponse> events;
                const ActionResult decided = change(g, held, now, events);
                if (decided.index() == 1) {
                    error = std::get<1>(decided);
                    return false;
                }
                if (!std::get<0>(decided)) return false;
                g.updated_us = now;
                after = game_view(g, current.last_move);
                for (v1::WatchGameResponse& e : events) {
                    if (e.has_game_ended()) *e.mutable_game_ended()->mutable_game() = *after;
                    recorded.push_back(event_bytes(std::move(e), now));
                }
                return true;
            });
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

ServiceResult<v1::ListVariantsResponse> GameService::list_variants(
    const v1::ListVariantsRequest& request) {
    // No errors here: an overlong value is cut, anything unknown means English.
    return service::list_variants(std::string_view(request.language()).substr(0, 256));
}

ServiceResult<v1::CreateGameResponse> GameService::create_game(
    const v1::CreateGameRequest& request) {
    if (request.variant().empty()) {
        return invalid_argument("variant", "variant is required: standard, big_cross or two_foxes");
    }
    if (auto e = check_secret_request_id(request.request_id())) return *e;
    VariantOptions options;
    if (request.options().has_geese()) options.geese = request.options().geese();
    if (request.options().has_geese_sideways()) {
        options.geese_sideways = request.options().geese_sideways();
    }
    Result<const Variant*> found = Variant::find(request.variant(), options);
    if (!found) {
        if (found.error().code == ErrorCode::kInvalidOptions) {
            return ServiceError{StatusCode::kInvalidArgument,
                                "INVALID_OPTIONS",
                                found.error().message,
                                {{"option", options.geese ? "geese" : "geese_sideways"}},
                                "options"};
        }
        return invalid_argument("variant", found.error().message);
    }
    const Variant& variant = **found;
    Position start(variant);
    if (!request.start_position().empty()) {
        Result<Position> parsed = parse_position_code(variant, request.start_position());
        if (!parsed) {
            return ServiceError{StatusCode::kInvalidArgument,
                                "INVALID_POSITION",
                                parsed.error().message,
                                {},
                                "start_position"};
        }
        const GameStatus status = evaluate_status(*parsed, 0);
        if (status.over()) {
            return ServiceError{StatusCode::kInvalidArgument,
                                "INVALID_POSITION",
                                "the game would already be over in this position (" +
                                    std::string(outcome_name(status.outcome)) + ", " +
                                    std::string(end_reason_name(status.reason)) + ")",
                                {},
                                "start_position"};
        }
        start = *parsed;
    }
    const int choice =
        request.seat() == v1::SEAT_CHOICE_UNSPECIFIED ? v1::SEAT_CHOICE_RANDOM : request.seat();
    if (!v1::SeatChoice_IsValid(choice)) return invalid_argument("seat", "unknown seat choice");
    const int visibility = request.visibility() == v1::VISIBILITY_UNSPECIFIED
                               ? v1::VISIBILITY_PRIVATE
                               : request.visibility();
    if (!v1::Visibility_IsValid(visibility)) {
        return invalid_argument("visibility", "unknown visibility");
    }
    const std::string start_code = format_position_code(start);

    return guarded<v1::CreateGameResponse>(
        "CreateGame", [&]() -> ServiceResult<v1::CreateGameResponse> {
            const std::string request_hash =
                request.request_id().empty()
                    ? ""
                    : sha256_hex("create:" + lowercase(request.request_id()));
            for (int attempt = 0; attempt < 2; ++attempt) {
                if (!request_hash.empty()) {
                    if (auto existing = store_.find_game_by_create_request(request_hash)) {
                        // A retry: same game and seat, with a fresh token and invite
                        // code (only their hashes were kept).
                        const GameRow& g = existing->game;
                        // The creator's seat(s), told by which request hashes match.
                        const bool had_fox = g.fox_request_hash == request_hash;
                        const bool had_geese = g.geese_request_hash == request_hash;
                        const bool seat_matches =
                            choice == v1::SEAT_CHOICE_BOTH    ? had_fox && had_geese
                            : choice == v1::SEAT_CHOICE_FOX   ? had_fox && !had_geese
                            : choice == v1::SEAT_CHOICE_GEESE ? had_geese && !had_fox
                                                              : had_fox != had_geese;
                        const bool same =
                            g.variant == request.variant() &&
                            g.geese_option == (variant.has_options()
                                                   ? std::optional<int>(variant.geese_option())
                                                   : std::nullopt) &&
                            g.geese_sideways == (variant.has_options()
                                                     ? std::optional<bool>(variant.geese_sideways())
                                                     : std::nullopt) &&
                            g.visibility == visibility && g.start_position == start_code &&
                            seat_matches;
                        if (!same) {
                            return invalid_argument(
                                "request_id",
                                "request_id was already used for a different CreateGame");
                        }
                        const std::string token = new_seat_token();
                        const std::string invite = new_invite_code();
                        v1::Seat seat = v1::SEAT_UNSPECIFIED;
                        auto row = store_.modify_game(
                            g.game_id,
                            [&](storage::GameWithLastMove& current, std::vector<std::string>&) {
                                GameRow& r = current.game;
                                const bool fox = r.fox_request_hash == request_hash;
                                const bool geese = r.geese_request_hash == request_hash;
                                if (fox) r.fox_token_hash = sha256_hex(token);
                                if (geese) r.geese_token_hash = sha256_hex(token);
                                seat = fox && geese ? v1::SEAT_BOTH
                                       : fox        ? v1::SEAT_FOX
                                                    : v1::SEAT_GEESE;
                                r.invite_code_hash = sha256_hex(invite);
                                return fox || geese;
                            });
                        if (!row) return game_not_found(g.game_id);
                        v1::CreateGameResponse response;
                        *response.mutable_game() = game_view(row->game, row->last_move);
                        response.set_seat(seat);
                        response.set_seat_token(token);
                        response.set_invite_code(invite);
                        return response;
                    }
                }
                const std::int64_t now = now_us();
                const std::string token = new_seat_token();
                const std::string invite = new_invite_code();
                v1::Seat seat = v1::SEAT_BOTH;
                if (choice == v1::SEAT_CHOICE_FOX) seat = v1::SEAT_FOX;
                if (choice == v1::SEAT_CHOICE_GEESE) seat = v1::SEAT_GEESE;
                if (choice == v1::SEAT_CHOICE_RANDOM)
                    seat = random_bit() ? v1::SEAT_FOX : v1::SEAT_GEESE;
                GameRow g;
                g.game_id = new_game_id();
                g.variant = std::string(variant.name());
                if (variant.has_options()) {
                    g.geese_option = variant.geese_option();
                    g.geese_sideways = variant.geese_sideways();
                }
                g.visibility = visibility;
                g.state = seat == v1::SEAT_BOTH ? v1::GAME_STATE_ACTIVE : v1::GAME_STATE_WAITING;
                g.start_position = start_code;
                g.start_geese = start.geese_count();
                g.position = start_code;
                g.ply = start.ply();
                g.quiet_plies = start.quiet_plies();
                const std::string token_hash_value = sha256_hex(token);
                if (seat == v1::SEAT_FOX || seat == v1::SEAT_BOTH) {
                    g.fox_token_hash = token_hash_value;
                    g.fox_request_hash = request_hash;
                }
                if (seat == v1::SEAT_GEESE || seat == v1::SEAT_BOTH) {
                    g.geese_token_hash = token_hash_value;
                    g.geese_request_hash = request_hash;
                }
                g.invite_code_hash = sha256_hex(invite);
                g.create_request_hash = request_hash;
                g.created_us = g.updated_us = now;
                if (!store_.insert_game(g, format_repetition_key(start)))
                    continue;  // raced a retry
                spdlog::info("game {} created: {} seat {}", g.game_id, g.variant,
                             v1::Seat_Name(seat));
                v1::CreateGameResponse response;
                *response.mutable_game() = game_view(g, std::nullopt);
                response.set_seat(seat);
                response.set_seat_token(token);
                response.set_invite_code(invite);
                return response;
            }
            return fail(StatusCode::kAborted, "CONFLICT",
                        "a concurrent request with the same "
                        "request_id is in progress; retry");
        });
}

ServiceResult<v1::JoinGameResponse> GameService::join_game(const v1::JoinGameRequest& request) {
    std::string id;
    if (auto e = normalize_game_id(request.game_id(), id)) return *e;
    if (request.invite_code().size() > kMaxInviteCodeLength) {
        return invalid_argument(
            "invite_code",
            "invite_code is at most " + std::to_string(kMaxInviteCodeLength) + " characters");
    }
    if (auto e = check_secret_request_id(request.request_id())) return *e;
    const std::string request_hash =
        request.request_id().empty() ? "" : sha256_hex("join:" + lowercase(request.request_id()));
    return guarded<v1::JoinGameResponse>("JoinGame", [&]() -> ServiceResult<v1::JoinGameResponse> {
        const std::string token = new_seat_token();
        std::optional<ServiceError> error;
        v1::Seat seat = v1::SEAT_UNSPECIFIED;
        auto found = store_.modify_game(
            id, [&](storage::GameWithLastMove& current, std::vector<std::string>& events) {
                GameRow& g = current.game;
                // A retry of this same join: hand out a fresh token for the seat.
                if (!request_hash.empty()) {
                    if (g.fox_request_hash == request_hash) seat = v1::SEAT_FOX;
                    if (g.geese_request_hash == request_hash) seat = v1::SEAT_GEESE;
                    if (seat != v1::SEAT_UNSPECIFIED) {
                        (seat == v1::SEAT_FOX ? g.fox_token_hash : g.geese_token_hash) =
                            sha256_hex(token);
                        return true;
                    }
                }
                if (g.visibility != v1::VISIBILITY_PUBLIC &&
                    !constant_time_equal(sha256_hex(request.invite_code()), g.invite_code_hash)) {
                    error = fail(StatusCode::kPermissionDenied, "INVITE_INVALID",
                                 request.invite_code().empty()
                                     ? "this game is private: joining needs its invite code"
                                     : "the invite code is not this game's");
                    return false;
                }
                if (!g.fox_token_hash.empty() && !g.geese_token_hash.empty()) {
                    error = fail(StatusCode::kAlreadyExists, "SEAT_TAKEN",
                                 "both seats of this game are taken");
                    return false;
                }
                seat = g.fox_token_hash.empty() ? v1::SEAT_FOX : v1::SEAT_GEESE;
                (seat == v1::SEAT_FOX ? g.fox_token_hash : g.geese_token_hash) = sha256_hex(token);
                (seat == v1::SEAT_FOX ? g.fox_request_hash : g.geese_request_hash) = request_hash;
                g.state = v1::GAME_STATE_ACTIVE;
                g.updated_us = now_us();
                v1::WatchGameResponse joined;
                joined.mutable_seat_joined()->set_seat(seat);
                *joined.mutable_seat_joined()->mutable_game() = game_view(g, current.last_move);
                events.push_back(event_bytes(std::move(joined), g.updated_us));
                return true;
            });
        if (!found) return game_not_found(id);
        if (error) return *error;
        spdlog::info("game {}: seat {} joined", id, v1::Seat_Name(seat));
        v1::JoinGameResponse response;
        *response.mutable_game() = game_view(found->game, found->last_move);
        response.set_seat(seat);
        response.set_seat_token(token);
        return response;
    });
}

ServiceResult<v1::GetGameResponse> GameService::get_game(const v1::GetGameRequest& request) {
    std::string id;
    if (auto e = normalize_game_id(request.game_id(), id)) return *e;
    return guarded<v1::GetGameResponse>("GetGame", [&]() -> ServiceResult<v1::GetGameResponse> {
        auto found = store_.find_game(id);
        if (!found) return game_not_found(id);
        v1::GetGameResponse response;
        *response.mutable_game() = game_view(found->game, found->last_move);
        return response;
    });
}

ServiceResult<v1::ListGamesResponse> GameService::list_games(const v1::ListGamesRequest& request) {
    if (request.page_size() < 0)
        return invalid_argument("page_size", "page_size cannot be negative");
    const int page_size = request.page_size() == 0 ? 20 : std::min(request.page_size(), 100);
    const int filter_number = request.filter() == v1::GAME_LIST_FILTER_UNSPECIFIED
                                  ? v1::GAME_LIST_FILTER_OPEN
                                  : request.filter();
    if (!v1::GameListFilter_IsValid(filter_number)) {
        return invalid_argument("filter", "unknown filter");
    }
    if (!request.variant().empty() && !Variant::find(request.variant(), {})) {
        return invalid_argument("variant", "unknown variant '" + request.variant().substr(0, 40) +
                                               "'; expected standard, big_cross or two_foxes");
    }
    const storage::GameListFilter filter =
        filter_number == v1::GAME_LIST_FILTER_ACTIVE   ? storage::GameListFilter::kActive
        : filter_number == v1::GAME_LIST_FILTER_RECENT ? storage::GameListFilter::kRecent
                                                       : storage::GameListFilter::kOpen;
    // Page tokens: hex of "v1|filter|variant|sort key|game id".
    const std::string scope = "v1|" + std::to_string(filter_number) + "|" + request.variant() + "|";
    std::optional<std::pair<std::int64_t, std::string>> after;
    if (!request.page_token().empty()) {
        const auto bad_token = invalid_argument(
            "page_token", "page_token is not one this listing returned (same filter and variant)");
        if (request.page_token().size() > 512) return bad_token;
        const std::optional<std::string> decoded = from_hex(request.page_token());
        if (!decoded || decoded->rfind(scope, 0) != 0) return bad_token;
        const std::string rest = decoded->substr(scope.size());
        const std::size_t bar = rest.find('|');
        if (bar == std::string::npos || !is_uuid(rest.substr(bar + 1))) return bad_token;
        try {
            std::size_t used = 0;
            const long long key = std::stoll(rest.substr(0, bar), &used);
            if (used != bar) return bad_token;
            after = std::make_pair(static_cast<std::int64_t>(key), rest.substr(bar + 1));
        } catch (...) {
            return bad_token;
        }
    }
    return guarded<v1::ListGamesResponse>(
        "ListGames", [&]() -> ServiceResult<v1::ListGamesResponse> {
            const storage::GamePage page =
                store_.list_games(filter, request.variant(), page_size, after);
            v1::ListGamesResponse response;
            for (const auto& g : page.games)
                *response.add_games() = game_view(g.game, g.last_move);
            if (page.next_after) {
                response.set_next_page_token(to_hex(scope + std::to_string(page.next_after->first) +
                                                    "|" + page.next_after->second));
            }
            return response;
        });
}

ServiceResult<v1::ListMovesResponse> GameService::list_moves(const v1::ListMovesRequest& request) {
    std::string id;
    if (auto e = normalize_game_id(request.game_id(), id)) return *e;
    return guarded<v1::ListMovesResponse>(
        "ListMoves", [&]() -> ServiceResult<v1::ListMovesResponse> {
            auto found = store_.find_game(id);
            if (!found) return game_not_found(id);
            v1::ListMovesResponse response;
            response.set_start_position(found->game.start_position);
            // Moves up to the game's ply as read, so the reply is one consistent state.
            for (const MoveRow& m : store_.list_moves(id, found->game.ply)) {
                *response.add_moves() = move_view(m);
            }
            *response.mutable_game() = game_view(found->game, found->last_move);
            return response;
        });
}

ServiceResult<v1::MakeMoveResponse> GameService::make_move(
    const v1::MakeMoveRequest& request, const std::optional<std::string>& authorization) {
    std::string id;
    if (auto e = normalize_game_id(request.game_id(), id)) return *e;
    if (request.move().empty()) return invalid_argument("move", "move is required, e.g. d4-d5");
    if (request.move().size() > kMaxMoveTextLength) {
        return invalid_argument(
            "move", "move is at most " + std::to_string(kMaxMoveTextLength) + " characters");
    }
    if (request.has_expected_ply() && request.expected_ply() < 0) {
        return invalid_argument("expected_ply", "expected_ply cannot be negative");
    }
    if (auto e = check_request_id(request.request_id())) return *e;
    ServiceResult<Bearer> token = bearer(authorization);
    if (!token.ok()) return token.error();
    const std::string request_hash =
        request.request_id().empty() ? "" : sha256_hex("move:" + request.request_id());

    return guarded<v1::MakeMoveResponse>("MakeMove", [&]() -> ServiceResult<v1::MakeMoveResponse> {
        // A retry that lost the race to its own first try ends up here twice.
        for (int attempt = 0; attempt < 2; ++attempt) {
            std::optional<storage::MoveContext> ctx = store_.load_move_context(id, request_hash);
            if (!ctx) return game_not_found(id);
            const GameRow& g = ctx->game;
            const Held held = seat_of(g, token.value());
            if (held == Held::kNone) return token_rejected(token.value());
            const Variant& variant = variant_of(g);
            Result<MovePath> path = parse_move(variant.board(), request.move());
            if (ctx->earlier_try) {
                // The same request_id again: the first answer, if it was the same
                // move by a seat that could have made it.
                const int moved = ctx->earlier_try->side;
                const bool same_seat = held == Held::kBoth ||
                                       (held == Held::kFox && moved == v1::SIDE_FOX) ||
                                       (held == Held::kGeese && moved == v1::SIDE_GEESE);
                const bool same_move =
                    same_seat && path &&
                    format_path(variant.board(), *path) == ctx->earlier_try->notation;
                if (!same_move) {
                    return invalid_argument(
                        "request_id",
                        "request_id was already used for the move " + ctx->earlier_try->notation);
                }
                v1::MakeMoveResponse first;
                if (!first.ParseFromString(ctx->earlier_try->response)) {
                    return fail(StatusCode::kInternal, "INTERNAL", "stored reply is unreadable");
                }
                return first;
            }
            if (!path) {
                return ServiceError{StatusCode::kInvalidArgument,
                                    "INVALID_NOTATION",
                                    path.error().message,
                                    {{"move", request.move().substr(0, 40)}},
                                    "move"};
            }
            if (auto e = check_playing(g)) return *e;
            if (request.has_expected_ply() && request.expected_ply() != g.ply) {
                return fail(StatusCode::kAborted, "PLY_MISMATCH",
                            "the game is at ply " + std::to_string(g.ply) + ", not " +
                                std::to_string(request.expected_ply()) + ": reload it",
                            {{"current_ply", std::to_string(g.ply)}});
            }
            Position pos = parse_position_code(variant, g.position).value();
            const Side mover = pos.side_to_move();
            if (acting_side(held, mover) != mover) {
                return fail(StatusCode::kFailedPrecondition, "NOT_YOUR_TURN",
                            std::string("it is the ") +
                                (mover == Side::kFox ? "fox side's" : "geese's") + " turn");
            }
            Result<Move> move = find_legal_move(pos, *path);
            if (!move) {
                return ServiceError{StatusCode::kFailedPrecondition,
                                    "ILLEGAL_MOVE",
                                    move.error().message,
                                    {{"move", format_path(variant.board(), *path)}},
                                    "move"};
            }
            // Captured geese in the order they were jumped.
            std::string captured;
            for (int i = 0, at = move->from; i < move->jump_count; at = move->path[i++]) {
                if (!captured.empty()) captured += ' ';
                captured += variant.board().point_name(
                    variant.board().jump_between(at, move->path[i])->over);
            }
            UndoInfo undo;
            pos.make(*move, undo);
            const std::string key = format_repetition_key(pos);
            const auto seen = ctx->window_occurrences.find(key);
            const int earlier = seen == ctx->window_occurrences.end() ? 0 : seen->second;
            const GameStatus status = evaluate_status(pos, earlier);
            const std::int64_t now = now_us();

            GameRow after = g;
            after.position = format_position_code(pos);
            after.ply = pos.ply();
            after.quiet_plies = pos.quiet_plies();
            after.updated_us = now;
            // The other side's pending draw offer is declined by moving.
            if (after.draw_offered_by != 0 && after.draw_offered_by != side_number(mover)) {
                after.draw_offered_by = 0;
            }
            if (status.over()) {
                finish(after, result_number(status.outcome), end_reason_number(status.reason), now);
            }
            MoveRow row;
            row.game_id = id;
            row.ply = pos.ply();
            row.notation = format_move(variant.board(), *move);
            row.side = side_number(mover);
            row.captured = captured;
            row.position = after.position;
            row.state = after.state;
            row.result = after.result;
            row.end_reason = after.end_reason;
            row.request_hash = request_hash;
            row.created_us = now;

            v1::MakeMoveResponse response;
            *response.mutable_game() = game_view(after, row);
            *response.mutable_move() = move_view(row);
            row.response = response.SerializeAsString();

            // The watch events of the move, recorded with it.
            std::vector<std::string> events;
            v1::WatchGameResponse made;
            *made.mutable_move_made()->mutable_move() = response.move();
            *made.mutable_move_made()->mutable_game() = response.game();
            events.push_back(event_bytes(std::move(made), now));
            if (g.draw_offered_by != 0 && after.draw_offered_by == 0) {
                events.push_back(event_bytes(draw_answered_event(false, side_number(mover)), now));
            }
            if (after.state == v1::GAME_STATE_FINISHED) {
                events.push_back(event_bytes(game_ended_event(response.game()), now));
            }
            storage::MoveWrite write{g.ply, after, row, key, std::move(events)};
            if (store_.apply_move(write)) {
                if (metrics_) metrics_->moves_applied.add({g.variant});
                spdlog::debug("game {}: ply {} {}", id, row.ply, row.notation);
                return response;
            }
            // Someone else's write got there first. With a request_id, the
            // next pass finds out whether it was this request's own first try.
            if (request_hash.empty()) break;
        }
        // Lost a race: say where the game is now.
        const auto now = store_.find_game(id);
        const std::string ply = now ? std::to_string(now->game.ply) : "";
        return fail(StatusCode::kAborted, "PLY_MISMATCH",
                    "the game moved on while this move was being applied: reload it",
                    {{"current_ply", ply}});
    });
}

ServiceResult<v1::ResignGameResponse> GameService::resign_game(
    const v1::ResignGameRequest& request, const std::optional<std::string>& authorization) {
    return seat_action<v1::ResignGameResponse>(
        store_, "ResignGame", request.game_id(), authorization,
        [&](GameRow& g, Held held, std::int64_t now,
            std::vector<v1::WatchGameResponse>& events) -> ActionResult {
            const Side resigning = acting_side(held, side_to_move_of(g));
            // A pending draw offer dies with the game.
            if (g.draw_offered_by != 0) {
                events.push_back(draw_answered_event(false, other_side_number(g.draw_offered_by)));
            }
            finish(
                g,
                resigning == Side::kFox ? v1::GAME_RESULT_GEESE_WIN : v1::GAME_RESULT_FOX_SIDE_WINS,
                v1::END_REASON_RESIGNATION, now);
            events.push_back(game_ended_event({}));
            return true;
        });
}

ServiceResult<v1::OfferDrawResponse> GameService::offer_draw(
    const v1::OfferDrawRequest& request, const std::optional<std::string>& authorization) {
    return seat_action<v1::OfferDrawResponse>(
        store_, "OfferDraw", request.game_id(), authorization,
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
    const v1::RespondDrawRequest& request, const std::optional<std::string>& authorization) {
    return seat_action<v1::RespondDrawResponse>(
        store_, "RespondDraw", request.game_id(), authorization,
        [&](GameRow& g, Held held, std::int64_t now,
            std::vector<v1::WatchGameResponse>& events) -> ActionResult {
            if (g.draw_offered_by == 0) {
                return fail(StatusCode::kFailedPrecondition, "NO_DRAW_OFFER",
                            "no draw offer is pending");
            }
            const Side offered_by = g.draw_offered_by == v1::SIDE_FOX ? Side::kFox : Side::kGeese;
            if (acting_side(held, opponent(offered_by)) == offered_by) {
                return fail(StatusCode::kPermissionDenied, "WRONG_SEAT",
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
