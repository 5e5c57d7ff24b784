#include "service/core/analysis_slots.h"

#include <algorithm>

namespace foxgeese::service {
namespace {

using SteadyClock = std::chrono::steady_clock;

// How often a waiting call asks whether its caller is still there.
constexpr auto kCancelPoll = std::chrono::milliseconds(20);

}  // namespace

AnalysisSlots::AnalysisSlots(const Clock& clock, AnalysisOptions options, std::size_t max_keys)
    : clock_(clock),
      options_(options),
      max_line_(static_cast<std::size_t>(std::max(1, options.concurrency)) *
                static_cast<std::size_t>(std::max(0, options.waiting_per_place))),
      max_keys_(std::max<std::size_t>(max_keys, 1)),
      places_(static_cast<std::size_t>(std::max(1, options.concurrency))) {}

AnalysisSlots::Lease::~Lease() {
    owner_.release(key_, place_, started_us_);
}

Searcher& AnalysisSlots::Lease::searcher() {
    // The place is this lease's alone until it is given back.
    std::unique_ptr<Searcher>& searcher = owner_.places_[place_].searcher;
    if (!searcher) {
        searcher = std::make_unique<Searcher>();
    } else {
        searcher->clear();
    }
    return *searcher;
}

int AnalysisSlots::running() const {
    std::lock_guard lock(mutex_);
    return static_cast<int>(
        std::count_if(places_.begin(), places_.end(), [](const Place& p) { return p.taken; }));
}

int AnalysisSlots::waiting() const {
    std::lock_guard lock(mutex_);
    return static_cast<int>(line_.size());
}

double AnalysisSlots::usage(const Client& client, std::int64_t now_us) const {
    return client.used_us.at(now_us) +
           static_cast<double>(client.running * now_us - client.running_since_sum_us);
}

bool AnalysisSlots::may_run(const Client& client) const {
    return options_.per_address <= 0 || client.running < options_.per_address;
}

void AnalysisSlots::dispatch(std::int64_t now_us) {
    for (std::size_t place = 0; place < places_.size(); ++place) {
        if (places_[place].taken) continue;
        auto best = line_.end();
        double best_usage = 0;
        for (auto it = line_.begin(); it != line_.end(); ++it) {
            const Client& client = clients_.at((*it)->key);
            if (!may_run(client)) continue;
            const double used = usage(client, now_us);
            // The line is in arrival order: on a tie the earlier one wins.
            if (best == line_.end() || used < best_usage) {
                best = it;
                best_usage = used;
            }
        }
        if (best == line_.end()) return;
        Waiter& waiter = **best;
        Client& client = clients_.at(waiter.key);
        line_.erase(best);
        --client.waiting;
        ++client.running;
        client.running_since_sum_us += now_us;
        places_[place].taken = true;
        waiter.place = place;
        waiter.granted_us = now_us;
    }
}

void AnalysisSlots::leave_line(Waiter& waiter) {
    line_.remove(&waiter);
    --clients_.at(waiter.key).waiting;
}

AnalysisSlots::Refusal AnalysisSlots::why_waiting(const Waiter& waiter) const {
    return may_run(clients_.at(waiter.key)) ? Refusal::kServerBusy : Refusal::kAddressBusy;
}

std::unique_ptr<AnalysisSlots::Lease> AnalysisSlots::lease_for(const Waiter& waiter) {
    return std::unique_ptr<Lease>(new Lease(*this, waiter.key, *waiter.place, waiter.granted_us));
}

AnalysisSlots::Grant AnalysisSlots::acquire(const std::string& key,
                                            std::optional<SteadyClock::time_point> give_up_at,
                                            const std::function<bool()>& cancelled) {
    const auto waited_enough = SteadyClock::now() + options_.max_wait;
    const auto until = give_up_at ? std::min(*give_up_at, waited_enough) : waited_enough;
    Waiter me;
    me.key = key;
    std::unique_lock lock(mutex_);
    me.order = arrivals_++;
    ++clients_[key].waiting;
    line_.push_back(&me);
    const std::int64_t now = clock_.now_us();
    dispatch(now);
    if (me.place) return {lease_for(me)};

    if (options_.max_wait.count() <= 0) {
        const Refusal why = why_waiting(me);
        leave_line(me);
        return {nullptr, why};
    }
    if (line_.size() > max_line_) {
        // The heaviest waiter leaves the line (the latest of equals).
        Waiter* heaviest = nullptr;
        double most = 0;
        for (Waiter* waiter : line_) {
            const double used = usage(clients_.at(waiter->key), now);
            if (!heaviest || used >= most) {
                heaviest = waiter;
                most = used;
            }
        }
        leave_line(*heaviest);
        heaviest->displaced = true;
        if (heaviest == &me) return {nullptr, Refusal::kDisplaced};
        changed_.notify_all();
    }
    while (!me.place && !me.displaced) {
        if (cancelled && cancelled()) {
            leave_line(me);
            return {nullptr, Refusal::kCancelled};
        }
        const auto now_steady = SteadyClock::now();
        if (now_steady >= until) {
            const Refusal why = why_waiting(me);
            leave_line(me);
            return {nullptr, why};
        }
        changed_.wait_until(lock, std::min(until, now_steady + kCancelPoll));
    }
    if (me.displaced) return {nullptr, Refusal::kDisplaced};
    return {lease_for(me)};
}

void AnalysisSlots::release(const std::string& key, std::size_t place, std::int64_t started_us) {
    {
        std::lock_guard lock(mutex_);
        const std::int64_t now = clock_.now_us();
        Client& client = clients_.at(key);
        client.used_us.add(static_cast<double>(std::max<std::int64_t>(0, now - started_us)), now);
        --client.running;
        client.running_since_sum_us -= started_us;
        places_[place].taken = false;
        dispatch(now);
        // Idle clients are forgotten once there are too many: a forgotten
        // one starts again from no time used, as a new client does.
        if (clients_.size() > max_keys_) {
            std::erase_if(clients_, [](const auto& entry) {
                return entry.second.running == 0 && entry.second.waiting == 0;
            });
        }
    }
    changed_.notify_all();
}

}  // namespace foxgeese::service
