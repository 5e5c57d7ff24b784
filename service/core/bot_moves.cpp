#include "service/core/bot_moves.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <memory>

#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "engine/search/bot_level.h"
#include "service/core/game_rules.h"
#include "service/core/game_views.h"
#include "service/core/tablebase_answers.h"

namespace foxgeese::service {
namespace {

using std::chrono::milliseconds;

// The search's share of the time left until the bot's deadline: the rest
// covers the database round trips and a clock that keeps running.
constexpr std::int64_t kShareOfTimeLeft = 20;

// Owed moves read to choose from (a few per client, each client's most
// urgent first), and how many of them a thread tries to claim (another
// replica or thread may take one first) before it looks again.
constexpr int kOwedMovesRead = 64;
constexpr int kOwedMovesPerClient = 4;
constexpr std::size_t kClaimTries = 4;

// The repetition history the search needs, from the counts MakeMove reads:
// keys are "<placement> <side>", so they parse as codes with zero counters.
RepetitionHistory history_of(const Variant& variant,
                             const std::unordered_map<std::string, storage::Occurrence>& window) {
    RepetitionHistory history;
    for (const auto& [key, occurrence] : window) {
        const Result<Position> pos = parse_position_code(variant, key + " 0 0");
        if (pos) history.set(pos->key(), occurrence.count);
    }
    return history;
}

}  // namespace

milliseconds bot_think_time(const storage::GameRow& game, milliseconds level_budget,
                            std::int64_t now_us) {
    milliseconds budget = level_budget;
    if (game.clocks.deadline_us != 0) {
        const std::int64_t left_ms = (game.clocks.deadline_us - now_us) / 1000;
        budget = std::min(budget, milliseconds(left_ms / kShareOfTimeLeft));
    }
    // A time limit of 0 would mean none.
    return std::max(budget, milliseconds(1));
}

std::uint64_t bot_seed(const std::string& game_id) {
    // FNV-1a: stable across builds and machines, unlike std::hash.
    std::uint64_t hash = 14695981039346656037ULL;
    for (const unsigned char c : game_id) {
        hash ^= c;
        hash *= 1099511628211ULL;
    }
    return hash;
}

BotWorker::BotWorker(GameService& service, storage::GameStore& store, Clock& clock,
                     std::string server_id, BotWorkerOptions options, Metrics* metrics)
    : service_(service),
      store_(store),
      clock_(clock),
      server_id_(std::move(server_id)),
      options_(options),
      metrics_(metrics),
      fairness_(clock) {}

BotWorker::~BotWorker() {
    stop();
}

void BotWorker::start() {
    for (int i = 0; i < options_.threads; ++i)
        threads_.emplace_back([this] { run_thread(); });
    if (options_.threads > 0) {
        renewer_ = std::thread([this] { renew_loop(); });
        lookout_ = std::thread([this] { lookout_loop(); });
    }
}

void BotWorker::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        for (InFlight* flight : in_flight_)
            flight->lose();
    }
    wake_.notify_all();
    for (std::thread& t : threads_)
        if (t.joinable()) t.join();
    threads_.clear();
    if (renewer_.joinable()) renewer_.join();
    if (lookout_.joinable()) lookout_.join();
}

void BotWorker::wake() {
    {
        std::lock_guard lock(mutex_);
        ++wakes_;
    }
    wake_.notify_all();
}

void BotWorker::run_thread() {
    // One searcher per thread, built once: searching allocates nothing. The
    // solver comes with the first bot move of a variant it decides.
    Searcher searcher(options_.table_megabytes);
    std::unique_ptr<ForwardSolver> solver;
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        // A wake-up that comes while this thread looks is not lost.
        const std::uint64_t seen = wakes_;
        lock.unlock();
        bool played = false;
        try {
            played = play_one(searcher, solver);
        } catch (const std::exception& e) {
            spdlog::warn("bot: {}", e.what());
        }
        lock.lock();
        if (!played)
            wake_.wait_for(lock, options_.poll, [&] { return stopping_ || wakes_ != seen; });
    }
}

void BotWorker::renew_loop() {
    const auto every = options_.lease / 3;
    std::unique_lock lock(mutex_);
    auto next = std::chrono::steady_clock::now() + every;
    while (!wake_.wait_until(lock, next, [&] { return stopping_; })) {
        next = std::chrono::steady_clock::now() + every;
        std::vector<storage::BotClaim> claims;
        for (const InFlight* flight : in_flight_)
            claims.push_back(flight->claim);
        lock.unlock();
        std::vector<storage::BotClaim> lost;
        const std::int64_t until =
            clock_.now_us() +
            std::chrono::duration_cast<std::chrono::microseconds>(options_.lease).count();
        for (const storage::BotClaim& claim : claims) {
            try {
                if (!store_.renew_bot_claim(claim, server_id_, until)) lost.push_back(claim);
            } catch (const std::exception& e) {
                // Not renewed: the lease may lapse and another replica move.
                spdlog::warn("bot: renewing the claim on game {}: {}", claim.game_id, e.what());
            }
        }
        lock.lock();
        for (InFlight* flight : in_flight_) {
            for (const storage::BotClaim& claim : lost) {
                if (flight->claim.game_id == claim.game_id && flight->claim.ply == claim.ply) {
                    spdlog::info("bot: lost the claim on game {} ply {}", claim.game_id, claim.ply);
                    flight->lose();
                }
            }
        }
        if (!lost.empty()) wake_.notify_all();
    }
}

std::vector<storage::OwedBotMove> BotWorker::owed_in_order() {
    std::vector<storage::OwedBotMove> owed =
        store_.owed_bot_moves(clock_.now_us(), kOwedMovesRead, kOwedMovesPerClient);
    std::vector<storage::OwedBotMove> ordered;
    ordered.reserve(owed.size());
    for (const std::size_t i : fairness_.order(owed))
        ordered.push_back(std::move(owed[i]));
    return ordered;
}

bool BotWorker::play_one(Searcher& searcher, std::unique_ptr<ForwardSolver>& solver) {
    const std::vector<storage::OwedBotMove> owed = owed_in_order();
    const std::int64_t lease_us =
        std::chrono::duration_cast<std::chrono::microseconds>(options_.lease).count();
    // Another replica may claim a move between the read and the claim: the
    // next one in order then.
    std::optional<storage::BotClaim> claim;
    const storage::OwedBotMove* chosen = nullptr;
    for (std::size_t i = 0; i < owed.size() && i < kClaimTries && !claim; ++i) {
        const std::int64_t now = clock_.now_us();
        claim = store_.claim_bot_move(owed[i].game_id, server_id_, now, now + lease_us);
        chosen = &owed[i];
    }
    if (!claim) return false;
    if (!claim->previous_holder.empty()) {
        ++takeovers_;
        if (metrics_) metrics_->bot_takeovers.add({});
        spdlog::info("bot: took over game {} ply {} from {}, whose claim lapsed", claim->game_id,
                     claim->ply, claim->previous_holder);
    }
    InFlight flight;
    flight.claim = std::move(*claim);
    flight.running = {chosen->client_key, chosen->deadline_us, clock_.now_us()};
    {
        std::lock_guard lock(mutex_);
        in_flight_.push_back(&flight);
        if (stopping_) flight.lose();
    }
    const int running = ++running_;
    for (int most = most_running_.load(); running > most;)
        if (most_running_.compare_exchange_weak(most, running)) break;
    try {
        think_and_move(searcher, solver, flight);
    } catch (const std::exception& e) {
        spdlog::warn("bot: game {}: {}", flight.claim.game_id, e.what());
    }
    fairness_.served(flight.running.client_key, flight.running.started_us);
    --running_;
    bool stopping = false;
    {
        std::lock_guard lock(mutex_);
        in_flight_.remove(&flight);
        stopping = stopping_;
    }
    // Shutting down: hand the move back now rather than after the lease.
    if (stopping) {
        try {
            store_.release_bot_claim(flight.claim, server_id_);
        } catch (const std::exception&) {
            // The lease lapses by itself.
        }
    }
    return true;
}

void BotWorker::think_and_move(Searcher& searcher, std::unique_ptr<ForwardSolver>& solver,
                               InFlight& flight) {
    const storage::BotClaim& claim = flight.claim;
    const std::optional<storage::MoveContext> ctx = store_.load_move_context(claim.game_id, "");
    if (!ctx || ctx->game.ply != claim.ply || !is_bot_turn(ctx->game)) return;
    const storage::GameRow& g = ctx->game;
    const Variant& variant = variant_of(g);
    const Position pos = parse_position_code(variant, g.position).value();
    const RepetitionHistory history = history_of(variant, ctx->window_occurrences);
    BotLevel level = bot_level(g.bot.level);
    level.time = bot_think_time(g, level.time, clock_.now_us());

    if (options_.think_delay.count() > 0) test_delay(flight, options_.think_delay);
    if (flight.lost) return;
    std::optional<Move> move;
    if (options_.tablebase) {
        if (const auto ranked = ranked_moves(*options_.tablebase, pos); ranked && !ranked->empty())
            move = tablebase_bot_move(*ranked, level.level, pos, bot_seed(g.game_id));
    }
    if (!move) {
        make_exact_solver_if_needed(solver, level, variant, options_.solver_megabytes);
        // A fresh table: the move depends on the game alone, on every
        // replica. The solver keeps its table across games: it holds only
        // proven results, so what it remembers changes how soon it proves a
        // win, never whether the move it plays wins.
        searcher.clear();
        move = play_bot_move(searcher, pos, history, level, bot_seed(g.game_id), &flight.stop,
                             solver.get());
    }
    if (!move || flight.lost) return;

    const std::string notation = format_move(pos.board(), *move);
    const ServiceResult<v1::MakeMoveResponse> made =
        service_.make_bot_move(claim.game_id, claim.ply, notation, {});
    if (!made.ok()) {
        // PLY_MISMATCH: another replica moved first; GAME_OVER: the game
        // ended meanwhile (a resignation, a flag).
        spdlog::info("bot: game {} ply {} {} not made: {} {}", claim.game_id, claim.ply, notation,
                     made.error().reason, made.error().message);
        return;
    }
    // The metric first: whoever sees the count has the metric as well.
    if (metrics_) metrics_->bot_moves.add({g.variant});
    ++moves_made_;
    spdlog::debug("bot: game {} ply {} {}", claim.game_id, claim.ply + 1, notation);
}

void BotWorker::test_delay(const InFlight& flight, std::chrono::milliseconds delay) {
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, delay, [&] { return stopping_ || flight.stop.load(); });
}

void BotWorker::lookout_loop() {
    std::unique_lock lock(mutex_);
    std::uint64_t seen = wakes_;
    while (!stopping_) {
        wake_.wait_for(lock, options_.poll, [&] { return stopping_ || wakes_ != seen; });
        seen = wakes_;
        // A free thread takes a waiting move itself.
        if (stopping_ || running_.load() < options_.threads || in_flight_.empty()) continue;
        lock.unlock();
        std::vector<storage::OwedBotMove> owed;
        try {
            owed = owed_in_order();
        } catch (const std::exception& e) {
            spdlog::warn("bot: looking for waiting moves: {}", e.what());
        }
        lock.lock();
        if (owed.empty()) continue;
        // The waiting move a free thread would take, and the search that
        // has had the largest share among those that should give way to it.
        const storage::OwedBotMove& next = owed.front();
        InFlight* cut = nullptr;
        double most = -1;
        for (InFlight* flight : in_flight_) {
            if (flight->yielding || !fairness_.should_yield(flight->running, next)) continue;
            const double share = fairness_.served_us(flight->running.client_key);
            if (share > most) {
                cut = flight;
                most = share;
            }
        }
        if (!cut) continue;
        cut->yielding = true;
        cut->stop = true;
        ++yields_;
        spdlog::debug("bot: game {} ply {} gives way to game {}", cut->claim.game_id,
                      cut->claim.ply, next.game_id);
    }
}

}  // namespace foxgeese::service
