// The NDJSON half of the fan-out benchmark: many `GET /v1/games/{id}:watch`
// streams over HTTP/1.1, one connection each, all driven by one Asio thread
// (no thread per stream). Readers report each line as it arrives; stalled
// watchers send the request and then never read, with a receive buffer kept
// small so the server's writes to them block, the way a phone that went into
// a tunnel blocks them.
#pragma once

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace foxgeese::bench {

// What a reader saw in one line: the snapshot, or a MoveMade with the move's
// ply and Move.time (microseconds since the epoch), and when it arrived.
struct NdjsonLine {
    bool snapshot = false;
    int ply = 0;  // 0: not a MoveMade
    std::int64_t move_time_us = 0;
    std::int64_t arrived_us = 0;
};

class NdjsonWatchers {
  public:
    using OnLine = std::function<void(const NdjsonLine&)>;
    // Called once per reader whose stream ended (the server closed it or an
    // error), with what ended it.
    using OnEnd = std::function<void(const std::string& why)>;

    NdjsonWatchers(const std::string& host, const std::string& port, std::string game_id,
                   OnLine on_line, OnEnd on_end);
    ~NdjsonWatchers();
    NdjsonWatchers(const NdjsonWatchers&) = delete;
    NdjsonWatchers& operator=(const NdjsonWatchers&) = delete;

    // Opens the streams, before or after start().
    void add_readers(int count);
    void add_stalled(int count);
    // Runs the connections on a thread of their own until stop().
    void start();
    void stop();

    // Whether a stalled watcher's connection was closed by the server, told
    // by reading it now (which ends its stall): the count of those closed.
    // Call after stop().
    int stalled_closed();

  private:
    struct Stream;
    boost::asio::io_context io_;
    // Keeps io_.run() going while no stream is open yet.
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> keep_running_{
        io_.get_executor()};
    std::vector<boost::asio::ip::tcp::endpoint> endpoints_;
    std::string request_;
    OnLine on_line_;
    OnEnd on_end_;
    std::vector<std::shared_ptr<Stream>> readers_;
    std::vector<std::unique_ptr<boost::asio::ip::tcp::socket>> stalled_;
    std::thread thread_;
};

// Microseconds since the epoch from an RFC 3339 UTC time as proto3 JSON
// writes Timestamps ("2026-12-02T00:59:01.123456Z"); 0 if it is not one.
std::int64_t rfc3339_micros(std::string_view text);

}  // namespace foxgeese::bench
