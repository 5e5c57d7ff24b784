#include "storage/move_batch_call.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <pqxx/binarystring>
#include <string>

#include "storage/game_columns.h"
#include "storage/sql_array.h"
#include "storage/statements.h"

namespace foxgeese::storage {
namespace {

template <class Enum>
std::int64_t code(Enum value) {
    return static_cast<std::int64_t>(value);
}

// One bytea holding every reply and event of the batch; each is named by
// where it starts and how long it is.
class Blob {
  public:
    void add(const std::string& bytes, SqlArray& at, SqlArray& length) {
        at.add(static_cast<std::int64_t>(bytes_.size()));
        length.add(static_cast<std::int64_t>(bytes.size()));
        bytes_ += bytes;
    }
    pqxx::binarystring value() const { return pqxx::binarystring(bytes_); }

  private:
    std::string bytes_;
};

}  // namespace

NamedStatement::Call bind_move_batch(const std::vector<const MoveWrite*>& writes) {
    SqlArray game_ids, previous_plies, previous_versions, positions, plies, quiet_plies, states,
        results, end_reasons, draws_offered_by, updated_us, finished_us, fox_retries_until_us,
        geese_retries_until_us, fox_clocks_ms, geese_clocks_ms, turns_started_us, deadlines_us,
        notations, sides, captured, request_hashes, response_at, response_length, think_ms,
        move_fox_clocks_ms, move_geese_clocks_ms, position_keys, event_counts;
    std::array<SqlArray, 3> event_at, event_length, kinds;
    Blob blob;
    static const EventRecord kNone;
    for (const MoveWrite* w : writes) {
        const GameRow& g = w->game_after;
        game_ids.add(g.game_id);
        previous_plies.add(std::int64_t{w->previous_ply});
        previous_versions.add(w->previous_version);
        positions.add(g.position);
        plies.add(std::int64_t{g.ply});
        quiet_plies.add(std::int64_t{g.quiet_plies});
        states.add(code(g.state));
        results.add(code(g.result));
        end_reasons.add(code(g.end_reason));
        draws_offered_by.add(code(g.draw_offered_by));
        updated_us.add(g.updated_us);
        finished_us.add(nonzero(g.finished_us));
        fox_retries_until_us.add(nonzero(g.seats.fox.retry_until_us));
        geese_retries_until_us.add(nonzero(g.seats.geese.retry_until_us));
        fox_clocks_ms.add(g.clocks.fox_ms);
        geese_clocks_ms.add(g.clocks.geese_ms);
        turns_started_us.add(nonzero(g.clocks.turn_started_us));
        deadlines_us.add(nonzero(g.clocks.deadline_us));
        notations.add(w->move.notation);
        sides.add(code(w->move.side));
        captured.add(captured_column(w->move.captured));
        request_hashes.add(nonempty(w->move.request_hash));
        blob.add(w->move.response, response_at, response_length);
        think_ms.add(w->move.think_ms);
        move_fox_clocks_ms.add(w->move.fox_clock_ms);
        move_geese_clocks_ms.add(w->move.geese_clock_ms);
        position_keys.add(w->position_key);
        event_counts.add(static_cast<std::int64_t>(w->events.size()));
        for (std::size_t i = 0; i < 3; ++i) {
            const EventRecord& e = i < w->events.size() ? w->events[i] : kNone;
            blob.add(e.body, event_at[i], event_length[i]);
            kinds[i].add(std::int64_t{e.kind});
        }
    }
    NamedStatement::Call call = apply_moves_statement().call();
    call.set("game_ids", game_ids.text())
        .set("previous_plies", previous_plies.text())
        .set("previous_versions", previous_versions.text())
        .set("positions", positions.text())
        .set("plies", plies.text())
        .set("quiet_plies", quiet_plies.text())
        .set("states", states.text())
        .set("results", results.text())
        .set("end_reasons", end_reasons.text())
        .set("draws_offered_by", draws_offered_by.text())
        .set("updated_us", updated_us.text())
        .set("finished_us", finished_us.text())
        .set("fox_retries_until_us", fox_retries_until_us.text())
        .set("geese_retries_until_us", geese_retries_until_us.text())
        .set("fox_clocks_ms", fox_clocks_ms.text())
        .set("geese_clocks_ms", geese_clocks_ms.text())
        .set("turns_started_us", turns_started_us.text())
        .set("deadlines_us", deadlines_us.text())
        .set("notations", notations.text())
        .set("sides", sides.text())
        .set("captured", captured.text())
        .set("request_hashes", request_hashes.text())
        .set("response_at", response_at.text())
        .set("response_length", response_length.text())
        .set("think_ms", think_ms.text())
        .set("move_fox_clocks_ms", move_fox_clocks_ms.text())
        .set("move_geese_clocks_ms", move_geese_clocks_ms.text())
        .set("position_keys", position_keys.text())
        .set("event_counts", event_counts.text());
    for (std::size_t i = 0; i < 3; ++i) {
        const std::string n = std::to_string(i + 1);
        call.set("event_" + n + "_at", event_at[i].text())
            .set("event_" + n + "_length", event_length[i].text())
            .set("kinds_" + n, kinds[i].text());
    }
    call.set("blob", blob.value());
    return call;
}

}  // namespace foxgeese::storage
