// The rate limiters on a clock the test sets: token buckets that refill at
// their rate and say how long to wait, leases that give their place back,
// bounded memory under a flood of keys, and the client address taken from
// X-Forwarded-For only as far as proxies are trusted.
#include "service/core/rate_limits.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace foxgeese::service {
namespace {

using namespace std::chrono_literals;

class SetClock : public Clock {
  public:
    std::int64_t now_us() const override { return now_; }
    void advance(std::chrono::microseconds by) { now_ += by.count(); }

  private:
    std::int64_t now_ = 1'700'000'000'000'000;
};

TEST(RateLimiter, ABurstThenOneCallPerIntervalWithTheWaitStated) {
    SetClock clock;
    RateLimiter limiter(clock, Rate{6, 60s, 3}, 100);
    for (int i = 0; i < 3; ++i)
        EXPECT_FALSE(limiter.take("a")) << i;
    const auto wait = limiter.take("a");
    ASSERT_TRUE(wait);
    EXPECT_EQ(*wait, 10'000ms);  // six a minute: one every 10 s
    clock.advance(4s);
    EXPECT_EQ(limiter.take("a"), std::optional(6'000ms));
    clock.advance(6s);
    EXPECT_FALSE(limiter.take("a"));
    EXPECT_TRUE(limiter.take("a"));
    // Keys are independent.
    EXPECT_FALSE(limiter.take("b"));
}

TEST(RateLimiter, RefillsUpToTheBurstOnlyAndIgnoresAClockThatGoesBack) {
    SetClock clock;
    RateLimiter limiter(clock, Rate{1, 1s, 2}, 100);
    EXPECT_FALSE(limiter.take("k"));
    EXPECT_FALSE(limiter.take("k"));
    clock.advance(1h);
    EXPECT_FALSE(limiter.take("k"));
    EXPECT_FALSE(limiter.take("k"));
    EXPECT_TRUE(limiter.take("k"));  // a long pause does not bank more than the burst
    clock.advance(-10min);
    EXPECT_TRUE(limiter.take("k"));
}

TEST(RateLimiter, ZeroMeansUnlimited) {
    SetClock clock;
    RateLimiter limiter(clock, Rate{}, 10);
    for (int i = 0; i < 10'000; ++i)
        ASSERT_FALSE(limiter.take("x"));
}

TEST(RateLimiter, AFloodOfKeysStaysWithinTheKeyBoundAndKeepsLimitingTheBusyOnes) {
    SetClock clock;
    RateLimiter limiter(clock, Rate{1, 60s, 1}, 64);
    EXPECT_FALSE(limiter.take("busy"));
    for (int i = 0; i < 10'000; ++i)
        limiter.take("forged-" + std::to_string(i));
    // The busy key may have been forgotten (then it starts afresh, once),
    // but the limiter keeps working and limits again right after.
    limiter.take("busy");
    EXPECT_TRUE(limiter.take("busy"));
}

TEST(ConcurrencyLimiter, LeasesUpToTheLimitAndGivesPlacesBack) {
    ConcurrencyLimiter limiter(2, 100);
    auto a = limiter.try_acquire("addr");
    auto b = limiter.try_acquire("addr");
    ASSERT_TRUE(a && b);
    EXPECT_FALSE(limiter.try_acquire("addr"));
    EXPECT_TRUE(limiter.try_acquire("other"));
    EXPECT_EQ(limiter.held("addr"), 2);
    a.reset();
    EXPECT_EQ(limiter.held("addr"), 1);
    EXPECT_TRUE(limiter.try_acquire("addr"));
    b.reset();
    EXPECT_EQ(limiter.held("other"), 0);
}

TEST(ConcurrencyLimiter, ZeroMeansUnlimited) {
    ConcurrencyLimiter limiter(0, 1);
    std::vector<std::unique_ptr<ConcurrencyLimiter::Lease>> leases;
    for (int i = 0; i < 100; ++i) {
        leases.push_back(limiter.try_acquire("k" + std::to_string(i)));
        ASSERT_TRUE(leases.back());
    }
}

TEST(ClientAddress, ThePeerUnlessProxiesAreTrusted) {
    EXPECT_EQ(client_address("10.1.2.3", {"198.51.100.1"}, 0), "10.1.2.3");
    EXPECT_EQ(client_address("10.1.2.3", {"198.51.100.1"}, 1), "198.51.100.1");
    // The entry the last trusted proxy appended; what the client wrote
    // before it does not count.
    EXPECT_EQ(client_address("10.1.2.3", {"6.6.6.6, 198.51.100.1"}, 1), "198.51.100.1");
    EXPECT_EQ(client_address("10.1.2.3", {"6.6.6.6", "198.51.100.1, 10.0.0.9"}, 2), "198.51.100.1");
    // Too few entries, or one that is no address: the peer.
    EXPECT_EQ(client_address("10.1.2.3", {}, 1), "10.1.2.3");
    EXPECT_EQ(client_address("10.1.2.3", {"198.51.100.1"}, 2), "10.1.2.3");
    EXPECT_EQ(client_address("10.1.2.3", {"not-an-address"}, 1), "10.1.2.3");
    EXPECT_EQ(client_address("10.1.2.3", {" 198.51.100.1 "}, 1), "198.51.100.1");
}

TEST(ClientAddress, IPv6ByItsSlash64AndMappedIPv4AsIPv4) {
    EXPECT_EQ(client_address("2001:db8:1:2:3:4:5:6", {}, 0), "2001:db8:1:2::/64");
    EXPECT_EQ(client_address("::1", {"[2001:db8:1:2::9]"}, 1), "2001:db8:1:2::/64");
    EXPECT_EQ(client_address("::ffff:192.0.2.7", {}, 0), "192.0.2.7");
    EXPECT_EQ(client_address("::1", {}, 0), "::/64");
}

TEST(RateLimited, IsResourceExhaustedWithTheWait) {
    const ServiceError e = rate_limited("new games from your address", 1'500ms);
    EXPECT_EQ(e.code, StatusCode::kResourceExhausted);
    EXPECT_EQ(e.reason, "RATE_LIMITED");
    ASSERT_TRUE(e.retry_after);
    EXPECT_EQ(*e.retry_after, 1'500ms);
    EXPECT_NE(e.message.find("retry in 2 s"), std::string::npos) << e.message;
}

}  // namespace
}  // namespace foxgeese::service
