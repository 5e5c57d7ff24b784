#include "service/rest/rest_watch_stream.h"

#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/write.hpp>
#include <cerrno>
#include <cstdio>

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
    std::lock_guard lock(mutex_);
    if (closed_) return;
    if (idle_ && inbox_.empty()) {
        send_now_locked(event);
    } else {
        to_inbox_locked(Pending{event, {}});
    }
}

void RestWatchStream::close(WatchEnd) {
    // Game over or server stopping: either way the body ends cleanly and the
    // client tells the two apart by whether GameEnded came last.
    net::post(executor_, [self = shared_from_this()] { self->end_requested(); });
}

void RestWatchStream::send_now_locked(const std::shared_ptr<const WatchEvent>& event) {
    const std::string* line = nullptr;
    try {
        line = &ndjson_line(*event);
    } catch (const std::exception&) {
        // The strand renders it again, and ends the stream if that fails too.
        to_inbox_locked(Pending{event, {}});
        return;
    }
    char size_line[24];
    const int size_length = std::snprintf(size_line, sizeof size_line, "%zx\r\n", line->size());
    static constexpr char kCrlf[] = "\r\n";
    iovec parts[3] = {{size_line, static_cast<std::size_t>(size_length)},
                      {const_cast<char*>(line->data()), line->size()},
                      {const_cast<char*>(kCrlf), 2}};
    msghdr message{};
    message.msg_iov = parts;
    message.msg_iovlen = 3;
    const std::size_t total = static_cast<std::size_t>(size_length) + line->size() + 2;
    ssize_t sent;
    do {
        sent = ::sendmsg(stream_.socket().native_handle(), &message, MSG_DONTWAIT | MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    if (sent == static_cast<ssize_t>(total)) {
        count_sent(total, true);
        return;
    }
    if (sent <= 0) {
        // A full socket buffer, or a client that is gone: the strand's write
        // waits (with the write timeout) or fails and ends the stream.
        to_inbox_locked(Pending{event, {}});
        return;
    }
    count_sent(static_cast<std::size_t>(sent), false);
    std::string rest;
    rest.reserve(total);
    rest.append(size_line, static_cast<std::size_t>(size_length)).append(*line).append(kCrlf, 2);
    rest.erase(0, static_cast<std::size_t>(sent));
    to_inbox_locked(Pending{event, std::move(rest)});
}

void RestWatchStream::to_inbox_locked(Pending pending) {
    idle_ = false;
    if (inbox_.size() >= max_queued_) {
        overflowed_ = true;
        inbox_.clear();
    } else {
        inbox_.push_back(std::move(pending));
    }
    if (drain_posted_) return;
    drain_posted_ = true;
    net::post(executor_, [self = shared_from_this()] {
        {
            std::lock_guard lock(self->mutex_);
            self->drain_posted_ = false;
        }
        self->pump();
    });
}

void RestWatchStream::count_sent(std::size_t bytes, bool event_done) {
    bytes_sent_.fetch_add(bytes, std::memory_order_relaxed);
    if (!event_done) return;
    events_sent_.fetch_add(1, std::memory_order_relaxed);
    metrics_.watch_events_sent.add({"http"});
}

void RestWatchStream::stop_direct_sends() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    idle_ = false;
    inbox_.clear();
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

void RestWatchStream::end_requested() {
    if (done_) return;
    ending_ = true;
    pump();
}

void RestWatchStream::pump() {
    if (done_) return;
    bool overflow = false;
    {
        std::lock_guard lock(mutex_);
        for (auto& pending : inbox_)
            queue_.push_back(std::move(pending));
        inbox_.clear();
        // The client reads slower than the game moves; it can resume with
        // from_ply, which beats holding an unbounded backlog here.
        overflow = overflowed_ || queue_.size() > max_queued_;
        idle_ = started_ && !writing_ && !overflow && !closed_ && queue_.empty() && !ending_;
    }
    if (overflow) return abort();
    if (!started_ || writing_) return;
    if (!queue_.empty()) {
        current_ = std::move(queue_.front());
        queue_.pop_front();
        net::const_buffer bytes;
        if (current_.rest.empty()) {
            try {
                bytes = net::buffer(ndjson_line(*current_.event));
            } catch (const std::exception& e) {
                spdlog::error("http watch: {}", e.what());
                return abort();
            }
        }
        writing_ = true;
        stream_.expires_after(write_timeout_);
        auto written = [self = shared_from_this()](beast::error_code ec, std::size_t n) {
            if (!ec) self->count_sent(n, true);
            self->on_written(ec, false);
        };
        if (current_.rest.empty()) {
            net::async_write(stream_, http::make_chunk(bytes), std::move(written));
        } else {
            net::async_write(stream_, net::buffer(current_.rest), std::move(written));
        }
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
    // The done callback closes the socket: no send from the hub after this.
    stop_direct_sends();
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
