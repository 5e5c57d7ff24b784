// Limits per client address and per seat token, held in this replica's
// memory (the gateway adds a global limit in front of all replicas; see
// deploy/k8s). Two kinds:
//
// - RateLimiter: a token bucket per key on the service's Clock: `burst`
//   calls at once, then one more every `period / per_period`. A refusal says
//   how long until the next call would pass.
// - ConcurrencyLimiter: at most `limit` leases per key at once (watch
//   streams per address); a lease gives its place back when destroyed.
//
// Both forget idle keys, so a flood of forged addresses costs memory only
// up to a fixed number of keys.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "service/core/clock.h"
#include "service/core/service_error.h"

namespace foxgeese::service {

struct Rate {
    int per_period = 0;  // 0: unlimited
    std::chrono::seconds period{60};
    int burst = 0;  // calls allowed at once; 0 means per_period
};

// What a client may do per replica; 0 turns a limit off.
struct RateLimitOptions {
    // Per address: sized for the many players a shared address may carry.
    // Every game a client brings into being counts as a creation (CreateGame,
    // ImportGame, an accepted rematch).
    Rate create_per_address{120, std::chrono::seconds(60), 60};
    Rate import_per_address{30, std::chrono::seconds(60), 15};
    Rate join_per_address{240, std::chrono::seconds(60), 80};
    Rate moves_per_token{5, std::chrono::seconds(1), 20};
    // Draw offers and answers, rematch offers and answers, claims, resigning,
    // aborting: each stores events that every watcher is sent.
    Rate seat_actions_per_token{30, std::chrono::seconds(60), 10};
    // GetTablebase: cheap (no database, no search), but each one reads the
    // tablebase's pages; a school's players look up a position a move.
    Rate tablebase_per_address{1200, std::chrono::seconds(60), 200};
    // Proxies in front that append to X-Forwarded-For (the gateway: 1);
    // 0 trusts no header and limits by the connection's peer.
    int trusted_proxy_hops = 0;
    // Keys kept per limiter; past this the fullest buckets are dropped
    // first (a dropped key starts afresh, with a full bucket).
    std::size_t max_keys = 100'000;

    static RateLimitOptions unlimited() {
        RateLimitOptions o;
        o.create_per_address = o.import_per_address = o.join_per_address = o.moves_per_token =
            o.seat_actions_per_token = o.tablebase_per_address = Rate{};
        return o;
    }
};

class RateLimiter {
  public:
    RateLimiter(const Clock& clock, Rate rate, std::size_t max_keys);

    // Takes one call from `key`'s bucket; when it is empty, changes nothing
    // and returns how long until a call would pass.
    std::optional<std::chrono::milliseconds> take(const std::string& key);

  private:
    struct Bucket {
        double tokens = 0;
        std::int64_t at_us = 0;  // when `tokens` was last brought up to date
    };
    void prune(std::int64_t now_us);

    const Clock& clock_;
    const Rate rate_;
    const double capacity_;
    const double per_us_;  // tokens refilled per microsecond
    const std::size_t max_keys_;
    std::mutex mutex_;
    std::unordered_map<std::string, Bucket> buckets_;
};

class ConcurrencyLimiter {
  public:
    ConcurrencyLimiter(int limit, std::size_t max_keys) : limit_(limit), max_keys_(max_keys) {}

    // Gives its place back when destroyed.
    class Lease {
      public:
        Lease(ConcurrencyLimiter* owner, std::string key) : owner_(owner), key_(std::move(key)) {}
        ~Lease();
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;

      private:
        ConcurrencyLimiter* owner_;
        std::string key_;
    };

    // A lease, or nothing when `key` holds `limit` already (or the limiter
    // tracks max_keys keys: refusing is safer than forgetting holders).
    std::unique_ptr<Lease> try_acquire(const std::string& key);
    int held(const std::string& key) const;
    int limit() const { return limit_; }

  private:
    void release(const std::string& key);

    const int limit_;
    const std::size_t max_keys_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, int> held_;
};

// The error of a refused call: RESOURCE_EXHAUSTED, reason RATE_LIMITED,
// with the wait (google.rpc.RetryInfo over gRPC, Retry-After over HTTP).
ServiceError rate_limited(const std::string& what, std::chrono::milliseconds retry_after);

// Takes a seat action from the bucket of the seat token whose digest is
// `token_hash`; the refusal, or nothing.
std::optional<ServiceError> take_seat_action(RateLimiter& limit, const std::string& token_hash);

// The client's address: with `trusted_hops` proxies in front (each appending
// the address it saw to X-Forwarded-For), the entry that many places from
// the end of the combined header values; else the connection's peer.
// Entries are trimmed; an entry that is not an IPv4 or IPv6 address (or a
// header too short to reach) falls back to the peer's address.
std::string client_address(const std::string& peer, const std::vector<std::string>& forwarded_for,
                           int trusted_hops);

}  // namespace foxgeese::service
