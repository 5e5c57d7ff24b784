#include "service/core/move_judgement.h"

#include "engine/rules/game_status.h"
#include "engine/rules/legal_move.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "service/core/game_clock.h"
#include "service/core/game_rules.h"
#include "service/core/game_views.h"
#include "service/core/stored_codes.h"

namespace foxgeese::service {
namespace {

using storage::GameRow;
using storage::MoveRow;

// The answer to a request_id seen before: the first reply, if it was the
// same move by a seat that could have made it.
ServiceResult<v1::MakeMoveResponse> replay_earlier_try(const MoveRow& earlier, Held held,
                                                       const Board& board,
                                                       const Result<MovePath>& path) {
    const bool same_seat = holds_side(held, engine_side(earlier.side));
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

}  // namespace

Judgement Judgement::say(ServiceResult<v1::MakeMoveResponse> answer) {
    Judgement j;
    j.answer.emplace(std::move(answer));
    return j;
}

Judgement Judgement::write(PlannedMove plan) {
    Judgement j;
    j.plan.emplace(std::move(plan));
    return j;
}

Judgement Judgement::out_of_time() {
    Judgement j;
    j.overdue = true;
    return j;
}

ServiceError game_over_on_time(const GameRow& settled) {
    const std::string message =
        api(settled.end_reason) == v1::END_REASON_ABORTED
            ? "the game is over: it was aborted because a first move was not made in time"
        : api(settled.end_reason) == v1::END_REASON_TIMEOUT
            ? std::string("the game is over: the ") +
                  (api(settled.result) == v1::GAME_RESULT_GEESE_WIN ? "fox side's" : "geese's") +
                  " time ran out"
            : "the game is over";
    return make_error(StatusCode::kFailedPrecondition, "GAME_OVER", message);
}

ServiceError ply_mismatch(int ply, std::string message) {
    return make_error(StatusCode::kAborted, "PLY_MISMATCH", std::move(message),
                      {{"current_ply", std::to_string(ply)}});
}

ServiceResult<Move> check_move(const GameRow& g, const Position& pos, Held held,
                               const MovePath& path, std::optional<int> expected_ply) {
    if (auto e = check_playing(g)) return *e;
    if (expected_ply && *expected_ply != g.ply) {
        return ply_mismatch(g.ply, "the game is at ply " + std::to_string(g.ply) + ", not " +
                                       std::to_string(*expected_ply) + ": reload it");
    }
    const Side mover = pos.side_to_move();
    if (acting_side(held, mover) != mover) {
        return make_error(
            StatusCode::kFailedPrecondition, "NOT_YOUR_TURN",
            std::string("it is the ") + (mover == Side::kFox ? "fox side's" : "geese's") + " turn");
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
                      const std::string& request_hash, std::int64_t received, std::int64_t now) {
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
    if (after.draw_offered_by != storage::Side::kNone && after.draw_offered_by != stored(mover))
        after.draw_offered_by = storage::Side::kNone;
    if (status.over())
        finish(after, api_result(status.outcome), api_end_reason(status.reason), now);
    // The opponent's turn starts at this commit (none once the game is over).
    start_turn(after, now);

    MoveRow row;
    row.game_id = g.game_id;
    row.ply = pos.ply();
    row.notation = format_move(board, move);
    row.side = stored(mover);
    row.captured = captured_points(board, move);
    row.position = after.position;
    row.state = after.state;
    row.result = after.result;
    row.end_reason = after.end_reason;
    row.request_hash = request_hash;
    row.created_us = now;
    if (think_ms) {
        row.think_ms = think_ms;
        row.fox_clock_ms = after.clocks.fox_ms;
        row.geese_clock_ms = after.clocks.geese_ms;
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
    if (g.draw_offered_by != storage::Side::kNone && after.draw_offered_by == storage::Side::kNone)
        events.push_back(event_bytes(draw_answered_event(false, stored(mover)), now));
    if (after.state == storage::GameState::kFinished)
        events.push_back(event_bytes(game_ended_event(plan.response.game()), now));
    plan.write = storage::MoveWrite{g.ply,          ctx.version, std::move(after),
                                    std::move(row), key,         std::move(events)};
    return plan;
}

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

}  // namespace foxgeese::service
