// The memory analyses keep: the resident size of this process, which runs
// the server, after 600 analyses over REST and gRPC stays within 32 MiB of
// what it was after the first 20, whichever work-queue threads served
// them. (ctest runs each test in a process of its own, so nothing else
// allocates here meanwhile.)
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <iostream>
#include <string>

#include "tests/service/harness/rest_harness.h"

namespace foxgeese::test {
namespace {

std::int64_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::int64_t size = 0;
    std::int64_t resident = 0;
    statm >> size >> resident;
    return resident * sysconf(_SC_PAGESIZE);
}

class AnalysisMemory : public RestTest {};

TEST_F(AnalysisMemory, StaysFlatOverSixHundredAnalysesOverBothTransports) {
    v1::AnalyzePositionRequest request;
    request.set_variant("standard");
    request.set_depth(2);
    const std::string body = R"({"variant":"standard","depth":2})";
    auto analyse = [&](int i) {
        if (i % 2 == 0) {
            const HttpReply reply = post("/v1/positions:analyze", body);
            ASSERT_EQ(reply.status, 200) << reply.body;
        } else {
            ASSERT_TRUE(IsOk(grpc().analyze_position(request)));
        }
    };
    for (int i = 0; i < 20; ++i)
        analyse(i);
    const std::int64_t after_20 = resident_bytes();
    for (int i = 20; i < 600; ++i)
        analyse(i);
    const std::int64_t after_600 = resident_bytes();
    constexpr std::int64_t kMiB = 1024 * 1024;
    std::cout << "resident " << after_20 / kMiB << " MiB after 20 analyses, " << after_600 / kMiB
              << " MiB after 600\n";
    EXPECT_LT(after_600 - after_20, 32 * kMiB)
        << "resident " << after_20 / kMiB << " MiB after 20 analyses, " << after_600 / kMiB
        << " MiB after 600";
}

}  // namespace
}  // namespace foxgeese::test
