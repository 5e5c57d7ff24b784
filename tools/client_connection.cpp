#include "client_connection.h"

#include <ostream>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace foxgeese::cli {
namespace {

// Metadata values must be printable ASCII; anything else is not a token the
// server handed out, and gRPC would refuse to send it.
bool is_plausible_token(std::string_view token) {
    if (token.empty()) return false;
    for (const char c : token) {
        if (c <= ' ' || c > '~') return false;
    }
    return true;
}

std::string_view code_name(grpc::StatusCode code) {
    switch (code) {
        case grpc::StatusCode::OK:
            return "OK";
        case grpc::StatusCode::CANCELLED:
            return "CANCELLED";
        case grpc::StatusCode::UNKNOWN:
            return "UNKNOWN";
        case grpc::StatusCode::INVALID_ARGUMENT:
            return "INVALID_ARGUMENT";
        case grpc::StatusCode::DEADLINE_EXCEEDED:
            return "DEADLINE_EXCEEDED";
        case grpc::StatusCode::NOT_FOUND:
            return "NOT_FOUND";
        case grpc::StatusCode::ALREADY_EXISTS:
            return "ALREADY_EXISTS";
        case grpc::StatusCode::PERMISSION_DENIED:
            return "PERMISSION_DENIED";
        case grpc::StatusCode::RESOURCE_EXHAUSTED:
            return "RESOURCE_EXHAUSTED";
        case grpc::StatusCode::FAILED_PRECONDITION:
            return "FAILED_PRECONDITION";
        case grpc::StatusCode::ABORTED:
            return "ABORTED";
        case grpc::StatusCode::OUT_OF_RANGE:
            return "OUT_OF_RANGE";
        case grpc::StatusCode::UNIMPLEMENTED:
            return "UNIMPLEMENTED";
        case grpc::StatusCode::INTERNAL:
            return "INTERNAL";
        case grpc::StatusCode::UNAVAILABLE:
            return "UNAVAILABLE";
        case grpc::StatusCode::DATA_LOSS:
            return "DATA_LOSS";
        case grpc::StatusCode::UNAUTHENTICATED:
            return "UNAUTHENTICATED";
        default:
            return "UNKNOWN";
    }
}

// The server's message on one line, whatever it holds.
std::string one_line(std::string_view text) {
    std::string out;
    for (const char c : text)
        out += (c == '\n' || c == '\r') ? ' ' : c;
    return out;
}

}  // namespace

void add_server_flags(CLI::App& command, ServerFlags& flags) {
    flags.server = std::string(kDefaultServer);
    command.add_option("--server", flags.server)->envname("FOXGEESE_SERVER");
    command.add_option("--token", flags.token)->envname("FOXGEESE_TOKEN");
}

std::string check_server_flags(const ServerFlags& flags) {
    if (flags.server.empty()) return "--server needs HOST:PORT";
    if (!flags.token.empty() && !is_plausible_token(flags.token)) {
        return "the seat token (--token or FOXGEESE_TOKEN) must be printable ASCII without spaces";
    }
    return "";
}

ClientConnection::ClientConnection(const ServerFlags& flags)
    : server_(flags.server),
      token_(flags.token.empty() ? std::nullopt : std::optional<std::string>(flags.token)),
      stub_(v1::FoxGeeseService::NewStub(
          grpc::CreateChannel(server_, grpc::InsecureChannelCredentials()))) {}

void ClientConnection::prepare(grpc::ClientContext& context, bool as_seat) const {
    context.set_deadline(std::chrono::system_clock::now() + kCallTimeout);
    if (as_seat) add_token(context);
}

void ClientConnection::add_token(grpc::ClientContext& context) const {
    if (token_) context.AddMetadata("authorization", "Bearer " + *token_);
}

std::unique_ptr<grpc::ClientReader<v1::WatchGameResponse>> ClientConnection::watch(
    grpc::ClientContext& context, const v1::WatchGameRequest& request) {
    add_token(context);
    return stub_->WatchGame(&context, request);
}

std::string error_reason(const grpc::Status& status) {
    google::rpc::Status details;
    if (!status.error_details().empty() && details.ParseFromString(status.error_details())) {
        for (const google::protobuf::Any& any : details.details()) {
            google::rpc::ErrorInfo info;
            if (any.UnpackTo(&info) && !info.reason().empty()) return info.reason();
        }
    }
    return std::string(code_name(status.error_code()));
}

int report_error(const grpc::Status& status, std::string_view server, std::ostream& err) {
    const std::string reason = error_reason(status);
    std::string message = one_line(status.error_message());
    if (reason == "UNAVAILABLE") {
        message = "cannot reach a foxgeese server at " + std::string(server) + " (" + message + ")";
    } else if (reason == "DEADLINE_EXCEEDED") {
        message = "no answer from " + std::string(server) + " within " +
                  std::to_string(kCallTimeout.count()) + " s";
    } else if (reason == "TOKEN_REQUIRED") {
        message += " (give it with --token TOKEN or FOXGEESE_TOKEN)";
    }
    err << "foxgeese: " << reason << ": " << message << "\n";
    return kServerError;
}

}  // namespace foxgeese::cli
