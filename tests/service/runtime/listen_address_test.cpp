#include "service/runtime/listen_address.h"

#include <gtest/gtest.h>

namespace foxgeese::service {
namespace {

TEST(ListenAddressTest, TheBrowserUrlIsLocalhostForEveryAddressAndLoopback) {
    for (const char* address :
         {"0.0.0.0", "::", "[::]", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"}) {
        EXPECT_EQ(browser_url(address, 8080), "http://localhost:8080/") << address;
    }
    EXPECT_EQ(browser_url("192.0.2.7", 80), "http://192.0.2.7:80/");
    EXPECT_EQ(browser_url("2001:db8::7", 8080), "http://[2001:db8::7]:8080/");
    EXPECT_EQ(browser_url("[2001:db8::7]", 8080), "http://[2001:db8::7]:8080/");
    EXPECT_EQ(browser_url("games.example", 8080), "http://games.example:8080/");
}

}  // namespace
}  // namespace foxgeese::service
