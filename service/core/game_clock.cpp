#include "service/core/game_clock.h"

#include <google/protobuf/util/time_util.h>

#include <algorithm>

#include "service/core/game_views.h"
#include "service/core/stored_codes.h"

namespace foxgeese::service {
namespace {

using storage::GameRow;
using TimeUtil = google::protobuf::util::TimeUtil;
using storage::TimeControl;

constexpr std::int64_t kDayMs = 24LL * 3'600'000;

// The side letter of a stored position code ("<placement> <f|g> <quiet> <ply>").
Side side_in(const std::string& code) {
    const std::size_t space = code.find(' ');
    return space != std::string::npos && space + 1 < code.size() && code[space + 1] == 'g'
               ? Side::kGeese
               : Side::kFox;
}

std::int64_t& clock_of(GameRow& g, Side side) {
    return g.clocks.of(stored(side));
}

std::int64_t clock_of(const GameRow& g, Side side) {
    return g.clocks.of(stored(side));
}

// How long the side to move may take in its current turn.
std::int64_t turn_allowance_ms(const GameRow& g) {
    const Side mover = side_to_move(g);
    if (!has_moved(g, mover)) return g.clocks.first_move_ms;
    if (g.clocks.time_control == TimeControl::kCorrespondence) return g.clocks.move_period_ms;
    return clock_of(g, mover);
}

ServiceError out_of_range(const std::string& field, const std::string& message) {
    return invalid_argument(field, message);
}

}  // namespace

std::optional<ServiceError> apply_time_control(const v1::TimeControl& control,
                                               std::int64_t first_move_ms, GameRow& g) {
    g.clocks.time_control = TimeControl::kNone;
    switch (control.kind_case()) {
        case v1::TimeControl::kRealTime: {
            const std::int64_t initial =
                TimeUtil::DurationToMilliseconds(control.real_time().initial());
            const std::int64_t increment =
                TimeUtil::DurationToMilliseconds(control.real_time().increment());
            if (initial < kMinInitialMs || initial > kMaxInitialMs) {
                return out_of_range("time_control.real_time.initial",
                                    "time_control.real_time.initial is from 15 s to 3 h");
            }
            if (increment < 0 || increment > kMaxIncrementMs) {
                return out_of_range("time_control.real_time.increment",
                                    "time_control.real_time.increment is from 0 to 180 s");
            }
            g.clocks.time_control = TimeControl::kRealTime;
            g.clocks.initial_ms = initial;
            g.clocks.increment_ms = increment;
            g.clocks.fox_ms = g.clocks.geese_ms = initial;
            g.clocks.first_move_ms = first_move_ms;
            return std::nullopt;
        }
        case v1::TimeControl::kCorrespondence: {
            const int days = control.correspondence().days_per_move();
            if (days < kMinDaysPerMove || days > kMaxDaysPerMove) {
                return out_of_range("time_control.correspondence.days_per_move",
                                    "time_control.correspondence.days_per_move is from 1 to 14");
            }
            g.clocks.time_control = TimeControl::kCorrespondence;
            g.clocks.move_period_ms = days * kDayMs;
            g.clocks.fox_ms = g.clocks.geese_ms = g.clocks.move_period_ms;
            g.clocks.first_move_ms = g.clocks.move_period_ms;
            return std::nullopt;
        }
        case v1::TimeControl::KIND_NOT_SET:
            break;
    }
    return std::nullopt;
}

Side side_to_move(const GameRow& g) {
    return side_in(g.position);
}

bool has_moved(const GameRow& g, Side side) {
    // Plies alternate from the start position's side to move.
    const int plies = g.ply - g.start_ply;
    return side == side_in(g.start_position) ? plies >= 1 : plies >= 2;
}

void start_turn(GameRow& g, std::int64_t now_us) {
    if (g.state != storage::GameState::kActive) {
        g.clocks.turn_started_us = 0;
        g.clocks.deadline_us = 0;
        return;
    }
    // Kept without a time control too: a claim that the opponent left
    // counts from the start of their turn.
    g.clocks.turn_started_us = now_us;
    g.clocks.deadline_us =
        g.clocks.time_control == TimeControl::kNone ? 0 : now_us + turn_allowance_ms(g) * 1000;
}

std::optional<Ending> overdue_ending(const GameRow& g, std::int64_t now_us) {
    if (g.clocks.deadline_us == 0 || now_us < g.clocks.deadline_us) return std::nullopt;
    if (g.state == storage::GameState::kWaiting)
        return Ending{v1::GAME_RESULT_NONE, v1::END_REASON_EXPIRED};
    if (g.state != storage::GameState::kActive) return std::nullopt;
    const Side mover = side_to_move(g);
    if (!has_moved(g, mover)) return Ending{v1::GAME_RESULT_NONE, v1::END_REASON_ABORTED};
    return Ending{mover == Side::kFox ? v1::GAME_RESULT_GEESE_WIN : v1::GAME_RESULT_FOX_SIDE_WINS,
                  v1::END_REASON_TIMEOUT};
}

std::optional<std::int64_t> charge_move(GameRow& g, Side mover, std::int64_t received_us) {
    if (g.clocks.time_control == TimeControl::kNone) return std::nullopt;
    const std::int64_t think_ms =
        std::max<std::int64_t>(0, (received_us - g.clocks.turn_started_us) / 1000);
    if (g.clocks.time_control == TimeControl::kRealTime && has_moved(g, mover)) {
        std::int64_t& clock = clock_of(g, mover);
        clock = std::max<std::int64_t>(0, clock - think_ms) + g.clocks.increment_ms;
    }
    return think_ms;
}

std::optional<v1::Clocks> clocks_view(const GameRow& g, std::int64_t now_us) {
    if (g.clocks.time_control == TimeControl::kNone) return std::nullopt;
    v1::Clocks clocks;
    std::int64_t fox = g.clocks.fox_ms;
    std::int64_t geese = g.clocks.geese_ms;
    const bool running = g.state == storage::GameState::kActive && g.clocks.turn_started_us != 0;
    if (running) {
        const Side mover = side_to_move(g);
        if (has_moved(g, mover)) {
            const std::int64_t elapsed =
                std::max<std::int64_t>(0, (now_us - g.clocks.turn_started_us) / 1000);
            const std::int64_t left = std::max<std::int64_t>(0, turn_allowance_ms(g) - elapsed);
            (mover == Side::kFox ? fox : geese) = left;
            clocks.set_running(api_side(mover));
        } else {
            clocks.set_first_move_deadline(true);
        }
        if (g.clocks.deadline_us != 0)
            set_timestamp(g.clocks.deadline_us, clocks.mutable_deadline());
    }
    *clocks.mutable_fox_remaining() = TimeUtil::MillisecondsToDuration(fox);
    *clocks.mutable_geese_remaining() = TimeUtil::MillisecondsToDuration(geese);
    set_timestamp(now_us, clocks.mutable_read_time());
    return clocks;
}

v1::TimeControl time_control_view(const GameRow& g) {
    v1::TimeControl control;
    if (g.clocks.time_control == TimeControl::kRealTime) {
        *control.mutable_real_time()->mutable_initial() =
            TimeUtil::MillisecondsToDuration(g.clocks.initial_ms);
        *control.mutable_real_time()->mutable_increment() =
            TimeUtil::MillisecondsToDuration(g.clocks.increment_ms);
    } else if (g.clocks.time_control == TimeControl::kCorrespondence) {
        control.mutable_correspondence()->set_days_per_move(
            static_cast<int>(g.clocks.move_period_ms / kDayMs));
    }
    return control;
}

}  // namespace foxgeese::service
