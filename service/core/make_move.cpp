// MakeMove: one read (the game, an earlier try with the same request_id, and
// the repetition counts of the quiet-ply window), the engine's checks, then
// one write whose compare-and-swap on the ply makes exactly one of two racing
// moves apply, and the one on the row's version that nothing else changed
// the game in between. When this replica made the game's last move it
// skips the read: it judges the move on its own copy of the game
// (storage/move_context_cache.h), and only the write's compare-and-swap
// decides whether that copy was current.
#include <spdlog/spdlog.h>

#include "service/core/database_errors.h"
#include "service/core/game_rules.h"
#include "service/core/game_service.h"
#include "service/core/move_judgement.h"
#include "service/core/secrets.h"

namespace foxgeese::service {

namespace {

using storage::GameRow;

std::optional<ServiceError> check_move_request(const v1::MakeMoveRequest& request) {
    if (request.move().empty()) return invalid_argument("move", "move is required, e.g. d4-d5");
    if (request.move().size() > kMaxMoveTextLength) {
        return invalid_argument(
            "move", "move is at most " + std::to_string(kMaxMoveTextLength) + " characters");
    }
    if (request.has_expected_ply() && request.expected_ply() < 0)
        return invalid_argument("expected_ply", "expected_ply cannot be negative");
    if (request.request_id().size() > kMaxRequestIdLength) {
        return invalid_argument(
            "request_id",
            "request_id is at most " + std::to_string(kMaxRequestIdLength) + " characters");
    }
    for (unsigned char c : request.request_id()) {
        if (c < 0x21 || c > 0x7e)
            return invalid_argument("request_id",
                                    "request_id must be printable ASCII without spaces");
    }
    return std::nullopt;
}

}  // namespace

ServiceResult<v1::MakeMoveResponse> GameService::make_move(const v1::MakeMoveRequest& request,
                                                           const CallContext& call) {
    std::string id;
    if (auto e = normalize_game_id(request.game_id(), id)) return *e;
    if (auto e = check_move_request(request)) return *e;
    ServiceResult<Bearer> token = require_bearer(call);
    if (!token.ok()) return token.error();
    if (auto wait = move_limit_.take(token.value().hash))
        return rate_limited("moves with this seat token", *wait);
    MoveAttempt attempt{
        id, request.move(), std::nullopt,
        request.request_id().empty() ? "" : sha256_hex("move:" + request.request_id()),
        received_at(call)};
    if (request.has_expected_ply()) attempt.expected_ply = request.expected_ply();
    return guarded<v1::MakeMoveResponse>("MakeMove", [&] {
        return play_move(
            attempt,
            [&](const GameRow& g) -> ServiceResult<Held> {
                const Held held = seat_of(g, token.value());
                if (held == Held::kNone) return token_rejected(token.value());
                return held;
            },
            call.budget());
    });
}

ServiceResult<v1::MakeMoveResponse> GameService::make_bot_move(const std::string& game_id, int ply,
                                                               const std::string& notation,
                                                               const storage::CallBudget& budget) {
    const MoveAttempt attempt{game_id, notation, ply, "", clock_.now_us()};
    return guarded<v1::MakeMoveResponse>("BotMove", [&] {
        return play_move(
            attempt,
            [](const GameRow& g) -> ServiceResult<Held> {
                if (g.bot.side == storage::Side::kNone) {
                    return make_error(StatusCode::kFailedPrecondition, "NO_BOT",
                                      "this game has no bot");
                }
                return g.bot.side == storage::Side::kFox ? Held::kFox : Held::kGeese;
            },
            budget);
    });
}

ServiceResult<v1::MakeMoveResponse> GameService::play_move(const MoveAttempt& attempt,
                                                           const SeatOf& seat,
                                                           const storage::CallBudget& budget) {
    const std::string& id = attempt.game_id;
    // On this replica's copy of the game, the move is made only if it
    // passes every check there and the write finds the row unchanged since
    // the copy; anything else is decided on the game as read below.
    if (const auto copy = move_cache_.find(id, clock_.now_us())) {
        Judgement judged = judge(*copy, attempt, seat, clock_.now_us());
        if (judged.plan) {
            if (auto done = write_move(*copy, *judged.plan, budget)) {
                if (metrics_) metrics_->move_reads.add({"copy"});
                return std::move(*done);
            }
        }
        move_cache_.forget(id);
        if (metrics_) metrics_->move_reads.add({"stale_copy"});
    } else if (metrics_) {
        metrics_->move_reads.add({"read"});
    }

    // A write that found the row changed reads it again: if the game moved
    // on, the move lost a race (unless it was this request's own first
    // try, which the read finds by its request_id); if only something else
    // changed (a draw offer, a claim), the move is judged again.
    constexpr int kPasses = 3;
    std::optional<int> judged_at;
    std::optional<storage::MoveContext> ctx;
    for (int pass = 0; pass < kPasses; ++pass) {
        ctx = store_.load_move_context(id, attempt.request_hash, budget);
        if (!ctx) return game_not_found(id);
        const bool moved_on = judged_at && (ctx->game.ply != *judged_at ||
                                            ctx->game.state != storage::GameState::kActive);
        if (moved_on && !ctx->earlier_try) break;
        judged_at = ctx->game.ply;
        Judgement judged = judge(*ctx, attempt, seat, clock_.now_us());
        if (judged.answer) return std::move(*judged.answer);
        if (judged.overdue) {
            auto ended = settled(storage::GameWithLastMove{ctx->game, std::nullopt}, budget);
            return game_over_on_time(ended ? ended->game : ctx->game);
        }
        if (auto done = write_move(*ctx, *judged.plan, budget)) return std::move(*done);
    }
    // Lost a race: say where the game is now.
    if (ctx->game.state == storage::GameState::kFinished) return game_over_on_time(ctx->game);
    return ply_mismatch(ctx->game.ply,
                        "the game moved on while this move was being applied: reload it");
}

std::optional<v1::MakeMoveResponse> GameService::write_move(const storage::MoveContext& ctx,
                                                            PlannedMove& plan,
                                                            const storage::CallBudget& budget) {
    const std::optional<storage::AppliedMove> applied = store_.apply_move(plan.write, budget);
    if (!applied) return std::nullopt;
    const storage::GameRow& after = plan.write.game_after;
    if (metrics_) metrics_->moves_applied.add({after.variant});
    spdlog::debug("game {}: ply {} {}", after.game_id, plan.write.move.ply,
                  plan.write.move.notation);
    if (after.state == storage::GameState::kActive)
        move_cache_.store(context_after(ctx, plan.write, *applied), clock_.now_us());
    else
        move_cache_.forget(after.game_id);
    if (is_bot_turn(after)) notify_bot_turn();
    return std::move(plan.response);
}

}  // namespace foxgeese::service
