#include "ndjson_watchers.h"

#include <algorithm>
#include <array>
#include <boost/asio/connect.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <ctime>
#include <string_view>

namespace foxgeese::bench {
namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;

std::int64_t now_micros() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// The integer after `key` (e.g. "\"ply\":") at or after `from`; 0 if none.
int int_after(std::string_view line, std::string_view key, std::size_t from) {
    const std::size_t at = line.find(key, from);
    if (at == std::string_view::npos) return 0;
    int value = 0;
    for (std::size_t i = at + key.size(); i < line.size() && line[i] >= '0' && line[i] <= '9'; ++i)
        value = value * 10 + (line[i] - '0');
    return value;
}

// A line of the body, told apart by its event's key. A string scan, not a
// JSON parse: the client must not be what limits a ten-thousand-stream run.
NdjsonLine read_line(std::string_view line, std::int64_t arrived_us) {
    NdjsonLine seen;
    seen.arrived_us = arrived_us;
    const std::size_t move = line.find("\"moveMade\":{\"move\":{");
    if (move != std::string_view::npos) {
        seen.ply = int_after(line, "\"ply\":", move);
        const std::string_view key = "\"time\":\"";
        const std::size_t time = line.find(key, move);
        if (time != std::string_view::npos)
            seen.move_time_us = rfc3339_micros(line.substr(time + key.size()));
    } else {
        seen.snapshot = line.find("\"snapshot\":") != std::string_view::npos;
    }
    return seen;
}

}  // namespace

std::int64_t rfc3339_micros(std::string_view text) {
    std::tm tm{};
    int consumed = 0;
    const std::string head(text.substr(0, 19));
    if (std::sscanf(head.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                    &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed) != 6 ||
        consumed != 19)
        return 0;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    std::int64_t micros = static_cast<std::int64_t>(timegm(&tm)) * 1'000'000;
    if (text.size() > 19 && text[19] == '.') {
        std::int64_t scale = 100'000;
        for (std::size_t i = 20; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
            micros += (text[i] - '0') * scale;
            scale /= 10;
        }
    }
    return micros;
}

// One reading stream. The body is chunked, one JSON line per chunk; split on
// '\n', the event lines are the pieces that start with '{' (chunk sizes,
// headers and the CRs between are the rest).
struct NdjsonWatchers::Stream : std::enable_shared_from_this<NdjsonWatchers::Stream> {
    explicit Stream(net::io_context& io) : socket(io) {}

    void read(const OnLine& on_line, const OnEnd& on_end) {
        socket.async_read_some(
            net::buffer(buffer), [self = shared_from_this(), &on_line, &on_end](
                                     const boost::system::error_code& ec, std::size_t n) {
                if (ec) {
                    if (ec != net::error::operation_aborted)
                        on_end(ec.message() + " (the response began: " + self->status_line + ")");
                    return;
                }
                const std::int64_t arrived = now_micros();
                if (self->status_line.empty())
                    self->status_line.assign(self->buffer.data(), std::min<std::size_t>(n, 300));
                self->pending.append(self->buffer.data(), n);
                std::size_t start = 0;
                for (std::size_t end; (end = self->pending.find('\n', start)) != std::string::npos;
                     start = end + 1) {
                    const std::string_view piece(self->pending.data() + start, end - start);
                    if (!piece.empty() && piece.front() == '{') on_line(read_line(piece, arrived));
                }
                self->pending.erase(0, start);
                self->read(on_line, on_end);
            });
    }

    tcp::socket socket;
    std::array<char, 8192> buffer{};
    std::string pending;      // the bytes after the last '\n'
    std::string status_line;  // the start of the response, for errors
};

NdjsonWatchers::NdjsonWatchers(const std::string& host, const std::string& port,
                               std::string game_id, OnLine on_line, OnEnd on_end)
    : on_line_(std::move(on_line)), on_end_(std::move(on_end)) {
    tcp::resolver resolver(io_);
    for (const auto& entry : resolver.resolve(host, port))
        endpoints_.push_back(entry.endpoint());
    request_ = "GET /v1/games/" + game_id + ":watch HTTP/1.1\r\nHost: " + host +
               "\r\nAccept: application/x-ndjson\r\n\r\n";
}

NdjsonWatchers::~NdjsonWatchers() {
    stop();
}

void NdjsonWatchers::add_readers(int count) {
    for (int i = 0; i < count; ++i) {
        auto stream = std::make_shared<Stream>(io_);
        net::connect(stream->socket, endpoints_);
        net::write(stream->socket, net::buffer(request_));
        // Reads start on the connections' thread (when start() runs it).
        net::post(io_, [this, stream] { stream->read(on_line_, on_end_); });
        readers_.push_back(std::move(stream));
    }
}

void NdjsonWatchers::add_stalled(int count) {
    for (int i = 0; i < count; ++i) {
        auto socket = std::make_unique<tcp::socket>(io_);
        socket->open(endpoints_.front().protocol());
        // Set before connecting, so the advertised window stays small.
        socket->set_option(net::socket_base::receive_buffer_size(1024));
        socket->connect(endpoints_.front());
        net::write(*socket, net::buffer(request_));
        stalled_.push_back(std::move(socket));
    }
}

void NdjsonWatchers::start() {
    thread_ = std::thread([this] { io_.run(); });
}

void NdjsonWatchers::stop() {
    keep_running_.reset();
    io_.stop();
    if (thread_.joinable()) thread_.join();
}

int NdjsonWatchers::stalled_closed() {
    int closed = 0;
    for (auto& socket : stalled_) {
        socket->non_blocking(true);
        std::array<char, 65536> sink{};
        auto quiet_since = std::chrono::steady_clock::now();
        for (;;) {
            boost::system::error_code ec;
            const std::size_t n = socket->read_some(net::buffer(sink), ec);
            if (ec == net::error::would_block) {
                // Still open: the server is writing again now that we read.
                if (std::chrono::steady_clock::now() - quiet_since > std::chrono::milliseconds(300))
                    break;
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
                continue;
            }
            if (ec) {  // end of stream or reset: the server let it go
                ++closed;
                break;
            }
            if (n > 0) quiet_since = std::chrono::steady_clock::now();
        }
    }
    return closed;
}

}  // namespace foxgeese::bench
