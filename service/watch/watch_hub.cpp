#include "service/watch/watch_hub.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <pqxx/pqxx>

#include "service/core/game_views.h"
#include "service/core/secrets.h"

namespace foxgeese::service {
namespace {

using storage::GameRow;
using storage::MoveRow;
using Clock = std::chrono::steady_clock;

// Seats a token holds, as a bit set: 1 fox side, 2 geese.
int seats_held(const GameRow& g, const std::string& token_hash) {
    int held = 0;
    if (!g.fox_token_hash.empty() && constant_time_equal(g.fox_token_hash, token_hash)) held |= 1;
    if (!g.geese_token_hash.empty() && constant_time_equal(g.geese_token_hash, token_hash)) {
        held |= 2;
    }
    return held;
}

v1::WatchGameResponse event_now() {
    v1::WatchGameResponse e;
    set_timestamp(now_us(), e.mutable_time());
    return e;
}

std::shared_ptr<const WatchEvent> share(v1::WatchGameResponse message) {
    return std::make_shared<const WatchEvent>(std::move(message));
}

void fill_presence(const storage::SeatPresence& p, v1::SidePresence* out) {
    out->set_connected(p.connected);
    if (p.since_us != 0) set_timestamp(p.since_us, out->mutable_since());
}

bool same_presence(const std::pair<storage::SeatPresence, storage::SeatPresence>& a,
                   const std::pair<storage::SeatPresence, storage::SeatPresence>& b) {
    return a.first.connected == b.first.connected && a.first.since_us == b.first.since_us &&
           a.second.connected == b.second.connected && a.second.since_us == b.second.since_us;
}

ServiceError unavailable(const std::exception& e) {
    spdlog::warn("WatchGame: {}", e.what());
    return ServiceError{StatusCode::kUnavailable,
                        "DATABASE_UNAVAILABLE",
                        "the database is unreachable; retry shortly",
                        {},
                        ""};
}

// Receives NOTIFY on the events channel and hands the game id over.
class EventReceiver : public pqxx::notification_receiver {
  public:
    EventReceiver(pqxx::connection_base& conn,
                  std::function<void(const std::string&, bool)> on_event)
        : pqxx::notification_receiver(conn, storage::kEventsChannel),
          on_event_(std::move(on_event)) {}
    void operator()(const std::string& payload, int) override {
        // "<game id>" for recorded events, "<game id> presence" for presence.
        const std::size_t space = payload.find(' ');
        on_event_(payload.substr(0, space), payload.find(" presence") != std::string::npos);
    }

  private:
    std::function<void(const std::string&, bool)> on_event_;
};

}  // namespace

struct WatchHub::Watcher {
    std::shared_ptr<WatchSink> sink;
    std::string game_id;
    std::string watcher_id;
    int seats = 0;              // seats whose presence this watcher makes connected
    std::int64_t last_seq = 0;  // the game's last event this watcher has (or its snapshot had)
    Clock::time_point last_sent = Clock::now();
    bool active = false;  // registered with its game; guarded by the game's mutex

    void send(const std::shared_ptr<const WatchEvent>& event) {
        sink->deliver_event(event);
        last_sent = Clock::now();
    }
};

struct WatchHub::WatchedGame {
    std::mutex mutex;
    std::pair<storage::SeatPresence, storage::SeatPresence> presence;
    bool presence_loaded = false;
    std::vector<std::shared_ptr<Watcher>> watchers;
};

class WatchHub::SubscriptionImpl : public WatchHub::Subscription {
  public:
    SubscriptionImpl(WatchHub* hub, std::shared_ptr<Watcher> watcher)
        : hub_(hub), watcher_(std::move(watcher)) {}
    ~SubscriptionImpl() override { unsubscribe(); }
    void unsubscribe() override {
        if (done_.exchange(true) || !watcher_) return;
        hub_->remove(watcher_);
    }

  private:
    WatchHub* hub_;
    std::shared_ptr<Watcher> watcher_;
    std::atomic<bool> done_{false};
};

WatchHub::WatchHub(std::string database_url, storage::PostgresGameStore& store,
                   WatchHubOptions options)
    : database_url_(std::move(database_url)),
      store_(store),
      options_(options),
      server_id_(new_game_id()) {}

WatchHub::~WatchHub() {
    stop();
}

void WatchHub::start() {
    threads_.emplace_back([this] { listen_loop(); });
    threads_.emplace_back([this] { refresh_loop(); });
    threads_.emplace_back([this] { refresh_loop(); });
    threads_.emplace_back([this] { timer_loop(); });
}

void WatchHub::stop() {
    std::vector<std::shared_ptr<WatchedGame>> games;
    {
        // Under mutex_, so no subscribe can slip a new game in after this.
        std::lock_guard lock(mutex_);
        if (stopping_.exchange(true)) return;
        for (auto& [id, game] : games_)
            games.push_back(game);
        games_.clear();
    }
    for (auto& game : games) {
        std::lock_guard lock(game->mutex);
        for (auto& w : game->watchers) {
            w->active = false;
            --watcher_count_;
            w->sink->close(WatchEnd::kShutdown);
        }
        game->watchers.clear();
    }
    queue_wake_.notify_all();
    timer_wake_.notify_all();
    for (std::thread& t : threads_)
        t.join();
    threads_.clear();
    try {
        // Other replicas' watchers see these seats gone now, not after the TTL.
        store_.presence_drop_server(server_id_, now_us());
    } catch (const std::exception& e) {
        spdlog::warn("watch hub: could not clear presence on shutdown: {}", e.what());
    }
}

int WatchHub::active_watchers() const {
    return watcher_count_.load();
}

void WatchHub::mark_dirty(const std::string& game_id, int what) {
    {
        std::lock_guard lock(queue_mutex_);
        dirty_[game_id] |= what;
    }
    queue_wake_.notify_one();
}

void WatchHub::mark_all_dirty(int what) {
    std::vector<std::string> ids;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, game] : games_)
            ids.push_back(id);
    }
    for (const std::string& id : ids)
        mark_dirty(id, what);
}

void WatchHub::run_later(std::function<void()> task) {
    {
        std::lock_guard lock(queue_mutex_);
        tasks_.push_back(std::move(task));
    }
    queue_wake_.notify_one();
}

void WatchHub::listen_loop() {
    while (!stopping_) {
        try {
            pqxx::connection conn(database_url_);
            EventReceiver receiver(conn, [this](const std::string& id, bool presence) {
                // Only games someone here watches are worth a read.
                bool watched;
                {
                    std::lock_guard lock(mutex_);
                    watched = games_.count(id) > 0;
                }
                if (watched) mark_dirty(id, presence ? kPresence : kEvents);
            });
            // Anything may have changed while no LISTEN was active.
            mark_all_dirty(kEvents | kPresence);
            while (!stopping_)
                conn.await_notification(0, 200'000);
        } catch (const std::exception& e) {
            if (stopping_) break;
            spdlog::warn("watch hub: event listener lost the database ({}); reconnecting",
                         e.what());
            std::this_thread::sleep_for(std::chrono::seconds(1));
        }
    }
}

void WatchHub::refresh_loop() {
    while (true) {
        std::function<void()> task;
        std::string id;
        int what = 0;
        {
            std::unique_lock lock(queue_mutex_);
            queue_wake_.wait(lock, [&] { return stopping_ || !tasks_.empty() || !dirty_.empty(); });
            if (stopping_) return;
            if (!tasks_.empty()) {
                task = std::move(tasks_.front());
                tasks_.pop_front();
            } else {
                auto it = dirty_.begin();
                id = it->first;
                what = it->second;
                dirty_.erase(it);
            }
        }
        try {
            if (task) {
                task();
            } else {
                refresh_game(id, what);
            }
        } catch (const std::exception& e) {
            spdlog::warn("watch hub: {}", e.what());
            if (!task) {
                // Try again shortly: a watcher must not miss the change.
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
                mark_dirty(id, what);
            }
        }
    }
}

void WatchHub::timer_loop() {
    auto next_presence = Clock::now() + options_.presence_interval;
    while (!stopping_) {
        {
            // Its own condition variable: a refresher's wake-up must never be
            // spent on this thread.
            std::unique_lock lock(timer_mutex_);
            timer_wake_.wait_for(lock, std::chrono::milliseconds(250),
                                 [&] { return stopping_.load(); });
        }
        if (stopping_) return;
        std::vector<std::shared_ptr<WatchedGame>> games;
        {
            std::lock_guard lock(mutex_);
            for (auto& [id, game] : games_)
                games.push_back(game);
        }
        const auto now = Clock::now();
        for (auto& game : games) {
            std::lock_guard lock(game->mutex);
            for (auto& w : game->watchers) {
                if (now - w->last_sent < options_.heartbeat_interval) continue;
                v1::WatchGameResponse beat = event_now();
                beat.mutable_heartbeat();
                w->send(share(std::move(beat)));
            }
        }
        if (now >= next_presence) {
            next_presence = now + options_.presence_interval;
            try {
                const std::int64_t now_micros = now_us();
                store_.presence_refresh(server_id_, now_micros, now_micros + presence_ttl_us());
            } catch (const std::exception& e) {
                spdlog::warn("watch hub: presence refresh failed: {}", e.what());
            }
            // Catches seats whose replica died without saying goodbye.
            mark_all_dirty(kPresence);
        }
    }
}

void WatchHub::refresh_game(const std::string& game_id, int what) {
    std::shared_ptr<WatchedGame> game;
    {
        std::lock_guard lock(mutex_);
        const auto it = games_.find(game_id);
        if (it == games_.end()) return;
        game = it->second;
    }
    std::lock_guard lock(game->mutex);
    if (what & kEvents) send_events_locked(*game, game_id);
    if (what & kPresence) send_presence_locked(*game, game_id, nullptr);
}

void WatchHub::send_presence_locked(WatchedGame& game, const std::string& game_id,
                                    const std::shared_ptr<Watcher>& only_new) {
    if (game.watchers.empty() && !only_new) return;
    const auto now = store_.presence(game_id, now_us());
    const bool changed = !game.presence_loaded || !same_presence(now, game.presence);
    game.presence = now;
    game.presence_loaded = true;
    if (!changed && !only_new) return;
    v1::WatchGameResponse event = event_now();
    fill_presence(now.first, event.mutable_presence()->mutable_fox());
    fill_presence(now.second, event.mutable_presence()->mutable_geese());
    const auto shared = share(std::move(event));
    if (changed) {
        for (auto& w : game.watchers)
            w->send(shared);
    } else {
        only_new->send(shared);
    }
}

void WatchHub::send_events_locked(WatchedGame& game, const std::string& game_id) {
    if (game.watchers.empty()) return;
    std::int64_t oldest = game.watchers.front()->last_seq;
    for (auto& w : game.watchers)
        oldest = std::min(oldest, w->last_seq);
    bool ended = false;
    for (storage::GameEvent& recorded : store_.events_after(game_id, oldest)) {
        v1::WatchGameResponse message;
        if (!message.ParseFromString(recorded.body)) {
            spdlog::error("watch hub: game {} event {} is unreadable", game_id, recorded.seq);
            continue;
        }
        ended = ended || message.has_game_ended();
        // The recorded bytes go out as they are: serialized once, at the write.
        const auto shared =
            std::make_shared<const WatchEvent>(std::move(message), std::move(recorded.body));
        for (auto& w : game.watchers) {
            if (w->last_seq >= recorded.seq) continue;
            w->send(shared);
            w->last_seq = recorded.seq;
        }
    }
    if (ended) {
        for (auto& w : game.watchers) {
            w->active = false;
            --watcher_count_;
            w->sink->close(WatchEnd::kGameEnded);
        }
        game.watchers.clear();
    }
}

ServiceResult<std::shared_ptr<WatchHub::Subscription>> WatchHub::subscribe(
    const v1::WatchGameRequest& request, const std::optional<std::string>& authorization,
    std::shared_ptr<WatchSink> sink) {
    if (request.game_id().empty()) return invalid_argument("game_id", "game_id is required");
    if (!is_uuid(request.game_id())) {
        return invalid_argument(
            "game_id", "game_id must be a UUID such as 0b6f3c1e-6a4e-4c51-9d3a-6f3b2f8f6a2d");
    }
    const std::string id = lowercase(request.game_id());
    if (request.has_from_ply() && request.from_ply() < 0) {
        return invalid_argument("from_ply", "from_ply cannot be negative");
    }
    std::string token_hash;
    if (authorization && !authorization->empty()) {
        constexpr std::string_view kScheme = "bearer ";
        const std::string& value = *authorization;
        const std::string token =
            value.size() > kScheme.size() && lowercase(value.substr(0, kScheme.size())) == kScheme
                ? value.substr(kScheme.size())
                : "";
        if (!is_well_formed_token(token)) {
            return ServiceError{StatusCode::kUnauthenticated,
                                "TOKEN_INVALID",
                                "the authorization value must be 'Bearer <seat_token>'",
                                {},
                                ""};
        }
        token_hash = sha256_hex(token);
    }
    if (stopping_) {
        return ServiceError{StatusCode::kUnavailable,
                            "SHUTTING_DOWN",
                            "the server is shutting down; reconnect",
                            {},
                            ""};
    }
    try {
        std::shared_ptr<WatchedGame> game;
        {
            std::lock_guard lock(mutex_);
            if (stopping_) {
                return ServiceError{StatusCode::kUnavailable,
                                    "SHUTTING_DOWN",
                                    "the server is shutting down; reconnect",
                                    {},
                                    ""};
            }
            auto& slot = games_[id];
            if (!slot) slot = std::make_shared<WatchedGame>();
            game = slot;
        }
        // Drops the game's entry again when this call leaves it unwatched;
        // runs after the game's lock is released (lock order: hub, game).
        bool unused = false;
        auto result = [&]() -> ServiceResult<std::shared_ptr<Subscription>> {
            std::lock_guard lock(game->mutex);
            unused = game->watchers.empty();
            const std::optional<storage::GameWithLastMove> found = store_.find_game(id);
            if (!found) {
                return ServiceError{StatusCode::kNotFound,
                                    "GAME_NOT_FOUND",
                                    "no game has the id " + id,
                                    {{"game_id", id}},
                                    ""};
            }
            const GameRow& row = found->game;
            if (request.has_from_ply() && request.from_ply() > row.ply) {
                return invalid_argument("from_ply",
                                        "from_ply " + std::to_string(request.from_ply()) +
                                            " is beyond the game's ply " + std::to_string(row.ply));
            }
            int seats = 0;
            if (!token_hash.empty()) {
                seats = seats_held(row, token_hash);
                if (seats == 0) {
                    return ServiceError{StatusCode::kUnauthenticated,
                                        "TOKEN_INVALID",
                                        "the seat token holds no seat in this game",
                                        {},
                                        ""};
                }
            }
            auto watcher = std::make_shared<Watcher>();
            watcher->sink = sink;
            watcher->game_id = id;
            watcher->watcher_id = new_game_id();
            // The snapshot and this sequence number come from the same read:
            // every later event follows it, none before it is sent again.
            watcher->last_seq = row.event_seq;

            v1::WatchGameResponse snapshot = event_now();
            *snapshot.mutable_snapshot()->mutable_game() = game_view(row, found->last_move);
            if (request.has_from_ply()) {
                for (const MoveRow& m :
                     store_.list_moves_between(id, request.from_ply(), row.ply)) {
                    *snapshot.mutable_snapshot()->add_moves() = move_view(m);
                }
            }
            watcher->send(share(std::move(snapshot)));
            if (row.state == v1::GAME_STATE_FINISHED) {
                watcher->sink->close(WatchEnd::kGameEnded);
                return std::shared_ptr<Subscription>(
                    std::make_shared<SubscriptionImpl>(this, nullptr));
            }
            watcher->seats = seats;
            watcher->active = true;
            game->watchers.push_back(watcher);
            unused = false;
            ++watcher_count_;
            // The snapshot is out: from here a database hiccup must not fail
            // the stream; presence catches up on the next refresh.
            try {
                for (int side : {1, 2}) {
                    if (seats & side) {
                        const std::int64_t now_micros = now_us();
                        store_.presence_connect(id, side, watcher->watcher_id, server_id_,
                                                now_micros, now_micros + presence_ttl_us());
                    }
                }
                send_presence_locked(*game, id, watcher);
            } catch (const std::exception& e) {
                spdlog::warn("WatchGame {}: presence: {}", id, e.what());
            }
            return std::shared_ptr<Subscription>(std::make_shared<SubscriptionImpl>(this, watcher));
        }();
        if (unused) {
            std::lock_guard hub_lock(mutex_);
            const auto it = games_.find(id);
            if (it != games_.end() && it->second == game) {
                std::lock_guard game_lock(game->mutex);
                if (game->watchers.empty()) games_.erase(it);
            }
        }
        return result;
    } catch (const storage::PoolExhausted& e) {
        return unavailable(e);
    } catch (const pqxx::broken_connection& e) {
        return unavailable(e);
    } catch (const std::exception& e) {
        spdlog::error("WatchGame: {}", e.what());
        return ServiceError{StatusCode::kInternal, "INTERNAL", "internal error", {}, ""};
    }
}

void WatchHub::remove(const std::shared_ptr<Watcher>& watcher) {
    {
        std::lock_guard lock(mutex_);
        const auto it = games_.find(watcher->game_id);
        if (it != games_.end()) {
            std::shared_ptr<WatchedGame> game = it->second;
            std::lock_guard game_lock(game->mutex);
            auto& list = game->watchers;
            const auto pos = std::find(list.begin(), list.end(), watcher);
            if (pos != list.end()) {
                list.erase(pos);
                watcher->active = false;
                --watcher_count_;
            }
            if (list.empty()) games_.erase(it);
        }
    }
    if (watcher->seats == 0 || stopping_) return;
    // The database write happens off the caller's (transport) thread.
    run_later([this, game_id = watcher->game_id, watcher_id = watcher->watcher_id,
               seats = watcher->seats] {
        for (int side : {1, 2}) {
            if (seats & side) store_.presence_disconnect(game_id, side, watcher_id, now_us());
        }
    });
}

}  // namespace foxgeese::service
