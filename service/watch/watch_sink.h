// The transport's end of one watch stream (a gRPC reactor, an HTTP
// response), and the events the hub hands it.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "foxgeese/v1/game_service.pb.h"

namespace foxgeese::service {

// Why a watch stream ends.
enum class WatchEnd {
    kGameEnded,  // GameEnded was the last event delivered
    kShutdown,   // the server is stopping; the client should reconnect elsewhere
};

// One event, built once and shared by every watcher it goes to, with its
// wire form serialized once (a thousand watchers must not mean a thousand
// serializations).
struct WatchEvent {
    explicit WatchEvent(v1::WatchGameResponse m) : bytes(m.SerializeAsString()) {
        std::call_once(message_once_, [&] { message_ = std::move(m); });
    }
    // An event in its serialized form, as recorded: parsed only when a
    // stream asks for its message (a gRPC stream sends the bytes as they are).
    explicit WatchEvent(std::string serialized) : bytes(std::move(serialized)) {}
    std::string bytes;  // protobuf binary form of message()

    const v1::WatchGameResponse& message() const {
        std::call_once(message_once_, [&] { message_.ParseFromString(bytes); });
        return message_;
    }

    // Another wire form of the message (the NDJSON line), made by `render`
    // for the first stream that asks and shared with every later one. If
    // render throws, nothing is kept and the next caller tries again.
    template <typename Render>
    const std::string& text(Render&& render) const {
        std::call_once(text_once_, [&] { text_ = render(message()); });
        return text_;
    }

  private:
    mutable std::once_flag message_once_;
    mutable v1::WatchGameResponse message_;
    mutable std::once_flag text_once_;
    mutable std::string text_;
};

// The hub calls these from its own threads, under a game's lock: they must
// queue (or send without waiting) and return without blocking. After close()
// the hub calls nothing more.
class WatchSink {
  public:
    virtual ~WatchSink() = default;
    virtual void deliver(const std::shared_ptr<const WatchEvent>& event) = 0;
    virtual void close(WatchEnd why) = 0;
    // True for a sink whose deliver() usually puts the bytes on the socket
    // itself (microseconds); the hub's walk serves these before the sinks
    // that hand the event to another thread, so that the quick ones do not
    // wait behind the slow ones.
    virtual bool sends_inline() const { return false; }
};

}  // namespace foxgeese::service
