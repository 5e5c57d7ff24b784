// The access log: one line per request and per finished stream, from both
// transports, in the process's log format (logfmt-style text or one JSON
// object). It carries what an operator needs to follow a call (method,
// status and reason, duration, game, request id, peer, bytes) and never a
// credential: tokens, invite codes and CreateGame/JoinGame request ids are
// not fields of an entry, so no code path can log them.
#pragma once

#include <spdlog/logger.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "service/runtime/logging.h"

namespace foxgeese::service {

struct AccessEntry {
    std::string_view transport;  // "grpc" or "http"
    // The RPC's name for gRPC; for HTTP the method and the route template
    // ("POST /v1/games/{game_id}/moves"), never the raw path.
    std::string method;
    std::string rpc;          // HTTP: the RPC the route serves, if any
    int http_status = 0;      // HTTP only
    std::string_view code;    // the gRPC status code name, "OK" included
    std::string_view reason;  // the error's stable reason; empty for OK
    std::chrono::nanoseconds duration{0};
    std::string game_id;                  // only a well-formed game id; else empty
    std::string request_id;               // the correlation id (X-Request-Id)
    std::string peer;                     // the client's address (trusted X-Forwarded-For)
    std::uint64_t bytes_in = 0;           // the request's body / message
    std::uint64_t bytes_out = 0;          // the response's body / messages
    std::optional<std::uint64_t> events;  // watch streams: events sent
    // Probes and metrics scrapes come every few seconds: logged at debug.
    bool routine = false;
};

class AccessLog {
  public:
    // Writes to `logger` (the process's access logger when null) in `format`;
    // a disabled log writes nothing.
    AccessLog(bool enabled, std::shared_ptr<spdlog::logger> logger = nullptr,
              std::optional<LogFormat> format = std::nullopt);

    bool enabled() const { return enabled_; }
    void write(const AccessEntry& entry) const;

  private:
    bool enabled_;
    std::shared_ptr<spdlog::logger> logger_;
    LogFormat format_;
};

// The X-Request-Id a client sent, if it is one we repeat: 1 to 64 of
// [A-Za-z0-9._:-] (so it cannot break a log line or a header); otherwise a
// new random one. The transports send it back with the response.
std::string request_id_for(std::string_view sent);

}  // namespace foxgeese::service
