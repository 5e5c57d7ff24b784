// What both transports do around every call, written once: the call's
// context from its headers (credentials, Accept-Language, the client's
// address, the request id), the bounded work queue with its SERVER_BUSY
// answer, and the metrics and the access-log line when the call is over.
// gRPC and REST differ only in how they read headers and write answers.
#pragma once

#include <google/protobuf/message.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "service/core/call_context.h"
#include "service/core/game_service.h"
#include "service/core/rpc_table.h"
#include "service/runtime/access_log.h"
#include "service/runtime/metrics.h"
#include "service/runtime/work_queue.h"

namespace foxgeese::service {

// The headers of a call that the envelope reads, gathered from gRPC
// metadata or HTTP header fields one at a time; the others are left out.
class CallHeaders {
  public:
    // One header as it arrived; the name in any case.
    void add(std::string_view name, std::string_view value);

    const std::vector<std::string>& authorization() const { return authorization_; }
    const std::vector<std::string>& forwarded_for() const { return forwarded_for_; }
    // The first Accept-Language, cut to 256 bytes (it only picks a language).
    const std::string& accept_language() const { return accept_language_; }
    // The first X-Request-Id as sent; empty when none came.
    std::string_view request_id() const { return request_id_; }

  private:
    std::vector<std::string> authorization_;
    std::vector<std::string> forwarded_for_;
    std::string accept_language_;
    std::string request_id_;
    bool has_accept_language_ = false;
    bool has_request_id_ = false;
};

// SERVER_BUSY: the work queue is full; nothing was done.
ServiceError server_busy();

class CallEnvelope {
  public:
    using SteadyClock = std::chrono::steady_clock;

    // `transport` labels metrics and log lines: "grpc" or "http" (a literal).
    CallEnvelope(std::string_view transport, GameService& logic, Metrics& metrics, WorkQueue& work,
                 const AccessLog& access_log);

    // The client's address as rate limits and logs key it: the connection's
    // `peer`, or an X-Forwarded-For entry behind trusted proxies.
    std::string client_address(const CallHeaders& headers, const std::string& peer) const;

    // The access-log entry of a call as it arrives; its request id is the
    // client's X-Request-Id when plain, else a new one (request_id_for).
    AccessEntry entry(std::string method, const CallHeaders& headers,
                      std::string client_address) const;

    // What the game service knows of the call, received now on its Clock.
    CallContext context(const CallHeaders& headers, std::string client_address) const;

    // Runs `work` on the work queue; false (and `work` dropped) when the
    // queue is full: answer server_busy().
    bool post(std::function<void()> work);

    // Calls `method` here (on a worker), then `done` with what it answered:
    // at once, or later from another thread for a method that answers
    // later (RpcMethod::start); an exception is INTERNAL.
    void call(const RpcMethod& method, const google::protobuf::Message& request,
              const CallContext& call, const std::function<void(RpcOutcome)>& done) const;

    // post() and call(), then `done` with the outcome; a full queue calls
    // `done` at once with SERVER_BUSY.
    void run(const RpcMethod& method, std::shared_ptr<const google::protobuf::Message> request,
             CallContext call, std::function<void(RpcOutcome)> done);

    // A call of `rpc` that ended with `code`, in the request counter and the
    // latency histogram (time since `received`). Nothing for an empty `rpc`.
    void count(std::string_view rpc, StatusCode code, SteadyClock::time_point received) const;

    // The call's access-log line: `entry` completed with its code, reason,
    // duration since `received` and the bytes sent.
    void log(AccessEntry& entry, StatusCode code, std::string_view reason,
             SteadyClock::time_point received, std::uint64_t bytes_out) const;

    // The end of a call: count() and log().
    void finish(AccessEntry& entry, std::string_view rpc, StatusCode code, std::string_view reason,
                SteadyClock::time_point received, std::uint64_t bytes_out) const;

    Metrics& metrics() const { return metrics_; }
    const AccessLog& access_log() const { return access_log_; }

  private:
    const std::string_view transport_;
    GameService& logic_;
    Metrics& metrics_;
    WorkQueue& work_;
    const AccessLog& access_log_;
};

}  // namespace foxgeese::service
