// Group commit of moves. A move that arrives while as many commits as
// allowed (max_in_flight) are in flight waits for the next one, which
// carries every move that waited, as one statement: the database then pays
// its per-transaction costs (a WAL flush, executor start-up, a round trip)
// once for many games' moves instead of once each. No thread of its own: a
// caller that finds a commit free to start commits the moves waiting (its
// own among them) and hands the lead to a waiting caller when it is done,
// so a lone move goes straight through.
//
// Each move is still decided on its own: the commit function gives every
// move its own answer or error (PostgresGameStore::commit_moves), and a
// batch never holds two moves of one game (the second waits for the next
// batch, where the first one's compare-and-swap decides it).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "storage/call_budget.h"
#include "storage/game_records.h"

namespace foxgeese::storage {

struct MoveBatchOptions {
    // The most moves one commit carries; 1 turns the group commit off:
    // every move commits on its own at once, however many are in flight.
    int max_moves = 16;
    // How many commits of moves may be in flight at once (with max_moves
    // above 1). Three keep the database busy while a finished commit's
    // callers take their answers back, leave PostgreSQL's own group commit
    // of its WAL something to join, and hold no move back at a few clients
    // (bench/README.md).
    int max_in_flight = 3;
    // Told the number of moves of each commit once it is over (metrics).
    std::function<void(int moves)> on_commit;
};

// One move on its way to the database and, once its commit is over, its
// answer: `applied` (nothing: the compare-and-swap refused it) or `error`.
struct PendingMove {
    PendingMove(const MoveWrite& w, const CallBudget& b) : write(w), budget(b) {}
    const MoveWrite& write;
    const CallBudget& budget;
    std::optional<AppliedMove> applied;
    std::exception_ptr error;

  private:
    friend class MoveBatcher;
    bool done = false;
    std::condition_variable wake;
};

class MoveBatcher {
  public:
    // Commits the moves of one batch (distinct games) and sets each one's
    // answer or error. Whatever it throws becomes every move's error.
    using Commit = std::function<void(const std::vector<PendingMove*>& batch)>;

    MoveBatcher(MoveBatchOptions options, Commit commit);
    MoveBatcher(const MoveBatcher&) = delete;
    MoveBatcher& operator=(const MoveBatcher&) = delete;

    // Commits `write` with whatever moves wait beside it and returns its
    // answer, or throws its error. Blocks until its commit is over.
    std::optional<AppliedMove> apply(const MoveWrite& write, const CallBudget& budget);

    struct Stats {
        std::int64_t commits = 0;  // batches committed (or failed)
        std::int64_t moves = 0;    // moves they carried
        int waiting = 0;           // moves queued for the next commit now
        int in_flight = 0;         // moves in commits now
    };
    Stats stats() const;

  private:
    // Takes the next batch off the queue: the oldest moves, one per game.
    std::vector<PendingMove*> take_batch();
    void run(const std::vector<PendingMove*>& batch);

    const MoveBatchOptions options_;
    const Commit commit_;

    mutable std::mutex mutex_;
    std::deque<PendingMove*> queue_;
    int commits_in_flight_ = 0;
    Stats stats_;
};

}  // namespace foxgeese::storage
