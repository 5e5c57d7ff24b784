#include "client_connection.h"

#include <cstdlib>
#include <ostream>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace foxgeese::cli {
namespace {

std::optional<std::string> environment(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
}

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

std::optional<std::string> ClientArgs::value(std::string_view flag) const {
    const auto it = flags.find(flag);
    if (it == flags.end()) return std::nullopt;
    return it->second;
}

std::string parse_client_args(std::span<const std::string_view> args,
                              std::span<const FlagSpec> flags, ClientArgs& out) {
    std::optional<std::string> server = environment("FOXGEESE_SERVER");
    out.token = environment("FOXGEESE_TOKEN");
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view arg = args[i];
        if (!arg.starts_with("--")) {
            out.positional.emplace_back(arg);
            continue;
        }
        std::optional<std::string_view> inline_value;
        if (const auto eq = arg.find('='); eq != std::string_view::npos) {
            inline_value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        }
        bool takes_value = arg == "--server" || arg == "--token";
        bool known = takes_value;
        for (const FlagSpec& spec : flags) {
            if (spec.name == arg) {
                known = true;
                takes_value = spec.takes_value;
            }
        }
        if (!known) return "unknown option " + std::string(arg);
        std::string value;
        if (takes_value) {
            if (inline_value) {
                value = std::string(*inline_value);
            } else if (i + 1 < args.size()) {
                value = std::string(args[++i]);
            } else {
                return std::string(arg) + " needs a value";
            }
        } else if (inline_value) {
            return std::string(arg) + " takes no value";
        }
        if (arg == "--server") {
            server = value;
        } else if (arg == "--token") {
            out.token = value;
        } else {
            out.flags[std::string(arg)] = value;
        }
    }
    out.server = server.value_or(std::string(kDefaultServer));
    if (out.server.empty()) return "--server needs HOST:PORT";
    // Never echo the token: it is a secret even when it is wrong.
    if (out.token && !is_plausible_token(*out.token)) {
        return "the seat token (--token or FOXGEESE_TOKEN) must be printable ASCII without spaces";
    }
    return "";
}

ClientConnection::ClientConnection(const ClientArgs& args)
    : server_(args.server),
      token_(args.token),
      stub_(v1::FoxGeeseService::NewStub(
          grpc::CreateChannel(server_, grpc::InsecureChannelCredentials()))) {}

void ClientConnection::prepare(grpc::ClientContext& context, bool as_seat) const {
    context.set_deadline(std::chrono::system_clock::now() + kCallTimeout);
    if (as_seat && token_) context.AddMetadata("authorization", "Bearer " + *token_);
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
