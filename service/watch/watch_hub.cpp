#include "service/watch/watch_hub.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <pqxx/pqxx>

#include "service/core/database_errors.h"
#include "service/core/game_rules.h"
#include "service/core/game_views.h"
#include "service/core/seat_auth.h"
#include "service/core/secrets.h"
#include "storage/postgres_game_store.h"

namespace foxgeese::service {
namespace {

using storage::GameRow;
using storage::MoveRow;
using SteadyClock = std::chrono::steady_clock;
using PresencePair = std::pair<storage::SeatPresence, storage::SeatPresence>;

// Presence changes a game's watchers are sent at once before the rate of
// WatchHubOptions::presence_min_interval holds them back: a seat holder who
// comes and goes is seen doing so.
constexpr double kPresenceBurst = 3;

// A side's bit in a set of seats: its stored number (1 fox side, 2 geese).
int seat_bit(storage::Side side) {
    return static_cast<int>(side);
}

// Seats a holder makes connected, as a bit set.
int seat_bits(Held held) {
    return (holds_side(held, Side::kFox) ? seat_bit(storage::Side::kFox) : 0) |
           (holds_side(held, Side::kGeese) ? seat_bit(storage::Side::kGeese) : 0);
}

std::shared_ptr<const WatchEvent> share(v1::WatchGameResponse message) {
    return std::make_shared<const WatchEvent>(std::move(message));
}

void fill_presence(const storage::SeatPresence& p, v1::SidePresence* out) {
    out->set_connected(p.connected);
    if (p.since_us != 0) set_timestamp(p.since_us, out->mutable_since());
}

bool same_presence(const PresencePair& a, const PresencePair& b) {
    return a.first.connected == b.first.connected && a.first.since_us == b.first.since_us &&
           a.second.connected == b.second.connected && a.second.since_us == b.second.since_us;
}

ServiceError shutting_down() {
    return make_error(StatusCode::kUnavailable, "SHUTTING_DOWN",
                      "the server is shutting down; reconnect");
}

// Receives NOTIFY on the events channel and hands each game id over.
class EventReceiver : public pqxx::notification_receiver {
  public:
    EventReceiver(pqxx::connection_base& conn,
                  std::function<void(const std::string&, bool)> on_event)
        : pqxx::notification_receiver(conn, storage::kEventsChannel),
          on_event_(std::move(on_event)) {}
    void operator()(const std::string& payload, int) override {
        // "<game id> presence" for presence; otherwise recorded events of one
        // game ("<game id>") or of several ("<id>,<id>,...", change_notifier.h).
        const std::size_t space = payload.find(' ');
        if (space != std::string::npos) {
            on_event_(payload.substr(0, space), true);
            return;
        }
        std::size_t from = 0;
        while (from < payload.size()) {
            std::size_t comma = payload.find(',', from);
            if (comma == std::string::npos) comma = payload.size();
            if (comma > from) on_event_(payload.substr(from, comma - from), false);
            from = comma + 1;
        }
    }

  private:
    std::function<void(const std::string&, bool)> on_event_;
};

}  // namespace

struct WatchHub::Watcher {
    std::shared_ptr<WatchSink> sink;
    bool sends_inline = false;  // the sink's, read once: the walk checks it per watcher
    std::string game_id;
    std::string watcher_id;
    int seats = 0;           // seats whose presence this watcher makes connected
    bool spectator = false;  // opened without a seat token: counted as a spectator
    // Guarded by the game's mutex:
    std::int64_t last_seq = 0;   // the game's last event this watcher has (or its snapshot had)
    bool needs_presence = true;  // the current presence has not been sent yet
    // After GameEnded: when (on the service's Clock) the stream closes
    // unless a rematch answer closes it first.
    std::optional<std::int64_t> close_at_us;
    SteadyClock::time_point last_sent = SteadyClock::now();

    void send(const std::shared_ptr<const WatchEvent>& event) {
        sink->deliver(event);
        last_sent = SteadyClock::now();
    }
};

struct WatchHub::WatchedGame {
    explicit WatchedGame(std::int64_t spectators_interval_us)
        : spectators(spectators_interval_us) {}
    std::mutex mutex;
    std::vector<std::shared_ptr<Watcher>> watchers;
    PresencePair presence;  // as last sent to every watcher
    // The spectator count as last sent to every watcher, and when a change
    // held back by its pace may go (the timer asks for a read then).
    PacedCount spectators;
    std::optional<std::int64_t> spectators_due_us;
    bool presence_loaded = false;
    // Presence changes sent lately, as a token bucket: kPresenceBurst at
    // once, then one per presence_min_interval.
    double presence_budget = kPresenceBurst;
    SteadyClock::time_point presence_budget_at{};
    // A change read when the budget was spent: the timer asks for it again
    // once the budget has refilled.
    bool presence_deferred = false;

    // The budget at `now`, refilled.
    double presence_budget_now(SteadyClock::time_point now,
                               std::chrono::milliseconds interval) const {
        if (interval.count() <= 0) return kPresenceBurst;
        const double refilled = std::chrono::duration<double>(now - presence_budget_at) /
                                std::chrono::duration<double>(interval);
        return std::min<double>(kPresenceBurst, presence_budget + refilled);
    }
    // One refresh at a time per game; what arrives meanwhile waits in pending.
    bool refreshing = false;
    int pending = 0;
};

class WatchHub::SubscriptionImpl : public WatchHub::Subscription {
  public:
    SubscriptionImpl(WatchHub* hub, std::shared_ptr<Watcher> watcher,
                     std::unique_ptr<ConcurrencyLimiter::Lease> lease)
        : hub_(hub), watcher_(std::move(watcher)), lease_(std::move(lease)) {}
    ~SubscriptionImpl() override { unsubscribe(); }
    void unsubscribe() override {
        if (done_.exchange(true)) return;
        if (watcher_) hub_->remove(watcher_);
        lease_.reset();  // the address may open another stream
    }

  private:
    WatchHub* hub_;
    std::shared_ptr<Watcher> watcher_;
    std::unique_ptr<ConcurrencyLimiter::Lease> lease_;
    std::atomic<bool> done_{false};
};

WatchHub::WatchHub(std::string database_url, storage::GameFeed& store,
                   storage::PresenceStore& presence, Clock& clock, WatchHubOptions options)
    : database_url_(std::move(database_url)),
      store_(store),
      presence_(presence),
      clock_(clock),
      options_(options),
      server_id_(new_game_id()),
      streams_per_token_(options.streams_per_token, 100'000),
      streams_per_address_(options.streams_per_address, 100'000),
      opens_per_token_(clock, options.opens_per_token, 100'000),
      opens_per_address_(clock, options.opens_per_address, 100'000),
      walk_(options.walk_helpers >= 0
                ? options.walk_helpers
                : std::max(0, static_cast<int>(std::thread::hardware_concurrency()) - 1)) {}

WatchHub::~WatchHub() {
    stop();
}

void WatchHub::start() {
    if (!database_url_.empty()) threads_.emplace_back([this] { listen_loop(); });
    threads_.emplace_back([this] { refresh_loop(); });
    threads_.emplace_back([this] { refresh_loop(); });
    threads_.emplace_back([this] { timer_loop(); });
}

void WatchHub::stop() {
    std::vector<std::shared_ptr<WatchedGame>> games;
    {
        // Under mutex_, so no subscribe can register after this.
        std::lock_guard lock(mutex_);
        if (stopping_.exchange(true)) return;
        for (auto& [id, game] : games_)
            games.push_back(game);
        games_.clear();
    }
    for (auto& game : games) {
        std::lock_guard lock(game->mutex);
        for (auto& w : game->watchers)
            w->sink->close(WatchEnd::kShutdown);
        watcher_count_ -= static_cast<int>(game->watchers.size());
        game->watchers.clear();
    }
    queue_wake_.notify_all();
    timer_wake_.notify_all();
    for (std::thread& t : threads_)
        t.join();
    threads_.clear();
    try {
        // Other replicas' watchers see these seats gone now, not after the TTL.
        presence_.drop_server(server_id_, clock_.now_us());
    } catch (const std::exception& e) {
        spdlog::warn("watch hub: could not clear presence on shutdown: {}", e.what());
    }
}

int WatchHub::active_watchers() const {
    return watcher_count_.load();
}

std::size_t WatchHub::watched_games() const {
    std::lock_guard lock(mutex_);
    return games_.size();
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

void WatchHub::heard(const std::string& game_id, bool presence) {
    // Only games someone here watches are worth a read.
    bool watched;
    {
        std::lock_guard lock(mutex_);
        watched = games_.count(game_id) > 0;
    }
    if (watched) mark_dirty(game_id, presence ? kPresence : kEvents);
}

void WatchHub::listen_loop() {
    while (!stopping_) {
        try {
            pqxx::connection conn(database_url_);
            EventReceiver receiver(
                conn, [this](const std::string& id, bool presence) { heard(id, presence); });
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

void WatchHub::catch_up() {
    // The oldest event any watcher of each game has.
    std::map<std::string, std::int64_t> oldest;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, game] : games_) {
            std::lock_guard game_lock(game->mutex);
            if (game->watchers.empty()) continue;
            std::int64_t seq = game->watchers.front()->last_seq;
            for (const auto& w : game->watchers)
                seq = std::min(seq, w->last_seq);
            oldest.emplace(id, seq);
        }
    }
    constexpr std::size_t kIdsPerQuery = 1'000;
    std::vector<std::string> ids;
    auto check = [&] {
        for (const auto& [id, seq] : store_.last_event_seqs(ids)) {
            const auto known = oldest.find(id);
            if (known != oldest.end() && seq > known->second) mark_dirty(id, kEvents);
        }
        ids.clear();
    };
    for (const auto& [id, seq] : oldest) {
        ids.push_back(id);
        if (ids.size() == kIdsPerQuery) check();
    }
    if (!ids.empty()) check();
}

void WatchHub::timer_loop() {
    auto next_presence = SteadyClock::now() + options_.presence_interval;
    auto next_catch_up = SteadyClock::now() + options_.catch_up_interval;
    while (!stopping_) {
        {
            // Its own condition variable: a refresher's wake-up must never be
            // spent on this thread.
            std::unique_lock lock(timer_mutex_);
            timer_wake_.wait_for(lock, std::chrono::milliseconds(250),
                                 [&] { return stopping_.load(); });
        }
        if (stopping_) return;
        std::vector<std::pair<std::string, std::shared_ptr<WatchedGame>>> games;
        {
            std::lock_guard lock(mutex_);
            for (auto& [id, game] : games_)
                games.emplace_back(id, game);
        }
        const auto now = SteadyClock::now();
        const std::int64_t now_us = clock_.now_us();
        std::shared_ptr<const WatchEvent> beat;
        // Games whose last watchers the linger closed.
        std::vector<std::pair<std::string, std::shared_ptr<WatchedGame>>> emptied;
        std::vector<std::string> presence_due;
        for (auto& [id, game] : games) {
            std::lock_guard lock(game->mutex);
            if (close_lingering(*game, now_us) && game->watchers.empty())
                emptied.emplace_back(id, game);
            if ((game->presence_deferred &&
                 game->presence_budget_now(now, options_.presence_min_interval) >= 1.0) ||
                (game->spectators_due_us && now_us >= *game->spectators_due_us))
                presence_due.push_back(id);
            for (auto& w : game->watchers) {
                if (now - w->last_sent < options_.heartbeat_interval) continue;
                if (!beat) {
                    v1::WatchGameResponse message;
                    set_timestamp(clock_.now_us(), message.mutable_time());
                    message.mutable_heartbeat();
                    beat = share(std::move(message));
                }
                w->send(beat);
            }
        }
        for (auto& [id, game] : emptied)
            forget_if_unwatched(id, game);
        for (const std::string& id : presence_due)
            mark_dirty(id, kPresence);
        try {
            write_spectators();
        } catch (const std::exception& e) {
            spdlog::warn("watch hub: spectator counts not written (tried again): {}", e.what());
        }
        if (now >= next_catch_up) {
            next_catch_up = now + options_.catch_up_interval;
            try {
                catch_up();
            } catch (const std::exception& e) {
                spdlog::warn("watch hub: catch-up check failed: {}", e.what());
            }
        }
        if (now >= next_presence) {
            next_presence = now + options_.presence_interval;
            try {
                const std::int64_t refresh_us = clock_.now_us();
                presence_.refresh(server_id_, refresh_us, refresh_us + presence_ttl_us());
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
    std::int64_t oldest = 0;
    {
        std::lock_guard lock(game->mutex);
        if (game->refreshing) {
            game->pending |= what;  // the running refresh picks it up
            return;
        }
        if (game->watchers.empty()) return;
        game->refreshing = true;
        oldest = game->watchers.front()->last_seq;
        for (auto& w : game->watchers)
            oldest = std::min(oldest, w->last_seq);
    }
    try {
        while (what != 0) {
            std::vector<storage::GameEvent> events;
            std::optional<PresenceRead> presence;
            if (what & kEvents) events = store_.events_after(game_id, oldest);
            if (what & kPresence) {
                const std::int64_t now_us = clock_.now_us();
                presence = PresenceRead{presence_.presence(game_id, now_us),
                                        presence_.spectators(game_id, server_id_, now_us)};
                presence->spectators += spectators_here(game_id);
            }
            std::lock_guard lock(game->mutex);
            what = deliver_locked(*game, events, presence);
            if (what == 0 || game->watchers.empty()) {
                game->refreshing = false;
                break;
            }
            oldest = game->watchers.front()->last_seq;
            for (auto& w : game->watchers)
                oldest = std::min(oldest, w->last_seq);
        }
    } catch (...) {
        std::lock_guard lock(game->mutex);
        game->refreshing = false;
        throw;
    }
    forget_if_unwatched(game_id, game);
}

int WatchHub::deliver_locked(WatchedGame& game, std::vector<storage::GameEvent>& events,
                             const std::optional<PresenceRead>& presence) {
    int again = game.pending;
    game.pending = 0;
    const std::int64_t now_us = clock_.now_us();
    // Each event parsed and shared once, then walked over the watchers.
    struct Shared {
        std::int64_t seq;
        bool ends;
        bool last;  // a rematch answer is the last thing a finished game has to say
        std::shared_ptr<const WatchEvent> event;
    };
    std::vector<Shared> parsed;
    parsed.reserve(events.size());
    for (storage::GameEvent& recorded : events) {
        // Events recorded before their kind was (migration 0014) say it
        // when parsed.
        int kind = 0;
        if (recorded.kind) {
            kind = *recorded.kind;
        } else if (v1::WatchGameResponse message; message.ParseFromString(recorded.body)) {
            kind = message.event_case();
        } else {
            spdlog::error("watch hub: event {} is unreadable", recorded.seq);
            continue;
        }
        // The recorded bytes go out as they are: serialized once, at the
        // write, and parsed only for a stream that needs the message.
        parsed.push_back({recorded.seq, kind == v1::WatchGameResponse::kGameEnded,
                          kind == v1::WatchGameResponse::kRematchAnswered,
                          std::make_shared<const WatchEvent>(std::move(recorded.body))});
    }
    // The walk in parts (each a contiguous run of watchers, on the pool's
    // threads), each part with what it found: the watchers its events
    // closed, and whether one needs events older than this read's.
    struct Part {
        std::vector<std::shared_ptr<Watcher>> done;
        bool behind = false;
    };
    const std::size_t count = parsed.empty() ? 0 : game.watchers.size();
    const std::size_t per_part =
        static_cast<std::size_t>(std::max(1, options_.watchers_per_walk_part));
    const int parts = static_cast<int>(std::min<std::size_t>(
        static_cast<std::size_t>(walk_.helpers()) + 1, (count + per_part - 1) / per_part));
    std::vector<Part> results(static_cast<std::size_t>(parts));
    walk_.run(parts, [&](int index) {
        const std::size_t i = static_cast<std::size_t>(index);
        const std::size_t n = static_cast<std::size_t>(parts);
        Part& part = results[i];
        // Two passes: the sinks that send inline first (see WatchSink).
        for (const bool inline_pass : {true, false}) {
            for (const Shared& e : parsed) {
                for (std::size_t k = count * i / n; k < count * (i + 1) / n; ++k) {
                    const std::shared_ptr<Watcher>& w = game.watchers[k];
                    if (w->sends_inline != inline_pass) continue;
                    // Events go out strictly in sequence: a watcher further
                    // behind than this read reaches gets the rest on another pass.
                    if (w->last_seq + 1 != e.seq) {
                        if (w->last_seq + 1 < e.seq) part.behind = true;
                        continue;
                    }
                    w->send(e.event);
                    w->last_seq = e.seq;
                    if (e.last || (e.ends && options_.rematch_linger.count() == 0)) {
                        part.done.push_back(w);
                    } else if (e.ends) {
                        w->close_at_us = now_us + linger_us();
                    }
                }
            }
        }
    });
    std::vector<std::shared_ptr<Watcher>> done;  // closed by the events above
    for (Part& part : results) {
        if (part.behind) again |= kEvents;
        done.insert(done.end(), part.done.begin(), part.done.end());
    }
    for (const auto& w : done) {
        w->sink->close(WatchEnd::kGameEnded);
        const auto pos = std::find(game.watchers.begin(), game.watchers.end(), w);
        if (pos == game.watchers.end()) continue;
        game.watchers.erase(pos);
        count_watcher(*w, -1);
    }
    if (game.watchers.empty()) return 0;
    if (presence) {
        const bool changed =
            !game.presence_loaded || !same_presence(presence->seats, game.presence);
        const SteadyClock::time_point now = SteadyClock::now();
        const double budget = game.presence_budget_now(now, options_.presence_min_interval);
        const bool send_seats = changed && budget >= 1.0;
        game.presence_deferred = changed && !send_seats;
        if (send_seats) {
            game.presence = presence->seats;
            game.presence_loaded = true;
            game.presence_budget = budget - 1.0;
            game.presence_budget_at = now;
        }
        // The spectator count on a pace of its own, so that a crowd coming
        // and going sends one change a second, the latest.
        const bool count_changed = game.spectators.last() != presence->spectators;
        const bool send_count = game.spectators.due(presence->spectators, now_us);
        if (send_count) game.spectators.sent(presence->spectators, now_us);
        game.spectators_due_us.reset();
        if (count_changed && !send_count) game.spectators_due_us = game.spectators.next_us();
        const bool send_all = send_seats || send_count;
        // What every watcher is sent on a change: the seats and the count as
        // sent now. A new watcher gets the presence as it is at once.
        const auto event = [&](const PresencePair& seats, int spectators) {
            v1::WatchGameResponse message;
            set_timestamp(clock_.now_us(), message.mutable_time());
            v1::Presence* p = message.mutable_presence();
            fill_presence(seats.first, p->mutable_fox());
            fill_presence(seats.second, p->mutable_geese());
            p->set_spectators(spectators);
            return share(std::move(message));
        };
        std::shared_ptr<const WatchEvent> shared;
        for (auto& w : game.watchers) {
            if (!send_all && !w->needs_presence) continue;
            if (!shared) {
                shared = send_all ? event(game.presence, game.spectators.last().value_or(0))
                                  : event(presence->seats, presence->spectators);
            }
            w->send(shared);
            w->needs_presence = false;
        }
    }
    return again;
}

// The snapshot a new watcher starts from: the game as read, and with a
// from_ply the moves after it (what a reconnecting client missed).
v1::WatchGameResponse WatchHub::snapshot_of(const storage::GameWithLastMove& found,
                                            const v1::WatchGameRequest& request,
                                            const storage::CallBudget& budget) {
    v1::WatchGameResponse snapshot;
    set_timestamp(clock_.now_us(), snapshot.mutable_time());
    *snapshot.mutable_snapshot()->mutable_game() =
        game_view(found.game, found.last_move, clock_.now_us());
    if (request.has_from_ply()) {
        for (const MoveRow& m : store_.list_moves_between(found.game.game_id, request.from_ply(),
                                                          found.game.ply, budget))
            *snapshot.mutable_snapshot()->add_moves() = move_view(m);
    }
    return snapshot;
}

void WatchHub::connect_seats(const Watcher& watcher, const storage::CallBudget& budget) {
    // Before the presence is read, so the new watcher sees itself; a failure
    // here must not fail the stream (the next refresh catches up).
    try {
        for (const storage::Side side : {storage::Side::kFox, storage::Side::kGeese}) {
            if ((watcher.seats & seat_bit(side)) == 0) continue;
            const std::int64_t now = clock_.now_us();
            presence_.connect(watcher.game_id, side, watcher.watcher_id, server_id_, now,
                              now + presence_ttl_us(), budget);
        }
    } catch (const std::exception& e) {
        spdlog::warn("WatchGame {}: presence: {}", watcher.game_id, e.what());
    }
}

ServiceResult<std::shared_ptr<WatchHub::Subscription>> WatchHub::subscribe(
    const v1::WatchGameRequest& request, const CallContext& call, std::shared_ptr<WatchSink> sink) {
    if (auto e = check_single_authorization(call)) return *e;
    std::string id;
    if (auto e = normalize_game_id(request.game_id(), id)) return *e;
    if (request.has_from_ply() && request.from_ply() < 0)
        return invalid_argument("from_ply", "from_ply cannot be negative");
    const std::optional<Bearer> token = optional_bearer(call);
    if (stopping_) return shutting_down();
    // Keyed by the seat token when there is one, so that a client behind a
    // shared address cannot use up its neighbours' opens.
    if (auto wait = token ? opens_per_token_.take(token->hash)
                          : opens_per_address_.take(call.client_address)) {
        return rate_limited(token ? "watch streams opened with this seat token"
                                  : "watch streams opened from your address without a seat token",
                            *wait);
    }
    // Held until the stream ends, whichever way.
    std::unique_ptr<ConcurrencyLimiter::Lease> lease =
        token ? streams_per_token_.try_acquire(token->hash)
              : streams_per_address_.try_acquire(call.client_address);
    if (!lease) {
        if (token) {
            // Its holder's other streams keep the seat present meanwhile.
            return rate_limited("watch streams open with this seat token (at most " +
                                    std::to_string(streams_per_token_.limit()) + ")",
                                std::chrono::seconds(2));
        }
        return rate_limited("watch streams open from your address without a seat token (at most " +
                                std::to_string(streams_per_address_.limit()) + ")",
                            std::chrono::seconds(2));
    }
    return guarded<std::shared_ptr<Subscription>>(
        "WatchGame", [&]() -> ServiceResult<std::shared_ptr<Subscription>> {
            const storage::CallBudget budget = call.budget();
            const std::optional<storage::GameWithLastMove> found = store_.find_game(id, budget);
            if (!found) return game_not_found(id);
            const GameRow& row = found->game;
            if (request.has_from_ply() && request.from_ply() > row.ply) {
                return invalid_argument("from_ply",
                                        "from_ply " + std::to_string(request.from_ply()) +
                                            " is beyond the game's ply " + std::to_string(row.ply));
            }
            const int seats = token ? seat_bits(seat_of(row, *token)) : 0;
            if (token && seats == 0) return token_rejected(*token);
            v1::WatchGameResponse snapshot = snapshot_of(*found, request, budget);
            const bool finished = row.state == storage::GameState::kFinished;
            // A finished game's stream stays for a rematch while one may come.
            const std::int64_t linger_left_us =
                finished && row.rematch.game_id.empty()
                    ? row.finished_us + linger_us() - clock_.now_us()
                    : 0;
            if (finished && linger_left_us <= 0) {
                sink->deliver(share(std::move(snapshot)));
                sink->close(WatchEnd::kGameEnded);
                return std::shared_ptr<Subscription>(
                    std::make_shared<SubscriptionImpl>(this, nullptr, std::move(lease)));
            }
            auto watcher = std::make_shared<Watcher>();
            watcher->sink = std::move(sink);
            watcher->sends_inline = watcher->sink->sends_inline();
            watcher->game_id = id;
            watcher->watcher_id = new_game_id();
            // Presence only counts while the game is played.
            watcher->seats = finished ? 0 : seats;
            watcher->spectator = !token;
            // The snapshot and this sequence number come from the same read:
            // every later event follows it, none before it is sent again.
            watcher->last_seq = row.event_seq;
            if (finished) watcher->close_at_us = row.finished_us + linger_us();
            connect_seats(*watcher, budget);
            if (stopping_) return shutting_down();
            register_watcher(id, watcher, share(std::move(snapshot)));
            // Events recorded after the snapshot's read, and the presence,
            // reach the new watcher through one refresh.
            mark_dirty(id, kEvents | kPresence);
            return std::shared_ptr<Subscription>(
                std::make_shared<SubscriptionImpl>(this, watcher, std::move(lease)));
        });
}

void WatchHub::register_watcher(const std::string& game_id, const std::shared_ptr<Watcher>& watcher,
                                const std::shared_ptr<const WatchEvent>& snapshot) {
    // Found or created and joined under the hub's lock, so a concurrent
    // removal can never leave the watcher in a game the hub forgot.
    std::lock_guard hub_lock(mutex_);
    auto& slot = games_[game_id];
    if (!slot) slot = std::make_shared<WatchedGame>(spectators_interval_us());
    std::lock_guard game_lock(slot->mutex);
    watcher->send(snapshot);
    slot->watchers.push_back(watcher);
    count_watcher(*watcher, 1);
}

void WatchHub::count_watcher(const Watcher& watcher, int delta) {
    watcher_count_ += delta;
    if (!watcher.spectator) return;
    std::lock_guard lock(tally_mutex_);
    auto it = tallies_.find(watcher.game_id);
    if (it == tallies_.end()) {
        // Nothing written for a game is a count of zero.
        it = tallies_.emplace(watcher.game_id, Tally{0, PacedCount(spectators_interval_us(), 0)})
                 .first;
    }
    it->second.here += delta;
}

int WatchHub::spectators_here(const std::string& game_id) const {
    std::lock_guard lock(tally_mutex_);
    const auto it = tallies_.find(game_id);
    return it == tallies_.end() ? 0 : it->second.here;
}

void WatchHub::write_spectators() {
    const std::int64_t now_us = clock_.now_us();
    std::vector<std::pair<std::string, int>> changed;
    {
        std::lock_guard lock(tally_mutex_);
        for (auto it = tallies_.begin(); it != tallies_.end();) {
            const Tally& tally = it->second;
            if (tally.written.due(tally.here, now_us)) {
                changed.emplace_back(it->first, tally.here);
            } else if (tally.here == 0 && tally.written.last() == 0 &&
                       !tally.written.holding(now_us)) {
                // Nobody here and nothing written: forgotten once its pace
                // no longer matters.
                it = tallies_.erase(it);
                continue;
            }
            ++it;
        }
    }
    if (changed.empty()) return;
    presence_.record_spectators(server_id_, changed, now_us + presence_ttl_us());
    // Only this thread erases tallies: each written one is still there.
    std::lock_guard lock(tally_mutex_);
    for (const auto& [id, count] : changed)
        tallies_.at(id).written.sent(count, now_us);
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
                count_watcher(*watcher, -1);
            }
            if (list.empty()) games_.erase(it);
        }
    }
    // The other watchers here see one spectator fewer (on its pace).
    if (watcher->spectator) heard(watcher->game_id, true);
    // Also when the game's end already took the watcher off: its seat is gone
    // either way. The database write happens off the caller's thread.
    if (watcher->seats == 0 || stopping_) return;
    run_later([this, game_id = watcher->game_id, watcher_id = watcher->watcher_id,
               seats = watcher->seats] {
        for (const storage::Side side : {storage::Side::kFox, storage::Side::kGeese}) {
            if (seats & seat_bit(side))
                presence_.disconnect(game_id, side, watcher_id, clock_.now_us());
        }
    });
}

bool WatchHub::close_lingering(WatchedGame& game, std::int64_t now_us) {
    bool closed = false;
    auto& list = game.watchers;
    for (auto it = list.begin(); it != list.end();) {
        const auto& w = *it;
        if (!w->close_at_us || now_us < *w->close_at_us) {
            ++it;
            continue;
        }
        w->sink->close(WatchEnd::kGameEnded);
        count_watcher(*w, -1);
        it = list.erase(it);
        closed = true;
    }
    return closed;
}

void WatchHub::forget_if_unwatched(const std::string& game_id,
                                   const std::shared_ptr<WatchedGame>& game) {
    std::lock_guard lock(mutex_);
    const auto it = games_.find(game_id);
    if (it == games_.end() || it->second != game) return;
    std::lock_guard game_lock(game->mutex);
    if (game->watchers.empty()) games_.erase(it);
}

}  // namespace foxgeese::service
