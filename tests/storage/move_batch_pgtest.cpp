// The group commit of moves on PostgreSQL (PostgresGameStore with
// storage/move_batcher.h): moves of several games held back behind a
// blocked commit go together in one transaction, each decided on its own
// compare-and-swap; a move whose values the database rejects fails alone;
// and what the batch statement stores is what apply_move's single
// statement stores, column for column.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <pqxx/pqxx>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "storage/connection_pool.h"
#include "storage/migrations.h"
#include "storage/postgres_game_store.h"
#include "storage/statements.h"
#include "tests/support/row_lock.h"
#include "tests/support/test_database.h"

namespace foxgeese::test {
namespace {

using namespace std::chrono_literals;
using storage::AppliedMove;
using storage::GameRow;
using storage::MoveWrite;

constexpr const char* kStart = "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0";
constexpr std::int64_t kCreated = 1'800'000'000'000'000;

std::string new_game_id(std::mt19937_64& rng) {
    static const char* kHex = "0123456789abcdef";
    std::string id = "xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx";
    for (char& c : id)
        if (c == 'x') c = kHex[rng() % 16];
    return id;
}

class MoveBatch : public ::testing::Test {
  protected:
    static void SetUpTestSuite() { url_ = new_database(); }
    static std::string new_database() {
        const std::string url = create_scratch_database("move_batch");
        storage::apply_migrations(url);
        return url;
    }

    void SetUp() override {
        pool_ = std::make_unique<storage::ConnectionPool>(url_, storage::PoolOptions{},
                                                          &storage::prepare_statements);
        // One commit of moves in flight at a time: the moves that arrive
        // while it is held wait for the next.
        storage::MoveBatchOptions batching;
        batching.max_in_flight = 1;
        store_ = std::make_unique<storage::PostgresGameStore>(*pool_, batching);
    }

    // A game in progress at its start, the fox to move.
    std::string insert_game() {
        GameRow g;
        g.game_id = new_game_id(rng_);
        g.variant = "standard";
        g.visibility = storage::Visibility::kPublic;
        g.state = storage::GameState::kActive;
        g.start_position = kStart;
        g.start_geese = 13;
        g.position = kStart;
        g.seats.invite_code_hash = "invite";
        g.created_us = kCreated;
        g.updated_us = kCreated;
        EXPECT_TRUE(store_->insert_game(g, "start"));
        return g.game_id;
    }

    // The game's next move as MakeMove would write it, with every column
    // the move sets given a value of its own (clocks, retry windows, a
    // declined draw offer, three events, a reply with a zero byte).
    MoveWrite move_for(const std::string& id, int salt = 0) {
        const std::optional<storage::MoveContext> ctx = store_->load_move_context(id, "");
        EXPECT_TRUE(ctx.has_value());
        MoveWrite w;
        w.previous_ply = ctx->game.ply;
        w.previous_version = ctx->version;
        GameRow& g = w.game_after;
        g = ctx->game;
        g.ply += 1;
        g.position = "3/3/7/4F2/GGGGGGG/GGG/GGG g " + std::to_string(g.ply) + " 1";
        g.quiet_plies = 1;
        g.draw_offered_by = storage::Side::kNone;
        g.updated_us = kCreated + 1'000'000 * g.ply + salt;
        g.seats.fox.retry_until_us = g.updated_us + 30'000'000;
        g.seats.geese.retry_until_us = 0;
        g.clocks.fox_ms = 290'000;
        g.clocks.geese_ms = 300'000 - salt;
        g.clocks.turn_started_us = g.updated_us;
        g.clocks.deadline_us = g.updated_us + 300'000'000;
        w.move.game_id = id;
        w.move.ply = g.ply;
        w.move.notation = "d4-e4";
        w.move.side = storage::Side::kFox;
        w.move.captured = {"c3", "e5"};
        w.move.position = g.position;
        w.move.state = g.state;
        w.move.request_hash = "request-" + std::to_string(g.ply) + "-" + std::to_string(salt);
        w.move.response = std::string("reply\0with a zero", 17) + std::to_string(salt);
        w.move.think_ms = 1234;
        w.move.fox_clock_ms = 290'000;
        w.move.geese_clock_ms = std::nullopt;
        w.position_key = "key-" + std::to_string(g.ply);
        w.events = {
            {"made " + std::to_string(salt), 1}, {std::string("declined\0", 9), 4}, {"third", 7}};
        return w;
    }

    // What a move wrote of a game, without its id: the game's columns a
    // move sets, its moves, events and repetition history.
    std::string written(const std::string& id) {
        pqxx::connection c(url_);
        pqxx::nontransaction tx(c);
        std::string out;
        for (const char* query :
             {"SELECT position, ply, quiet_plies, state, result, end_reason, draw_offered_by,"
              " updated_at, finished_at, event_seq, fox_retry_until, geese_retry_until,"
              " fox_clock_ms, geese_clock_ms, turn_started_at, deadline_at, bot_claimed_until,"
              " bot_claimed_by FROM games WHERE game_id = $1::uuid",
              "SELECT ply, notation, side, captured, position, state, result, end_reason,"
              " request_hash, response, created_at, think_ms, fox_clock_ms, geese_clock_ms,"
              " comment FROM moves WHERE game_id = $1::uuid ORDER BY ply",
              "SELECT seq, body, kind, created_at FROM game_events WHERE game_id = $1::uuid"
              " ORDER BY seq",
              "SELECT position_key, occurrences, last_ply FROM position_occurrences"
              " WHERE game_id = $1::uuid ORDER BY position_key"}) {
            for (const pqxx::row& row : tx.exec_params(query, id)) {
                for (const pqxx::field& f : row)
                    out += (f.is_null() ? std::string("NULL") : f.c_str()) + std::string("|");
                out += "\n";
            }
        }
        return out;
    }

    // The transactions the moves of these games were committed in.
    std::set<std::string> transactions(const std::vector<std::string>& ids, int ply) {
        pqxx::connection c(url_);
        pqxx::nontransaction tx(c);
        std::set<std::string> xids;
        for (const std::string& id : ids) {
            for (const pqxx::row& row : tx.exec_params(
                     "SELECT xmin::text FROM moves WHERE game_id = $1::uuid AND ply = $2", id, ply))
                xids.insert(row[0].c_str());
        }
        return xids;
    }

    // Applies `w` on another thread.
    std::future<std::optional<AppliedMove>> apply_later(const MoveWrite& w) {
        return std::async(std::launch::async, [this, w] { return store_->apply_move(w); });
    }

    bool wait_for(const std::function<bool(const storage::MoveBatcher::Stats&)>& condition) {
        for (const auto until = std::chrono::steady_clock::now() + 20s;
             std::chrono::steady_clock::now() < until; std::this_thread::sleep_for(2ms)) {
            if (condition(store_->move_batches())) return true;
        }
        return false;
    }

    // Holds the next commit on `blocker`'s row, queues `writes` behind it,
    // then lets both commits go. The writes' answers, in order.
    std::vector<std::future<std::optional<AppliedMove>>> behind_a_held_commit(
        const std::string& blocker, const std::vector<MoveWrite>& writes) {
        RowLock lock(url_, blocker);
        auto held = apply_later(move_for(blocker));
        EXPECT_TRUE(wait_for([](const auto& s) { return s.in_flight == 1; }));
        std::vector<std::future<std::optional<AppliedMove>>> answers;
        for (std::size_t i = 0; i < writes.size(); ++i) {
            answers.push_back(apply_later(writes[i]));
            EXPECT_TRUE(
                wait_for([&](const auto& s) { return s.waiting == static_cast<int>(i + 1); }));
        }
        lock.release();
        EXPECT_TRUE(held.get().has_value());
        return answers;
    }

    static inline std::string url_;
    std::mt19937_64 rng_{std::random_device{}()};
    std::unique_ptr<storage::ConnectionPool> pool_;
    std::unique_ptr<storage::PostgresGameStore> store_;
};

TEST_F(MoveBatch, MovesWaitingTogetherCommitInOneTransactionAndARefusedOneWritesNothing) {
    const std::string blocker = insert_game();
    const std::string a = insert_game(), b = insert_game(), stale = insert_game();
    const std::string stale_before = written(stale);
    MoveWrite stale_write = move_for(stale);
    stale_write.previous_version += 1;  // the row changed since it was read
    const storage::MoveBatcher::Stats before = store_->move_batches();

    auto answers = behind_a_held_commit(blocker, {move_for(a), stale_write, move_for(b)});
    const auto applied_a = answers[0].get();
    const auto refused = answers[1].get();
    const auto applied_b = answers[2].get();

    ASSERT_TRUE(applied_a);
    ASSERT_TRUE(applied_b);
    EXPECT_FALSE(refused);
    EXPECT_EQ(applied_a->event_seq, 3);
    EXPECT_EQ(applied_a->occurrences, 1);
    EXPECT_EQ(applied_a->version, applied_b->version) << "one transaction, one row version";
    EXPECT_EQ(transactions({a, b}, 1).size(), 1u);
    EXPECT_EQ(written(stale), stale_before);
    const storage::MoveBatcher::Stats after = store_->move_batches();
    EXPECT_EQ(after.commits - before.commits, 2);
    EXPECT_EQ(after.moves - before.moves, 4);

    // The row version it answered is the one a next move must name.
    const auto next = store_->apply_move(move_for(a));
    ASSERT_TRUE(next);
    EXPECT_EQ(next->event_seq, 6);
}

TEST_F(MoveBatch, AMoveTheDatabaseRejectsFailsAloneAndTheOthersApply) {
    const std::string blocker = insert_game();
    const std::string a = insert_game(), bad = insert_game(), b = insert_game();
    const std::string bad_before = written(bad);
    MoveWrite bad_write = move_for(bad);
    bad_write.game_after.quiet_plies = 101;  // the games table's CHECK refuses it

    auto answers = behind_a_held_commit(blocker, {move_for(a), bad_write, move_for(b)});
    EXPECT_TRUE(answers[0].get());
    EXPECT_THROW(answers[1].get(), pqxx::sql_error);
    EXPECT_TRUE(answers[2].get());
    EXPECT_EQ(written(bad), bad_before);
    EXPECT_EQ(transactions({a, b}, 1).size(), 2u) << "each went again on its own";
}

TEST_F(MoveBatch, ARetriedRequestIdMovesOnceWhenItsTwinIsInTheSameCommit) {
    // Two games, one request_id each; the second write of game a names a
    // request_id that already made a move there.
    const std::string blocker = insert_game();
    const std::string a = insert_game(), b = insert_game();
    MoveWrite first = move_for(a);
    ASSERT_TRUE(store_->apply_move(first));
    MoveWrite again = move_for(a);
    again.move.request_hash = first.move.request_hash;
    auto answers = behind_a_held_commit(blocker, {again, move_for(b)});
    EXPECT_FALSE(answers[0].get()) << "a request_id moves once";
    EXPECT_TRUE(answers[1].get());
}

TEST_F(MoveBatch, TheBatchStatementStoresWhatTheSingleStatementStores) {
    const std::string blocker = insert_game();
    const std::string alone = insert_game(), batched = insert_game(), beside = insert_game();
    // Three moves each: alone one at a time, batched each time beside
    // another game's move.
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(store_->apply_move(move_for(alone)));
        auto answers = behind_a_held_commit(blocker, {move_for(batched), move_for(beside, 7)});
        ASSERT_TRUE(answers[0].get());
        ASSERT_TRUE(answers[1].get());
    }
    EXPECT_EQ(written(batched), written(alone));
    EXPECT_NE(written(beside), written(alone)) << "the comparison sees a difference";
}

}  // namespace
}  // namespace foxgeese::test
