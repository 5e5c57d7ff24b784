#include "service/grpc/grpc_game_service.h"

#include "service/core/error_status.h"
#include "service/grpc/grpc_watch_stream.h"

namespace foxgeese::service {
template <class Response>
grpc::Status GrpcGameService::reply(const char* method, std::chrono::steady_clock::time_point start,
                                    ServiceResult<Response> outcome, Response* out) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    metrics_.request_seconds.observe({method, "grpc"}, seconds);
    if (!outcome.ok()) {
        metrics_.requests.add({method, "grpc", status_code_name(outcome.error().code)});
        return to_grpc_status(outcome.error());
    }
    metrics_.requests.add({method, "grpc", "OK"});
    *out = std::move(outcome.value());
    return grpc::Status::OK;
}

grpc::Status to_grpc_status(const ServiceError& error) {
    return grpc::Status(static_cast<grpc::StatusCode>(error.code), error.message,
                        status_of(error).SerializeAsString());
}

std::optional<std::string> authorization_of(const grpc::ServerContextBase& context) {
    const auto& metadata = context.client_metadata();
    const auto it = metadata.find("authorization");
    if (it == metadata.end()) return std::nullopt;
    return std::string(it->second.data(), it->second.size());
}

grpc::Status GrpcGameService::ListVariants(grpc::ServerContext* ctx,
                                           const v1::ListVariantsRequest* req,
                                           v1::ListVariantsResponse* resp) {
    const auto start = std::chrono::steady_clock::now();
    // Like Accept-Language over HTTP: metadata speaks when the field is empty.
    v1::ListVariantsRequest request = *req;
    if (request.language().empty()) {
        const auto& metadata = ctx->client_metadata();
        if (const auto it = metadata.find("accept-language"); it != metadata.end()) {
            request.set_language(
                std::string(it->second.data(), std::min<std::size_t>(it->second.size(), 256)));
        }
    }
    return reply("ListVariants", start, logic_.list_variants(request), resp);
}

grpc::Status GrpcGameService::CreateGame(grpc::ServerContext*, const v1::CreateGameRequest* req,
                                         v1::CreateGameResponse* resp) {
    const auto start = std::chrono::steady_clock::now();
    return reply("CreateGame", start, logic_.create_game(*req), resp);
}

grpc::Status GrpcGameService::JoinGame(grpc::ServerContext*, const v1::JoinGameRequest* req,
                                       v1::JoinGameResponse* resp) {
    const auto start = std::chrono::steady_clock::now();
    return reply("JoinGame", start, logic_.join_game(*req), resp);
}

grpc::Status GrpcGameService::GetGame(grpc::ServerContext*, const v1::GetGameRequest* req,
                                      v1::GetGameResponse* resp) {
    const auto start = std::chrono::steady_clock::now();
    return reply("GetGame", start, logic_.get_game(*req), resp);
}

grpc::Status GrpcGameService::ListGames(grpc::ServerContext*, const v1::ListGamesRequest* req,
                                        v1::ListGamesResponse* resp) {
    const auto start = std::chrono::steady_clock::now();
    return reply("ListGames", start, logic_.list_games(*req), resp);
}

grpc::Status GrpcGameService::MakeMove(grpc::ServerContext* ctx, const v1::MakeMoveRequest* req,
                                       v1::MakeMoveResponse* resp) {
    const auto start = std::chrono::steady_clock::now();
    return reply("MakeMove", start, logic_.make_move(*req, authorization_of(*ctx)), resp);
}

grpc::Status GrpcGameService::ListMoves(grpc::ServerContext*, const v1::ListMovesRequest* req,
                                        v1::ListMovesResponse* resp) {
    const auto start = std::chrono::steady_clock::now();
    return reply("ListMoves", start, logic_.list_moves(*req), resp);
}

grpc::Status GrpcGameService::ResignGame(grpc::ServerContext* ctx, const v1::ResignGameRequest* req,
                                         v1::ResignGameResponse* resp) {
    const auto start = std::chrono::steady_clock::now();
    return reply("ResignGame", start, logic_.resign_game(*req, authorization_of(*ctx)), resp);
}

grpc::Status GrpcGameService::OfferDraw(grpc::ServerContext* ctx, const v1::OfferDrawRequest* req,
                                        v1::OfferDrawResponse* resp) {
    const auto start = std::chrono::steady_clock::now();
    return reply("OfferDraw", start, logic_.offer_draw(*req, authorization_of(*ctx)), resp);
}

grpc::Status GrpcGameService::RespondDraw(grpc::ServerContext* ctx,
                                          const v1::RespondDrawRequest* req,
                                          v1::RespondDrawResponse* resp) {
    const auto start = std::chrono::steady_clock::now();
    return reply("RespondDraw", start, logic_.respond_draw(*req, authorization_of(*ctx)), resp);
}

grpc::ServerWriteReactor<grpc::ByteBuffer>* GrpcGameService::WatchGame(
    grpc::CallbackServerContext* context, const grpc::ByteBuffer* request) {
    return start_grpc_watch(context, *request, hub_, metrics_);
}

}  // namespace foxgeese::service
