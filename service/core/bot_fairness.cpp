#include "service/core/bot_fairness.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace foxgeese::service {
namespace {

constexpr std::int64_t us(std::chrono::microseconds d) {
    return d.count();
}

// Clients remembered at most; past this the ones served next to nothing are
// forgotten, and if that is not enough all of them (a forgotten client
// counts as served nothing, as a new one does).
constexpr std::size_t kMaxClients = 10'000;
// Served time below this is as good as none.
constexpr double kNegligibleUs = 1'000;

}  // namespace

bool BotFairness::urgent(std::int64_t deadline_us, std::int64_t now_us) const {
    return deadline_us != 0 && deadline_us - now_us < us(kUrgentBotMove);
}

double BotFairness::served_at(const std::string& client_key, std::int64_t now_us) const {
    const auto it = served_.find(client_key);
    return it == served_.end() ? 0 : it->second.at(now_us);
}

double BotFairness::served_us(const std::string& client_key) const {
    std::lock_guard lock(mutex_);
    return served_at(client_key, clock_.now_us());
}

std::vector<std::size_t> BotFairness::order(const std::vector<storage::OwedBotMove>& owed) const {
    const std::int64_t now = clock_.now_us();
    std::vector<double> served(owed.size());
    {
        std::lock_guard lock(mutex_);
        for (std::size_t i = 0; i < owed.size(); ++i)
            served[i] = served_at(owed[i].client_key, now);
    }
    std::vector<std::size_t> order(owed.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    // The store's order (most urgent first) breaks every tie.
    auto rank = [&](std::size_t i) {
        const storage::OwedBotMove& m = owed[i];
        const bool is_urgent = urgent(m.deadline_us, now);
        return std::make_tuple(is_urgent ? 0 : 1, is_urgent ? m.deadline_us : 0,
                               is_urgent ? 0 : m.client_searches, is_urgent ? 0.0 : served[i], i);
    };
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
    return order;
}

bool BotFairness::should_yield(const Running& running, const storage::OwedBotMove& waiting) const {
    if (waiting.client_key == running.client_key) return false;
    const std::int64_t now = clock_.now_us();
    const bool running_urgent = urgent(running.deadline_us, now);
    if (urgent(waiting.deadline_us, now))
        return !running_urgent || waiting.deadline_us < running.deadline_us;
    if (running_urgent || waiting.client_searches > 0) return false;
    std::lock_guard lock(mutex_);
    const double running_share =
        served_at(running.client_key, now) +
        static_cast<double>(std::max<std::int64_t>(0, now - running.started_us));
    return served_at(waiting.client_key, now) + static_cast<double>(us(kBotYieldMargin)) <
           running_share;
}

void BotFairness::served(const std::string& client_key, std::int64_t started_us) {
    const std::int64_t now = clock_.now_us();
    std::lock_guard lock(mutex_);
    if (served_.size() >= kMaxClients && !served_.contains(client_key)) {
        std::erase_if(served_,
                      [&](const auto& entry) { return entry.second.at(now) < kNegligibleUs; });
        if (served_.size() >= kMaxClients) served_.clear();
    }
    served_.try_emplace(client_key, kBotServedHalfLife)
        .first->second.add(static_cast<double>(std::max<std::int64_t>(0, now - started_us)), now);
}

}  // namespace foxgeese::service
