// The game service's business logic: every RPC as a plain method that takes
// the request message (and the caller's authorization header where a seat
// acts) and returns the response or a ServiceError. It knows nothing of gRPC
// or HTTP; both transports call it, so both give the same answers.
#pragma once

#include <optional>
#include <string>

#include "foxgeese/v1/game_service.pb.h"
#include "service/runtime/metrics.h"
#include "service/core/service_error.h"
#include "storage/postgres_game_store.h"

namespace foxgeese::service {

// The longest request_id, invite code and notation accepted.
constexpr std::size_t kMaxRequestIdLength = 64;
constexpr std::size_t kMaxInviteCodeLength = 64;
constexpr std::size_t kMaxMoveTextLength = 128;

class GameService {
  public:
    // Metrics are optional (tests of the logic alone pass none).
    explicit GameService(storage::PostgresGameStore& store, Metrics* metrics = nullptr)
        : store_(store), metrics_(metrics) {}

    ServiceResult<v1::ListVariantsResponse> list_variants(const v1::ListVariantsRequest& request);
    ServiceResult<v1::CreateGameResponse> create_game(const v1::CreateGameRequest& request);
    ServiceResult<v1::JoinGameResponse> join_game(const v1::JoinGameRequest& request);
    ServiceResult<v1::GetGameResponse> get_game(const v1::GetGameRequest& request);
    ServiceResult<v1::ListGamesResponse> list_games(const v1::ListGamesRequest& request);
    ServiceResult<v1::ListMovesResponse> list_moves(const v1::ListMovesRequest& request);

    // `authorization` is the raw header / metadata value ("Bearer <token>"),
    // absent when the caller sent none.
    ServiceResult<v1::MakeMoveResponse> make_move(const v1::MakeMoveRequest& request,
                                                  const std::optional<std::string>& authorization);
    ServiceResult<v1::ResignGameResponse> resign_game(
        const v1::ResignGameRequest& request, const std::optional<std::string>& authorization);
    ServiceResult<v1::OfferDrawResponse> offer_draw(
        const v1::OfferDrawRequest& request, const std::optional<std::string>& authorization);
    ServiceResult<v1::RespondDrawResponse> respond_draw(
        const v1::RespondDrawRequest& request, const std::optional<std::string>& authorization);

  private:
    storage::PostgresGameStore& store_;
    Metrics* metrics_;
};

}  // namespace foxgeese::service
