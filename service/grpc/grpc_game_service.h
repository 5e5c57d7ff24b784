// The gRPC face of GameService: unpacks metadata, calls the logic, and turns
// a ServiceError into a status carrying google.rpc.ErrorInfo (and BadRequest
// for a field at fault).
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <optional>
#include <string>

#include "foxgeese/v1/game_service.grpc.pb.h"
#include "service/core/game_service.h"
#include "service/runtime/metrics.h"
#include "service/watch/watch_hub.h"

namespace foxgeese::service {

// The status for an error, with its google.rpc.Status in the details.
grpc::Status to_grpc_status(const ServiceError& error);

// The first `authorization` metadata value, if any.
std::optional<std::string> authorization_of(const grpc::ServerContextBase& context);

// Unary RPCs run on gRPC's synchronous thread pool; WatchGame is a raw
// callback (reactor) method: idle streams hold no thread, and events go out
// as bytes the hub serialized once for all watchers.
class GrpcGameService
    : public v1::FoxGeeseService::WithRawCallbackMethod_WatchGame<v1::FoxGeeseService::Service> {
  public:
    GrpcGameService(GameService& logic, WatchHub& hub, Metrics& metrics)
        : logic_(logic), hub_(hub), metrics_(metrics) {}

    grpc::Status ListVariants(grpc::ServerContext*, const v1::ListVariantsRequest*,
                              v1::ListVariantsResponse*) override;
    grpc::Status CreateGame(grpc::ServerContext*, const v1::CreateGameRequest*,
                            v1::CreateGameResponse*) override;
    grpc::Status JoinGame(grpc::ServerContext*, const v1::JoinGameRequest*,
                          v1::JoinGameResponse*) override;
    grpc::Status GetGame(grpc::ServerContext*, const v1::GetGameRequest*,
                         v1::GetGameResponse*) override;
    grpc::Status ListGames(grpc::ServerContext*, const v1::ListGamesRequest*,
                           v1::ListGamesResponse*) override;
    grpc::Status MakeMove(grpc::ServerContext*, const v1::MakeMoveRequest*,
                          v1::MakeMoveResponse*) override;
    grpc::Status ListMoves(grpc::ServerContext*, const v1::ListMovesRequest*,
                           v1::ListMovesResponse*) override;
    grpc::Status ResignGame(grpc::ServerContext*, const v1::ResignGameRequest*,
                            v1::ResignGameResponse*) override;
    grpc::Status OfferDraw(grpc::ServerContext*, const v1::OfferDrawRequest*,
                           v1::OfferDrawResponse*) override;
    grpc::Status RespondDraw(grpc::ServerContext*, const v1::RespondDrawRequest*,
                             v1::RespondDrawResponse*) override;
    grpc::ServerWriteReactor<grpc::ByteBuffer>* WatchGame(grpc::CallbackServerContext* context,
                                                          const grpc::ByteBuffer* request) override;

  private:
    // Records the call in the metrics and converts the outcome.
    template <class Response>
    grpc::Status reply(const char* method, std::chrono::steady_clock::time_point start,
                       ServiceResult<Response> outcome, Response* out);

    GameService& logic_;
    WatchHub& hub_;
    Metrics& metrics_;
};

}  // namespace foxgeese::service
