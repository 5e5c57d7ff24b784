#include "service/grpc/grpc_watch_stream.h"

#include <grpcpp/impl/codegen/proto_utils.h>

#include <deque>
#include <mutex>
#include <optional>

#include "service/grpc/grpc_game_service.h"

namespace foxgeese::service {
namespace {

// A client that does not read gets cut off rather than growing memory.
constexpr std::size_t kMaxQueuedEvents = 1024;

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
    void deliver(const v1::WatchGameResponse& event) override {
        deliver_event(std::make_shared<const WatchEvent>(event));
    }
    void deliver_event(const std::shared_ptr<const WatchEvent>& event) override;
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
                 WatchHub& hub, Metrics& metrics)
        : metrics_(metrics), sink_(std::make_shared<ReactorSink>(this)) {
        const auto start = std::chrono::steady_clock::now();
        v1::WatchGameRequest request;
        grpc::ByteBuffer copy(raw_request);
        const grpc::Status parsed =
            grpc::GenericDeserialize<grpc::ProtoBufferReader, v1::WatchGameRequest>(&copy,
                                                                                    &request);
        if (!parsed.ok()) {
            metrics_.requests.add({"WatchGame", "grpc", "INVALID_ARGUMENT"});
            std::lock_guard lock(mutex_);
            finish_locked(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                       "the request is not a WatchGameRequest"));
            return;
        }
        ServiceResult<std::shared_ptr<WatchHub::Subscription>> subscribed =
            hub.subscribe(request, authorization_of(*context), sink_);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        metrics_.request_seconds.observe({"WatchGame", "grpc"}, seconds);
        if (!subscribed.ok()) {
            metrics_.requests.add({"WatchGame", "grpc", status_code_name(subscribed.error().code)});
            std::lock_guard lock(mutex_);
            finish_locked(to_grpc_status(subscribed.error()));
            return;
        }
        metrics_.requests.add({"WatchGame", "grpc", "OK"});
        std::lock_guard lock(mutex_);
        subscription_ = subscribed.value();
        if (done_) subscription_->unsubscribe();
    }

    void enqueue(const std::shared_ptr<const WatchEvent>& event) {
        std::lock_guard lock(mutex_);
        if (finishing_) return;
        if (queue_.size() >= kMaxQueuedEvents) {
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
        metrics_.watch_events_sent.add({"grpc"});
        write_next_locked();
    }

    void OnCancel() override {
        std::lock_guard lock(mutex_);
        finish_locked(grpc::Status::CANCELLED);
    }

    void OnDone() override {
        sink_->detach();
        std::shared_ptr<WatchHub::Subscription> subscription;
        {
            std::lock_guard lock(mutex_);
            done_ = true;
            subscription = subscription_;
        }
        if (subscription) subscription->unsubscribe();
        delete this;
    }

  private:
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
        if (finishing_) return;
        finishing_ = true;
        queue_.clear();
        Finish(status);
    }

    Metrics& metrics_;
    std::shared_ptr<ReactorSink> sink_;
    std::mutex mutex_;
    std::deque<std::shared_ptr<const WatchEvent>> queue_;
    grpc::ByteBuffer current_;
    bool writing_ = false;
    bool finishing_ = false;
    bool done_ = false;
    std::optional<grpc::Status> pending_finish_;
    std::shared_ptr<WatchHub::Subscription> subscription_;
};

void ReactorSink::deliver_event(const std::shared_ptr<const WatchEvent>& event) {
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
                                                             WatchHub& hub, Metrics& metrics) {
    return new WatchReactor(context, request, hub, metrics);
}

}  // namespace foxgeese::service
