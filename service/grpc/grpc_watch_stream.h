// WatchGame over gRPC: a callback-API write reactor per stream, fed by the
// watch hub. The method is registered raw (ByteBuffer), so each event's
// bytes, serialized once by the hub, go to every stream without a copy.
// Events queue in the reactor and are written one at a time; an idle stream
// holds no thread.
#pragma once

#include <grpcpp/grpcpp.h>

#include "foxgeese/v1/game_service.grpc.pb.h"
#include "service/runtime/metrics.h"
#include "service/watch/watch_hub.h"

namespace foxgeese::service {

// Creates the reactor for one WatchGame call (it deletes itself when done).
grpc::ServerWriteReactor<grpc::ByteBuffer>* start_grpc_watch(grpc::CallbackServerContext* context,
                                                             const grpc::ByteBuffer& request,
                                                             WatchHub& hub, Metrics& metrics);

}  // namespace foxgeese::service
