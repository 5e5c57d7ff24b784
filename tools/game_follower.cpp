#include "game_follower.h"

#include <algorithm>

namespace foxgeese::cli {
namespace {

constexpr std::chrono::milliseconds kFirstRetry{250};
constexpr std::chrono::milliseconds kLongestRetry{4'000};

// Refusals that say the same request will never work.
bool is_final(const grpc::Status& status) {
    switch (status.error_code()) {
        case grpc::StatusCode::INVALID_ARGUMENT:
        case grpc::StatusCode::NOT_FOUND:
        case grpc::StatusCode::UNAUTHENTICATED:
        case grpc::StatusCode::PERMISSION_DENIED:
        case grpc::StatusCode::UNIMPLEMENTED:
            return true;
        default:
            return false;
    }
}

// The ply an event brings the game to, if it carries the game.
int ply_of(const v1::WatchGameResponse& event, int otherwise) {
    if (event.has_snapshot()) {
        int ply = event.snapshot().game().ply();
        for (const v1::Move& move : event.snapshot().moves())
            ply = std::max(ply, move.ply());
        return ply;
    }
    if (event.has_move_made()) return event.move_made().game().ply();
    if (event.has_game_ended()) return event.game_ended().game().ply();
    if (event.has_seat_joined()) return event.seat_joined().game().ply();
    return otherwise;
}

}  // namespace

GameFollower::GameFollower(ClientConnection& connection, std::string game_id, int from_ply,
                           OnEvent on_event, OnBreak on_break)
    : connection_(connection),
      game_id_(std::move(game_id)),
      last_ply_(from_ply),
      on_event_(std::move(on_event)),
      on_break_(std::move(on_break)),
      thread_([this] { run(); }) {}

GameFollower::~GameFollower() {
    stop();
}

void GameFollower::stop() {
    {
        std::lock_guard lock(mutex_);
        stopped_ = true;
        if (context_) context_->TryCancel();
    }
    stopped_changed_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void GameFollower::run() {
    std::chrono::milliseconds retry = kFirstRetry;
    while (true) {
        bool saw_event = false;
        const grpc::Status status = follow_once(saw_event);
        {
            std::lock_guard lock(mutex_);
            if (stopped_) return;
        }
        // A clean end: the game is over and the stream said all it had.
        if (status.ok()) return;
        if (saw_event) retry = kFirstRetry;
        const bool final = is_final(status);
        on_break_(status, final, retry);
        if (final || !wait_or_stop(retry)) return;
        retry = std::min(retry * 2, kLongestRetry);
    }
}

grpc::Status GameFollower::follow_once(bool& saw_event) {
    grpc::ClientContext context;
    {
        std::lock_guard lock(mutex_);
        if (stopped_) return grpc::Status::CANCELLED;
        context_ = &context;
    }
    v1::WatchGameRequest request;
    request.set_game_id(game_id_);
    request.set_from_ply(last_ply_);
    auto reader = connection_.watch(context, request);
    v1::WatchGameResponse event;
    while (reader->Read(&event)) {
        saw_event = true;
        last_ply_ = ply_of(event, last_ply_);
        on_event_(event);
        if (event.has_game_ended()) {
            // Done: the stream may linger for a rematch, which play does not offer.
            context.TryCancel();
            reader->Finish().IgnoreError();
            std::lock_guard lock(mutex_);
            context_ = nullptr;
            return grpc::Status::OK;
        }
    }
    const grpc::Status status = reader->Finish();
    std::lock_guard lock(mutex_);
    context_ = nullptr;
    return status;
}

bool GameFollower::wait_or_stop(std::chrono::milliseconds wait) {
    std::unique_lock lock(mutex_);
    return !stopped_changed_.wait_for(lock, wait, [this] { return stopped_; });
}

}  // namespace foxgeese::cli
