#include "service/core/rate_limits.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace foxgeese::service {
namespace {

std::string trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos) return "";
    const auto last = s.find_last_not_of(" \t");
    return std::string(s.substr(first, last - first + 1));
}

// The key an address is limited by: IPv4 as written, IPv6 by its /64 (one
// subscriber's usual allocation, so that a client cannot walk its own
// prefix to escape the limit), IPv4-mapped IPv6 as IPv4. Nothing when the
// text is not an address.
std::optional<std::string> address_key(const std::string& text) {
    in_addr v4{};
    if (inet_pton(AF_INET, text.c_str(), &v4) == 1) {
        char out[INET_ADDRSTRLEN];
        inet_ntop(AF_INET, &v4, out, sizeof out);
        return std::string(out);
    }
    std::string bare = text;
    if (bare.size() > 2 && bare.front() == '[' && bare.back() == ']')
        bare = bare.substr(1, bare.size() - 2);
    in6_addr v6{};
    if (inet_pton(AF_INET6, bare.c_str(), &v6) != 1) return std::nullopt;
    static constexpr unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (std::memcmp(v6.s6_addr, kMapped, sizeof kMapped) == 0) {
        std::memcpy(&v4, v6.s6_addr + 12, 4);
        char out[INET_ADDRSTRLEN];
        inet_ntop(AF_INET, &v4, out, sizeof out);
        return std::string(out);
    }
    std::memset(v6.s6_addr + 8, 0, 8);
    char out[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, &v6, out, sizeof out);
    return std::string(out) + "/64";
}

}  // namespace

RateLimiter::RateLimiter(const Clock& clock, Rate rate, std::size_t max_keys)
    : clock_(clock),
      rate_(rate),
      capacity_(rate.burst > 0 ? rate.burst : rate.per_period),
      per_us_(
          rate.per_period > 0
              ? rate.per_period /
                    static_cast<double>(
                        std::chrono::duration_cast<std::chrono::microseconds>(rate.period).count())
              : 0),
      max_keys_(std::max<std::size_t>(max_keys, 1)) {}

std::optional<std::chrono::milliseconds> RateLimiter::take(const std::string& key) {
    if (rate_.per_period <= 0) return std::nullopt;
    const std::int64_t now = clock_.now_us();
    std::lock_guard lock(mutex_);
    auto it = buckets_.find(key);
    if (it == buckets_.end()) {
        if (buckets_.size() >= max_keys_) prune(now);
        it = buckets_.emplace(key, Bucket{capacity_, now}).first;
    }
    Bucket& b = it->second;
    // A clock that went back refills nothing and takes nothing away.
    if (now > b.at_us) {
        b.tokens = std::min(capacity_, b.tokens + static_cast<double>(now - b.at_us) * per_us_);
        b.at_us = now;
    }
    if (b.tokens >= 1.0) {
        b.tokens -= 1.0;
        return std::nullopt;
    }
    const double wait_us = (1.0 - b.tokens) / per_us_;
    // Rounded up to whole milliseconds, forgiving the floating-point noise
    // of the refill (6.000000001 ms is 6 ms, not 7).
    return std::chrono::milliseconds(
        std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(wait_us / 1000.0 - 1e-6))));
}

void RateLimiter::prune(std::int64_t now_us) {
    // Buckets that are full again are the same as absent ones.
    for (auto it = buckets_.begin(); it != buckets_.end();) {
        const double refilled =
            it->second.tokens + static_cast<double>(now_us - it->second.at_us) * per_us_;
        it = refilled >= capacity_ ? buckets_.erase(it) : std::next(it);
    }
    // Still full of busy keys (a flood of forged ones): forget the half
    // that is closest to full, which loses the least.
    if (buckets_.size() < max_keys_) return;
    std::vector<std::pair<double, std::string>> by_fill;
    by_fill.reserve(buckets_.size());
    for (const auto& [key, b] : buckets_)
        by_fill.emplace_back(b.tokens + static_cast<double>(now_us - b.at_us) * per_us_, key);
    const auto half = by_fill.begin() + static_cast<std::ptrdiff_t>(by_fill.size() / 2);
    std::nth_element(by_fill.begin(), half, by_fill.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (auto it = by_fill.begin(); it != half; ++it)
        buckets_.erase(it->second);
}

ConcurrencyLimiter::Lease::~Lease() {
    if (owner_) owner_->release(key_);
}

std::unique_ptr<ConcurrencyLimiter::Lease> ConcurrencyLimiter::try_acquire(const std::string& key) {
    if (limit_ <= 0) return std::make_unique<Lease>(nullptr, key);
    std::lock_guard lock(mutex_);
    auto it = held_.find(key);
    if (it == held_.end()) {
        if (held_.size() >= max_keys_) return nullptr;
        it = held_.emplace(key, 0).first;
    }
    if (it->second >= limit_) return nullptr;
    ++it->second;
    return std::make_unique<Lease>(this, key);
}

int ConcurrencyLimiter::held(const std::string& key) const {
    std::lock_guard lock(mutex_);
    const auto it = held_.find(key);
    return it == held_.end() ? 0 : it->second;
}

void ConcurrencyLimiter::release(const std::string& key) {
    std::lock_guard lock(mutex_);
    const auto it = held_.find(key);
    if (it == held_.end()) return;
    if (--it->second <= 0) held_.erase(it);
}

ServiceError rate_limited(const std::string& what, std::chrono::milliseconds retry_after) {
    ServiceError error = make_error(
        StatusCode::kResourceExhausted, "RATE_LIMITED",
        "too many " + what + "; retry in " + std::to_string(whole_seconds_up(retry_after)) + " s");
    error.retry_after = retry_after;
    return error;
}

std::optional<ServiceError> take_seat_action(RateLimiter& limit, const std::string& token_hash) {
    if (auto wait = limit.take(token_hash))
        return rate_limited("actions with this seat token (offers, answers, claims)", *wait);
    return std::nullopt;
}

std::string client_address(const std::string& peer, const std::vector<std::string>& forwarded_for,
                           int trusted_hops) {
    const std::string fallback = address_key(peer).value_or(peer);
    if (trusted_hops <= 0) return fallback;
    // Each proxy appends; the headers' values in order, entries in order.
    std::vector<std::string> entries;
    for (const std::string& value : forwarded_for) {
        std::string_view rest = value;
        while (!rest.empty()) {
            const auto comma = rest.find(',');
            entries.push_back(trim(rest.substr(0, comma)));
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
    }
    if (entries.size() < static_cast<std::size_t>(trusted_hops)) return fallback;
    return address_key(entries[entries.size() - static_cast<std::size_t>(trusted_hops)])
        .value_or(fallback);
}

}  // namespace foxgeese::service
