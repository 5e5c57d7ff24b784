// The game service: every RPC as a plain method that takes the request
// message and the call's context (credentials, deadline) and returns the
// response or a ServiceError. It knows nothing of gRPC or HTTP; both
// transports call it through the RPC table (rpc_table.h), so both give the
// same answers. The methods live in one file per concern: game_reads.cpp,
// game_creation.cpp, make_move.cpp, seat_actions.cpp.
#pragma once

#include <chrono>
#include <cstddef>

#include "foxgeese/v1/game_service.pb.h"
#include "service/core/call_context.h"
#include "service/core/clock.h"
#include "service/core/service_error.h"
#include "service/runtime/metrics.h"
#include "storage/postgres_game_store.h"

namespace foxgeese::service {

// The longest request_id, invite code and notation accepted.
constexpr std::size_t kMaxRequestIdLength = 64;
constexpr std::size_t kMaxInviteCodeLength = 64;
constexpr std::size_t kMaxMoveTextLength = 128;

struct GameServiceOptions {
    // How long a CreateGame / JoinGame retry with the same request_id may
    // still hand the seat out again (and only until its token is used).
    std::chrono::seconds seat_retry_window{60};
};

class GameService {
  public:
    // Metrics are optional (tests of the logic alone pass none).
    GameService(storage::PostgresGameStore& store, Clock& clock, Metrics* metrics = nullptr,
                GameServiceOptions options = {})
        : store_(store), clock_(clock), metrics_(metrics), options_(options) {}

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
    ServiceResult<v1::MakeMoveResponse> make_move(const v1::MakeMoveRequest& request,
                                                  const CallContext& call);
    ServiceResult<v1::ResignGameResponse> resign_game(const v1::ResignGameRequest& request,
                                                      const CallContext& call);
    ServiceResult<v1::OfferDrawResponse> offer_draw(const v1::OfferDrawRequest& request,
                                                    const CallContext& call);
    ServiceResult<v1::RespondDrawResponse> respond_draw(const v1::RespondDrawRequest& request,
                                                        const CallContext& call);

    Clock& clock() const { return clock_; }

  private:
    std::int64_t retry_until(std::int64_t now_us) const;

    storage::PostgresGameStore& store_;
    Clock& clock_;
    Metrics* metrics_;
    const GameServiceOptions options_;
};

}  // namespace foxgeese::service
