// What every client command shares: the --server and --token flags, the
// channel to a foxgeese-server, the seat token sent as bearer metadata, and a
// failed call reported as one line.
#pragma once

#include <grpcpp/grpcpp.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "foxgeese/v1/game_service.grpc.pb.h"

namespace foxgeese::cli {

// Exit status when the server refuses a call or cannot be reached.
constexpr int kServerError = 1;

constexpr std::string_view kDefaultServer = "localhost:50051";
constexpr std::chrono::seconds kCallTimeout{10};

// --server and --token, which every client command takes. --server defaults
// to $FOXGEESE_SERVER, then kDefaultServer; --token to $FOXGEESE_TOKEN.
struct ServerFlags {
    std::string server;
    std::string token;
};

void add_server_flags(CLI::App& command, ServerFlags& flags);

// What is wrong with the flags, or "" (the token itself is never echoed: it
// is a secret even when it is wrong).
std::string check_server_flags(const ServerFlags& flags);

class ClientConnection {
  public:
    using Stub = v1::FoxGeeseService::Stub;

    explicit ClientConnection(const ServerFlags& flags);

    const std::string& server() const { return server_; }
    bool has_token() const { return token_.has_value(); }

    // One unary call with a deadline; `as_seat` sends the seat token (if
    // there is one: without it the server answers TOKEN_REQUIRED).
    template <class Request, class Response>
    grpc::Status call(grpc::Status (Stub::*method)(grpc::ClientContext*, const Request&, Response*),
                      const Request& request, Response& response, bool as_seat = false) {
        grpc::ClientContext context;
        prepare(context, as_seat);
        return (stub_.get()->*method)(&context, request, &response);
    }

    // Opens a WatchGame stream on `context`, with no deadline (it lasts as
    // long as the game) and with the seat token, so that the server shows the
    // seat as present while the stream is open.
    std::unique_ptr<grpc::ClientReader<v1::WatchGameResponse>> watch(
        grpc::ClientContext& context, const v1::WatchGameRequest& request);

  private:
    void prepare(grpc::ClientContext& context, bool as_seat) const;
    void add_token(grpc::ClientContext& context) const;

    std::string server_;
    std::optional<std::string> token_;
    std::unique_ptr<Stub> stub_;
};

// The ErrorInfo reason of a failed call, or the name of its gRPC code when the
// server attached none (e.g. "UNAVAILABLE" when nothing listens).
std::string error_reason(const grpc::Status& status);

// Writes "foxgeese: REASON: message" to `err` and returns kServerError. The
// message says which address was tried when the server could not be reached.
int report_error(const grpc::Status& status, std::string_view server, std::ostream& err);

}  // namespace foxgeese::cli
