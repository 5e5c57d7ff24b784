// A move judged on the game as read, with no database: the checks MakeMove
// makes (seat, notation, clock, ply, turn, legality) and, for a move that
// passes them, everything its one write stores and its reply says. Pure: the
// caller reads the game (or keeps a copy of it) and writes the plan.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "engine/rules/move.h"
#include "engine/rules/notation.h"
#include "engine/rules/position.h"
#include "foxgeese/v1/game_service.pb.h"
#include "service/core/seat_auth.h"
#include "service/core/service_error.h"
#include "storage/game_records.h"

namespace foxgeese::service {

// A move to make: by a seat token's holder or by the bot.
struct MoveAttempt {
    std::string game_id;
    std::string notation;
    std::optional<int> expected_ply;
    std::string request_hash;   // empty without a request_id
    std::int64_t received = 0;  // when it arrived, on the service's Clock
};
// The seat(s) a move's author holds in the game as read, or why none.
using SeatOf = std::function<ServiceResult<Held>(const storage::GameRow&)>;

// Everything an accepted move writes and answers: the game after it, its
// move row with the reply kept for retries, and its watch events.
struct PlannedMove {
    storage::MoveWrite write;
    v1::MakeMoveResponse response;
};

// The answer to give now (an error, or the reply to this request_id's
// earlier try), or the move to write. `overdue` says the game's clock ran
// out before the move arrived (the answer is then empty: the game must be
// settled first).
struct Judgement {
    std::optional<ServiceResult<v1::MakeMoveResponse>> answer;
    std::optional<PlannedMove> plan;
    bool overdue = false;

    static Judgement say(ServiceResult<v1::MakeMoveResponse> answer);
    static Judgement write(PlannedMove plan);
    static Judgement out_of_time();
};

// Judges `attempt` on the game as `ctx` has it, at `now`.
Judgement judge(const storage::MoveContext& ctx, const MoveAttempt& attempt, const SeatOf& seat,
                std::int64_t now);

// The move checked against the game as read: in progress, at the ply the
// client expects, the token's side to move, and legal.
ServiceResult<Move> check_move(const storage::GameRow& game, const Position& pos, Held held,
                               const MovePath& path, std::optional<int> expected_ply);

// The write and the reply of a checked move from `pos` (the game's position).
PlannedMove plan_move(const storage::MoveContext& ctx, Position pos, const Move& move, Held held,
                      const std::string& request_hash, std::int64_t received, std::int64_t now);

// The copy of the game to keep after its move applied: the game as written,
// with what the database chose, and the repetition window moved on.
storage::MoveContext context_after(const storage::MoveContext& before,
                                   const storage::MoveWrite& write,
                                   const storage::AppliedMove& applied);

// PLY_MISMATCH with the game's current ply.
ServiceError ply_mismatch(int ply, std::string message);
// GAME_OVER for a game that ended (on time, when that is how it ended).
ServiceError game_over_on_time(const storage::GameRow& settled);

}  // namespace foxgeese::service
