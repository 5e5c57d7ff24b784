#include "service/grpc/grpc_game_service.h"

#include <grpcpp/support/proto_buffer_reader.h>

#include <cctype>
#include <chrono>
#include <string_view>

#include "service/core/error_status.h"
#include "service/grpc/grpc_watch_stream.h"

namespace foxgeese::service {
namespace {

using SteadyClock = std::chrono::steady_clock;

// A request message from the raw bytes of a call.
bool parse_request(const grpc::ByteBuffer& bytes, google::protobuf::Message& message) {
    grpc::ByteBuffer view(bytes);  // shares the slices; the reader consumes the view
    grpc::ProtoBufferReader reader(&view);
    return message.ParseFromZeroCopyStream(&reader);
}

grpc::ByteBuffer serialized(const google::protobuf::Message& message) {
    const std::string bytes = message.SerializeAsString();
    grpc::Slice slice(bytes);
    return grpc::ByteBuffer(&slice, 1);
}

ServiceError malformed_request(const RpcMethod& method) {
    return make_error(StatusCode::kInvalidArgument, "MALFORMED_REQUEST",
                      "the request is not a valid " + method.descriptor->input_type()->full_name() +
                          " (malformed protobuf, or a string field that is not UTF-8)");
}

// gRPC writes peers as URIs: the brackets of an IPv6 address come
// percent-encoded ("ipv6:%5B::1%5D:51234").
std::string percent_decoded(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() &&
            std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
            out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

}  // namespace

// "ipv4:10.0.0.7:51234" or "ipv6:%5B::1%5D:51234" as the address alone.
std::string peer_address(const std::string& uri) {
    const std::string peer = percent_decoded(uri);
    std::string_view rest = peer;
    const auto colon = rest.find(':');
    if (colon == std::string_view::npos) return peer;
    rest.remove_prefix(colon + 1);
    if (!rest.empty() && rest.front() == '[') {
        const auto close = rest.find(']');
        return std::string(
            rest.substr(1, close == std::string_view::npos ? rest.size() - 1 : close - 1));
    }
    return std::string(rest.substr(0, rest.rfind(':')));
}

grpc::Status to_grpc_status(const ServiceError& error) {
    return grpc::Status(static_cast<grpc::StatusCode>(error.code), error.message,
                        status_of(error).SerializeAsString());
}

std::optional<ServiceError> check_metadata_size(const grpc::CallbackServerContext& context) {
    std::size_t total = 0;
    for (const auto& [key, value] : context.client_metadata())
        total += key.size() + value.size() + 32;
    if (total <= kMaxCallMetadataBytes) return std::nullopt;
    return make_error(
        StatusCode::kResourceExhausted, "HEADERS_TOO_LARGE",
        "the call's metadata is larger than " + std::to_string(kMaxCallMetadataBytes) + " bytes");
}

GrpcCall begin_grpc_call(const CallEnvelope& envelope, grpc::CallbackServerContext& context,
                         const std::string& method) {
    CallHeaders headers;
    for (const auto& [name, value] : context.client_metadata())
        headers.add(std::string_view(name.data(), name.size()),
                    std::string_view(value.data(), value.size()));
    const std::string address = envelope.client_address(headers, peer_address(context.peer()));
    GrpcCall call{envelope.context(headers, address), envelope.entry(method, headers, address)};
    // gRPC states deadlines on the system clock; budgets run on the steady one.
    const auto deadline = context.deadline();
    if (deadline != std::chrono::system_clock::time_point::max()) {
        call.context.deadline =
            SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                                     deadline - std::chrono::system_clock::now());
    }
    call.context.cancelled = [&context] { return context.IsCancelled(); };
    // Sent with the response's headers, so the client can quote it.
    context.AddInitialMetadata("x-request-id", call.entry.request_id);
    return call;
}

GrpcGameService::GrpcGameService(GameService& logic, WatchHub& hub, Metrics& metrics,
                                 WorkQueue& work, const AccessLog& access_log)
    : hub_(hub), envelope_("grpc", logic, metrics, work, access_log) {
    // The handler classes are the ones gRPC's generated code registers raw
    // methods with; using them directly serves every method from one loop.
    const auto& methods = rpc_methods();
    for (std::size_t i = 0; i < methods.size(); ++i) {
        const RpcMethod& method = methods[i];
        const int index = static_cast<int>(i);
        if (method.streaming()) {
            MarkMethodRawCallback(
                index,
                new grpc::internal::CallbackServerStreamingHandler<grpc::ByteBuffer,
                                                                   grpc::ByteBuffer>(
                    [this](grpc::CallbackServerContext* context, const grpc::ByteBuffer* request) {
                        return start_grpc_watch(context, *request, hub_, envelope_);
                    }));
        } else {
            MarkMethodRawCallback(
                index,
                new grpc::internal::CallbackUnaryHandler<grpc::ByteBuffer, grpc::ByteBuffer>(
                    [this, &method](grpc::CallbackServerContext* context,
                                    const grpc::ByteBuffer* request, grpc::ByteBuffer* response) {
                        return serve_unary(method, context, request, response);
                    }));
        }
    }
}

grpc::ServerUnaryReactor* GrpcGameService::serve_unary(const RpcMethod& method,
                                                       grpc::CallbackServerContext* context,
                                                       const grpc::ByteBuffer* request,
                                                       grpc::ByteBuffer* response) {
    const auto received = SteadyClock::now();
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    GrpcCall call = begin_grpc_call(envelope_, *context, method.name());
    auto entry = std::make_shared<AccessEntry>(std::move(call.entry));
    entry->bytes_in = request->Length();
    auto finish = [this, &method, received, reactor, entry, response](const ServiceError* error) {
        envelope_.finish(*entry, method.name(), error ? error->code : StatusCode::kOk,
                         error ? std::string_view(error->reason) : std::string_view(), received,
                         error ? 0 : response->Length());
        reactor->Finish(error ? to_grpc_status(*error) : grpc::Status::OK);
    };
    if (auto error = check_metadata_size(*context)) {
        finish(&*error);
        return reactor;
    }
    std::shared_ptr<google::protobuf::Message> message = method.new_request();
    if (!parse_request(*request, *message)) {
        const ServiceError error = malformed_request(method);
        finish(&error);
        return reactor;
    }
    envelope_.run(method, message, std::move(call.context),
                  [response, finish, entry](RpcOutcome outcome) {
                      entry->game_id = std::move(outcome.game_id);
                      if (!outcome.response.ok()) return finish(&outcome.response.error());
                      *response = serialized(*outcome.response.value());
                      finish(nullptr);
                  });
    return reactor;
}

}  // namespace foxgeese::service
