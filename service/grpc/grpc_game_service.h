// The gRPC face of the game service. Every method of FoxGeeseService is
// registered raw (bytes in, bytes out) and served from the RPC table, so the
// server parses requests itself: a malformed message or a string that is not
// UTF-8 is INVALID_ARGUMENT with a reason, counted like any other answer.
// Unary calls run on the shared work queue, never on gRPC's own threads;
// WatchGame streams are reactors fed by the watch hub.
#pragma once

#include <grpcpp/grpcpp.h>

#include "foxgeese/v1/game_service.grpc.pb.h"
#include "service/core/call_context.h"
#include "service/core/game_service.h"
#include "service/core/rpc_table.h"
#include "service/runtime/access_log.h"
#include "service/runtime/metrics.h"
#include "service/runtime/work_queue.h"
#include "service/watch/watch_hub.h"

namespace foxgeese::service {

// The most metadata one call may carry, counted as HTTP/2 does (name, value
// and 32 bytes per entry). gRPC's own parser is set far higher (see
// Replica), because in gRPC 1.51 its refusal also ends the other streams of
// the same connection; this limit fails only the call that broke it.
constexpr std::size_t kMaxCallMetadataBytes = 8 * 1024;

// The address of a gRPC peer string ("ipv4:10.0.0.7:51234",
// "ipv6:%5B::1%5D:51234") without its scheme and port: "::1".
std::string peer_address(const std::string& peer);

// The status for an error, with its google.rpc.Status in the details.
grpc::Status to_grpc_status(const ServiceError& error);

// The call's context: every authorization value, Accept-Language, the
// deadline, whether the client is still there, and the client's address
// (from x-forwarded-for when `trusted_hops` proxies stand in front).
CallContext call_context_of(const grpc::CallbackServerContext& context, int trusted_hops);

// HEADERS_TOO_LARGE when the call's metadata is over kMaxCallMetadataBytes.
std::optional<ServiceError> check_metadata_size(const grpc::CallbackServerContext& context);

// The access-log entry of a call as it arrives: method, peer, and the
// request id (the client's x-request-id if plain, else a new one), which is
// added to the response's initial metadata.
AccessEntry access_entry_of(grpc::CallbackServerContext& context, const std::string& method,
                            const std::string& peer);

class GrpcGameService : public v1::FoxGeeseService::Service {
  public:
    GrpcGameService(GameService& logic, WatchHub& hub, Metrics& metrics, WorkQueue& work,
                    const AccessLog& access_log);

  private:
    grpc::ServerUnaryReactor* serve_unary(const RpcMethod& method,
                                          grpc::CallbackServerContext* context,
                                          const grpc::ByteBuffer* request,
                                          grpc::ByteBuffer* response);

    GameService& logic_;
    WatchHub& hub_;
    Metrics& metrics_;
    WorkQueue& work_;
    const AccessLog& access_log_;
};

}  // namespace foxgeese::service
