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

// What a unary RPC answered, and the game it was about for the access log:
// the request's game_id, else the response's (game_id, or game.game_id as
// CreateGame answers); empty unless a well-formed game id, so nothing a
// client made up reaches a log line.
struct RpcOutcome {
    ServiceResult<MessagePtr> response;
    std::string game_id;
};

struct RpcMethod {
    const google::protobuf::MethodDescriptor* descriptor;
    // An empty request message of the method's input type.
    std::function<MessagePtr()> new_request;
    // The unary call, with the call-level checks (one authorization value);
    // empty for the server-streaming WatchGame, which the transports serve
    // through the watch hub, and for `start` below.
    std::function<RpcOutcome(GameService&, const google::protobuf::Message&, const CallContext&)>
        call;
    // A unary call that answers later instead (SeekGame, which waits for an
    // opponent without holding a worker): it calls `done` exactly once, on
    // any thread. Set instead of `call`.
    using Done = std::function<void(RpcOutcome)>;
    std::function<void(GameService&, const google::protobuf::Message&, const CallContext&, Done)>
        start;

    const std::string& name() const { return descriptor->name(); }
    bool streaming() const { return !call && !start; }
};

// The service's descriptor, as compiled in.
const google::protobuf::ServiceDescriptor& foxgeese_service_descriptor();

// Every method, in the proto's order (a method's index is its position in
// the service). Throws std::logic_error at first use if the table and the
// proto disagree: a start-up failure, never a runtime surprise.
const std::vector<RpcMethod>& rpc_methods();
const RpcMethod* find_rpc(std::string_view name);

// A game id as the access log takes it: `id` when it is a well-formed game
// id, else empty.
std::string loggable_game_id(const std::string& id);

}  // namespace foxgeese::service
