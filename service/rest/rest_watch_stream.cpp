#include "service/rest/rest_watch_stream.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/write.hpp>

#include "service/rest/rest_json.h"

namespace foxgeese::service {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;

namespace {

// The event as one line of the NDJSON body.
const std::string& ndjson_line(const WatchEvent& event) {
    return event.text([](const v1::WatchGameResponse& m) { return message_to_json(m) + "\n"; });
}

}  // namespace

RestWatchStream::RestWatchStream(beast::tcp_stream& stream, std::shared_ptr<void> owner,
                                 Metrics& metrics, std::chrono::milliseconds write_timeout,
                                 std::size_t max_queued)
    : stream_(stream),
      owner_(std::move(owner)),
      metrics_(metrics),
      write_timeout_(write_timeout),
      max_queued_(max_queued),
      executor_(stream.get_executor()) {}

void RestWatchStream::deliver(const std::shared_ptr<const WatchEvent>& event) {
    net::post(executor_, [self = shared_from_this(), event] { self->enqueue(event); });
}

void RestWatchStream::close(WatchEnd) {
    // Game over or server stopping: either way the body ends cleanly and the
    // client tells the two apart by whether GameEnded came last.
    net::post(executor_, [self = shared_from_this()] { self->end_requested(); });
}

void RestWatchStream::start(std::shared_ptr<WatchHub::Subscription> subscription, Header header,
                            Done done) {
    subscription_ = std::move(subscription);
    done_callback_ = std::move(done);
    if (done_) {
        // Cut off before it began (a queue overflow during subscribe).
        unsubscribe();
        complete(false);
        return;
    }
    header_ = std::move(header);
    serializer_.emplace(header_);
    started_ = true;
    writing_ = true;
    stream_.expires_after(write_timeout_);
    http::async_write_header(stream_, *serializer_,
                             [self = shared_from_this()](beast::error_code ec, std::size_t) {
                                 self->on_written(ec, false);
                             });
    watch_for_disconnect();
}

void RestWatchStream::finish() {
    unsubscribe();
    end_requested();
}

void RestWatchStream::enqueue(const std::shared_ptr<const WatchEvent>& event) {
    if (done_ || ending_) return;
    if (queue_.size() >= max_queued_) {
        // The client reads slower than the game moves; it can resume with
        // from_ply, which beats holding an unbounded backlog here.
        abort();
        return;
    }
    try {
        ndjson_line(*event);  // rendered now, so that a failure ends the stream here
        queue_.push_back(event);
    } catch (const std::exception& e) {
        spdlog::error("http watch: {}", e.what());
        abort();
        return;
    }
    pump();
}

void RestWatchStream::end_requested() {
    if (done_) return;
    ending_ = true;
    pump();
}

void RestWatchStream::pump() {
    if (!started_ || writing_ || done_) return;
    if (!queue_.empty()) {
        current_ = std::move(queue_.front());
        queue_.pop_front();
        writing_ = true;
        stream_.expires_after(write_timeout_);
        net::async_write(stream_, http::make_chunk(net::buffer(ndjson_line(*current_))),
                         [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                             if (!ec) {
                                 self->metrics_.watch_events_sent.add({"http"});
                                 ++self->events_sent_;
                                 self->bytes_sent_ += n;
                             }
                             self->on_written(ec, false);
                         });
    } else if (ending_) {
        writing_ = true;
        stream_.expires_after(write_timeout_);
        net::async_write(stream_, http::make_chunk_last(),
                         [self = shared_from_this()](beast::error_code ec, std::size_t) {
                             self->on_written(ec, true);
                         });
    }
}

void RestWatchStream::on_written(beast::error_code ec, bool last) {
    writing_ = false;
    if (done_) return;
    if (ec) {
        abort();
        return;
    }
    if (last) {
        unsubscribe();
        complete(true);
        return;
    }
    pump();
}

void RestWatchStream::watch_for_disconnect() {
    // The client sends nothing on a watch; a read that ends means it left.
    // Anything it does send is discarded.
    stream_.socket().async_read_some(
        net::buffer(discard_), [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (self->done_) return;
            if (ec) {
                // A client that read the terminating chunk and closed may be
                // seen here before that write's own completion: let the
                // write say how the stream ended.
                if (self->ending_ && self->writing_ && self->queue_.empty()) return;
                self->abort();
                return;
            }
            self->watch_for_disconnect();
        });
}

void RestWatchStream::abort() {
    if (done_) return;
    unsubscribe();
    queue_.clear();
    complete(false);
}

void RestWatchStream::complete(bool clean) {
    done_ = true;
    if (!done_callback_) return;  // not started yet: start() reports it
    Done done = std::move(done_callback_);
    done_callback_ = nullptr;
    done(clean);
    owner_.reset();
}

void RestWatchStream::unsubscribe() {
    if (auto subscription = std::move(subscription_)) {
        subscription_.reset();
        subscription->unsubscribe();
    }
}

}  // namespace foxgeese::service
