#include "tests/service/harness/held_analysis.h"

#include <gtest/gtest.h>

#include "foxgeese/v1/game_service.grpc.pb.h"
#include "tests/service/harness/service_harness.h"

namespace foxgeese::test {

bool wait_for_analyses(service::GameService& logic, int count, std::chrono::milliseconds timeout) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (logic.analyses_running() != count) {
        if (std::chrono::steady_clock::now() >= until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

HeldAnalysis::HeldAnalysis(service::GameService& logic, int port, const std::string& forwarded_for)
    : logic_(logic), running_before_(logic.analyses_running()) {
    context_.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    if (!forwarded_for.empty()) context_.AddMetadata("x-forwarded-for", forwarded_for);
    thread_ = std::thread([this, port] {
        auto stub = v1::FoxGeeseService::NewStub(new_channel(port));
        v1::AnalyzePositionRequest request;
        request.set_variant("standard");  // its start: far from any proved result
        request.set_time_ms(5'000);
        v1::AnalyzePositionResponse response;
        status_ = stub->AnalyzePosition(&context_, request, &response);
    });
    EXPECT_TRUE(wait_for_analyses(logic_, running_before_ + 1))
        << "the held analysis never started";
}

HeldAnalysis::~HeldAnalysis() {
    if (thread_.joinable()) release();
}

grpc::Status HeldAnalysis::release() {
    context_.TryCancel();
    thread_.join();
    // The search stops at the cancel, long before its 5 s are over.
    EXPECT_TRUE(wait_for_analyses(logic_, running_before_, std::chrono::seconds(2)))
        << "the cancelled analysis kept running";
    return status_.value_or(grpc::Status(grpc::StatusCode::UNKNOWN, "no status"));
}

}  // namespace foxgeese::test
