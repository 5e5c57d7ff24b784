// The gRPC face of the game service. Every method of FoxGeeseService is
// registered raw (bytes in, bytes out) and served from the RPC table, so the
// server parses requests itself: a malformed message or a string that is not
// UTF-8 is INVALID_ARGUMENT with a reason, counted like any other answer.
// Unary calls run on the shared work queue, never on gRPC's own threads;
// WatchGame streams are reactors fed by the watch hub.
#pragma once

#include <grpcpp/grpcpp.h>

#include "foxgeese/v1/game_service.grpc.pb.h"
#include "service/call/call_envelope.h"
#include "service/core/game_service.h"
#include "service/core/rpc_table.h"
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

// HEADERS_TOO_LARGE when the call's metadata is over kMaxCallMetadataBytes.
std::optional<ServiceError> check_metadata_size(const grpc::CallbackServerContext& context);

// A gRPC call as it arrives, in the envelope: what the game service knows of
// it (with the deadline, and whether the client is still there) and its
// access-log entry, whose request id goes back in the initial metadata.
struct GrpcCall {
    CallContext context;
    AccessEntry entry;
};
GrpcCall begin_grpc_call(const CallEnvelope& envelope, grpc::CallbackServerContext& context,
                         const std::string& method);

class GrpcGameService : public v1::FoxGeeseService::Service {
  public:
    GrpcGameService(GameService& logic, WatchHub& hub, Metrics& metrics, WorkQueue& work,
                    const AccessLog& access_log);

  private:
    grpc::ServerUnaryReactor* serve_unary(const RpcMethod& method,
                                          grpc::CallbackServerContext* context,
                                          const grpc::ByteBuffer* request,
                                          grpc::ByteBuffer* response);

    WatchHub& hub_;
    CallEnvelope envelope_;
};

}  // namespace foxgeese::service
