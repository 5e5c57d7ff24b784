// GetTablebase: a position of standard with forward-only geese looked up in
// the tablebase the server maps (engine/tablebase/mapped_tablebase.h), with
// every move's value from the mover's point of view. No database, no search.
#include "engine/rules/game_status.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "engine/search/analysis.h"
#include "engine/tablebase/tablebase_files.h"
#include "service/core/game_rules.h"
#include "service/core/game_service.h"
#include "service/core/game_views.h"
#include "service/core/tablebase_answers.h"

namespace foxgeese::service {
namespace {

ServiceError not_in_tablebase(const std::string& why) {
    return make_error(StatusCode::kNotFound, "NOT_IN_TABLEBASE",
                      why + "; AnalyzePosition analyses any position");
}

v1::TablebaseCategory category(bool mover_wins) {
    return mover_wins ? v1::TABLEBASE_CATEGORY_WIN : v1::TABLEBASE_CATEGORY_LOSS;
}

}  // namespace

ServiceResult<v1::GetTablebaseResponse> GameService::get_tablebase(
    const v1::GetTablebaseRequest& request, const CallContext& call) {
    ServiceResult<const Variant*> variant = requested_variant(request.variant(), request.options());
    if (!variant.ok()) return variant.error();
    ServiceResult<Position> parsed =
        requested_position(*variant.value(), request.position(), "position");
    if (!parsed.ok()) return parsed.error();
    if (auto wait = tablebase_limit_.take(call.client_address))
        return rate_limited("tablebase lookups from your address", *wait);

    const tablebase::MappedTablebase* table = options_.tablebase.get();
    if (table == nullptr)
        return not_in_tablebase("this server was started without a tablebase (--tablebase-dir)");
    if (!tablebase::covers(*variant.value())) {
        return not_in_tablebase(
            "the tablebase holds standard with forward-only geese (geese_sideways false), not " +
            request.variant() + (variant.value()->geese_sideways() ? " with sideways geese" : ""));
    }
    const Position& pos = parsed.value();
    v1::GetTablebaseResponse response;
    response.set_position(format_position_code(pos));
    response.set_side_to_move(api_side(pos.side_to_move()));
    if (const GameStatus status = evaluate_status(pos, 0); status.over()) {
        const bool fox_side_won = status.outcome == Outcome::kFoxSideWins;
        response.set_result(api_result(status.outcome));
        response.set_end_reason(api_end_reason(status.reason));
        if (status.outcome != Outcome::kDraw)
            response.set_category(category(fox_side_won == (pos.side_to_move() == Side::kFox)));
        response.set_text("game over");
        return response;
    }
    // The game goes on here, so there is a move, and the best one carries the
    // position's value.
    const auto ranked = ranked_moves(*table, pos);
    if (!ranked || ranked->empty()) {
        if (pos.geese_count() > table->max_geese()) {
            return not_in_tablebase("this server's tablebase holds positions of up to " +
                                    std::to_string(table->max_geese()) + " geese, not " +
                                    std::to_string(pos.geese_count()));
        }
        return not_in_tablebase(
            "the position's fifty-move count (" + std::to_string(pos.quiet_plies()) +
            " quiet plies) could end the game in a draw, which the tablebase does not count");
    }
    const tablebase::ExactValue& value = ranked->front().value;
    response.set_category(category(value.mover_wins));
    response.set_plies(value.plies);
    response.set_text(describe_score(exact_score(value)));
    for (const tablebase::MoveValue& mv : *ranked) {
        v1::TablebaseMove& move = *response.add_moves();
        move.set_move(format_move(pos.board(), mv.move));
        move.set_category(category(mv.value.mover_wins));
        move.set_plies(mv.value.plies);
        move.set_text(describe_score(exact_score(mv.value)));
    }
    return response;
}

}  // namespace foxgeese::service
