// WatchGame over HTTP: a WatchSink that writes every event as one JSON line
// of a chunked application/x-ndjson response, in order.
//
// A stream that has nothing queued or being written is idle, and then the
// hub's thread writes an event itself: one non-blocking send of the whole
// chunk, under the stream's mutex. That is the common case (a watcher reads
// faster than a game moves), and it spares the hand-off to the connection's
// strand, a thread wake-up per watcher per move (measured in
// bench/history/2026-11-29-to-12-04-watch-fanout.md, "Direct NDJSON sends").
// Whatever that send cannot finish (a full socket buffer), and every event
// that arrives while the stream is not idle, goes to an inbox that the
// strand drains with asynchronous writes under the write timeout.
#pragma once

#include <array>
#include <atomic>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/serializer.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "service/runtime/metrics.h"
#include "service/watch/watch_hub.h"
#include "service/watch/watch_sink.h"

namespace foxgeese::service {

class RestWatchStream : public WatchSink, public std::enable_shared_from_this<RestWatchStream> {
  public:
    using Header = boost::beast::http::response<boost::beast::http::empty_body>;
    // Runs once on the strand when the stream is over; `clean` says the
    // terminating chunk went out. The connection is to be closed then.
    using Done = std::function<void(bool clean)>;

    // `stream` is the connection's, kept alive by `owner` until done. A
    // client that takes no write for `write_timeout`, or lets more than
    // `max_queued` events pile up, is cut off.
    RestWatchStream(boost::beast::tcp_stream& stream, std::shared_ptr<void> owner, Metrics& metrics,
                    std::chrono::milliseconds write_timeout, std::size_t max_queued);

    // WatchSink; any thread, never blocks.
    void deliver(const std::shared_ptr<const WatchEvent>& event) override;
    void close(WatchEnd why) override;
    bool sends_inline() const override { return true; }

    // On the strand, once subscribe() succeeded: writes `header`, then the
    // events queued so far and those to come. A client disconnect
    // unsubscribes.
    void start(std::shared_ptr<WatchHub::Subscription> subscription, Header header, Done done);

    // On the strand: unsubscribes and ends the response after what is already
    // queued (the server is shutting down).
    void finish();

    // On the strand, before the connection closes its socket for any reason
    // (and by the stream itself when it ends): the hub's thread writes no
    // more to it.
    void stop_direct_sends();

    // On the strand, for the access log: events written and their bytes on
    // the wire (chunk framing included).
    std::uint64_t events_sent() const { return events_sent_; }
    std::uint64_t bytes_sent() const { return bytes_sent_; }

  private:
    // What the strand writes next: an event's chunk, or the unsent end of a
    // chunk the hub's thread began (`rest`).
    struct Pending {
        std::shared_ptr<const WatchEvent> event;
        std::string rest;
    };

    // Under mutex_, while idle_: sends `event`'s chunk with one non-blocking
    // send; leaves what it could not send to the strand.
    void send_now_locked(const std::shared_ptr<const WatchEvent>& event);
    // Under mutex_: queues `pending` for the strand, which is asked to drain.
    void to_inbox_locked(Pending pending);
    // Bytes that reached the socket; `event_done` when they end an event's
    // chunk (the access log's and the metrics' count of events).
    void count_sent(std::size_t bytes, bool event_done);
    void end_requested();
    void pump();
    void on_written(boost::beast::error_code ec, bool last);
    void watch_for_disconnect();
    void abort();
    void complete(bool clean);
    void unsubscribe();

    boost::beast::tcp_stream& stream_;
    std::shared_ptr<void> owner_;
    Metrics& metrics_;
    const std::chrono::milliseconds write_timeout_;
    const std::size_t max_queued_;
    const boost::beast::tcp_stream::executor_type executor_;

    // Shared between the hub's thread and the strand. idle_ is set only by
    // the strand, when it writes nothing, has nothing queued and the inbox
    // is empty; a direct send happens only while it is set. Whatever goes to
    // the inbox clears it, and so does the strand before it writes or lets
    // the socket close.
    std::mutex mutex_;
    bool idle_ = false;
    bool overflowed_ = false;  // the inbox outgrew max_queued_: cut the stream
    bool closed_ = false;      // the stream is over: drop what comes
    bool drain_posted_ = false;
    std::deque<Pending> inbox_;
    std::atomic<std::uint64_t> events_sent_{0};
    std::atomic<std::uint64_t> bytes_sent_{0};

    // Everything below is touched only on the strand.
    std::shared_ptr<WatchHub::Subscription> subscription_;
    Header header_;
    std::optional<boost::beast::http::response_serializer<boost::beast::http::empty_body>>
        serializer_;
    Done done_callback_;
    // What is not yet written, and what is being written (an event's NDJSON
    // line is rendered once for all streams, see WatchEvent::text).
    std::deque<Pending> queue_;
    Pending current_;
    std::array<char, 512> discard_{};
    bool started_ = false;
    bool writing_ = false;
    bool ending_ = false;  // the hub or the server ended the stream: finish after the queue
    bool done_ = false;
};

}  // namespace foxgeese::service
