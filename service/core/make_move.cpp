// MakeMove: one read (the game, an earlier try with the same request_id, and
// the repetition counts of the quiet-ply window), the engine's checks, then
// one write whose compare-and-swap on the ply makes exactly one of two racing
// moves apply, and the one on the row's version that nothing else changed
// the game in between. When this replica made the game's last move it
// skips the read: it judges the move on its own copy of the game
// (storage/move_context_cache.h), and only the write's compare-and-swap
// decides whether that copy was current.
#include <spdlog/spdlog.h>

#include "engine/rules/game_status.h"
#include "engine/rules/legal_move.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "service/core/database_errors.h"
#include "service/core/game_clock.h"
#include "service/core/game_rules.h"
#include "service/core/game_service.h"
#include "service/core/game_views.h"
#include "service/core/secrets.h"

namespace foxgeese::service {

// Everything an accepted move writes and answers: the game after it, its
// move row with the reply kept for retries, and its watch events.
struct PlannedMove {
    storage::MoveWrite write;
    v1::MakeMoveResponse response;
};

namespace {

using storage::GameRow;
using storage::MoveRow;

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

ServiceError game_over_on_time(const GameRow& settled) {
    const std::string message =
        settled.end_reason == v1::END_REASON_ABORTED
            ? "the game is over: it was aborted because a first move was not made in time"
        : settled.end_reason == v1::END_REASON_TIMEOUT
            ? std::string("the game is over: the ") +
                  (settled.result == v1::GAME_RESULT_GEESE_WIN ? "fox side's" : "geese's") +
                  " time ran out"
            : "the game is over";
    return make_error(StatusCode::kFailedPrecondition, "GAME_OVER", message);
}

ServiceError ply_mismatch(int ply, std::string message) {
    return make_error(StatusCode::kAborted, "PLY_MISMATCH", std::move(message),
                      {{"current_ply", std::to_string(ply)}});
}

// The answer to a request_id seen before: the first reply, if it was the
// same move by a seat that could have made it.
ServiceResult<v1::MakeMoveResponse> replay_earlier_try(const MoveRow& earlier, Held held,
                                                       const Board& board,
                                                       const Result<MovePath>& path) {
    const bool same_seat = holds_side(held, earlier.side == v1::SIDE_FOX ? Side::kFox
                                                                         : Side::kGeese);
    const bool same_move = same_seat && path && format_path(board, *path) == earlier.notation;
    if (!same_move) {
        return invalid_argument("request_id",
                                "request_id was already used for the move " + earlier.notation);
    }
    v1::MakeMoveResponse first;
    if (!first.ParseFromString(earlier.response))
        return make_error(StatusCode::kInternal, "INTERNAL", "stored reply is unreadable");
    return first;
}

// The move checked against the game as read: in progress, at the ply the
// client expects, the token's side to move, and legal.
ServiceResult<Move> check_move(const GameRow& g, const Position& pos, Held held,
                               const MovePath& path, std::optional<int> expected_ply) {
    if (auto e = check_playing(g)) return *e;
    if (expected_ply && *expected_ply != g.ply) {
        return ply_mismatch(g.ply, "the game is at ply " + std::to_string(g.ply) + ", not " +
                                       std::to_string(*expected_ply) + ": reload it");
    }
    const Side mover = pos.side_to_move();
    if (acting_side(held, mover) != mover) {
        return make_error(StatusCode::kFailedPrecondition, "NOT_YOUR_TURN",
                          std::string("it is the ") +
                              (mover == Side::kFox ? "fox side's" : "geese's") + " turn");
    }
    Result<Move> move = find_legal_move(pos, path);
    if (!move) {
        return ServiceError{StatusCode::kFailedPrecondition,
                            "ILLEGAL_MOVE",
                            move.error().message,
                            {{"move", format_path(pos.board(), path)}},
                            "move"};
    }
    return *move;
}

PlannedMove plan_move(const storage::MoveContext& ctx, Position pos, const Move& move, Held held,
                      const std::string& request_hash, std::int64_t received,
                      std::int64_t now) {
    const GameRow& g = ctx.game;
    const Board& board = pos.board();
    const Side mover = pos.side_to_move();
    UndoInfo undo;
    pos.make(move, undo);
    const std::string key = format_repetition_key(pos);
    const auto seen = ctx.window_occurrences.find(key);
    const int earlier = seen == ctx.window_occurrences.end() ? 0 : seen->second.count;
    const GameStatus status = evaluate_status(pos, earlier);

    GameRow after = g;
    // The clock first, while the row still says whose first move this is.
    const std::optional<std::int64_t> think_ms = charge_move(after, mover, received);
    after.position = format_position_code(pos);
    after.ply = pos.ply();
    after.quiet_plies = pos.quiet_plies();
    after.updated_us = now;
    close_retry_windows(after, held);
    // The other side's pending draw offer is declined by moving.
    if (after.draw_offered_by != 0 && after.draw_offered_by != side_number(mover))
        after.draw_offered_by = 0;
    if (status.over())
        finish(after, result_number(status.outcome), end_reason_number(status.reason), now);
    // The opponent's turn starts at this commit (none once the game is over).
    start_turn(after, now);

    MoveRow row;
    row.game_id = g.game_id;
    row.ply = pos.ply();
    row.notation = format_move(board, move);
    row.side = side_number(mover);
    row.captured = captured_points(board, move);
    row.position = after.position;
    row.state = after.state;
    row.result = after.result;
    row.end_reason = after.end_reason;
    row.request_hash = request_hash;
    row.created_us = now;
    if (think_ms) {
        row.think_ms = think_ms;
        row.fox_clock_ms = after.fox_clock_ms;
        row.geese_clock_ms = after.geese_clock_ms;
    }

    PlannedMove plan;
    *plan.response.mutable_game() = game_view(after, row, now);
    *plan.response.mutable_move() = move_view(row);
    // Kept for a retry by request_id only; a move without one is never asked
    // for again, and a stored reply would be written for nothing.
    if (!request_hash.empty()) row.response = plan.response.SerializeAsString();

    // The watch events of the move, recorded with it.
    std::vector<std::string> events;
    v1::WatchGameResponse made;
    *made.mutable_move_made()->mutable_move() = plan.response.move();
    *made.mutable_move_made()->mutable_game() = plan.response.game();
    events.push_back(event_bytes(std::move(made), now));
    if (g.draw_offered_by != 0 && after.draw_offered_by == 0)
        events.push_back(event_bytes(draw_answered_event(false, side_number(mover)), now));
    if (after.state == storage::game_state::kFinished)
        events.push_back(event_bytes(game_ended_event(plan.response.game()), now));
    plan.write = storage::MoveWrite{g.ply,          ctx.version,    std::move(after),
                                    std::move(row), key,            std::move(events)};
    return plan;
}

// The copy of the game to keep after its move applied: the game as written,
// with what the database chose, and the repetition window moved on.
storage::MoveContext context_after(const storage::MoveContext& before,
                                   const storage::MoveWrite& write,
                                   const storage::AppliedMove& applied) {
    storage::MoveContext after{write.game_after, std::nullopt, {}, applied.version};
    after.game.event_seq = applied.event_seq;
    const int window_start = after.game.ply - after.game.quiet_plies;
    for (const auto& [key, occurrence] : before.window_occurrences) {
        if (occurrence.last_ply >= window_start) after.window_occurrences.emplace(key, occurrence);
    }
    after.window_occurrences[write.position_key] =
        storage::Occurrence{applied.occurrences, after.game.ply};
    return after;
}

// A move judged on the game as read: the answer to give now (an error, or
// the reply to this request_id's earlier try), or the move to write.
// `overdue` says the game's clock ran out before the move arrived (the
// answer is then empty: the game must be settled first).
struct Judgement {
    std::optional<ServiceResult<v1::MakeMoveResponse>> answer;
    std::optional<PlannedMove> plan;
    bool overdue = false;

    static Judgement say(ServiceResult<v1::MakeMoveResponse> answer) {
        Judgement j;
        j.answer.emplace(std::move(answer));
        return j;
    }
    static Judgement write(PlannedMove plan) {
        Judgement j;
        j.plan.emplace(std::move(plan));
        return j;
    }
    static Judgement out_of_time() {
        Judgement j;
        j.overdue = true;
        return j;
    }
};

Judgement judge(const storage::MoveContext& ctx, const MoveAttempt& attempt, const SeatOf& seat,
                std::int64_t now) {
    const ServiceResult<Held> held = seat(ctx.game);
    if (!held.ok()) return Judgement::say(held.error());
    const Variant& variant = variant_of(ctx.game);
    const Result<MovePath> path = parse_move(variant.board(), attempt.notation);
    if (ctx.earlier_try)
        return Judgement::say(
            replay_earlier_try(*ctx.earlier_try, held.value(), variant.board(), path));
    if (!path) {
        return Judgement::say(ServiceError{StatusCode::kInvalidArgument,
                                           "INVALID_NOTATION",
                                           path.error().message,
                                           {{"move", attempt.notation.substr(0, 40)}},
                                           "move"});
    }
    // A move that arrives after the flag fell is not made: the game ends
    // on time instead.
    if (overdue_ending(ctx.game, attempt.received)) return Judgement::out_of_time();
    const Position pos = parse_position_code(variant, ctx.game.position).value();
    const ServiceResult<Move> move =
        check_move(ctx.game, pos, held.value(), *path, attempt.expected_ply);
    if (!move.ok()) return Judgement::say(move.error());
    return Judgement::write(plan_move(ctx, pos, move.value(), held.value(), attempt.request_hash,
                                      attempt.received, now));
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
                if (g.bot_side == 0) {
                    return make_error(StatusCode::kFailedPrecondition, "NO_BOT",
                                      "this game has no bot");
                }
                return g.bot_side == storage::side::kFox ? Held::kFox : Held::kGeese;
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
                                            ctx->game.state != storage::game_state::kActive);
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
    if (ctx->game.state == storage::game_state::kFinished) return game_over_on_time(ctx->game);
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
    if (after.state == storage::game_state::kActive)
        move_cache_.store(context_after(ctx, plan.write, *applied), clock_.now_us());
    else
        move_cache_.forget(after.game_id);
    if (is_bot_turn(after)) notify_bot_turn();
    return std::move(plan.response);
}

}  // namespace foxgeese::service
