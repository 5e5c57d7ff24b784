#include "service/grpc/grpc_watch_stream.h"

#include <grpcpp/support/proto_buffer_reader.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <optional>

#include "service/grpc/grpc_game_service.h"

namespace foxgeese::service {
namespace {

using SteadyClock = std::chrono::steady_clock;

// A slice over an event's bytes that keeps the event alive until gRPC is done
// with it: every stream sends the same bytes, none copies them.
grpc::ByteBuffer wire_bytes(const std::shared_ptr<const WatchEvent>& event) {
    auto* keep = new std::shared_ptr<const WatchEvent>(event);
    grpc::Slice slice(
        const_cast<char*>(event->bytes.data()), event->bytes.size(),
        [](void* p) { delete static_cast<std::shared_ptr<const WatchEvent>*>(p); }, keep);
    return grpc::ByteBuffer(&slice, 1);
}

class WatchReactor;

// The hub's handle on a reactor. The reactor deletes itself when the call is
// done, so the hub holds this instead, and it forgets the reactor then.
class ReactorSink : public WatchSink {
  public:
    explicit ReactorSink(WatchReactor* reactor) : reactor_(reactor) {}
    void deliver(const std::shared_ptr<const WatchEvent>& event) override;
    void close(WatchEnd why) override;
    void detach() {
        std::lock_guard lock(mutex_);
        reactor_ = nullptr;
    }

  private:
    std::mutex mutex_;
    WatchReactor* reactor_;
};

class WatchReactor : public grpc::ServerWriteReactor<grpc::ByteBuffer> {
  public:
    WatchReactor(grpc::CallbackServerContext* context, const grpc::ByteBuffer& raw_request,
                 WatchHub& hub, CallEnvelope& envelope)
        : envelope_(envelope),
          // A client that does not read gets cut off rather than growing memory.
          max_queued_(hub.options().stream_queue_events),
          sink_(std::make_shared<ReactorSink>(this)),
          start_(SteadyClock::now()) {
        // The context is only valid until OnDone, which may come first; the
        // subscribe reads this reactor's own copy of what it needs.
        GrpcCall call = begin_grpc_call(envelope, *context, "WatchGame");
        call.context.cancelled = [this] { return cancelled_.load(); };
        entry_ = std::move(call.entry);
        entry_.bytes_in = raw_request.Length();
        v1::WatchGameRequest request;
        grpc::ByteBuffer view(raw_request);
        grpc::ProtoBufferReader reader(&view);
        std::optional<ServiceError> refused = check_metadata_size(*context);
        if (!refused && !request.ParseFromZeroCopyStream(&reader)) {
            refused = make_error(StatusCode::kInvalidArgument, "MALFORMED_REQUEST",
                                 "the request is not a valid foxgeese.v1.WatchGameRequest "
                                 "(malformed protobuf, or a string field that is not UTF-8)");
        }
        if (refused) {
            std::lock_guard lock(mutex_);
            refuse_locked(*refused);
            return;
        }
        entry_.game_id = loggable_game_id(request.game_id());
        subscribing_ = true;
        const bool queued = envelope.post([this, &hub, request, context = std::move(call.context)] {
            auto subscribed = hub.subscribe(request, context, sink_);
            subscribed_(std::move(subscribed));
        });
        if (!queued) {
            std::lock_guard lock(mutex_);
            subscribing_ = false;
            refuse_locked(server_busy());
        }
    }

    void enqueue(const std::shared_ptr<const WatchEvent>& event) {
        std::lock_guard lock(mutex_);
        if (finishing_) return;
        if (queue_.size() >= max_queued_) {
            finish_locked(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                                       "the client reads too slowly; reconnect with from_ply"));
            return;
        }
        queue_.push_back(event);
        write_next_locked();
    }

    void end(WatchEnd why) {
        std::lock_guard lock(mutex_);
        pending_finish_ =
            why == WatchEnd::kGameEnded
                ? grpc::Status::OK
                : grpc::Status(grpc::StatusCode::UNAVAILABLE,
                               "the server is shutting down; reconnect with from_ply");
        write_next_locked();
    }

    void OnWriteDone(bool ok) override {
        std::lock_guard lock(mutex_);
        writing_ = false;
        if (!ok) {
            finish_locked(grpc::Status(grpc::StatusCode::CANCELLED, "the client went away"));
            return;
        }
        envelope_.metrics().watch_events_sent.add({"grpc"});
        ++events_sent_;
        bytes_sent_ += current_.Length();
        write_next_locked();
    }

    void OnCancel() override {
        cancelled_ = true;
        std::lock_guard lock(mutex_);
        finish_locked(grpc::Status::CANCELLED);
    }

    void OnDone() override {
        sink_->detach();
        std::shared_ptr<WatchHub::Subscription> subscription;
        {
            std::lock_guard lock(mutex_);
            done_ = true;
            log_locked();
            // A subscribe still running finishes the job when it returns.
            if (subscribing_) return;
            subscription = std::move(subscription_);
        }
        if (subscription) subscription->unsubscribe();
        delete this;
    }

  private:
    void subscribed_(ServiceResult<std::shared_ptr<WatchHub::Subscription>> outcome) {
        bool delete_now = false;
        std::shared_ptr<WatchHub::Subscription> orphan;
        {
            std::lock_guard lock(mutex_);
            subscribing_ = false;
            if (!outcome.ok()) {
                refuse_locked(outcome.error());
            } else {
                envelope_.count("WatchGame", StatusCode::kOk, start_);
                subscription_ = outcome.value();
            }
            if (done_) {
                orphan = std::move(subscription_);
                delete_now = true;
            }
        }
        if (orphan) orphan->unsubscribe();
        if (delete_now) delete this;
    }

    void refuse_locked(const ServiceError& error) {
        envelope_.count("WatchGame", error.code, start_);
        reason_ = error.reason;
        finish_locked(to_grpc_status(error));
    }

    // One line when the call is over: the refusal, or the stream's end.
    void log_locked() {
        entry_.events = events_sent_;
        envelope_.log(entry_, static_cast<StatusCode>(final_code_), reason_, start_, bytes_sent_);
    }

    void write_next_locked() {
        if (writing_ || finishing_) return;
        if (!queue_.empty()) {
            current_ = wire_bytes(queue_.front());
            queue_.pop_front();
            writing_ = true;
            StartWrite(&current_);
            return;
        }
        if (pending_finish_) finish_locked(*pending_finish_);
    }

    void finish_locked(const grpc::Status& status) {
        if (finishing_ || done_) return;
        finishing_ = true;
        final_code_ = status.error_code();
        queue_.clear();
        Finish(status);
    }

    CallEnvelope& envelope_;
    const std::size_t max_queued_;
    std::shared_ptr<ReactorSink> sink_;
    const SteadyClock::time_point start_;
    std::atomic<bool> cancelled_{false};
    std::mutex mutex_;
    std::deque<std::shared_ptr<const WatchEvent>> queue_;
    grpc::ByteBuffer current_;
    bool writing_ = false;
    bool finishing_ = false;
    bool subscribing_ = false;
    bool done_ = false;
    std::optional<grpc::Status> pending_finish_;
    std::shared_ptr<WatchHub::Subscription> subscription_;
    AccessEntry entry_;
    std::string reason_;
    // CANCELLED until a Finish says otherwise: OnDone without one is a
    // client that went away.
    grpc::StatusCode final_code_ = grpc::StatusCode::CANCELLED;
    std::uint64_t events_sent_ = 0;
    std::uint64_t bytes_sent_ = 0;
};

void ReactorSink::deliver(const std::shared_ptr<const WatchEvent>& event) {
    std::lock_guard lock(mutex_);
    if (reactor_) reactor_->enqueue(event);
}

void ReactorSink::close(WatchEnd why) {
    std::lock_guard lock(mutex_);
    if (reactor_) reactor_->end(why);
}

}  // namespace

grpc::ServerWriteReactor<grpc::ByteBuffer>* start_grpc_watch(grpc::CallbackServerContext* context,
                                                             const grpc::ByteBuffer& request,
                                                             WatchHub& hub,
                                                             CallEnvelope& envelope) {
    return new WatchReactor(context, request, hub, envelope);
}

}  // namespace foxgeese::service
