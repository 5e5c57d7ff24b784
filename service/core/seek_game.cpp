// SeekGame: quick pairing. Seekers who ask for the same game (a pool:
// variant, options and time control) meet in the seeks table, on whichever
// replica each one calls. A seeker either claims the pool's oldest waiting
// seek (GameStore::place_seek: under the pool's lock, FOR UPDATE SKIP
// LOCKED) and creates the game there and then, or stores its own seek and
// waits: as a callback in this replica's SeekWaiters, holding no thread.
// The claim announces the seek's id (NOTIFY on the seeks channel, heard by
// every replica's SeekListener), and the waiting seeker's replica answers it
// with the game. A wait ends when it is over on the Clock or its caller
// leaves (end_due_seeks, every 100 ms): its seek is removed, and a removal
// that finds the seek already claimed answers with the game instead, so a
// pairing is never lost, only (with a lost notification) answered late.
//
// Only digests of seat tokens are stored: each seeker's replica makes its
// token and keeps it in memory; the claimer seats the waiting seeker with
// the digest its seek carries.
#include <spdlog/spdlog.h>

#include <limits>

#include "service/core/database_errors.h"
#include "service/core/game_clock.h"
#include "service/core/game_rules.h"
#include "service/core/game_service.h"
#include "service/core/game_views.h"
#include "service/core/new_game.h"
#include "service/core/secrets.h"

namespace foxgeese::service {
namespace {

using storage::GameRow;

constexpr int kDefaultWaitSeconds = 20;
constexpr int kMinWaitSeconds = 1;
constexpr int kMaxWaitSeconds = 60;

// A SeekGame request, checked: the game it asks for, its pool and its wait.
struct Seek {
    NewGame game;
    std::string pool;
    int wait_seconds = kDefaultWaitSeconds;
};

std::string hex(const std::string& bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    for (const unsigned char c : bytes) {
        out += kDigits[c >> 4];
        out += kDigits[c & 15];
    }
    return out;
}

// Seekers are paired when their pools are equal: the variant, its options
// with the defaults filled in, and the time control as the game stores it.
std::string pool_of(const NewGame& game) {
    const Variant& v = *game.variant;
    std::string pool(v.name());
    if (v.has_options()) {
        pool += "/" + std::to_string(v.geese_option()) + "/" + (v.geese_sideways() ? "1" : "0");
    }
    return pool + "/" + hex(game.time_control.SerializeAsString());
}

ServiceResult<Seek> check_seek_request(const v1::SeekGameRequest& request,
                                       const GameServiceOptions& options) {
    ServiceResult<const Variant*> found = requested_variant(request.variant(), request.options());
    if (!found.ok()) return found.error();
    Seek seek;
    seek.game.variant = found.value();
    ServiceResult<Position> start = requested_position(*seek.game.variant, "", "start_position");
    if (!start.ok()) return start.error();
    set_start(seek.game, start.value());
    ServiceResult<v1::TimeControl> control = checked_time_control(request.time_control(), options);
    if (!control.ok()) return control.error();
    seek.game.time_control = control.value();
    if (request.wait_seconds() != 0) {
        if (request.wait_seconds() < kMinWaitSeconds || request.wait_seconds() > kMaxWaitSeconds) {
            return invalid_argument("wait_seconds",
                                    "wait_seconds is " + std::to_string(kMinWaitSeconds) + " to " +
                                        std::to_string(kMaxWaitSeconds) + ", or 0 for " +
                                        std::to_string(kDefaultWaitSeconds));
        }
        seek.wait_seconds = request.wait_seconds();
    }
    // Quick games are public: anyone may watch them from the lobby.
    seek.game.visibility = storage::Visibility::kPublic;
    seek.pool = pool_of(seek.game);
    return seek;
}

// The client a seek belongs to: a digest of its address, never the address.
std::string seek_client_key(const std::string& client_address) {
    return sha256_hex("foxgeese seek client " + client_address).substr(0, 32);
}

ServiceError seek_already_open() {
    ServiceError error = make_error(
        StatusCode::kAlreadyExists, "SEEK_ALREADY_OPEN",
        "a seek from your address is waiting for an opponent already: end it (cancel its call) "
        "before seeking again");
    error.retry_after = std::chrono::seconds(1);
    return error;
}

v1::SeekGameResponse paired_reply(const storage::GameWithLastMove& game, v1::Seat seat,
                                  std::string token, std::int64_t now_us) {
    v1::SeekGameResponse response;
    response.set_result(v1::SEEK_RESULT_PAIRED);
    *response.mutable_game() = game_view(game.game, game.last_move, now_us);
    response.set_seat(seat);
    response.set_seat_token(std::move(token));
    return response;
}

ServiceError shutting_down() {
    return make_error(StatusCode::kUnavailable, "SHUTTING_DOWN",
                      "the server is shutting down; seek again (another server answers)");
}

v1::SeekGameResponse no_opponent() {
    v1::SeekGameResponse response;
    response.set_result(v1::SEEK_RESULT_NO_OPPONENT);
    return response;
}

}  // namespace

void GameService::seek_game(const v1::SeekGameRequest& request, const CallContext& call,
                            SeekDone done) {
    ServiceResult<Seek> checked = check_seek_request(request, options_);
    if (!checked.ok()) return done(checked.error());
    const Seek& seek = checked.value();
    if (auto e = count_new_game(call)) return done(*e);

    const std::int64_t now = clock_.now_us();
    const std::string token = new_seat_token();
    storage::SeekRow mine;
    mine.seek_id = new_game_id();
    mine.pool = seek.pool;
    mine.client_key = seek_client_key(call.client_address);
    mine.token_hash = sha256_hex(token);
    mine.created_us = now;
    mine.expires_us = now + std::int64_t{seek.wait_seconds} * 1'000'000;
    // Held before the seek is stored, so that its pairing cannot come first.
    seek_waiters_.add(
        SeekWaiter{mine.seek_id, token, mine.expires_us, call.deadline, call.cancelled, done});

    v1::Seat seat = v1::SEAT_UNSPECIFIED;
    // The claimer's side is drawn; the waiting seeker gets the other.
    auto make_game = [&](const storage::SeekRow& claimed) {
        GameRow g = new_game_row(seek.game, now, options_);
        seat = random_bit() ? v1::SEAT_FOX : v1::SEAT_GEESE;
        const bool fox = seat == v1::SEAT_FOX;
        g.seats.fox.token_hash = fox ? mine.token_hash : claimed.token_hash;
        g.seats.geese.token_hash = fox ? claimed.token_hash : mine.token_hash;
        // Nobody joins by invitation; the code opens nothing.
        g.seats.invite_code_hash = sha256_hex(new_invite_code());
        g.state = storage::GameState::kActive;
        start_turn(g, now);
        return g;
    };
    using Placement = storage::GameStore::SeekPlacement;
    auto placed = guarded<storage::GameStore::PlacedSeek>(
        "SeekGame", [&]() -> ServiceResult<storage::GameStore::PlacedSeek> {
            return store_.place_seek(mine, seek.game.start_key, make_game, call.budget());
        });
    if (placed.ok() && placed.value().placement == Placement::kWaiting) {
        seek_waiters_.activate(mine.seek_id);
        // Stored while the replica began to stop: no tick would end it.
        if (seeks_closed_) {
            if (auto waiter = seek_waiters_.take(mine.seek_id))
                answer_seek(std::move(*waiter), shutting_down());
        }
        return;
    }
    std::optional<SeekWaiter> waiter = seek_waiters_.take(mine.seek_id);
    if (!placed.ok()) {
        // The seek may be stored all the same (a commit whose answer was
        // lost): it is withdrawn, or, claimed already, answered with its
        // game; taken by its pairing's notification, it was answered.
        if (waiter) answer_seek(std::move(*waiter), placed.error());
        return;
    }
    if (placed.value().placement == Placement::kClientBusy) return done(seek_already_open());
    const GameRow& g = placed.value().game;
    spdlog::info("game {} created: {} paired by seek, seat {}", g.game_id, g.variant,
                 v1::Seat_Name(seat));
    done(paired_reply({g, std::nullopt}, seat, token, now));
}

void GameService::seek_paired(const std::string& seek_id) {
    if (auto waiter = seek_waiters_.take(seek_id)) answer_seek(std::move(*waiter));
}

void GameService::end_due_seeks() {
    for (SeekWaiter& waiter : seek_waiters_.take_due(clock_.now_us()))
        answer_seek(std::move(waiter));
}

void GameService::end_all_seeks() {
    seeks_closed_ = true;
    for (SeekWaiter& waiter : seek_waiters_.take_due(std::numeric_limits<std::int64_t>::max()))
        answer_seek(std::move(waiter), shutting_down());
}

void GameService::answer_seek(SeekWaiter waiter, std::optional<ServiceError> unpaired) {
    auto answer = [this, unpaired, waiter = std::make_shared<SeekWaiter>(std::move(waiter))] {
        // Not the call's budget: the seek is removed even when its caller left.
        auto outcome =
            guarded<v1::SeekGameResponse>("SeekGame", [&]() -> ServiceResult<v1::SeekGameResponse> {
                const std::optional<std::string> game_id = store_.remove_seek(waiter->seek_id);
                if (!game_id || game_id->empty()) {
                    if (unpaired) return *unpaired;
                    return no_opponent();
                }
                auto found = store_.find_game(*game_id);
                if (!found) return no_opponent();
                const std::string token_hash = sha256_hex(waiter->seat_token);
                const v1::Seat seat =
                    constant_time_equal(found->game.seats.fox.token_hash, token_hash)
                        ? v1::SEAT_FOX
                        : v1::SEAT_GEESE;
                return paired_reply(*found, seat, waiter->seat_token, clock_.now_us());
            });
        waiter->done(std::move(outcome));
    };
    if (!seek_runner_ || !seek_runner_(answer)) answer();
}

}  // namespace foxgeese::service
