// The places AnalyzePosition and AnalyzeGame run in, and who gets one when
// they are all taken.
//
// Memory: each place keeps one Searcher (its transposition table, 16 MiB),
// made the first time the place is used and reused by every analysis after
// it. A table made and freed by each call would stay resident in the malloc
// arena of whichever work-queue thread ran it, so memory would grow with the
// threads that happened to serve analyses; this way it is bounded by the
// number of places.
//
// Fairness: a call that finds every place taken (or its client's share of
// them) waits a short time in line instead of being refused at once. A place
// that comes free goes to the waiting client that has used the least
// analysis time lately (a sum that halves every kUsageHalfLife), so that
// clients who send long analyses back to back cannot keep out one who asks
// now and then. The line is short, because every waiting call holds a
// worker thread: when it is full, a newcomer who has used less time than
// the heaviest waiter takes that waiter's place, and the one left out is
// refused.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/search/search.h"
#include "service/core/analysis_budget.h"
#include "service/core/clock.h"
#include "service/core/decaying_sum.h"

namespace foxgeese::service {

// How fast a client's analysis time is forgiven.
constexpr std::chrono::seconds kUsageHalfLife{30};

class AnalysisSlots {
  public:
    AnalysisSlots(const Clock& clock, AnalysisOptions options, std::size_t max_keys);
    AnalysisSlots(const AnalysisSlots&) = delete;
    AnalysisSlots& operator=(const AnalysisSlots&) = delete;

    // A place held by one analysis; given back (and its time counted to its
    // client) when destroyed.
    class Lease {
      public:
        ~Lease();
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        // The place's searcher, cleared: a search with it depends on its
        // arguments alone.
        Searcher& searcher();

      private:
        friend class AnalysisSlots;
        Lease(AnalysisSlots& owner, std::string key, std::size_t place, std::int64_t started_us)
            : owner_(owner), key_(std::move(key)), place_(place), started_us_(started_us) {}
        AnalysisSlots& owner_;
        std::string key_;
        std::size_t place_;
        std::int64_t started_us_;
    };

    // Why no place was given.
    enum class Refusal {
        kAddressBusy,  // the client runs its share already, and no wait was allowed or it ran out
        kServerBusy,   // every place was taken, and no wait was allowed or it ran out
        kDisplaced,    // the line was full of clients who had used less time
        kCancelled,    // the caller went away while it waited
    };
    struct Grant {
        std::unique_ptr<Lease> lease;  // null: refused
        Refusal refusal = Refusal::kServerBusy;
    };

    // A place for client `key`, waiting in line up to the options' max_wait
    // (and not past `give_up_at`, nor after `cancelled` says the caller left).
    Grant acquire(const std::string& key,
                  std::optional<std::chrono::steady_clock::time_point> give_up_at = std::nullopt,
                  const std::function<bool()>& cancelled = {});

    // Places taken now, and calls waiting in line.
    int running() const;
    int waiting() const;
    int places() const { return static_cast<int>(places_.size()); }

  private:
    struct Client {
        DecayingSum used_us{kUsageHalfLife};  // analyses ended
        int running = 0;
        std::int64_t running_since_sum_us = 0;  // sum of the running analyses' starts
        int waiting = 0;
    };
    struct Waiter {
        std::string key;
        std::uint64_t order = 0;  // arrival
        std::optional<std::size_t> place;
        std::int64_t granted_us = 0;
        bool displaced = false;
    };
    struct Place {
        bool taken = false;
        std::unique_ptr<Searcher> searcher;  // made on first use, then kept
    };

    // A client's analysis time at `now_us`, its running analyses included.
    double usage(const Client& client, std::int64_t now_us) const;
    bool may_run(const Client& client) const;
    // Gives free places to the waiters that may run, least used first.
    void dispatch(std::int64_t now_us);
    void leave_line(Waiter& waiter);
    Refusal why_waiting(const Waiter& waiter) const;
    void release(const std::string& key, std::size_t place, std::int64_t started_us);
    std::unique_ptr<Lease> lease_for(const Waiter& waiter);

    const Clock& clock_;
    const AnalysisOptions options_;
    const std::size_t max_line_;
    const std::size_t max_keys_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<Place> places_;
    std::unordered_map<std::string, Client> clients_;
    std::list<Waiter*> line_;
    std::uint64_t arrivals_ = 0;
};

}  // namespace foxgeese::service
