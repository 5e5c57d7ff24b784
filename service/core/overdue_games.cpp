#include "service/core/overdue_games.h"

#include <spdlog/spdlog.h>

#include "service/core/game_clock.h"
#include "service/core/game_rules.h"
#include "service/core/game_views.h"
#include "service/core/stored_codes.h"

namespace foxgeese::service {

bool settle_overdue(storage::GameWithLastMove& current, std::int64_t now_us,
                    std::vector<std::string>& events) {
    storage::GameRow& g = current.game;
    const std::optional<Ending> ending = overdue_ending(g, now_us);
    if (!ending) return false;
    // The game ended when its deadline passed, whenever that was noticed.
    const std::int64_t ended_at = g.clocks.deadline_us;
    if (ending->reason == v1::END_REASON_TIMEOUT &&
        g.clocks.time_control == storage::TimeControl::kRealTime) {
        g.clocks.of(stored(side_to_move(g))) = 0;
    }
    if (g.draw_offered_by != storage::Side::kNone)
        events.push_back(
            event_bytes(draw_answered_event(false, other(g.draw_offered_by)), ended_at));
    finish(g, ending->result, ending->reason, ended_at);
    g.updated_us = now_us;
    events.push_back(
        event_bytes(game_ended_event(game_view(g, current.last_move, now_us)), now_us));
    return true;
}

GameSweeper::GameSweeper(storage::GameStore& store, Clock& clock,
                         std::chrono::milliseconds interval)
    : store_(store), clock_(clock), interval_(interval) {}

GameSweeper::~GameSweeper() {
    stop();
}

int GameSweeper::sweep_once(int limit) {
    int ended = 0;
    const std::int64_t now = clock_.now_us();
    for (int i = 0; i < limit; ++i) {
        bool settled = false;
        const bool found = store_.modify_next_overdue(
            now, [&](storage::GameWithLastMove& current, std::vector<std::string>& events) {
                settled = settle_overdue(current, now, events);
                if (!settled) current.game.clocks.deadline_us = 0;  // nothing to wait for
                return true;
            });
        if (!found) break;
        if (settled) ++ended;
    }
    return ended;
}

void GameSweeper::start() {
    thread_ = std::thread([this] {
        std::unique_lock lock(mutex_);
        while (!stopping_) {
            wake_.wait_for(lock, interval_);
            if (stopping_) break;
            lock.unlock();
            try {
                if (const int ended = sweep_once(); ended > 0)
                    spdlog::debug("sweeper: ended {} overdue game(s)", ended);
            } catch (const std::exception& e) {
                spdlog::warn("sweeper: {}", e.what());
            }
            lock.lock();
        }
    });
}

void GameSweeper::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

}  // namespace foxgeese::service
