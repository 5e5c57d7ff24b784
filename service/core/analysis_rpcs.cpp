// AnalyzePosition and AnalyzeGame: the tablebase's exact values where it
// answers, elsewhere the engine's search on request, bounded in depth, time
// and nodes, a few at once per replica and one per client address, served
// fairly when they are all taken (analysis_slots.h), never inside a
// database call. A game's analysis is stored, so it is computed
// once per game and ply.
#include <algorithm>

#include "engine/rules/game_status.h"
#include "engine/rules/position_code.h"
#include "engine/search/analysis.h"
#include "service/core/analysis_views.h"
#include "service/core/call_stop.h"
#include "service/core/database_errors.h"
#include "service/core/game_analysis.h"
#include "service/core/game_rules.h"
#include "service/core/game_service.h"
#include "service/core/game_views.h"
#include "service/core/tablebase_answers.h"

namespace foxgeese::service {
namespace {

using SteadyClock = std::chrono::steady_clock;

ServiceError analysis_busy(const std::string& why) {
    ServiceError error = make_error(
        StatusCode::kResourceExhausted, "ANALYSIS_BUSY",
        why + "; retry in " + std::to_string(whole_seconds_up(kAnalysisBusyRetry)) + " s");
    error.retry_after = kAnalysisBusyRetry;
    return error;
}

ServiceError analysis_cancelled() {
    return make_error(StatusCode::kCancelled, "CANCELLED", "the call was cancelled");
}

std::optional<ServiceError> check_range(const char* field, int value, int max,
                                        const std::string& meaning) {
    if (value >= 0 && value <= max) return std::nullopt;
    return invalid_argument(field, std::string(field) + " must be 1 to " + std::to_string(max) +
                                       meaning + ", not " + std::to_string(value));
}

// The caller's deadline, less the time its answer needs to reach it.
std::optional<SteadyClock::time_point> search_deadline(const CallContext& call) {
    if (!call.deadline) return std::nullopt;
    return *call.deadline - kAnalysisDeadlineMargin;
}

}  // namespace

ServiceResult<GameService::AnalysisLease> GameService::lease_analysis(const CallContext& call) {
    AnalysisSlots::Grant grant =
        analysis_slots_.acquire(call.client_address, search_deadline(call), call.cancelled);
    if (grant.lease) return std::move(grant.lease);
    const std::string waited =
        options_.analysis.max_wait.count() > 0
            ? " and none came free for it within " +
                  std::to_string(whole_seconds_up(options_.analysis.max_wait)) + " s"
            : "";
    switch (grant.refusal) {
        case AnalysisSlots::Refusal::kAddressBusy:
            return analysis_busy("an analysis from your address is running already" + waited);
        case AnalysisSlots::Refusal::kServerBusy:
            return analysis_busy("this server runs as many analyses as it allows at once (" +
                                 std::to_string(analysis_slots_.places()) + ")" + waited);
        case AnalysisSlots::Refusal::kDisplaced:
            return analysis_busy(
                "this server's analyses are all taken and the calls waiting for one have used "
                "less analysis time lately than yours");
        case AnalysisSlots::Refusal::kCancelled:
            break;
    }
    return analysis_cancelled();
}

ServiceResult<v1::AnalyzePositionResponse> GameService::analyze_position(
    const v1::AnalyzePositionRequest& request, const CallContext& call) {
    ServiceResult<const Variant*> variant = requested_variant(request.variant(), request.options());
    if (!variant.ok()) return variant.error();
    ServiceResult<Position> parsed =
        requested_position(*variant.value(), request.position(), "position");
    if (!parsed.ok()) return parsed.error();
    if (auto e = check_range("depth", request.depth(), kMaxAnalysisDepth,
                             " plies, or 0 for no depth of its own"))
        return *e;
    if (auto e = check_range("time_ms", request.time_ms(), kMaxAnalysisTimeMs,
                             " milliseconds, or 0 for the default"))
        return *e;
    if (auto e =
            check_range("lines", request.lines(), kMaxAnalysisLines, " best moves, or 0 for 1"))
        return *e;

    const Position& pos = parsed.value();
    v1::AnalyzePositionResponse response;
    response.set_position(format_position_code(pos));
    response.set_side_to_move(api_side(pos.side_to_move()));
    // Over by the rules: nothing to search, so no place is taken either.
    if (const GameStatus status = evaluate_status(pos, 0); status.over()) {
        response.set_result(api_result(status.outcome));
        response.set_end_reason(api_end_reason(status.reason));
        return response;
    }

    // Exact and at once from the tablebase: no search, so no place is taken;
    // the lookups count against the address's GetTablebase limit, and an
    // address over it waits in line for a search like any other analysis.
    if (options_.tablebase && options_.tablebase->answers(pos) &&
        !tablebase_limit_.take(call.client_address)) {
        if (auto exact = tablebase_lines(*options_.tablebase, pos, std::max(1, request.lines()))) {
            response.set_tablebase(true);
            for (const AnalysedLine& line : *exact)
                *response.add_lines() = line_view(pos.board(), line);
            return response;
        }
    }

    ServiceResult<AnalysisLease> lease = lease_analysis(call);
    if (!lease.ok()) return lease.error();
    // No database here; guarded for what the search may throw (its table).
    return guarded<v1::AnalyzePositionResponse>(
        "AnalyzePosition", [&]() -> ServiceResult<v1::AnalyzePositionResponse> {
            const CallStop stop(call);
            AnalysisLimits limits;
            if (request.depth() > 0) limits.depth = request.depth();
            const int time_ms = request.time_ms() > 0 ? request.time_ms()
                                : request.depth() > 0 ? kMaxAnalysisTimeMs
                                                      : kDefaultAnalysisTimeMs;
            limits.time = std::chrono::milliseconds(time_ms);
            limits.deadline = search_deadline(call);
            limits.stop = stop.flag();
            RepetitionHistory history;
            history.record(pos);
            const std::vector<AnalysedLine> lines = analyze(lease.value()->searcher(), pos, history,
                                                            limits, std::max(1, request.lines()));
            if (metrics_) metrics_->analyses.add({"AnalyzePosition"});
            if (stop.raised()) return analysis_cancelled();
            for (const AnalysedLine& line : lines)
                *response.add_lines() = line_view(pos.board(), line);
            return response;
        });
}

ServiceResult<v1::AnalyzeGameResponse> GameService::analyze_game(
    const v1::AnalyzeGameRequest& request, const CallContext& call) {
    std::string id;
    if (auto e = normalize_game_id(request.game_id(), id)) return *e;
    return guarded<v1::AnalyzeGameResponse>(
        "AnalyzeGame", [&]() -> ServiceResult<v1::AnalyzeGameResponse> {
            const storage::CallBudget budget = call.budget();
            auto found = settled(store_.find_game(id, budget), budget);
            if (!found) return game_not_found(id);
            const storage::GameRow& game = found->game;
            v1::AnalyzeGameResponse response;
            auto parse_stored = [&](const std::string& bytes) {
                if (!response.ParseFromString(bytes))
                    throw std::runtime_error("a stored game analysis does not parse");
            };
            if (auto stored = store_.find_game_analysis(id, game.ply, budget)) {
                parse_stored(*stored);
                return response;
            }

            ServiceResult<AnalysisLease> lease = lease_analysis(call);
            if (!lease.ok()) return lease.error();
            const std::vector<storage::MoveRow> moves = store_.list_moves(id, game.ply, budget);
            const CallStop stop(call);
            GameAnalysisLimits limits;
            limits.nodes_per_ply = nodes_per_ply(static_cast<int>(moves.size()) + 1);
            const auto cap = SteadyClock::now() + kGameAnalysisTimeCap;
            const auto caller = search_deadline(call);
            limits.deadline = caller ? std::min(cap, *caller) : cap;
            limits.stop = stop.flag();
            limits.tablebase = options_.tablebase.get();
            // No database connection is held while the search runs.
            const GameAnalysisEnd end =
                analyse_moves(lease.value()->searcher(), variant_of(game), game.start_position,
                              moves, limits, *response.mutable_plies());
            if (metrics_) metrics_->analyses.add({"AnalyzeGame"});
            if (end == GameAnalysisEnd::kStopped) return analysis_cancelled();
            if (end == GameAnalysisEnd::kOutOfTime) {
                if (caller && *caller <= cap) {
                    return make_error(StatusCode::kDeadlineExceeded, "DEADLINE_EXCEEDED",
                                      "the call's deadline passed before the analysis finished; "
                                      "nothing was stored");
                }
                return make_error(StatusCode::kUnavailable, "ANALYSIS_TIMEOUT",
                                  "the analysis did not finish within the server's " +
                                      std::to_string(kGameAnalysisTimeCap.count()) +
                                      " s; nothing was stored: retry later",
                                  {{"write_outcome", "NOT_APPLIED"}});
            }
            response.set_game_id(id);
            response.set_ply(game.ply);
            response.set_nodes_per_ply(static_cast<std::int64_t>(limits.nodes_per_ply));
            const std::int64_t now = clock_.now_us();
            set_timestamp(now, response.mutable_analyze_time());
            // Whatever another replica stored first is the game's analysis.
            parse_stored(store_.insert_game_analysis(
                id, game.ply, static_cast<std::int64_t>(limits.nodes_per_ply), now,
                response.SerializeAsString(), budget));
            return response;
        });
}

}  // namespace foxgeese::service
