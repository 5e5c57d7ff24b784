// ExportGame and ImportGame: a stored game as a text record
// (engine/record/game_record.h, docs/game-records.md) and back. Export reads the
// game and its moves as ListMoves does. Import lets the engine replay the
// record, then writes the game, its moves and their repetition history in
// one transaction, as if the moves had been made here: finished, with no
// seats and no clock, marked imported.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "engine/record/game_record.h"
#include "engine/rules/position_code.h"
#include "service/core/database_errors.h"
#include "service/core/game_clock.h"
#include "service/core/game_rules.h"
#include "service/core/game_service.h"
#include "service/core/game_views.h"
#include "service/core/secrets.h"
#include "service/core/stored_codes.h"

namespace foxgeese::service {
namespace {

using storage::GameRow;
using storage::MoveRow;

constexpr std::int64_t kMicrosPerSecond = 1'000'000;
constexpr std::string_view kEndReasonPrefix = "END_REASON_";

// The API's end reason for a record's: the engine's for an end by the
// rules, else the same name in upper case, and END_REASON_UNFINISHED for
// none.
v1::EndReason api_end_reason_of(RecordEnd end) {
    if (end.rules != EndReason::kNone) return api_end_reason(end.rules);
    if (!end.named()) return v1::END_REASON_UNFINISHED;
    std::string name(record_end_name(end));
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    v1::EndReason reason = v1::END_REASON_UNSPECIFIED;
    if (!v1::EndReason_Parse(std::string(kEndReasonPrefix) + name, &reason))
        throw std::logic_error("no API end reason for the record's " + name);
    return reason;
}

// A stored end reason as a record names it (none for a game not over, or
// one that stopped unfinished).
RecordEnd record_end_of(v1::EndReason reason) {
    if (reason == v1::END_REASON_UNSPECIFIED || reason == v1::END_REASON_UNFINISHED) return {};
    const std::string name = lowercase(v1::EndReason_Name(reason).substr(kEndReasonPrefix.size()));
    const auto end = record_end_named(name);
    if (!end) throw std::logic_error("no record end reason for " + name);
    return *end;
}

Outcome outcome_of(v1::GameResult result) {
    switch (result) {
        case v1::GAME_RESULT_FOX_SIDE_WINS:
            return Outcome::kFoxSideWins;
        case v1::GAME_RESULT_GEESE_WIN:
            return Outcome::kGeeseWin;
        case v1::GAME_RESULT_DRAW:
            return Outcome::kDraw;
        default:
            return Outcome::kOngoing;
    }
}

RecordTimeControl time_control_of(const GameRow& g) {
    if (g.record.imported) {
        if (g.record.time_control.empty()) return {};
        auto stored = parse_time_control(g.record.time_control);
        if (!stored) throw std::runtime_error("stored game " + g.game_id + ": " + stored.error());
        return *stored;
    }
    const v1::TimeControl control = time_control_view(g);
    if (control.has_real_time())
        return {RecordTimeControl::Kind::kRealTime, g.clocks.initial_ms, g.clocks.increment_ms, 0};
    if (control.has_correspondence()) {
        return {RecordTimeControl::Kind::kCorrespondence, 0, 0,
                control.correspondence().days_per_move()};
    }
    return {};
}

std::optional<std::int64_t> seconds_of(std::optional<std::int64_t> us) {
    if (!us) return std::nullopt;
    return *us / kMicrosPerSecond;
}

// The record of a stored game and its moves. An imported game gives back
// its record's own dates; a game played here its creation and end.
GameRecord record_of(const GameRow& g, const std::vector<MoveRow>& moves) {
    GameRecord record;
    record.variant = &variant_of(g);
    record.start = custom_start(parse_position_code(*record.variant, g.start_position).value());
    record.time_control = time_control_of(g);
    const bool finished = g.state == storage::GameState::kFinished;
    record.result = outcome_of(api(g.result));
    if (finished) record.end = record_end_of(api(g.end_reason));
    if (g.record.imported) {
        record.created = seconds_of(g.record.created_us);
        record.ended = seconds_of(g.record.ended_us);
    } else {
        record.created = seconds_of(g.created_us);
        if (finished) record.ended = seconds_of(g.finished_us);
    }
    for (const MoveRow& m : moves)
        record.moves.push_back({m.notation, m.comment});
    return record;
}

// A refused record: where and why, with a reason for the kind of problem.
ServiceError record_refused(const RecordError& e) {
    const char* reason = e.problem == RecordProblem::kIllegalMove       ? "RECORD_ILLEGAL_MOVE"
                         : e.problem == RecordProblem::kResultMismatch  ? "RECORD_RESULT_MISMATCH"
                         : e.problem == RecordProblem::kStartTooComplex ? "POSITION_TOO_COMPLEX"
                                                                        : "RECORD_INVALID";
    std::map<std::string, std::string> metadata = {
        {"line", std::to_string(e.line)},
        {"column", std::to_string(e.column)},
        {"problem", std::string(record_problem_name(e.problem))},
    };
    if (e.problem == RecordProblem::kIllegalMove) {
        metadata["ply"] = std::to_string(e.ply);
        metadata["move"] = e.move;
    }
    return ServiceError{StatusCode::kInvalidArgument, reason,
                        "line " + std::to_string(e.line) + ", column " + std::to_string(e.column) +
                            ": " + e.message,
                        std::move(metadata), "record"};
}

// The game row of an imported record: finished as the record says, at the
// position its last move reached, with no seats, no clock and no deadline.
GameRow imported_row(const ParsedRecord& parsed, storage::Visibility visibility,
                     std::int64_t now_us) {
    const GameRecord& record = parsed.record;
    const Variant& variant = *record.variant;
    const Position start = record.start_position();
    const Position& last = parsed.played.empty() ? start : parsed.played.back().after;
    GameRow g;
    g.game_id = new_game_id();
    g.variant = std::string(variant.name());
    if (variant.has_options()) {
        g.geese_option = variant.geese_option();
        g.geese_sideways = variant.geese_sideways();
    }
    g.visibility = visibility;
    g.state = storage::GameState::kFinished;
    g.result = stored(record.result == Outcome::kOngoing ? v1::GAME_RESULT_NONE
                                                         : api_result(record.result));
    g.end_reason = stored(api_end_reason_of(record.end));
    g.start_position = format_position_code(start);
    g.start_geese = start.geese_count();
    g.start_ply = start.ply();
    g.position = format_position_code(last);
    g.ply = last.ply();
    g.quiet_plies = last.quiet_plies();
    g.created_us = g.updated_us = g.finished_us = now_us;
    g.record.imported = true;
    if (record.time_control.kind != RecordTimeControl::Kind::kNone)
        g.record.time_control = format_time_control(record.time_control);
    if (record.created) g.record.created_us = *record.created * kMicrosPerSecond;
    if (record.ended) g.record.ended_us = *record.ended * kMicrosPerSecond;
    return g;
}

// The moves of an imported record as MakeMove would have stored them.
std::vector<storage::ImportedMove> imported_moves(const ParsedRecord& parsed, const GameRow& g) {
    const Board& board = parsed.record.variant->board();
    std::vector<storage::ImportedMove> moves;
    moves.reserve(parsed.played.size());
    for (std::size_t i = 0; i < parsed.played.size(); ++i) {
        const PlayedMove& played = parsed.played[i];
        MoveRow m;
        m.game_id = g.game_id;
        m.ply = played.after.ply();
        m.notation = parsed.record.moves[i].notation;
        m.side = stored(opponent(played.after.side_to_move()));
        m.captured = captured_points(board, played.move);
        m.position = format_position_code(played.after);
        m.state =
            played.status.over() ? storage::GameState::kFinished : storage::GameState::kActive;
        m.result = stored(api_result(played.status.outcome));
        m.end_reason = stored(api_end_reason(played.status.reason));
        m.created_us = g.created_us;
        m.comment = parsed.record.moves[i].comment;
        moves.push_back({std::move(m), format_repetition_key(played.after)});
    }
    return moves;
}

}  // namespace

ServiceResult<google::api::HttpBody> GameService::export_game(const v1::ExportGameRequest& request,
                                                              const CallContext& call) {
    std::string id;
    if (auto e = normalize_game_id(request.game_id(), id)) return *e;
    return guarded<google::api::HttpBody>(
        "ExportGame", [&]() -> ServiceResult<google::api::HttpBody> {
            const storage::CallBudget budget = call.budget();
            auto found = settled(store_.find_game(id, budget), budget);
            if (!found) return game_not_found(id);
            // Moves up to the game's ply as read: one consistent state.
            const std::vector<MoveRow> moves = store_.list_moves(id, found->game.ply, budget);
            google::api::HttpBody body;
            body.set_content_type(std::string(kRecordMediaType));
            body.set_data(format_record(record_of(found->game, moves)));
            return body;
        });
}

ServiceResult<v1::ImportGameResponse> GameService::import_game(const v1::ImportGameRequest& request,
                                                               const CallContext& call) {
    if (request.record().empty()) {
        return invalid_argument("record",
                                "record is required: a game record as ExportGame writes it "
                                "(docs/game-records.md)");
    }
    if (!v1::Visibility_IsValid(request.visibility()))
        return invalid_argument("visibility", "unknown visibility");
    const storage::Visibility visibility = request.visibility() == v1::VISIBILITY_UNSPECIFIED
                                               ? storage::Visibility::kPrivate
                                               : stored(request.visibility());
    // Reading a record makes the engine replay it, so a refused one counts
    // against the limit too.
    if (auto wait = import_limit_.take(call.client_address))
        return rate_limited("imported games from your address", *wait);
    const auto parsed = parse_record(request.record());
    if (!parsed.ok()) return record_refused(parsed.error());
    // A game imported is a game created.
    if (auto e = count_new_game(call)) return *e;

    return guarded<v1::ImportGameResponse>(
        "ImportGame", [&]() -> ServiceResult<v1::ImportGameResponse> {
            const std::int64_t now = clock_.now_us();
            const GameRow g = imported_row(parsed.value(), visibility, now);
            const std::vector<storage::ImportedMove> moves = imported_moves(parsed.value(), g);
            const std::string start_key =
                format_repetition_key(parsed.value().record.start_position());
            if (!store_.insert_imported_game(g, start_key, moves, call.budget())) {
                return make_error(StatusCode::kAborted, "CONFLICT",
                                  "the new game's id was taken; retry");
            }
            spdlog::info("game {} imported: {} with {} moves", g.game_id, g.variant, moves.size());
            v1::ImportGameResponse response;
            std::optional<MoveRow> last;
            if (!moves.empty()) last = moves.back().move;
            *response.mutable_game() = game_view(g, last, now);
            return response;
        });
}

}  // namespace foxgeese::service
