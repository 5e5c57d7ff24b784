#include "storage/postgres_game_store.h"

#include <pqxx/pqxx>

#include "storage/database_call.h"
#include "storage/game_columns.h"
#include "storage/move_batch_call.h"
#include "storage/statements.h"

namespace foxgeese::storage {
namespace {

// bytea parameters travel in binary (libpqxx sends a binarystring as it
// is), not at twice their size in the hex text format.
pqxx::binarystring bytea(const std::string& bytes) {
    return pqxx::binarystring(bytes);
}

// MakeMove's events as its statement takes them: :event_N and :kind_N for
// the first three; past the end, an empty one, which the statement ignores
// (it writes the first :event_count of them).
void bind_move_events(NamedStatement::Call& call, const EventRecords& events) {
    static const EventRecord kNone;
    for (std::size_t i = 0; i < 3; ++i) {
        const EventRecord& e = i < events.size() ? events[i] : kNone;
        const std::string n = std::to_string(i + 1);
        call.set("event_" + n, bytea(e.body)).set("kind_" + n, e.kind);
    }
}

// The seats' columns, bound alike by a game's insert and its write-back.
void bind_seats(NamedStatement::Call& call, const Seats& seats) {
    call.set("fox_token_hash", nonempty(seats.fox.token_hash))
        .set("geese_token_hash", nonempty(seats.geese.token_hash))
        .set("fox_request_hash", nonempty(seats.fox.request_hash))
        .set("geese_request_hash", nonempty(seats.geese.request_hash))
        .set("fox_retry_until_us", nonzero(seats.fox.retry_until_us))
        .set("geese_retry_until_us", nonzero(seats.geese.retry_until_us))
        .set("fox_reserved_hash", nonempty(seats.fox.reserved_hash))
        .set("geese_reserved_hash", nonempty(seats.geese.reserved_hash))
        .set("invite_code_hash", seats.invite_code_hash);
}

// The clocks that run, bound by every write of a game.
void bind_running_clocks(NamedStatement::Call& call, const GameClocks& clocks) {
    call.set("fox_clock_ms", clocks.fox_ms)
        .set("geese_clock_ms", clocks.geese_ms)
        .set("turn_started_us", nonzero(clocks.turn_started_us))
        .set("deadline_us", nonzero(clocks.deadline_us));
}

const char* list_statement(GameListFilter filter) {
    switch (filter) {
        case GameListFilter::kOpen:
            return "list_open_games";
        case GameListFilter::kActive:
            return "list_active_games";
        case GameListFilter::kRecent:
            return "list_recent_games";
        case GameListFilter::kImported:
            return "list_imported_games";
    }
    return "list_open_games";
}

std::vector<MoveRow> read_moves(const pqxx::result& r) {
    std::vector<MoveRow> moves;
    moves.reserve(r.size());
    for (const auto& row : r)
        moves.push_back(*read_move(row, 0));
    return moves;
}

std::optional<GameWithLastMove> read_game_with_last_move(const pqxx::result& r) {
    if (r.empty()) return std::nullopt;
    return GameWithLastMove{read_game(r[0]), read_move(r[0], kGameColumnCount)};
}

// The game row and its start occurrence (insert_game), in a transaction
// or not; true when it was inserted.
template <class Transaction>
bool exec_insert_game(Transaction& tx, const GameRow& g, const std::string& start_position_key) {
    NamedStatement::Call call = insert_game_statement().call();
    call.set("game_id", g.game_id);
    call.set("variant", g.variant);
    call.set("geese_option", g.geese_option);
    call.set("geese_sideways", g.geese_sideways);
    call.set("visibility", g.visibility);
    call.set("state", g.state);
    call.set("result", g.result);
    call.set("end_reason", g.end_reason);
    call.set("start_position", g.start_position);
    call.set("start_geese", g.start_geese);
    call.set("start_ply", g.start_ply);
    call.set("start_position_key", start_position_key);
    call.set("position", g.position);
    call.set("ply", g.ply);
    call.set("quiet_plies", g.quiet_plies);
    call.set("create_request_hash", nonempty(g.create_request_hash));
    call.set("time_control", g.clocks.time_control);
    call.set("initial_ms", g.clocks.initial_ms);
    call.set("increment_ms", g.clocks.increment_ms);
    call.set("move_period_ms", g.clocks.move_period_ms);
    call.set("first_move_ms", g.clocks.first_move_ms);
    call.set("rematch_of_game_id", nonempty(g.rematch.of_game_id));
    call.set("bot_side", g.bot.side);
    call.set("bot_level", g.bot.level);
    call.set("bot_client_key", nonempty(g.bot.client_key));
    call.set("imported", g.record.imported);
    call.set("record_time_control", nonempty(g.record.time_control));
    call.set("record_created_us", g.record.created_us);
    call.set("record_ended_us", g.record.ended_us);
    call.set("created_us", g.created_us);
    call.set("finished_us", nonzero(g.finished_us));
    bind_seats(call, g.seats);
    bind_running_clocks(call, g.clocks);
    const pqxx::result r = call.exec(tx);
    return r.size() == 1;
}

}  // namespace

PostgresGameStore::PostgresGameStore(ConnectionPool& pool, MoveBatchOptions batching)
    : pool_(pool),
      batcher_(batching, [this](const std::vector<PendingMove*>& batch) { commit_moves(batch); }) {}

bool PostgresGameStore::insert_game(const GameRow& g, const std::string& start_position_key,
                                    const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kWrite, [&](pqxx::connection& conn) {
        require_caller(budget);
        pqxx::nontransaction tx(conn);
        return exec_insert_game(tx, g, start_position_key);
    });
}

PostgresGameStore::BotGameInsert PostgresGameStore::insert_bot_game(
    const GameRow& g, const std::string& start_position_key, int limit, const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kWrite, [&](pqxx::connection& conn) {
        pqxx::work tx(conn);
        if (limit > 0) {
            tx.exec_prepared("lock_bot_client", g.bot.client_key);
            const pqxx::result count = tx.exec_prepared("bot_games_of_client", g.bot.client_key);
            if (count[0][0].as<std::int64_t>() >= limit) return BotGameInsert::kOverLimit;
        }
        if (!exec_insert_game(tx, g, start_position_key)) return BotGameInsert::kDuplicate;
        require_caller(budget);
        tx.commit();
        return BotGameInsert::kInserted;
    });
}

bool PostgresGameStore::insert_imported_game(const GameRow& g,
                                             const std::string& start_position_key,
                                             const std::vector<ImportedMove>& moves,
                                             const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kWrite, [&](pqxx::connection& conn) {
        pqxx::work tx(conn);
        if (!exec_insert_game(tx, g, start_position_key)) return false;
        for (const auto& [m, key] : moves) {
            insert_imported_move_statement()
                .call()
                .set("game_id", g.game_id)
                .set("ply", m.ply)
                .set("notation", m.notation)
                .set("side", m.side)
                .set("captured", captured_column(m.captured))
                .set("position", m.position)
                .set("state", m.state)
                .set("result", m.result)
                .set("end_reason", m.end_reason)
                .set("created_us", m.created_us)
                .set("comment", nonempty(m.comment))
                .set("position_key", key)
                .exec(tx);
        }
        require_caller(budget);
        tx.commit();
        return true;
    });
}

std::optional<GameWithLastMove> PostgresGameStore::find_game(const std::string& game_id,
                                                             const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kRead, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        return read_game_with_last_move(tx.exec_prepared("find_game", game_id));
    });
}

std::optional<GameWithLastMove> PostgresGameStore::find_game_by_create_request(
    const std::string& request_hash, const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kRead, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        return read_game_with_last_move(
            tx.exec_prepared("find_game_by_create_request", request_hash));
    });
}

std::optional<GameWithLastMove> PostgresGameStore::find_game_by_token(const std::string& token_hash,
                                                                      const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kRead, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        return read_game_with_last_move(tx.exec_prepared("find_game_by_token", token_hash));
    });
}

std::optional<MoveContext> PostgresGameStore::load_move_context(const std::string& game_id,
                                                                const std::string& request_hash,
                                                                const CallBudget& budget) {
    return run_database_call(
        pool_, budget, Access::kRead, [&](pqxx::connection& conn) -> std::optional<MoveContext> {
            pqxx::nontransaction tx(conn);
            const pqxx::result r =
                tx.exec_prepared("load_move_context", game_id, nonempty(request_hash));
            if (r.empty()) return std::nullopt;
            MoveContext context{read_game(r[0]), read_move(r[0], kGameColumnCount), {}, 0};
            context.window_occurrences = read_window(r[0], kGameColumnCount + kMoveColumnCount);
            context.version =
                r[0][kGameColumnCount + kMoveColumnCount + kWindowColumnCount].as<std::int64_t>();
            return context;
        });
}

std::optional<AppliedMove> PostgresGameStore::apply_move(const MoveWrite& w,
                                                         const CallBudget& budget) {
    return batcher_.apply(w, budget);
}

void PostgresGameStore::announce(const std::string& game_id, pqxx::transaction_base& tx) {
    if (announcer_)
        announcer_(game_id);
    else
        tx.exec_prepared("notify_event", game_id);  // committed already: after the move
}

std::optional<AppliedMove> PostgresGameStore::apply_one_move(const MoveWrite& w,
                                                             const CallBudget& budget) {
    return run_database_call(
        pool_, budget, Access::kWrite, [&](pqxx::connection& conn) -> std::optional<AppliedMove> {
            require_caller(budget);
            pqxx::nontransaction tx(conn);
            const GameRow& g = w.game_after;
            NamedStatement::Call call = apply_move_statement().call();
            call.set("game_id", g.game_id);
            call.set("previous_ply", w.previous_ply);
            call.set("previous_version", w.previous_version);
            call.set("position", g.position);
            call.set("ply", g.ply);
            call.set("quiet_plies", g.quiet_plies);
            call.set("state", g.state);
            call.set("result", g.result);
            call.set("end_reason", g.end_reason);
            call.set("draw_offered_by", g.draw_offered_by);
            call.set("updated_us", g.updated_us);
            call.set("finished_us", nonzero(g.finished_us));
            call.set("fox_retry_until_us", nonzero(g.seats.fox.retry_until_us));
            call.set("geese_retry_until_us", nonzero(g.seats.geese.retry_until_us));
            call.set("notation", w.move.notation);
            call.set("side", w.move.side);
            call.set("captured", captured_column(w.move.captured));
            call.set("request_hash", nonempty(w.move.request_hash));
            call.set("response", bytea(w.move.response));
            call.set("think_ms", w.move.think_ms);
            call.set("move_fox_clock_ms", w.move.fox_clock_ms);
            call.set("move_geese_clock_ms", w.move.geese_clock_ms);
            call.set("position_key", w.position_key);
            call.set("event_count", static_cast<int>(w.events.size()));
            bind_move_events(call, w.events);
            bind_running_clocks(call, g.clocks);
            const pqxx::result r = call.exec(tx);
            if (r.size() != 1) return std::nullopt;
            announce(g.game_id, tx);
            return AppliedMove{r[0][0].as<std::int64_t>(), r[0][1].as<std::int64_t>(),
                               r[0][2].as<int>()};
        });
}

void PostgresGameStore::commit_moves(const std::vector<PendingMove*>& batch) {
    // A move whose caller has gone, or whose deadline leaves no time for a
    // commit, is not sent (require_caller); the others go together.
    std::vector<PendingMove*> live;
    for (PendingMove* p : batch) {
        try {
            require_caller(p->budget);
            live.push_back(p);
        } catch (...) {
            p->error = std::current_exception();
        }
    }
    // A move on its own, by the single-move statement.
    auto apply_alone = [this](PendingMove* p) {
        try {
            p->applied = apply_one_move(p->write, p->budget);
        } catch (...) {
            p->applied.reset();
            p->error = std::current_exception();
        }
    };
    if (live.size() == 1) {
        apply_alone(live[0]);
        return;
    }
    if (live.empty()) return;

    // The commit is bounded by the latest deadline among its callers (the
    // pool's query timeout bounds it in any case): a caller whose deadline
    // passes first hears nothing, as when its own commit is slow.
    CallBudget budget;
    for (const PendingMove* p : live) {
        if (!p->budget.deadline) {
            budget.deadline.reset();
            break;
        }
        if (!budget.deadline || *p->budget.deadline > *budget.deadline)
            budget.deadline = p->budget.deadline;
    }
    std::vector<const MoveWrite*> writes;
    writes.reserve(live.size());
    for (const PendingMove* p : live)
        writes.push_back(&p->write);
    try {
        run_database_call(pool_, budget, Access::kWrite, [&](pqxx::connection& conn) {
            pqxx::nontransaction tx(conn);
            const pqxx::result r = bind_move_batch(writes).exec(tx);
            for (const pqxx::row& row : r) {
                const auto at = row[0].as<std::size_t>();
                if (at < 1 || at > live.size()) continue;
                live[at - 1]->applied = AppliedMove{row[1].as<std::int64_t>(),
                                                    row[2].as<std::int64_t>(), row[3].as<int>()};
            }
            for (const PendingMove* p : live)
                if (p->applied) announce(p->write.game_after.game_id, tx);
            return r.size();
        });
    } catch (const DatabaseFailure&) {
        // The database, not a move, failed: every move of the batch shares
        // the outcome (with a connection lost mid-commit, maybe applied).
        const std::exception_ptr error = std::current_exception();
        for (PendingMove* p : live) {
            p->applied.reset();
            p->error = error;
        }
    } catch (const std::exception&) {
        // The statement failed as a whole (nothing was written) on some
        // move's values: each move goes again on its own, so that only the
        // faulty one fails.
        for (PendingMove* p : live)
            apply_alone(p);
    }
}

namespace {

// Writes a locked game row back with its new events, in the open
// transaction, and notifies the events channel in it unless the store's
// announcer will announce the change after the commit.
void write_back(pqxx::work& tx, GameRow& g, const EventRecords& events, bool notify) {
    const std::int64_t first_seq = g.event_seq + 1;
    g.event_seq += static_cast<std::int64_t>(events.size());
    NamedStatement::Call call = update_game_statement().call();
    call.set("game_id", g.game_id);
    call.set("state", g.state);
    call.set("result", g.result);
    call.set("end_reason", g.end_reason);
    call.set("draw_offered_by", g.draw_offered_by);
    call.set("rematch_offered_by", g.rematch.offered_by);
    call.set("rematch_game_id", nonempty(g.rematch.game_id));
    call.set("updated_us", g.updated_us);
    call.set("finished_us", nonzero(g.finished_us));
    call.set("event_seq", g.event_seq);
    bind_seats(call, g.seats);
    bind_running_clocks(call, g.clocks);
    call.exec(tx);
    for (std::size_t i = 0; i < events.size(); ++i) {
        tx.exec_prepared("insert_event", g.game_id, first_seq + static_cast<std::int64_t>(i),
                         bytea(events[i].body), g.updated_us, events[i].kind);
    }
    if (notify && !events.empty()) tx.exec_prepared("notify_event", g.game_id);
}

}  // namespace

std::optional<GameWithLastMove> PostgresGameStore::modify_game(const std::string& game_id,
                                                               const GameChange& change,
                                                               const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kWrite,
                             [&](pqxx::connection& conn) -> std::optional<GameWithLastMove> {
                                 pqxx::work tx(conn);
                                 std::optional<GameWithLastMove> current = read_game_with_last_move(
                                     tx.exec_prepared("lock_game", game_id));
                                 if (!current) return std::nullopt;
                                 EventRecords events;
                                 if (!change(*current, events))
                                     return current;  // rolls back: nothing was written
                                 write_back(tx, current->game, events, !announcer_);
                                 require_caller(budget);
                                 tx.commit();
                                 if (announcer_ && !events.empty()) announcer_(game_id);
                                 return current;
                             });
}

bool PostgresGameStore::modify_next_overdue(std::int64_t now_us, const GameChange& change,
                                            const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kWrite, [&](pqxx::connection& conn) {
        pqxx::work tx(conn);
        std::optional<GameWithLastMove> overdue =
            read_game_with_last_move(tx.exec_prepared("lock_next_overdue", now_us));
        if (!overdue) return false;
        EventRecords events;
        if (!change(*overdue, events)) {
            tx.commit();
            return true;
        }
        write_back(tx, overdue->game, events, !announcer_);
        tx.commit();
        if (announcer_ && !events.empty()) announcer_(overdue->game.game_id);
        return true;
    });
}

std::vector<OwedBotMove> PostgresGameStore::owed_bot_moves(std::int64_t now_us, int limit,
                                                           int per_client,
                                                           const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kRead, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        std::vector<OwedBotMove> owed;
        for (const auto& row : tx.exec_prepared("owed_bot_moves", now_us, limit, per_client)) {
            owed.push_back(OwedBotMove{row[0].as<std::string>(), row[1].as<int>(),
                                       row[2].as<std::string>(), row[3].as<std::int64_t>(),
                                       row[4].as<std::int64_t>(), row[5].as<int>()});
        }
        return owed;
    });
}

std::optional<BotClaim> PostgresGameStore::claim_bot_move(const std::string& game_id,
                                                          const std::string& server_id,
                                                          std::int64_t now_us,
                                                          std::int64_t until_us,
                                                          const CallBudget& budget) {
    return run_database_call(
        pool_, budget, Access::kWrite, [&](pqxx::connection& conn) -> std::optional<BotClaim> {
            pqxx::nontransaction tx(conn);
            const pqxx::result r =
                tx.exec_prepared("claim_bot_move", now_us, until_us, server_id, game_id);
            if (r.empty()) return std::nullopt;
            return BotClaim{r[0][0].as<std::string>(), r[0][1].as<int>(),
                            r[0][2].as<std::string>()};
        });
}

bool PostgresGameStore::renew_bot_claim(const BotClaim& claim, const std::string& server_id,
                                        std::int64_t until_us, const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kWrite, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        return tx.exec_prepared("renew_bot_claim", claim.game_id, claim.ply, server_id, until_us)
                   .size() == 1;
    });
}

void PostgresGameStore::release_bot_claim(const BotClaim& claim, const std::string& server_id,
                                          const CallBudget& budget) {
    run_database_call(pool_, budget, Access::kWrite, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        tx.exec_prepared("release_bot_claim", claim.game_id, claim.ply, server_id);
        return true;
    });
}

std::vector<std::pair<std::string, std::int64_t>> PostgresGameStore::last_event_seqs(
    const std::vector<std::string>& game_ids, const CallBudget& budget) {
    // An array literal: the ids are UUIDs the caller validated, which need
    // no quoting inside it.
    std::string array = "{";
    for (const std::string& id : game_ids) {
        if (array.size() > 1) array += ',';
        array += id;
    }
    array += '}';
    return run_database_call(pool_, budget, Access::kRead, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        const pqxx::result r = tx.exec_prepared("last_event_seqs", array);
        std::vector<std::pair<std::string, std::int64_t>> seqs;
        seqs.reserve(r.size());
        for (const auto& row : r)
            seqs.emplace_back(row[0].as<std::string>(), row[1].as<std::int64_t>());
        return seqs;
    });
}

std::vector<GameEvent> PostgresGameStore::events_after(const std::string& game_id,
                                                       std::int64_t after_seq,
                                                       const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kRead, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        const pqxx::result r = tx.exec_prepared("events_after", game_id, after_seq);
        std::vector<GameEvent> events;
        events.reserve(r.size());
        for (const auto& row : r) {
            GameEvent& e = events.emplace_back(
                GameEvent{row[0].as<std::int64_t>(), pqxx::binarystring(row[1]).str(), {}});
            if (!row[2].is_null()) e.kind = row[2].as<int>();
        }
        return events;
    });
}

std::vector<MoveRow> PostgresGameStore::list_moves(const std::string& game_id, int up_to_ply,
                                                   const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kRead, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        return read_moves(tx.exec_prepared("list_moves", game_id, up_to_ply));
    });
}

std::vector<MoveRow> PostgresGameStore::list_moves_between(const std::string& game_id,
                                                           int after_ply, int up_to_ply,
                                                           const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kRead, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        return read_moves(tx.exec_prepared("list_moves_between", game_id, after_ply, up_to_ply));
    });
}

GamePage PostgresGameStore::list_games(
    GameListFilter filter, const std::string& variant, int limit,
    const std::optional<std::pair<std::int64_t, std::string>>& after, const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kRead, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        std::optional<std::int64_t> after_key;
        std::optional<std::string> after_id;
        if (after) {
            after_key = after->first;
            after_id = after->second;
        }
        // One extra row says whether another page follows.
        const pqxx::result r =
            tx.exec_prepared(list_statement(filter), variant, after_key, after_id, limit + 1);
        GamePage page;
        for (const auto& row : r) {
            if (static_cast<int>(page.games.size()) == limit) break;
            page.games.push_back(
                GameWithLastMove{read_game(row), read_move(row, kGameColumnCount)});
        }
        if (static_cast<int>(r.size()) > limit && !page.games.empty()) {
            const GameRow& last = page.games.back().game;
            const std::int64_t key =
                filter == GameListFilter::kRecent ? last.finished_us : last.created_us;
            page.next_after = std::make_pair(key, last.game_id);
        }
        return page;
    });
}

GameStore::PlacedSeek PostgresGameStore::place_seek(const SeekRow& mine,
                                                    const std::string& start_position_key,
                                                    const GameForSeek& make_game,
                                                    const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kWrite, [&](pqxx::connection& conn) {
        pqxx::work tx(conn);
        tx.exec_prepared("lock_seek_pool", mine.pool);
        tx.exec_prepared("sweep_seeks", mine.pool, mine.client_key, mine.created_us);
        PlacedSeek placed;
        const pqxx::result claim = tx.exec_prepared("claim_seek", mine.pool, mine.created_us);
        if (!claim.empty()) {
            placed.placement = SeekPlacement::kPaired;
            placed.claimed.seek_id = claim[0][0].as<std::string>();
            placed.claimed.pool = mine.pool;
            placed.claimed.client_key = claim[0][1].as<std::string>();
            placed.claimed.token_hash = claim[0][2].as<std::string>();
            placed.game = make_game(placed.claimed);
            // A fresh random id that is taken: as unlikely as a token guessed.
            if (!exec_insert_game(tx, placed.game, start_position_key))
                throw std::runtime_error("a paired game's new id was taken");
            tx.exec_prepared("pair_seek", placed.claimed.seek_id, placed.game.game_id);
            // Delivered at commit, to the waiting seeker's replica among all.
            tx.exec_prepared("notify_seek", placed.claimed.seek_id);
        } else {
            const pqxx::result inserted =
                tx.exec_prepared("insert_seek", mine.seek_id, mine.pool, mine.client_key,
                                 mine.token_hash, mine.created_us, mine.expires_us);
            placed.placement =
                inserted.empty() ? SeekPlacement::kClientBusy : SeekPlacement::kWaiting;
        }
        require_caller(budget);
        tx.commit();
        return placed;
    });
}

std::optional<std::string> PostgresGameStore::remove_seek(const std::string& seek_id,
                                                          const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kWrite,
                             [&](pqxx::connection& conn) -> std::optional<std::string> {
                                 pqxx::nontransaction tx(conn);
                                 const pqxx::result r = tx.exec_prepared("remove_seek", seek_id);
                                 if (r.empty()) return std::nullopt;
                                 return r[0][0].as<std::string>();
                             });
}

namespace {

std::optional<std::string> stored_analysis(pqxx::transaction_base& tx, const std::string& game_id,
                                           int ply) {
    const pqxx::result r = tx.exec_prepared("find_game_analysis", game_id, ply);
    if (r.empty()) return std::nullopt;
    return pqxx::binarystring(r[0][0]).str();
}

}  // namespace

std::optional<std::string> PostgresGameStore::find_game_analysis(const std::string& game_id,
                                                                 int ply,
                                                                 const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kRead, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        return stored_analysis(tx, game_id, ply);
    });
}

std::string PostgresGameStore::insert_game_analysis(const std::string& game_id, int ply,
                                                    std::int64_t nodes_per_ply,
                                                    std::int64_t analysed_us,
                                                    const std::string& response,
                                                    const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kWrite, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        const pqxx::row r = tx.exec_prepared1("insert_game_analysis", game_id, ply, nodes_per_ply,
                                              analysed_us, bytea(response));
        // Stored, or older than the game's stored analysis: the caller's own.
        if (r[0].as<bool>() || r[1].as<bool>()) return response;
        // Lost the race: the other row is the game's analysis (a statement of
        // its own, whose snapshot sees the winner's commit).
        std::optional<std::string> first = stored_analysis(tx, game_id, ply);
        if (!first) throw std::runtime_error("a game analysis vanished after a conflict");
        return *first;
    });
}

int PostgresGameStore::schema_version(const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kRead, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        return tx.exec_prepared("schema_version")[0][0].as<int>();
    });
}

void PostgresGameStore::commit_probe(const std::string& server_id, bool prune,
                                     const CallBudget& budget) {
    run_database_call(pool_, budget, Access::kWrite, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        tx.exec_prepared("commit_probe", server_id);
        if (prune) tx.exec_prepared("prune_probes");
        return true;
    });
}

GameCounts PostgresGameStore::count_games(const CallBudget& budget) {
    return run_database_call(pool_, budget, Access::kRead, [&](pqxx::connection& conn) {
        pqxx::nontransaction tx(conn);
        GameCounts counts;
        for (const auto& row : tx.exec_prepared("unfinished_games_by_state")) {
            const auto n = row[1].as<std::int64_t>();
            const auto state = static_cast<GameState>(row[0].as<int>());
            if (state == GameState::kWaiting) counts.waiting = n;
            if (state == GameState::kActive) counts.active = n;
        }
        const pqxx::result estimate = tx.exec_prepared("estimated_games");
        if (!estimate.empty()) counts.estimated_total = estimate[0][0].as<std::int64_t>();
        return counts;
    });
}

}  // namespace foxgeese::storage
