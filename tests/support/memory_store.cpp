#include "tests/support/memory_store.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "storage/database_call.h"

namespace foxgeese::test {
namespace {

using storage::GameRow;
using storage::GameWithLastMove;
using storage::MoveRow;

// The watcher id of a seat's token use (PostgresPresenceStore::seen).
constexpr const char* kTokenUseWatcher = "00000000-0000-0000-0000-000000000000";
// How long the rows of a dead server's watchers stay before they count as
// departures (as on PostgreSQL).
constexpr std::int64_t kPresenceRowRetentionUs = 10LL * 60 * 1'000'000;

// Whether the side to move of a position code ("<placement> <f|g> ...") is
// the bot's, as games.side_to_move has it
// (migrations/0014_columns_for_readers.sql).
bool bot_to_move(const GameRow& g) {
    const std::size_t space = g.position.find(' ');
    const char side = space == std::string::npos ? '\0' : g.position[space + 1];
    return side == (g.bot.side == storage::Side::kFox ? 'f' : 'g');
}

}  // namespace

int MemoryStore::listen(Listener listener) {
    std::lock_guard lock(listeners_mutex_);
    listeners_.emplace(++next_listener_, std::move(listener));
    return next_listener_;
}

void MemoryStore::unlisten(int handle) {
    std::lock_guard lock(listeners_mutex_);
    listeners_.erase(handle);
}

void MemoryStore::announce(const Announcements& changes) {
    if (changes.empty()) return;
    std::lock_guard lock(listeners_mutex_);
    for (const auto& [game_id, presence] : changes) {
        for (const auto& [handle, listener] : listeners_)
            listener(game_id, presence);
    }
}

long MemoryStore::count_rows(const std::string& table) const {
    std::lock_guard lock(mutex_);
    if (table == "games") return static_cast<long>(games_.size());
    if (table == "seeks") return static_cast<long>(seeks_.size());
    long rows = 0;
    for (const auto& [id, g] : games_) {
        if (table == "moves") {
            rows += static_cast<long>(g.moves.size());
        } else if (table == "position_occurrences") {
            rows += static_cast<long>(g.occurrences.size());
        } else if (table == "game_events") {
            rows += static_cast<long>(g.events.size());
        } else if (table == "game_analyses") {
            rows += static_cast<long>(g.analyses.size());
        } else {
            throw std::invalid_argument("the memory store has no table " + table);
        }
    }
    return rows;
}

MemoryStore::Game* MemoryStore::game(const std::string& game_id) {
    const auto it = games_.find(game_id);
    return it == games_.end() ? nullptr : &it->second;
}

GameWithLastMove MemoryStore::with_last_move(const Game& g) const {
    GameWithLastMove found{g.row, std::nullopt};
    if (const auto last = g.moves.find(g.row.ply); last != g.moves.end())
        found.last_move = last->second;
    return found;
}

bool MemoryStore::conflicts(const GameRow& row) const {
    if (games_.count(row.game_id)) return true;
    if (row.create_request_hash.empty()) return false;
    return std::any_of(games_.begin(), games_.end(), [&](const auto& entry) {
        return entry.second.row.create_request_hash == row.create_request_hash;
    });
}

void MemoryStore::insert(const GameRow& row, const std::string& start_position_key) {
    Game g;
    g.row = row;
    // The columns insert_game leaves to their defaults.
    g.row.updated_us = row.created_us;
    g.row.draw_offered_by = storage::Side::kNone;
    g.row.event_seq = 0;
    g.row.rematch.offered_by = storage::Side::kNone;
    g.row.rematch.game_id.clear();
    g.version = ++last_version_;
    g.occurrences[start_position_key] = storage::Occurrence{1, row.start_ply};
    games_.emplace(row.game_id, std::move(g));
}

void MemoryStore::count_occurrence(Game& g, const std::string& key, int ply) {
    storage::Occurrence& o = g.occurrences[key];
    ++o.count;
    o.last_ply = ply;
}

bool MemoryStore::insert_game(const GameRow& row, const std::string& start_position_key,
                              const storage::CallBudget& budget) {
    storage::require_caller(budget);
    std::lock_guard lock(mutex_);
    if (conflicts(row)) return false;
    insert(row, start_position_key);
    return true;
}

MemoryStore::BotGameInsert MemoryStore::insert_bot_game(const GameRow& row,
                                                        const std::string& start_position_key,
                                                        int limit,
                                                        const storage::CallBudget& budget) {
    std::lock_guard lock(mutex_);
    if (limit > 0 && !row.bot.client_key.empty()) {
        const auto running = std::count_if(games_.begin(), games_.end(), [&](const auto& entry) {
            const GameRow& g = entry.second.row;
            return g.bot.client_key == row.bot.client_key && g.bot.side != storage::Side::kNone &&
                   g.state == storage::GameState::kActive;
        });
        if (running >= limit) return BotGameInsert::kOverLimit;
    }
    if (conflicts(row)) return BotGameInsert::kDuplicate;
    storage::require_caller(budget);
    insert(row, start_position_key);
    return BotGameInsert::kInserted;
}

bool MemoryStore::insert_imported_game(const GameRow& row, const std::string& start_position_key,
                                       const std::vector<storage::ImportedMove>& moves,
                                       const storage::CallBudget& budget) {
    std::lock_guard lock(mutex_);
    if (conflicts(row)) return false;
    storage::require_caller(budget);
    insert(row, start_position_key);
    Game& g = games_.at(row.game_id);
    for (const auto& [m, key] : moves) {
        MoveRow stored;
        stored.game_id = row.game_id;
        stored.ply = m.ply;
        stored.notation = m.notation;
        stored.side = m.side;
        stored.from = m.from;
        stored.to = m.to;
        stored.captured = m.captured;
        stored.position = m.position;
        stored.state = m.state;
        stored.result = m.result;
        stored.end_reason = m.end_reason;
        stored.created_us = m.created_us;
        stored.comment = m.comment;
        g.moves[m.ply] = stored;
        count_occurrence(g, key, m.ply);
    }
    return true;
}

std::optional<GameWithLastMove> MemoryStore::find_game(const std::string& game_id,
                                                       const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    const Game* g = game(game_id);
    if (!g) return std::nullopt;
    return with_last_move(*g);
}

std::optional<GameWithLastMove> MemoryStore::find_game_by_create_request(
    const std::string& request_hash, const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    if (request_hash.empty()) return std::nullopt;
    for (const auto& [id, g] : games_) {
        if (g.row.create_request_hash == request_hash) return with_last_move(g);
    }
    return std::nullopt;
}

std::optional<GameWithLastMove> MemoryStore::find_game_by_token(const std::string& token_hash,
                                                                const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    if (token_hash.empty()) return std::nullopt;
    // The fox seat's digest first, as the statement looks it up.
    for (const bool fox : {true, false}) {
        for (const auto& [id, g] : games_) {
            if ((fox ? g.row.seats.fox.token_hash : g.row.seats.geese.token_hash) == token_hash)
                return with_last_move(g);
        }
    }
    return std::nullopt;
}

std::optional<storage::MoveContext> MemoryStore::load_move_context(const std::string& game_id,
                                                                   const std::string& request_hash,
                                                                   const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    const Game* g = game(game_id);
    if (!g) return std::nullopt;
    storage::MoveContext context{g->row, std::nullopt, {}, g->version};
    if (!request_hash.empty()) {
        for (const auto& [ply, m] : g->moves) {
            if (m.request_hash == request_hash) context.earlier_try = m;
        }
    }
    const int window_start = g->row.ply - g->row.quiet_plies;
    for (const auto& [key, o] : g->occurrences) {
        if (o.last_ply >= window_start) context.window_occurrences.emplace(key, o);
    }
    return context;
}

std::optional<storage::AppliedMove> MemoryStore::apply_move(const storage::MoveWrite& w,
                                                            const storage::CallBudget& budget) {
    storage::require_caller(budget);
    storage::AppliedMove applied;
    {
        std::lock_guard lock(mutex_);
        const GameRow& a = w.game_after;
        Game* g = game(a.game_id);
        if (!g || g->row.ply != w.previous_ply || g->row.state != storage::GameState::kActive ||
            g->version != w.previous_version) {
            return std::nullopt;
        }
        if (!w.move.request_hash.empty()) {
            for (const auto& [ply, m] : g->moves) {
                if (m.request_hash == w.move.request_hash) return std::nullopt;
            }
        }
        GameRow& row = g->row;
        row.position = a.position;
        row.ply = a.ply;
        row.quiet_plies = a.quiet_plies;
        row.state = a.state;
        row.result = a.result;
        row.end_reason = a.end_reason;
        row.draw_offered_by = a.draw_offered_by;
        row.updated_us = a.updated_us;
        row.finished_us = a.finished_us;
        row.seats.fox.retry_until_us = a.seats.fox.retry_until_us;
        row.seats.geese.retry_until_us = a.seats.geese.retry_until_us;
        row.clocks.fox_ms = a.clocks.fox_ms;
        row.clocks.geese_ms = a.clocks.geese_ms;
        row.clocks.turn_started_us = a.clocks.turn_started_us;
        row.clocks.deadline_us = a.clocks.deadline_us;
        g->bot_claimed_until_us = 0;
        g->bot_claimed_by.clear();
        g->version = ++last_version_;

        MoveRow m = w.move;
        m.game_id = a.game_id;
        m.ply = a.ply;
        m.position = a.position;
        m.state = a.state;
        m.result = a.result;
        m.end_reason = a.end_reason;
        m.created_us = a.updated_us;
        m.comment.clear();
        g->moves[a.ply] = std::move(m);
        count_occurrence(*g, w.position_key, a.ply);
        for (const storage::EventRecord& e : w.events)
            g->events.push_back(storage::GameEvent{++row.event_seq, e.body, e.kind});
        applied = storage::AppliedMove{g->version, row.event_seq,
                                       g->occurrences.at(w.position_key).count};
    }
    announce({{w.game_after.game_id, false}});
    return applied;
}

void MemoryStore::write_back(Game& g, GameRow& changed, const storage::EventRecords& events) {
    for (const storage::EventRecord& e : events)
        g.events.push_back(storage::GameEvent{++changed.event_seq, e.body, e.kind});
    // The columns update_game writes.
    GameRow& row = g.row;
    row.state = changed.state;
    row.result = changed.result;
    row.end_reason = changed.end_reason;
    row.seats.fox.token_hash = changed.seats.fox.token_hash;
    row.seats.geese.token_hash = changed.seats.geese.token_hash;
    row.seats.fox.request_hash = changed.seats.fox.request_hash;
    row.seats.geese.request_hash = changed.seats.geese.request_hash;
    row.draw_offered_by = changed.draw_offered_by;
    row.updated_us = changed.updated_us;
    row.finished_us = changed.finished_us;
    row.seats.invite_code_hash = changed.seats.invite_code_hash;
    row.event_seq = changed.event_seq;
    row.seats.fox.retry_until_us = changed.seats.fox.retry_until_us;
    row.seats.geese.retry_until_us = changed.seats.geese.retry_until_us;
    row.clocks.fox_ms = changed.clocks.fox_ms;
    row.clocks.geese_ms = changed.clocks.geese_ms;
    row.clocks.turn_started_us = changed.clocks.turn_started_us;
    row.clocks.deadline_us = changed.clocks.deadline_us;
    row.rematch.offered_by = changed.rematch.offered_by;
    row.rematch.game_id = changed.rematch.game_id;
    row.seats.fox.reserved_hash = changed.seats.fox.reserved_hash;
    row.seats.geese.reserved_hash = changed.seats.geese.reserved_hash;
    g.version = ++last_version_;
}

std::optional<GameWithLastMove> MemoryStore::modify_locked(Game& g, const GameChange& change,
                                                           bool check_caller,
                                                           const storage::CallBudget& budget,
                                                           Announcements& announce) {
    GameWithLastMove current = with_last_move(g);
    storage::EventRecords events;
    if (!change(current, events)) return current;  // nothing is written
    if (check_caller) storage::require_caller(budget);
    write_back(g, current.game, events);
    if (!events.empty()) announce.emplace_back(current.game.game_id, false);
    return current;
}

std::optional<GameWithLastMove> MemoryStore::modify_game(const std::string& game_id,
                                                         const GameChange& change,
                                                         const storage::CallBudget& budget) {
    Announcements changes;
    std::optional<GameWithLastMove> after;
    {
        std::lock_guard lock(mutex_);
        Game* g = game(game_id);
        if (!g) return std::nullopt;
        after = modify_locked(*g, change, true, budget, changes);
    }
    announce(changes);
    return after;
}

bool MemoryStore::modify_next_overdue(std::int64_t now_us, const GameChange& change,
                                      const storage::CallBudget& budget) {
    Announcements changes;
    {
        std::lock_guard lock(mutex_);
        Game* overdue = nullptr;
        for (auto& [id, g] : games_) {
            const GameRow& row = g.row;
            if (row.clocks.deadline_us == 0 || row.clocks.deadline_us > now_us) continue;
            if (row.state != storage::GameState::kWaiting &&
                row.state != storage::GameState::kActive)
                continue;
            if (!overdue || row.clocks.deadline_us < overdue->row.clocks.deadline_us) overdue = &g;
        }
        if (!overdue) return false;
        modify_locked(*overdue, change, false, budget, changes);
    }
    announce(changes);
    return true;
}

bool MemoryStore::bot_move_owed(const Game& g, std::int64_t now_us) const {
    return g.row.state == storage::GameState::kActive && g.row.bot.side != storage::Side::kNone &&
           bot_to_move(g.row) && (g.bot_claimed_until_us == 0 || g.bot_claimed_until_us <= now_us);
}

std::vector<storage::OwedBotMove> MemoryStore::owed_bot_moves(std::int64_t now_us, int limit,
                                                              int per_client,
                                                              const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    std::map<std::string, int> running;  // searches with a live claim, per client
    std::map<std::string, std::vector<storage::OwedBotMove>> by_client;
    // Earliest deadline first (none last), then the longest waiting.
    auto urgency = [](const storage::OwedBotMove& m) {
        return std::make_pair(m.deadline_us == 0 ? INT64_MAX : m.deadline_us, m.waiting_since_us);
    };
    for (const auto& [id, g] : games_) {
        const GameRow& row = g.row;
        if (row.state != storage::GameState::kActive || row.bot.side == storage::Side::kNone)
            continue;
        if (g.bot_claimed_until_us > now_us) ++running[row.bot.client_key];
        if (bot_move_owed(g, now_us)) {
            by_client[row.bot.client_key].push_back(storage::OwedBotMove{
                id, row.ply, row.bot.client_key, row.clocks.deadline_us, row.updated_us, 0});
        }
    }
    std::vector<std::pair<int, storage::OwedBotMove>> ranked;  // turn, move
    for (auto& [client, moves] : by_client) {
        std::sort(moves.begin(), moves.end(),
                  [&](const auto& a, const auto& b) { return urgency(a) < urgency(b); });
        for (int turn = 1; turn <= per_client && turn <= static_cast<int>(moves.size()); ++turn) {
            storage::OwedBotMove m = moves[static_cast<std::size_t>(turn - 1)];
            m.client_searches = running[client];
            ranked.emplace_back(turn, std::move(m));
        }
    }
    std::sort(ranked.begin(), ranked.end(), [&](const auto& a, const auto& b) {
        return std::make_pair(a.first, urgency(a.second)) <
               std::make_pair(b.first, urgency(b.second));
    });
    std::vector<storage::OwedBotMove> owed;
    for (auto& [turn, m] : ranked) {
        if (static_cast<int>(owed.size()) == limit) break;
        owed.push_back(std::move(m));
    }
    return owed;
}

std::optional<storage::BotClaim> MemoryStore::claim_bot_move(const std::string& game_id,
                                                             const std::string& server_id,
                                                             std::int64_t now_us,
                                                             std::int64_t until_us,
                                                             const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    Game* g = game(game_id);
    if (!g || !bot_move_owed(*g, now_us)) return std::nullopt;
    storage::BotClaim claim{game_id, g->row.ply, g->bot_claimed_by};
    g->bot_claimed_until_us = until_us;
    g->bot_claimed_by = server_id;
    g->version = ++last_version_;
    return claim;
}

bool MemoryStore::renew_bot_claim(const storage::BotClaim& claim, const std::string& server_id,
                                  std::int64_t until_us, const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    Game* g = game(claim.game_id);
    if (!g || g->row.ply != claim.ply || g->bot_claimed_by != server_id ||
        g->row.state != storage::GameState::kActive)
        return false;
    g->bot_claimed_until_us = until_us;
    g->version = ++last_version_;
    return true;
}

void MemoryStore::release_bot_claim(const storage::BotClaim& claim, const std::string& server_id,
                                    const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    Game* g = game(claim.game_id);
    if (!g || g->row.ply != claim.ply || g->bot_claimed_by != server_id) return;
    g->bot_claimed_until_us = 0;
    g->bot_claimed_by.clear();
    g->version = ++last_version_;
}

std::vector<MoveRow> MemoryStore::list_moves(const std::string& game_id, int up_to_ply,
                                             const storage::CallBudget& budget) {
    return list_moves_between(game_id, INT32_MIN, up_to_ply, budget);
}

std::vector<MoveRow> MemoryStore::list_moves_between(const std::string& game_id, int after_ply,
                                                     int up_to_ply, const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    std::vector<MoveRow> moves;
    if (const Game* g = game(game_id)) {
        for (const auto& [ply, m] : g->moves) {
            if (ply > after_ply && ply <= up_to_ply) moves.push_back(m);
        }
    }
    return moves;
}

storage::GamePage MemoryStore::list_games(
    storage::GameListFilter filter, const std::string& variant, int limit,
    const std::optional<std::pair<std::int64_t, std::string>>& after, const storage::CallBudget&) {
    using storage::GameListFilter;
    std::lock_guard lock(mutex_);
    auto listed = [&](const GameRow& g) {
        if (g.visibility != storage::Visibility::kPublic) return false;
        if (!variant.empty() && g.variant != variant) return false;
        switch (filter) {
            case GameListFilter::kOpen:
                return g.state == storage::GameState::kWaiting && g.rematch.of_game_id.empty();
            case GameListFilter::kActive:
                return g.state == storage::GameState::kActive;
            case GameListFilter::kRecent:
                return g.state == storage::GameState::kFinished && !g.record.imported;
            case GameListFilter::kImported:
                return g.record.imported;
        }
        return false;
    };
    auto key = [&](const GameRow& g) {
        return std::make_pair(filter == GameListFilter::kRecent ? g.finished_us : g.created_us,
                              g.game_id);
    };
    std::vector<const Game*> rows;
    for (const auto& [id, g] : games_) {
        if (listed(g.row) && (!after || key(g.row) < *after)) rows.push_back(&g);
    }
    std::sort(rows.begin(), rows.end(),
              [&](const Game* a, const Game* b) { return key(a->row) > key(b->row); });
    storage::GamePage page;
    for (const Game* g : rows) {
        if (static_cast<int>(page.games.size()) == limit) break;
        page.games.push_back(with_last_move(*g));
    }
    if (static_cast<int>(rows.size()) > limit && !page.games.empty())
        page.next_after = key(page.games.back().game);
    return page;
}

void MemoryStore::listen_for_seeks(std::function<void(const std::string& seek_id)> listener) {
    std::lock_guard lock(listeners_mutex_);
    seek_listener_ = std::move(listener);
}

MemoryStore::PlacedSeek MemoryStore::place_seek(const storage::SeekRow& mine,
                                                const std::string& start_position_key,
                                                const GameForSeek& make_game,
                                                const storage::CallBudget& budget) {
    PlacedSeek placed;
    {
        std::lock_guard lock(mutex_);
        const std::int64_t now = mine.created_us;
        std::erase_if(seeks_, [&](const Seek& s) {
            return (s.row.pool == mine.pool || s.row.client_key == mine.client_key) &&
                   s.row.expires_us <= now &&
                   (s.game_id.empty() || s.row.expires_us <= now - 60'000'000);
        });
        const auto waiting = std::find_if(seeks_.begin(), seeks_.end(), [&](const Seek& s) {
            return s.row.pool == mine.pool && s.game_id.empty() && s.row.expires_us > now;
        });
        if (waiting != seeks_.end()) {
            placed.placement = SeekPlacement::kPaired;
            placed.claimed = waiting->row;
            placed.game = make_game(placed.claimed);
            if (conflicts(placed.game))
                throw std::runtime_error("a paired game's new id was taken");
            storage::require_caller(budget);
            insert(placed.game, start_position_key);
            waiting->game_id = placed.game.game_id;
        } else if (std::any_of(seeks_.begin(), seeks_.end(), [&](const Seek& s) {
                       return s.row.client_key == mine.client_key && s.game_id.empty();
                   })) {
            placed.placement = SeekPlacement::kClientBusy;
        } else {
            storage::require_caller(budget);
            seeks_.push_back(Seek{mine, ""});
            placed.placement = SeekPlacement::kWaiting;
        }
    }
    if (placed.placement == SeekPlacement::kPaired) {
        std::lock_guard lock(listeners_mutex_);
        if (seek_listener_) seek_listener_(placed.claimed.seek_id);
    }
    return placed;
}

std::optional<std::string> MemoryStore::remove_seek(const std::string& seek_id,
                                                    const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    const auto it = std::find_if(seeks_.begin(), seeks_.end(),
                                 [&](const Seek& s) { return s.row.seek_id == seek_id; });
    if (it == seeks_.end()) return std::nullopt;
    std::string game_id = it->game_id;
    seeks_.erase(it);
    return game_id;
}

std::optional<std::string> MemoryStore::find_game_analysis(const std::string& game_id, int ply,
                                                           const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    const Game* g = game(game_id);
    if (!g) return std::nullopt;
    const auto it = g->analyses.find(ply);
    if (it == g->analyses.end()) return std::nullopt;
    return it->second.response;
}

std::string MemoryStore::insert_game_analysis(const std::string& game_id, int ply,
                                              std::int64_t nodes_per_ply, std::int64_t analysed_us,
                                              const std::string& response,
                                              const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    Game* g = game(game_id);
    if (!g) throw std::invalid_argument("no game " + game_id + " to store an analysis of");
    // A newer analysis stays; one of this ply stored first is the game's.
    if (!g->analyses.empty() && g->analyses.rbegin()->first > ply) return response;
    if (const auto it = g->analyses.find(ply); it != g->analyses.end()) return it->second.response;
    g->analyses.clear();
    g->analyses[ply] = Analysis{nodes_per_ply, analysed_us, response};
    return response;
}

std::vector<storage::GameEvent> MemoryStore::events_after(const std::string& game_id,
                                                          std::int64_t after_seq,
                                                          const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    std::vector<storage::GameEvent> events;
    if (const Game* g = game(game_id)) {
        for (const storage::GameEvent& e : g->events) {
            if (e.seq > after_seq) events.push_back(e);
        }
    }
    return events;
}

std::vector<std::pair<std::string, std::int64_t>> MemoryStore::last_event_seqs(
    const std::vector<std::string>& game_ids, const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    std::vector<std::pair<std::string, std::int64_t>> seqs;
    for (const std::string& id : game_ids) {
        if (const Game* g = game(id)) seqs.emplace_back(id, g->row.event_seq);
    }
    return seqs;
}

void MemoryStore::depart(const SeatKey& seat, std::int64_t left_us, bool latest) {
    const auto [it, inserted] = departures_.emplace(seat, left_us);
    if (!inserted) it->second = latest ? std::max(it->second, left_us) : left_us;
}

void MemoryStore::connect(const std::string& game_id, storage::Side side,
                          const std::string& watcher_id, const std::string& server_id,
                          std::int64_t now_us, std::int64_t expires_us,
                          const storage::CallBudget&) {
    bool inserted;
    {
        std::lock_guard lock(mutex_);
        inserted = presence_
                       .emplace(std::make_tuple(game_id, side, watcher_id),
                                PresenceRow{server_id, now_us, now_us, expires_us})
                       .second;
        // Watching with the seat's token closes its retry window.
        if (Game* g = game(game_id)) {
            std::int64_t& window = side == storage::Side::kFox ? g->row.seats.fox.retry_until_us
                                                               : g->row.seats.geese.retry_until_us;
            if (window != 0) {
                window = 0;
                g->version = ++last_version_;
            }
        }
    }
    if (inserted) announce({{game_id, true}});
}

void MemoryStore::disconnect(const std::string& game_id, storage::Side side,
                             const std::string& watcher_id, std::int64_t now_us,
                             const storage::CallBudget&) {
    {
        std::lock_guard lock(mutex_);
        if (presence_.erase(std::make_tuple(game_id, side, watcher_id)) == 0) return;
        depart({game_id, side}, now_us, false);
    }
    announce({{game_id, true}});
}

void MemoryStore::seen(const std::string& game_id, storage::Side side, std::int64_t now_us,
                       std::int64_t until_us, const storage::CallBudget&) {
    bool was;
    {
        std::lock_guard lock(mutex_);
        const auto [it, inserted] =
            presence_.emplace(std::make_tuple(game_id, side, std::string(kTokenUseWatcher)),
                              PresenceRow{"", now_us, now_us, until_us});
        PresenceRow& row = it->second;
        was = !inserted && row.expires_us > now_us;
        if (!inserted) {
            if (row.expires_us <= now_us) row.connected_us = now_us;
            row.refreshed_us = now_us;
            row.expires_us = std::max(row.expires_us, until_us);
        }
    }
    if (!was) announce({{game_id, true}});
}

int MemoryStore::refresh(const std::string& server_id, std::int64_t now_us, std::int64_t expires_us,
                         const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    int refreshed = 0;
    for (auto& [key, row] : presence_) {
        if (row.server_id != server_id) continue;
        row.refreshed_us = now_us;
        row.expires_us = expires_us;
        ++refreshed;
    }
    for (auto it = spectators_.begin(); it != spectators_.end();) {
        auto& [count, expires] = it->second;
        if (it->first.second == server_id) expires = expires_us;
        if (expires < now_us - kPresenceRowRetentionUs) {
            it = spectators_.erase(it);
        } else {
            ++it;
        }
    }
    // The rows of servers that died long ago count as departures.
    const std::int64_t cutoff = now_us - kPresenceRowRetentionUs;
    for (auto it = presence_.begin(); it != presence_.end();) {
        if (it->second.expires_us >= cutoff) {
            ++it;
            continue;
        }
        const auto& [game_id, side, watcher] = it->first;
        depart({game_id, side}, it->second.refreshed_us, true);
        it = presence_.erase(it);
    }
    return refreshed;
}

void MemoryStore::drop_server(const std::string& server_id, std::int64_t now_us,
                              const storage::CallBudget&) {
    Announcements changes;
    {
        std::lock_guard lock(mutex_);
        std::set<std::string> games;
        for (auto it = presence_.begin(); it != presence_.end();) {
            if (it->second.server_id != server_id) {
                ++it;
                continue;
            }
            const auto& [game_id, side, watcher] = it->first;
            depart({game_id, side}, now_us, false);
            games.insert(game_id);
            it = presence_.erase(it);
        }
        for (auto it = spectators_.begin(); it != spectators_.end();) {
            if (it->first.second != server_id) {
                ++it;
                continue;
            }
            games.insert(it->first.first);
            it = spectators_.erase(it);
        }
        for (const std::string& id : games)
            changes.emplace_back(id, true);
    }
    announce(changes);
}

void MemoryStore::record_spectators(const std::string& server_id,
                                    const std::vector<std::pair<std::string, int>>& counts,
                                    std::int64_t expires_us, const storage::CallBudget&) {
    Announcements changes;
    {
        std::lock_guard lock(mutex_);
        if (!counts.empty()) ++spectator_writes_;
        for (const auto& [game_id, count] : counts) {
            const auto key = std::make_pair(game_id, server_id);
            if (count > 0) {
                if (!game(game_id)) continue;
                spectators_[key] = {count, expires_us};
            } else if (spectators_.erase(key) == 0) {
                continue;
            }
            changes.emplace_back(game_id, true);
        }
    }
    announce(changes);
}

long MemoryStore::spectator_writes() const {
    std::lock_guard lock(mutex_);
    return spectator_writes_;
}

int MemoryStore::spectators(const std::string& game_id, const std::string& apart_from_server,
                            std::int64_t now_us, const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    int sum = 0;
    for (const auto& [key, row] : spectators_) {
        if (key.first == game_id && key.second != apart_from_server && row.second > now_us)
            sum += row.first;
    }
    return sum;
}

std::pair<storage::SeatPresence, storage::SeatPresence> MemoryStore::presence(
    const std::string& game_id, std::int64_t now_us, const storage::CallBudget&) {
    std::lock_guard lock(mutex_);
    storage::SeatPresence sides[2];
    for (const storage::Side side : {storage::Side::kFox, storage::Side::kGeese}) {
        std::optional<std::int64_t> connected;  // the earliest live row's
        std::optional<std::int64_t> gone;       // the latest departure or lapsed row's
        if (const auto left = departures_.find({game_id, side}); left != departures_.end())
            gone = left->second;
        for (const auto& [key, row] : presence_) {
            if (std::get<0>(key) != game_id || std::get<1>(key) != side) continue;
            if (row.expires_us > now_us) {
                connected = std::min(connected.value_or(row.connected_us), row.connected_us);
            } else {
                gone = std::max(gone.value_or(row.refreshed_us), row.refreshed_us);
            }
        }
        storage::SeatPresence& p = sides[side == storage::Side::kFox ? 0 : 1];
        if (connected) {
            p.connected = true;
            p.since_us = *connected;
        } else if (gone) {
            p.since_us = *gone;
        }
    }
    return {sides[0], sides[1]};
}

}  // namespace foxgeese::test
