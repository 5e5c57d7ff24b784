#include "service/call/call_envelope.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>

#include "service/core/error_status.h"
#include "service/core/rate_limits.h"

namespace foxgeese::service {
namespace {

bool named(std::string_view name, std::string_view expected) {
    return name.size() == expected.size() &&
           std::equal(name.begin(), name.end(), expected.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == b;
           });
}

// More bytes than any language list needs; a longer one is cut, not refused.
constexpr std::size_t kMaxAcceptLanguageBytes = 256;

}  // namespace

void CallHeaders::add(std::string_view name, std::string_view value) {
    if (named(name, "authorization")) {
        authorization_.emplace_back(value);
    } else if (named(name, "x-forwarded-for")) {
        forwarded_for_.emplace_back(value);
    } else if (named(name, "accept-language") && !has_accept_language_) {
        has_accept_language_ = true;
        accept_language_ = value.substr(0, kMaxAcceptLanguageBytes);
    } else if (named(name, "x-request-id") && !has_request_id_) {
        has_request_id_ = true;
        request_id_ = value;
    }
}

ServiceError server_busy() {
    return make_error(StatusCode::kUnavailable, "SERVER_BUSY",
                      "this server has too many calls waiting; retry shortly",
                      {{"write_outcome", "NOT_APPLIED"}});
}

CallEnvelope::CallEnvelope(std::string_view transport, GameService& logic, Metrics& metrics,
                           WorkQueue& work, const AccessLog& access_log)
    : transport_(transport),
      logic_(logic),
      metrics_(metrics),
      work_(work),
      access_log_(access_log) {}

std::string CallEnvelope::client_address(const CallHeaders& headers,
                                         const std::string& peer) const {
    return service::client_address(peer, headers.forwarded_for(),
                                   logic_.options().limits.trusted_proxy_hops);
}

AccessEntry CallEnvelope::entry(std::string method, const CallHeaders& headers,
                                std::string client_address) const {
    AccessEntry entry;
    entry.transport = transport_;
    entry.method = std::move(method);
    entry.peer = std::move(client_address);
    entry.request_id = request_id_for(headers.request_id());
    return entry;
}

CallContext CallEnvelope::context(const CallHeaders& headers, std::string client_address) const {
    CallContext call;
    call.authorization = headers.authorization();
    call.accept_language = headers.accept_language();
    call.client_address = std::move(client_address);
    call.received_us = logic_.clock().now_us();
    return call;
}

bool CallEnvelope::post(std::function<void()> work) {
    return work_.post(std::move(work));
}

void CallEnvelope::call(const RpcMethod& method, const google::protobuf::Message& request,
                        const CallContext& call,
                        const std::function<void(RpcOutcome)>& done) const {
    std::optional<RpcOutcome> outcome;
    try {
        // A method that answers later owns `done` (and its own failures).
        if (method.start) return method.start(logic_, request, call, done);
        outcome = method.call(logic_, request, call);
    } catch (const std::exception& e) {
        spdlog::error("{}: {} failed: {}", transport_, method.name(), e.what());
        outcome = RpcOutcome{make_error(StatusCode::kInternal, "INTERNAL", "internal error"), {}};
    }
    done(std::move(*outcome));
}

void CallEnvelope::run(const RpcMethod& method,
                       std::shared_ptr<const google::protobuf::Message> request, CallContext call,
                       std::function<void(RpcOutcome)> done) {
    const bool queued = post([this, &method, request, call = std::move(call), done] {
        this->call(method, *request, call, done);
    });
    if (!queued) done(RpcOutcome{server_busy(), {}});
}

void CallEnvelope::count(std::string_view rpc, StatusCode code,
                         SteadyClock::time_point received) const {
    if (rpc.empty()) return;
    const std::chrono::duration<double> took = SteadyClock::now() - received;
    const std::string name(rpc);
    metrics_.requests.add({name, std::string(transport_), status_code_name(code)});
    metrics_.request_seconds.observe({name, std::string(transport_)}, took.count());
}

void CallEnvelope::log(AccessEntry& entry, StatusCode code, std::string_view reason,
                       SteadyClock::time_point received, std::uint64_t bytes_out) const {
    entry.code = status_code_name(code);
    entry.reason = reason;
    entry.duration = SteadyClock::now() - received;
    entry.bytes_out = bytes_out;
    access_log_.write(entry);
}

void CallEnvelope::finish(AccessEntry& entry, std::string_view rpc, StatusCode code,
                          std::string_view reason, SteadyClock::time_point received,
                          std::uint64_t bytes_out) const {
    count(rpc, code, received);
    log(entry, code, reason, received, bytes_out);
}

}  // namespace foxgeese::service
