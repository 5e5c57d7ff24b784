// The reading RPCs: ListVariants, GetGame, ListGames, ListMoves and GetSeat
// (whose token use also counts the seat as present).
#include <spdlog/spdlog.h>

#include <algorithm>

#include "engine/rules/variant.h"
#include "service/core/database_errors.h"
#include "service/core/game_clock.h"
#include "service/core/game_rules.h"
#include "service/core/game_service.h"
#include "service/core/game_views.h"
#include "service/core/overdue_games.h"
#include "service/core/page_token.h"
#include "service/core/seat_auth.h"
#include "service/core/stored_codes.h"
#include "service/core/variant_catalog.h"
#include "storage/database_failure.h"

namespace foxgeese::service {

using storage::MoveRow;

ServiceResult<v1::ListVariantsResponse> GameService::list_variants(
    const v1::ListVariantsRequest& request, const CallContext& call) {
    // The field wins; else the Accept-Language the call carried. No errors
    // here: an overlong value is cut, anything unknown means English.
    const std::string_view language =
        request.language().empty() ? call.accept_language : request.language();
    return service::list_variants(language.substr(0, 256));
}

std::int64_t GameService::received_at(const CallContext& call) const {
    return call.received_us != 0 ? call.received_us : clock_.now_us();
}

std::optional<storage::GameWithLastMove> GameService::settled(
    std::optional<storage::GameWithLastMove> found, const storage::CallBudget& budget) {
    if (!found || !overdue_ending(found->game, clock_.now_us())) return found;
    // Re-checked on the locked row: another replica may have settled it.
    const std::int64_t now = clock_.now_us();
    return store_.modify_game(
        found->game.game_id,
        [&](storage::GameWithLastMove& current, std::vector<std::string>& events) {
            return settle_overdue(current, now, events);
        },
        budget);
}

ServiceResult<v1::GetGameResponse> GameService::get_game(const v1::GetGameRequest& request,
                                                         const CallContext& call) {
    std::string id;
    if (auto e = normalize_game_id(request.game_id(), id)) return *e;
    return guarded<v1::GetGameResponse>("GetGame", [&]() -> ServiceResult<v1::GetGameResponse> {
        const storage::CallBudget budget = call.budget();
        auto found = settled(store_.find_game(id, budget), budget);
        if (!found) return game_not_found(id);
        v1::GetGameResponse response;
        *response.mutable_game() = game_view(found->game, found->last_move, clock_.now_us());
        return response;
    });
}

ServiceResult<v1::GetSeatResponse> GameService::get_seat(const v1::GetSeatRequest&,
                                                         const CallContext& call) {
    ServiceResult<Bearer> token = require_bearer(call);
    if (!token.ok()) return token.error();
    if (!token.value().problem.empty()) return token_rejected(token.value());
    return guarded<v1::GetSeatResponse>("GetSeat", [&]() -> ServiceResult<v1::GetSeatResponse> {
        const storage::CallBudget budget = call.budget();
        auto found = settled(store_.find_game_by_token(token.value().hash, budget), budget);
        if (!found) return token_rejected(token.value());
        const Held held = seat_of(found->game, token.value());
        if (held == Held::kNone) return token_rejected(token.value());
        // A client that asks after its seat is there, stream or not: the seat
        // counts as present for a while (written at most every few seconds).
        if (found->game.state == storage::GameState::kActive &&
            !seat_seen_limit_.take(token.value().hash)) {
            const std::int64_t now = clock_.now_us();
            const std::int64_t until =
                now + std::chrono::duration_cast<std::chrono::microseconds>(options_.seat_seen_for)
                          .count();
            try {
                for (const storage::Side side : {storage::Side::kFox, storage::Side::kGeese}) {
                    if (holds_side(held, engine_side(side)))
                        presence_.seen(found->game.game_id, side, now, until, budget);
                }
            } catch (const storage::DatabaseFailure& e) {
                // The answer does not depend on it; the next GetSeat tries again.
                spdlog::warn("GetSeat {}: presence: {}", found->game.game_id, e.what());
            }
        }
        v1::GetSeatResponse response;
        *response.mutable_game() = game_view(found->game, found->last_move, clock_.now_us());
        response.set_seat(held == Held::kBoth  ? v1::SEAT_BOTH
                          : held == Held::kFox ? v1::SEAT_FOX
                                               : v1::SEAT_GEESE);
        return response;
    });
}

ServiceResult<v1::ListGamesResponse> GameService::list_games(const v1::ListGamesRequest& request,
                                                             const CallContext& call) {
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
        filter_number == v1::GAME_LIST_FILTER_ACTIVE     ? storage::GameListFilter::kActive
        : filter_number == v1::GAME_LIST_FILTER_RECENT   ? storage::GameListFilter::kRecent
        : filter_number == v1::GAME_LIST_FILTER_IMPORTED ? storage::GameListFilter::kImported
                                                         : storage::GameListFilter::kOpen;
    std::optional<PageCursor> after;
    if (!request.page_token().empty()) {
        after = decode_page_token(request.page_token(), filter_number, request.variant());
        if (!after) {
            return invalid_argument(
                "page_token",
                "page_token is not one this listing returned (same filter and variant)");
        }
    }
    return guarded<v1::ListGamesResponse>(
        "ListGames", [&]() -> ServiceResult<v1::ListGamesResponse> {
            const storage::CallBudget budget = call.budget();
            const storage::GamePage page =
                store_.list_games(filter, request.variant(), page_size, after, budget);
            v1::ListGamesResponse response;
            for (const auto& listed : page.games) {
                // An overdue game is settled and shown as it now stands (the
                // page keeps its place in the listing it was read from).
                const auto g = settled(listed, budget);
                if (g) *response.add_games() = game_view(g->game, g->last_move, clock_.now_us());
            }
            if (page.next_after) {
                response.set_next_page_token(
                    encode_page_token(filter_number, request.variant(), *page.next_after));
            }
            return response;
        });
}

ServiceResult<v1::ListMovesResponse> GameService::list_moves(const v1::ListMovesRequest& request,
                                                             const CallContext& call) {
    std::string id;
    if (auto e = normalize_game_id(request.game_id(), id)) return *e;
    return guarded<v1::ListMovesResponse>(
        "ListMoves", [&]() -> ServiceResult<v1::ListMovesResponse> {
            const storage::CallBudget budget = call.budget();
            auto found = settled(store_.find_game(id, budget), budget);
            if (!found) return game_not_found(id);
            v1::ListMovesResponse response;
            response.set_start_position(found->game.start_position);
            // Moves up to the game's ply as read, so the reply is one consistent state.
            for (const MoveRow& m : store_.list_moves(id, found->game.ply, budget))
                *response.add_moves() = move_view(m);
            *response.mutable_game() = game_view(found->game, found->last_move, clock_.now_us());
            return response;
        });
}

}  // namespace foxgeese::service
