// The game service: every RPC as a plain method that takes the request
// message and the call's context (credentials, deadline) and returns the
// response or a ServiceError. It knows nothing of gRPC or HTTP; both
// transports call it through the RPC table (rpc_table.h), so both give the
// same answers. The methods live in one file per concern: game_reads.cpp,
// game_creation.cpp, make_move.cpp, seat_actions.cpp, game_record_rpcs.cpp,
// analysis_rpcs.cpp, seek_game.cpp, tablebase_rpc.cpp.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "engine/tablebase/mapped_tablebase.h"
#include "foxgeese/v1/game_service.pb.h"
#include "service/core/analysis_budget.h"
#include "service/core/analysis_slots.h"
#include "service/core/call_context.h"
#include "service/core/clock.h"
#include "service/core/move_judgement.h"
#include "service/core/rate_limits.h"
#include "service/core/seat_auth.h"
#include "service/core/seek_waiters.h"
#include "service/core/service_error.h"
#include "service/runtime/metrics.h"
#include "storage/game_store.h"
#include "storage/move_context_cache.h"
#include "storage/presence_store.h"

namespace foxgeese::service {

// The longest request_id, invite code and notation accepted.
constexpr std::size_t kMaxRequestIdLength = 64;
constexpr std::size_t kMaxInviteCodeLength = 64;
constexpr std::size_t kMaxMoveTextLength = 128;
struct GameServiceOptions {
    // How long a CreateGame / JoinGame retry with the same request_id may
    // still hand the seat out again (and only until its token is used).
    std::chrono::seconds seat_retry_window{60};
    // Real time: how long each side has for its first move before the game
    // is aborted (correspondence gives the move period).
    std::chrono::seconds first_move_timeout{30};
    // How long an open game waits for an opponent before it expires.
    std::chrono::seconds open_game_ttl{24 * 3600};
    // How long a seat holder must have been gone, on their own turn, before
    // the opponent may claim (ClaimVictory); not in correspondence games.
    std::chrono::seconds opponent_gone{60};
    // How long a seat counts as present, without a watch stream, after its
    // token authenticated a GetSeat: a player whose client polls is there.
    std::chrono::seconds seat_seen_for{20};
    // CreateGame and JoinGame per client address, MakeMove and the other
    // seat actions per seat token (the watch-stream limit is the watch hub's).
    RateLimitOptions limits;
    // AnalyzePosition and AnalyzeGame running at once.
    AnalysisOptions analysis;
    // Bot games in progress at once per client address (0: no limit).
    int bot_games_per_address = 20;
    // Games whose last move this replica made that it keeps a copy of, so
    // that their next move skips the read (storage/move_context_cache.h);
    // 0 reads every time.
    std::size_t move_cache_games = 10000;
    // The tablebase (none: GetTablebase answers NOT_IN_TABLEBASE, analysis
    // and bots search as everywhere else).
    std::shared_ptr<const tablebase::MappedTablebase> tablebase;
};

// What a seat does about a rematch (rematch.cpp).
enum class RematchAct { kOffer, kAccept, kDecline };

class GameService {
  public:
    // Metrics are optional (tests of the logic alone pass none).
    GameService(storage::GameStore& store, storage::PresenceStore& presence, Clock& clock,
                Metrics* metrics = nullptr, GameServiceOptions options = {})
        : store_(store),
          presence_(presence),
          clock_(clock),
          metrics_(metrics),
          options_(options),
          create_limit_(clock, options.limits.create_per_address, options.limits.max_keys),
          import_limit_(clock, options.limits.import_per_address, options.limits.max_keys),
          join_limit_(clock, options.limits.join_per_address, options.limits.max_keys),
          move_limit_(clock, options.limits.moves_per_token, options.limits.max_keys),
          seat_action_limit_(clock, options.limits.seat_actions_per_token, options.limits.max_keys),
          tablebase_limit_(clock, options.limits.tablebase_per_address, options.limits.max_keys),
          seat_seen_limit_(clock, Rate{1, std::chrono::seconds(5), 1}, options.limits.max_keys),
          analysis_slots_(clock, options.analysis, options.limits.max_keys),
          move_cache_(options.move_cache_games) {}

    ServiceResult<v1::ListVariantsResponse> list_variants(const v1::ListVariantsRequest& request,
                                                          const CallContext& call);
    ServiceResult<v1::CreateGameResponse> create_game(const v1::CreateGameRequest& request,
                                                      const CallContext& call);
    ServiceResult<v1::JoinGameResponse> join_game(const v1::JoinGameRequest& request,
                                                  const CallContext& call);
    ServiceResult<v1::GetGameResponse> get_game(const v1::GetGameRequest& request,
                                                const CallContext& call);
    ServiceResult<v1::ListGamesResponse> list_games(const v1::ListGamesRequest& request,
                                                    const CallContext& call);
    ServiceResult<v1::ListMovesResponse> list_moves(const v1::ListMovesRequest& request,
                                                    const CallContext& call);
    ServiceResult<google::api::HttpBody> export_game(const v1::ExportGameRequest& request,
                                                     const CallContext& call);
    ServiceResult<v1::ImportGameResponse> import_game(const v1::ImportGameRequest& request,
                                                      const CallContext& call);
    ServiceResult<v1::MakeMoveResponse> make_move(const v1::MakeMoveRequest& request,
                                                  const CallContext& call);
    ServiceResult<v1::ResignGameResponse> resign_game(const v1::ResignGameRequest& request,
                                                      const CallContext& call);
    ServiceResult<v1::OfferDrawResponse> offer_draw(const v1::OfferDrawRequest& request,
                                                    const CallContext& call);
    ServiceResult<v1::RespondDrawResponse> respond_draw(const v1::RespondDrawRequest& request,
                                                        const CallContext& call);
    ServiceResult<v1::AbortGameResponse> abort_game(const v1::AbortGameRequest& request,
                                                    const CallContext& call);
    ServiceResult<v1::CancelGameResponse> cancel_game(const v1::CancelGameRequest& request,
                                                      const CallContext& call);
    ServiceResult<v1::ClaimVictoryResponse> claim_victory(const v1::ClaimVictoryRequest& request,
                                                          const CallContext& call);
    ServiceResult<v1::OfferRematchResponse> offer_rematch(const v1::OfferRematchRequest& request,
                                                          const CallContext& call);
    ServiceResult<v1::RespondRematchResponse> respond_rematch(
        const v1::RespondRematchRequest& request, const CallContext& call);
    ServiceResult<v1::JoinRematchResponse> join_rematch(const v1::JoinRematchRequest& request,
                                                        const CallContext& call);
    ServiceResult<v1::GetSeatResponse> get_seat(const v1::GetSeatRequest& request,
                                                const CallContext& call);
    ServiceResult<v1::AnalyzePositionResponse> analyze_position(
        const v1::AnalyzePositionRequest& request, const CallContext& call);
    ServiceResult<v1::AnalyzeGameResponse> analyze_game(const v1::AnalyzeGameRequest& request,
                                                        const CallContext& call);
    ServiceResult<v1::GetTablebaseResponse> get_tablebase(const v1::GetTablebaseRequest& request,
                                                          const CallContext& call);
    // Answers through `done`: at once when an opponent waits (or the request
    // is refused), else later, when a pairing, the end of the wait or the
    // caller leaving ends it (seek_game.cpp).
    using SeekDone = std::function<void(ServiceResult<v1::SeekGameResponse>)>;
    void seek_game(const v1::SeekGameRequest& request, const CallContext& call, SeekDone done);

    // A seek was paired (on any replica): its waiter here, if any, is
    // answered with its game.
    void seek_paired(const std::string& seek_id);
    // Ends the waits that are over on the Clock or whose caller left, and
    // withdraws their seeks: the replica calls it every 100 ms, tests when
    // they move their clock.
    void end_due_seeks();
    // Ends every wait (the replica is stopping): a seek already claimed is
    // answered with its game, the others withdrawn with SHUTTING_DOWN, so
    // that their clients seek again on another replica.
    void end_all_seeks();
    // Seekers waiting on this replica.
    std::size_t seeks_waiting() const { return seek_waiters_.size(); }
    // Where waits are answered (each reads and writes the database): the
    // replica's work queue, which may refuse (then here and now). Unset:
    // here and now.
    void set_seek_runner(std::function<bool(std::function<void()>)> runner) {
        seek_runner_ = std::move(runner);
    }

    // The bot's move in a game at `ply`, by the same path as a player's
    // MakeMove (checks, one write, events, watchers); PLY_MISMATCH when the
    // game is no longer at `ply` (another replica moved for the bot first).
    ServiceResult<v1::MakeMoveResponse> make_bot_move(const std::string& game_id, int ply,
                                                      const std::string& notation,
                                                      const storage::CallBudget& budget);
    // Called (on the calling thread, so it must be quick) when a game this
    // replica created or moved in has become the bot's turn.
    void set_bot_turn_listener(std::function<void()> listener) {
        bot_turn_listener_ = std::move(listener);
    }

    Clock& clock() const { return clock_; }
    const GameServiceOptions& options() const { return options_; }
    // Analyses running on this replica now.
    int analyses_running() const { return analysis_slots_.running(); }
    // Analyses waiting in line for a place.
    int analyses_waiting() const { return analysis_slots_.waiting(); }
    // The copies of games this replica keeps for their next move.
    storage::MoveContextCache& move_cache() { return move_cache_; }

  private:
    std::int64_t retry_until(std::int64_t now_us) const;
    // Every game a client brings into being (created, imported, a rematch)
    // counts against its creation limit; the refusal, or nothing.
    std::optional<ServiceError> count_new_game(const CallContext& call);
    std::int64_t open_game_ttl_us() const {
        return std::chrono::duration_cast<std::chrono::microseconds>(options_.open_game_ttl)
            .count();
    }
    // A game as read, with an overdue clock settled first (which writes).
    std::optional<storage::GameWithLastMove> settled(std::optional<storage::GameWithLastMove> found,
                                                     const storage::CallBudget& budget);
    template <class Response>
    ServiceResult<Response> act_on_rematch(const char* rpc, const std::string& raw_id,
                                           RematchAct act, const CallContext& call);
    // When the call arrived (the transport's reading), else now.
    std::int64_t received_at(const CallContext& call) const;
    // One read (none when this replica has a copy of the game), the
    // engine's checks, one write with a compare-and-swap on the ply and the
    // row version: every move, a player's or the bot's.
    ServiceResult<v1::MakeMoveResponse> play_move(const MoveAttempt& attempt, const SeatOf& seat,
                                                  const storage::CallBudget& budget);
    // The planned move's write; its reply when it applied (the copy of the
    // game is then kept for the next move), nothing when the game was no
    // longer as `ctx` had it.
    std::optional<v1::MakeMoveResponse> write_move(const storage::MoveContext& ctx,
                                                   PlannedMove& plan,
                                                   const storage::CallBudget& budget);
    void notify_bot_turn() const {
        if (bot_turn_listener_) bot_turn_listener_();
    }
    // The place an analysis holds while it runs, with its searcher, after
    // a short wait in line when all are taken (analysis_rpcs.cpp).
    using AnalysisLease = std::unique_ptr<AnalysisSlots::Lease>;
    ServiceResult<AnalysisLease> lease_analysis(const CallContext& call);

    // Answers a waiter taken out of seek_waiters_ (seek_game.cpp).
    // A seek withdrawn unpaired is answered with `unpaired`, else with
    // SEEK_RESULT_NO_OPPONENT.
    void answer_seek(SeekWaiter waiter, std::optional<ServiceError> unpaired = std::nullopt);

    storage::GameStore& store_;
    storage::PresenceStore& presence_;
    Clock& clock_;
    Metrics* metrics_;
    const GameServiceOptions options_;
    RateLimiter create_limit_;
    RateLimiter import_limit_;
    RateLimiter join_limit_;
    RateLimiter move_limit_;
    RateLimiter seat_action_limit_;
    RateLimiter tablebase_limit_;
    RateLimiter seat_seen_limit_;  // GetSeat's presence writes, per token
    std::function<void()> bot_turn_listener_;
    AnalysisSlots analysis_slots_;
    storage::MoveContextCache move_cache_;
    SeekWaiters seek_waiters_;
    std::atomic<bool> seeks_closed_{false};  // end_all_seeks() was called
    std::function<bool(std::function<void()>)> seek_runner_;
};

}  // namespace foxgeese::service
