#include "service/core/game_views.h"

#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "service/core/game_clock.h"
#include "service/core/stored_codes.h"

namespace foxgeese::service {

const Variant& variant_of(const storage::GameRow& row) {
    Result<const Variant*> v = Variant::find(row.variant, {row.geese_option, row.geese_sideways});
    // Stored games were validated on creation; failing here means corrupt data.
    if (!v) throw std::runtime_error("stored game " + row.game_id + ": " + v.error().message);
    return **v;
}

v1::Side api_side(Side side) {
    return side == Side::kFox ? v1::SIDE_FOX : v1::SIDE_GEESE;
}

v1::GameResult api_result(Outcome outcome) {
    switch (outcome) {
        case Outcome::kOngoing:
            return v1::GAME_RESULT_UNSPECIFIED;
        case Outcome::kFoxSideWins:
            return v1::GAME_RESULT_FOX_SIDE_WINS;
        case Outcome::kGeeseWin:
            return v1::GAME_RESULT_GEESE_WIN;
        case Outcome::kDraw:
            return v1::GAME_RESULT_DRAW;
    }
    return v1::GAME_RESULT_UNSPECIFIED;
}

v1::EndReason api_end_reason(EndReason reason) {
    switch (reason) {
        case EndReason::kNone:
            return v1::END_REASON_UNSPECIFIED;
        case EndReason::kGeeseBelowThreshold:
            return v1::END_REASON_GEESE_BELOW_THRESHOLD;
        case EndReason::kPenFilled:
            return v1::END_REASON_PEN_FILLED;
        case EndReason::kNoLegalMove:
            return v1::END_REASON_NO_LEGAL_MOVE;
        case EndReason::kThreefoldRepetition:
            return v1::END_REASON_THREEFOLD_REPETITION;
        case EndReason::kFiftyMoveRule:
            return v1::END_REASON_FIFTY_MOVE_RULE;
    }
    return v1::END_REASON_UNSPECIFIED;
}

void set_timestamp(std::int64_t us, google::protobuf::Timestamp* out) {
    out->set_seconds(us / 1'000'000);
    out->set_nanos(static_cast<std::int32_t>((us % 1'000'000) * 1000));
}

v1::Move move_view(const storage::MoveRow& row) {
    v1::Move m;
    m.set_ply(row.ply);
    m.set_notation(row.notation);
    m.set_side(api(row.side));
    // Canonical notation: the first point is the origin, the last the destination.
    const std::size_t first_end = row.notation.find_first_of("-x");
    m.set_from(row.notation.substr(0, first_end));
    const std::size_t last_start = row.notation.find_last_of("-x");
    m.set_to(last_start == std::string::npos ? row.notation : row.notation.substr(last_start + 1));
    std::size_t start = 0;
    while (start < row.captured.size()) {
        std::size_t end = row.captured.find(' ', start);
        if (end == std::string::npos) end = row.captured.size();
        if (end > start) m.add_captured(row.captured.substr(start, end - start));
        start = end + 1;
    }
    m.set_position(row.position);
    m.set_state(api(row.state));
    m.set_result(api(row.result));
    m.set_end_reason(api(row.end_reason));
    set_timestamp(row.created_us, m.mutable_time());
    using google::protobuf::util::TimeUtil;
    if (row.think_ms) *m.mutable_think_time() = TimeUtil::MillisecondsToDuration(*row.think_ms);
    if (row.fox_clock_ms)
        *m.mutable_fox_clock() = TimeUtil::MillisecondsToDuration(*row.fox_clock_ms);
    if (row.geese_clock_ms)
        *m.mutable_geese_clock() = TimeUtil::MillisecondsToDuration(*row.geese_clock_ms);
    m.set_comment(row.comment);
    return m;
}

std::string captured_points(const Board& board, const Move& move) {
    std::string captured;
    for (int i = 0, at = move.from; i < move.jump_count; at = move.path[i++]) {
        if (!captured.empty()) captured += ' ';
        captured += board.point_name(board.jump_between(at, move.path[i])->over);
    }
    return captured;
}

v1::Game game_view(const storage::GameRow& row, const std::optional<storage::MoveRow>& last_move,
                   std::int64_t now_us) {
    const Variant& variant = variant_of(row);
    Result<Position> parsed = parse_position_code(variant, row.position);
    if (!parsed) {
        throw std::runtime_error("stored game " + row.game_id + ": " + parsed.error().message);
    }
    const Position& pos = *parsed;
    v1::Game g;
    g.set_game_id(row.game_id);
    g.set_variant(row.variant);
    if (row.geese_option) g.mutable_options()->set_geese(*row.geese_option);
    if (row.geese_sideways) g.mutable_options()->set_geese_sideways(*row.geese_sideways);
    g.set_state(api(row.state));
    g.set_result(api(row.result));
    g.set_end_reason(api(row.end_reason));
    g.set_start_position(row.start_position);
    g.set_position(row.position);
    g.set_side_to_move(api_side(pos.side_to_move()));
    g.set_ply(pos.ply());
    g.set_quiet_plies(pos.quiet_plies());
    g.set_geese_count(pos.geese_count());
    g.set_fox_count(count(pos.foxes()));
    g.set_geese_captured(std::max(0, row.start_geese - pos.geese_count()));
    if (row.state != storage::GameState::kFinished) {
        // Counted only as far as the list goes: a contrived position has
        // hundreds of thousands of jump paths, and every read of the game
        // would walk them all.
        if (count_legal_moves(pos, kMaxListedLegalMoves + 1) > kMaxListedLegalMoves) {
            g.set_legal_moves_omitted(true);
        } else {
            std::vector<std::string> moves;
            for_each_legal_move(
                pos, [&](const Move& m) { moves.push_back(format_move(pos.board(), m)); });
            std::sort(moves.begin(), moves.end());
            for (std::string& m : moves)
                g.add_legal_moves(std::move(m));
        }
    }
    if (last_move) *g.mutable_last_move() = move_view(*last_move);
    g.set_draw_offered_by(api(row.draw_offered_by));
    g.set_visibility(api(row.visibility));
    set_timestamp(row.created_us, g.mutable_create_time());
    set_timestamp(row.updated_us, g.mutable_update_time());
    if (row.clocks.time_control != storage::TimeControl::kNone) {
        *g.mutable_time_control() = time_control_view(row);
        if (auto clocks = clocks_view(row, now_us)) *g.mutable_clocks() = *clocks;
    }
    if (row.state == storage::GameState::kWaiting && row.clocks.deadline_us != 0)
        set_timestamp(row.clocks.deadline_us, g.mutable_expire_time());
    g.set_rematch_offered_by(api(row.rematch.offered_by));
    g.set_rematch_game_id(row.rematch.game_id);
    g.set_rematch_of_game_id(row.rematch.of_game_id);
    // A seat kept for a rematch, or the bot's, counts as taken: nobody else may join it.
    g.set_fox_seat_taken(!row.seats.fox.token_hash.empty() ||
                         !row.seats.fox.reserved_hash.empty() ||
                         row.bot.side == storage::Side::kFox);
    g.set_geese_seat_taken(!row.seats.geese.token_hash.empty() ||
                           !row.seats.geese.reserved_hash.empty() ||
                           row.bot.side == storage::Side::kGeese);
    g.set_bot_side(api(row.bot.side));
    g.set_bot_level(row.bot.level);
    g.set_imported(row.record.imported);
    return g;
}

}  // namespace foxgeese::service
