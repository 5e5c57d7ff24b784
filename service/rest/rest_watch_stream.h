// WatchGame over HTTP: a WatchSink that writes every event as one JSON line
// of a chunked application/x-ndjson response. The hub calls deliver() and
// close() from its own threads; they only post to the connection's strand,
// where events are queued and written one chunk each, in order.
#pragma once

#include <array>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/serializer.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
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

    // On the strand, once subscribe() succeeded: writes `header`, then the
    // events queued so far and those to come. A client disconnect
    // unsubscribes.
    void start(std::shared_ptr<WatchHub::Subscription> subscription, Header header, Done done);

    // On the strand: unsubscribes and ends the response after what is already
    // queued (the server is shutting down).
    void finish();

    // On the strand, for the access log: events written and their bytes on
    // the wire (chunk framing included).
    std::uint64_t events_sent() const { return events_sent_; }
    std::uint64_t bytes_sent() const { return bytes_sent_; }

  private:
    void enqueue(const std::shared_ptr<const WatchEvent>& event);
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

    // Everything below is touched only on the strand.
    std::shared_ptr<WatchHub::Subscription> subscription_;
    Header header_;
    std::optional<boost::beast::http::response_serializer<boost::beast::http::empty_body>>
        serializer_;
    Done done_callback_;
    // Events not yet written, and the one being written (its NDJSON line is
    // rendered once per event for all streams, see WatchEvent::text).
    std::deque<std::shared_ptr<const WatchEvent>> queue_;
    std::shared_ptr<const WatchEvent> current_;
    std::array<char, 512> discard_{};
    bool started_ = false;
    bool writing_ = false;
    bool ending_ = false;  // the hub or the server ended the stream: finish after the queue
    bool done_ = false;
    std::uint64_t events_sent_ = 0;
    std::uint64_t bytes_sent_ = 0;
};

}  // namespace foxgeese::service
