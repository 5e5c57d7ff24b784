#include "service/grpc_game_service.h"

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace foxgeese::service {
namespace {

template <class Response>
grpc::Status reply(ServiceResult<Response> outcome, Response* out) {
    if (!outcome.ok()) return to_grpc_status(outcome.error());
    *out = std::move(outcome.value());
    return grpc::Status::OK;
}

}  // namespace

std::string status_details(const ServiceError& error) {
    google::rpc::Status status;
    status.set_code(static_cast<int>(error.code));
    status.set_message(error.message);
    google::rpc::ErrorInfo info;
    info.set_reason(error.reason);
    info.set_domain(kErrorDomain);
    for (const auto& [key, value] : error.metadata)
        (*info.mutable_metadata())[key] = value;
    status.add_details()->PackFrom(info);
    if (!error.field.empty()) {
        google::rpc::BadRequest bad;
        auto* violation = bad.add_field_violations();
        violation->set_field(error.field);
        violation->set_description(error.message);
        violation->set_reason(error.reason);
        status.add_details()->PackFrom(bad);
    }
    return status.SerializeAsString();
}

grpc::Status to_grpc_status(const ServiceError& error) {
    return grpc::Status(static_cast<grpc::StatusCode>(error.code), error.message,
                        status_details(error));
}

std::optional<std::string> authorization_of(const grpc::ServerContextBase& context) {
    const auto& metadata = context.client_metadata();
    const auto it = metadata.find("authorization");
    if (it == metadata.end()) return std::nullopt;
    return std::string(it->second.data(), it->second.size());
}

grpc::Status GrpcGameService::ListVariants(grpc::ServerContext*, const v1::ListVariantsRequest* req,
                                           v1::ListVariantsResponse* resp) {
    return reply(logic_.list_variants(*req), resp);
}

grpc::Status GrpcGameService::CreateGame(grpc::ServerContext*, const v1::CreateGameRequest* req,
                                         v1::CreateGameResponse* resp) {
    return reply(logic_.create_game(*req), resp);
}

grpc::Status GrpcGameService::JoinGame(grpc::ServerContext*, const v1::JoinGameRequest* req,
                                       v1::JoinGameResponse* resp) {
    return reply(logic_.join_game(*req), resp);
}

grpc::Status GrpcGameService::GetGame(grpc::ServerContext*, const v1::GetGameRequest* req,
                                      v1::GetGameResponse* resp) {
    return reply(logic_.get_game(*req), resp);
}

grpc::Status GrpcGameService::ListGames(grpc::ServerContext*, const v1::ListGamesRequest* req,
                                        v1::ListGamesResponse* resp) {
    return reply(logic_.list_games(*req), resp);
}

grpc::Status GrpcGameService::MakeMove(grpc::ServerContext* ctx, const v1::MakeMoveRequest* req,
                                       v1::MakeMoveResponse* resp) {
    return reply(logic_.make_move(*req, authorization_of(*ctx)), resp);
}

grpc::Status GrpcGameService::ListMoves(grpc::ServerContext*, const v1::ListMovesRequest* req,
                                        v1::ListMovesResponse* resp) {
    return reply(logic_.list_moves(*req), resp);
}

grpc::Status GrpcGameService::ResignGame(grpc::ServerContext* ctx, const v1::ResignGameRequest* req,
                                         v1::ResignGameResponse* resp) {
    return reply(logic_.resign_game(*req, authorization_of(*ctx)), resp);
}

grpc::Status GrpcGameService::OfferDraw(grpc::ServerContext* ctx, const v1::OfferDrawRequest* req,
                                        v1::OfferDrawResponse* resp) {
    return reply(logic_.offer_draw(*req, authorization_of(*ctx)), resp);
}

grpc::Status GrpcGameService::RespondDraw(grpc::ServerContext* ctx,
                                          const v1::RespondDrawRequest* req,
                                          v1::RespondDrawResponse* resp) {
    return reply(logic_.respond_draw(*req, authorization_of(*ctx)), resp);
}

grpc::ServerWriteReactor<v1::WatchGameResponse>* GrpcGameService::WatchGame(
    grpc::CallbackServerContext*, const v1::WatchGameRequest*) {
    // Live streams arrive with the watch hub; until then say so plainly.
    class Unimplemented : public grpc::ServerWriteReactor<v1::WatchGameResponse> {
      public:
        Unimplemented() {
            Finish(grpc::Status(grpc::StatusCode::UNIMPLEMENTED, "WatchGame is not served yet"));
        }
        void OnDone() override { delete this; }
    };
    return new Unimplemented();
}

}  // namespace foxgeese::service
