// WatchGame over gRPC: a callback-API write reactor per stream, fed by the
// watch hub. The method is registered raw (ByteBuffer), so each event's
// bytes, serialized once by the hub, go to every stream without a copy.
// Subscribing reads the database, so it runs on the work queue, not in the
// reactor's constructor; events queue in the reactor and are written one at
// a time, and an idle stream holds no thread.
#pragma once

#include <grpcpp/grpcpp.h>

#include "service/call/call_envelope.h"
#include "service/watch/watch_hub.h"

namespace foxgeese::service {

// Creates the reactor for one WatchGame call (it deletes itself when done,
// after its line in the access log).
grpc::ServerWriteReactor<grpc::ByteBuffer>* start_grpc_watch(grpc::CallbackServerContext* context,
                                                             const grpc::ByteBuffer& request,
                                                             WatchHub& hub, CallEnvelope& envelope);

}  // namespace foxgeese::service
