// The one hand-written map from the RPCs of foxgeese.v1.FoxGeeseService to
// the game service's methods. Both transports serve from it: gRPC registers
// every method of the service generically, REST binds each to the route its
// google.api.http annotation names. Request types and streaming are checked
// against the proto's descriptors when the table is built.
#pragma once

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "service/core/call_context.h"
#include "service/core/game_service.h"

namespace foxgeese::service {

using MessagePtr = std::unique_ptr<google::protobuf::Message>;

struct RpcMethod {
    const google::protobuf::MethodDescriptor* descriptor;
    // An empty request message of the method's input type.
    std::function<MessagePtr()> new_request;
    // The unary call; empty for the server-streaming WatchGame, which the
    // transports serve through the watch hub.
    std::function<ServiceResult<MessagePtr>(GameService&, const google::protobuf::Message&,
                                            const CallContext&)>
        call;

    const std::string& name() const { return descriptor->name(); }
    bool streaming() const { return !call; }
};

// The service's descriptor, as compiled in.
const google::protobuf::ServiceDescriptor& foxgeese_service_descriptor();

// Every method, in the proto's order (a method's index is its position in
// the service). Throws std::logic_error at first use if the table and the
// proto disagree: a start-up failure, never a runtime surprise.
const std::vector<RpcMethod>& rpc_methods();
const RpcMethod* find_rpc(std::string_view name);

// The game a call is about, for the access log: the request's game_id, else
// the response's (game_id, or game.game_id as CreateGame answers); empty
// when neither holds a well-formed game id, so nothing a client made up
// reaches a log line.
std::string game_id_of_call(const google::protobuf::Message& request,
                            const google::protobuf::Message* response);

// Runs a unary method: the call-level checks (one authorization value), then
// the game service.
ServiceResult<MessagePtr> call_rpc(const RpcMethod& method, GameService& service,
                                   const google::protobuf::Message& request,
                                   const CallContext& call);

}  // namespace foxgeese::service
