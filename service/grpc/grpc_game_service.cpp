#include "service/grpc/grpc_game_service.h"

#include <grpcpp/support/proto_buffer_reader.h>

#include <cctype>
#include <chrono>
#include <string_view>
#include <vector>

#include "service/core/error_status.h"
#include "service/core/rate_limits.h"
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

namespace {

ServiceError server_busy() {
    return make_error(StatusCode::kUnavailable, "SERVER_BUSY",
                      "this server has too many calls waiting; retry shortly",
                      {{"write_outcome", "NOT_APPLIED"}});
}

}  // namespace

grpc::Status to_grpc_status(const ServiceError& error) {
    return grpc::Status(static_cast<grpc::StatusCode>(error.code), error.message,
                        status_of(error).SerializeAsString());
}

CallContext call_context_of(const grpc::CallbackServerContext& context, int trusted_hops) {
    CallContext call;
    const auto& metadata = context.client_metadata();
    std::vector<std::string> forwarded;
    for (auto [it, end] = metadata.equal_range("x-forwarded-for"); it != end; ++it)
        forwarded.emplace_back(it->second.data(), it->second.size());
    call.client_address = client_address(peer_address(context.peer()), forwarded, trusted_hops);
    for (auto [it, end] = metadata.equal_range("authorization"); it != end; ++it)
        call.authorization.emplace_back(it->second.data(), it->second.size());
    if (const auto it = metadata.find("accept-language"); it != metadata.end())
        call.accept_language.assign(it->second.data(),
                                    std::min<std::size_t>(it->second.size(), 256));
    // gRPC states deadlines on the system clock; budgets run on the steady one.
    const auto deadline = context.deadline();
    if (deadline != std::chrono::system_clock::time_point::max()) {
        call.deadline = SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                                                 deadline - std::chrono::system_clock::now());
    }
    call.cancelled = [&context] { return context.IsCancelled(); };
    return call;
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

AccessEntry access_entry_of(grpc::CallbackServerContext& context, const std::string& method,
                            const std::string& peer) {
    AccessEntry entry;
    entry.transport = "grpc";
    entry.method = method;
    entry.peer = peer;
    const auto& metadata = context.client_metadata();
    const auto sent = metadata.find("x-request-id");
    entry.request_id = request_id_for(
        sent == metadata.end() ? std::string_view()
                               : std::string_view(sent->second.data(), sent->second.size()));
    // Sent with the response's headers, so the client can quote it.
    context.AddInitialMetadata("x-request-id", entry.request_id);
    return entry;
}

GrpcGameService::GrpcGameService(GameService& logic, WatchHub& hub, Metrics& metrics,
                                 WorkQueue& work, const AccessLog& access_log)
    : logic_(logic), hub_(hub), metrics_(metrics), work_(work), access_log_(access_log) {
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
                        return start_grpc_watch(context, *request, hub_, metrics_, work_,
                                                access_log_,
                                                logic_.options().limits.trusted_proxy_hops);
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
    const auto start = SteadyClock::now();
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    CallContext call = call_context_of(*context, logic_.options().limits.trusted_proxy_hops);
    auto entry = std::make_shared<AccessEntry>(
        access_entry_of(*context, method.name(), call.client_address));
    entry->bytes_in = request->Length();
    auto finish = [this, &method, start, reactor, entry, response](const ServiceError* error) {
        const auto took = SteadyClock::now() - start;
        metrics_.request_seconds.observe({method.name(), "grpc"},
                                         std::chrono::duration<double>(took).count());
        entry->code = error ? status_code_name(error->code) : "OK";
        metrics_.requests.add({method.name(), "grpc", std::string(entry->code)});
        if (error) entry->reason = error->reason;
        entry->duration = took;
        entry->bytes_out = error ? 0 : response->Length();
        access_log_.write(*entry);
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
    call.received_us = logic_.clock().now_us();
    const bool queued =
        work_.post([this, &method, message, response, finish, entry, call = std::move(call)] {
            const ServiceResult<MessagePtr> outcome = call_rpc(method, logic_, *message, call);
            entry->game_id =
                game_id_of_call(*message, outcome.ok() ? outcome.value().get() : nullptr);
            if (!outcome.ok()) return finish(&outcome.error());
            *response = serialized(*outcome.value());
            finish(nullptr);
        });
    if (!queued) {
        const ServiceError error = server_busy();
        finish(&error);
    }
    return reactor;
}

}  // namespace foxgeese::service
