// An analysis kept running on a server, so that a test can see what the
// analysis limits do to the next one: an AnalyzePosition of a position the
// search cannot settle, for its longest time, on a thread and a channel of
// its own, until the test releases it by cancelling the call (the search
// then stops; nobody waits out its 5 s).
#pragma once

#include <grpcpp/grpcpp.h>

#include <optional>
#include <string>
#include <thread>

#include "service/app/replica.h"

namespace foxgeese::test {

class HeldAnalysis {
  public:
    // Starts the call (as if relayed with this X-Forwarded-For, when not
    // empty) and waits until `server` (a Replica or a MemoryReplica) runs
    // one more analysis than before; a test failure if it does not within
    // seconds.
    template <class Server>
    explicit HeldAnalysis(Server& server, const std::string& forwarded_for = "")
        : HeldAnalysis(server.logic(), server.grpc_port(), forwarded_for) {}
    // Releases it if the test did not.
    ~HeldAnalysis();
    HeldAnalysis(const HeldAnalysis&) = delete;
    HeldAnalysis& operator=(const HeldAnalysis&) = delete;

    // Cancels the call, waits for it and for the server to end the search;
    // the call's status (CANCELLED).
    grpc::Status release();

  private:
    HeldAnalysis(service::GameService& logic, int port, const std::string& forwarded_for);

    service::GameService& logic_;
    int running_before_ = 0;
    grpc::ClientContext context_;
    std::optional<grpc::Status> status_;
    std::thread thread_;
};

// Waits up to `timeout` for the server's game service to run exactly
// `count` analyses.
bool wait_for_analyses(service::GameService& logic, int count,
                       std::chrono::milliseconds timeout = std::chrono::seconds(10));
template <class Server>
bool wait_for_analyses(Server& server, int count,
                       std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    return wait_for_analyses(server.logic(), count, timeout);
}

}  // namespace foxgeese::test
