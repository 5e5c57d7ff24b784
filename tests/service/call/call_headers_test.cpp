#include <gtest/gtest.h>

#include <string>

#include "service/call/call_envelope.h"

namespace foxgeese::service {
namespace {

// gRPC metadata comes in lowercase, HTTP header names in any case: both
// transports read a call's headers the same way.
TEST(CallHeadersTest, NamesInAnyCaseEveryAuthorizationTheFirstLanguageAndRequestId) {
    CallHeaders headers;
    headers.add("Authorization", "Bearer one");
    headers.add("X-Forwarded-For", "192.0.2.1");
    headers.add("accept-language", "pl, en;q=0.5");
    headers.add("ACCEPT-LANGUAGE", "tr");
    headers.add("x-request-id", "first");
    headers.add("X-Request-Id", "second");
    headers.add("authorization", "Bearer two");
    headers.add("x-forwarded-for", "198.51.100.2, 203.0.113.3");
    headers.add("content-type", "application/json");

    EXPECT_EQ(headers.authorization(), (std::vector<std::string>{"Bearer one", "Bearer two"}));
    EXPECT_EQ(headers.forwarded_for(),
              (std::vector<std::string>{"192.0.2.1", "198.51.100.2, 203.0.113.3"}));
    EXPECT_EQ(headers.accept_language(), "pl, en;q=0.5");
    EXPECT_EQ(headers.request_id(), "first");
}

TEST(CallHeadersTest, AcceptLanguageIsCutTo256Bytes) {
    CallHeaders headers;
    headers.add("accept-language", std::string(300, 'a'));
    EXPECT_EQ(headers.accept_language(), std::string(256, 'a'));
    EXPECT_TRUE(CallHeaders().request_id().empty());
}

TEST(CallHeadersTest, ServerBusySaysNothingWasDone) {
    const ServiceError busy = server_busy();
    EXPECT_EQ(busy.code, StatusCode::kUnavailable);
    EXPECT_EQ(busy.reason, "SERVER_BUSY");
    EXPECT_EQ(busy.metadata.at("write_outcome"), "NOT_APPLIED");
}

}  // namespace
}  // namespace foxgeese::service
