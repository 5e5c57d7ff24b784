// The bot's moves. Nothing about them lives in a replica's memory: a game
// owes a bot move when it is in progress and its bot is to move, and every
// replica runs a BotWorker whose threads claim owed moves in the database,
// compute them and play them through GameService::make_bot_move, the path a
// player's MakeMove takes (checks, one write with a compare-and-swap on the
// ply, events, watchers).
//
// A claim is a lease on the game row (bot_claimed_until, bot_claimed_by),
// taken with FOR UPDATE SKIP LOCKED so that two replicas never hold a live
// one at once. Its holder renews it every third of its length while it
// thinks; a replica that dies stops renewing, and once the lease has lapsed
// any replica takes the move over, so a move is never lost for longer than
// about a lease. A holder that lost its lease (it was too slow to renew)
// stops thinking when it finds out, and if it still tries to move, the
// compare-and-swap on the ply refuses the second move: each move is made
// exactly once.
//
// The number of searches at once is the number of threads; moves owed
// beyond that stay unclaimed in the database until a thread is free, on this
// replica or another. Threads wake when a move here makes a bot move owed,
// and poll now and then for moves owed through other replicas. A free thread
// takes the owed move that BotFairness puts first (urgent moves, then the
// client served least), and while every thread is busy a lookout cuts short
// a search that should give way to a waiting move (bot_fairness.h).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/search/forward_solver.h"
#include "engine/search/search.h"
#include "engine/tablebase/mapped_tablebase.h"
#include "service/core/bot_fairness.h"
#include "service/core/clock.h"
#include "service/core/game_service.h"
#include "service/runtime/metrics.h"
#include "storage/game_records.h"
#include "storage/game_store.h"

namespace foxgeese::service {

struct BotWorkerOptions {
    // Searches at once on this replica: one thread and one searcher each.
    int threads = 1;
    // How long a claim holds unless its holder renews it.
    std::chrono::milliseconds lease{3'000};
    // How often idle threads look for moves owed through other replicas.
    std::chrono::milliseconds poll{200};
    // Tests only: an extra wait before each search, so that a test can
    // catch a replica while it thinks. 0 in production.
    std::chrono::milliseconds think_delay{0};
    // Each searcher's transposition table.
    std::size_t table_megabytes = 16;
    // Each thread's exact solver table, for the levels that use one in the
    // variants it decides (engine/search/forward_solver.h); 0 for none.
    std::size_t solver_megabytes = 64;
    // Where it answers, the bot plays from it without searching: level 8
    // perfectly, the others with their share of mistakes
    // (tablebase_answers.h).
    std::shared_ptr<const tablebase::MappedTablebase> tablebase;
};

// How long the bot may search at `now_us`: its level's budget, and never
// more than a twentieth of the time left until its deadline (its flag, or
// its first-move deadline), so that it respects the game's time control.
std::chrono::milliseconds bot_think_time(const storage::GameRow& game,
                                         std::chrono::milliseconds level_budget,
                                         std::int64_t now_us);

// The seed of a game's bot, from its id: the same on every replica, so a
// game replays exactly (the level's choice mixes in the position).
std::uint64_t bot_seed(const std::string& game_id);

class BotWorker {
  public:
    BotWorker(GameService& service, storage::GameStore& store, Clock& clock, std::string server_id,
              BotWorkerOptions options, Metrics* metrics = nullptr);
    ~BotWorker();
    BotWorker(const BotWorker&) = delete;
    BotWorker& operator=(const BotWorker&) = delete;

    void start();
    // Ends the searches running (their moves are handed back at once) and
    // the threads. Safe to call twice.
    void stop();
    // A bot move may be owed: idle threads look now.
    void wake();

    int searches_running() const { return running_.load(); }
    // The most searches that ever ran at once here.
    int most_searches_at_once() const { return most_running_.load(); }
    std::int64_t moves_made() const { return moves_made_.load(); }
    // Claims taken over from a replica whose lease had lapsed.
    std::int64_t takeovers() const { return takeovers_.load(); }
    // Searches cut short to give way to a waiting move.
    std::int64_t yields() const { return yields_.load(); }
    const std::string& server_id() const { return server_id_; }

  private:
    // A claim being worked on. `stop` ends its search: with `lost` when its
    // lease is gone (or the worker stops: no move then), or when it gives
    // way to a waiting move (its bot plays the best move found so far).
    struct InFlight {
        storage::BotClaim claim;
        BotFairness::Running running;
        std::atomic<bool> lost{false};
        std::atomic<bool> stop{false};
        bool yielding = false;  // guarded by mutex_
        void lose() {
            lost = true;
            stop = true;
        }
    };

    void run_thread();
    void renew_loop();
    // While every thread searches: cuts short a search that should give way.
    void lookout_loop();
    // The owed moves to choose from, in BotFairness's order.
    std::vector<storage::OwedBotMove> owed_in_order();
    // Claims one owed move and plays it; false when none is owed.
    bool play_one(Searcher& searcher, std::unique_ptr<ForwardSolver>& solver);
    void think_and_move(Searcher& searcher, std::unique_ptr<ForwardSolver>& solver,
                        InFlight& flight);
    // Waits `delay`, or less if the claim is lost or the worker stops.
    void test_delay(const InFlight& flight, std::chrono::milliseconds delay);

    GameService& service_;
    storage::GameStore& store_;
    Clock& clock_;
    const std::string server_id_;
    const BotWorkerOptions options_;
    Metrics* metrics_;

    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::uint64_t wakes_ = 0;
    std::list<InFlight*> in_flight_;  // guarded by mutex_
    std::vector<std::thread> threads_;
    std::thread renewer_;
    std::thread lookout_;
    BotFairness fairness_;

    std::atomic<int> running_{0};
    std::atomic<int> most_running_{0};
    std::atomic<std::int64_t> moves_made_{0};
    std::atomic<std::int64_t> takeovers_{0};
    std::atomic<std::int64_t> yields_{0};
};

}  // namespace foxgeese::service
