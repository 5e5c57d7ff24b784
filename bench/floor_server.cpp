// foxgeese-floor-server: the least a move server can do on this machine, to
// tell which of issue 12's targets any implementation could reach here. It
// speaks foxgeese.v1 over gRPC but does none of foxgeese's work: MakeMove
// runs one caller-given SQL statement in its own transaction (the durable
// write, with the game number as $1), then answers a canned reply of the real
// reply's size and broadcasts a canned MoveMade event, serialized once, to
// every WatchGame stream and to every raw TCP connection on --lines-port (one
// line each: the stand-in for an NDJSON stream without HTTP). No validation,
// no rules, no event log, no views. Whatever this program cannot reach, a
// server that does more cannot either. Driven by foxgeese-floor-client;
// bench/floor.sh runs both beside pgbench.
//
//
// --http-port adds MakeMove over HTTP/1.1 (POST /v1/games/N/moves, as
// foxgeese's REST route): a thread per connection that runs the write on
// that thread and answers the canned reply in the proto's JSON mapping,
// rendered once. The REST floor: Boost.Beast, as foxgeese's HTTP stack,
// without its routing, checks, work queue or rendering per reply.
//
//   foxgeese-floor-server --grpc-port 30844 --database-url "$url" --db-mode inline|async
//       [--sql "UPDATE ..."] [--lines-port 31844] [--walk-threads 2] [--http-port 30845]
#include <google/protobuf/util/json_util.h>
#include <grpcpp/grpcpp.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "foxgeese/v1/game_service.grpc.pb.h"

namespace v1 = foxgeese::v1;

namespace {

struct Options {
    int grpc_port = 20851;
    int lines_port = 0;
    int http_port = 0;
    std::string database_url;
    std::string sql = "UPDATE naive_games SET ply = ply + 1, updated_at = now() WHERE game_id = $1";
    std::string db_mode = "inline";
    int connections = 8;
    int walk_threads = 2;
};

[[noreturn]] void die(const std::string& what) {
    std::cerr << "foxgeese-floor-server: " << what << "\n";
    std::exit(1);
}

void set_now(google::protobuf::Timestamp& t) {
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
    t.set_seconds(us / 1'000'000);
    t.set_nanos(static_cast<int>(us % 1'000'000) * 1000);
}

// A reply shaped like foxgeese's after a first move of standard: the game
// with its legal moves, and the move.
v1::MakeMoveResponse canned_reply() {
    v1::MakeMoveResponse reply;
    v1::Game& game = *reply.mutable_game();
    game.set_game_id("0b6f3c1e-6a4e-4c51-9d3a-6f3b2f8f6a2d");
    game.set_variant("standard");
    game.set_state(v1::GAME_STATE_ACTIVE);
    game.set_start_position("3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0");
    game.set_position("3/3/7/4F2/GGGGGGG/GGG/GGG g 1 1");
    game.set_side_to_move(v1::SIDE_GEESE);
    for (const char* move : {"a3-a4", "b3-b4", "c3-c4", "d3-d4", "e3-e4", "f3-f4", "g3-g4", "c3-d4",
                             "d3-c4", "e3-f4", "f3-e4", "b3-c4", "g3-f4", "a3-b4"})
        game.add_legal_moves(move);
    game.set_fox_seat_taken(true);
    game.set_geese_seat_taken(true);
    game.set_visibility(v1::VISIBILITY_PUBLIC);
    set_now(*game.mutable_create_time());
    set_now(*game.mutable_update_time());
    v1::Move& move = *reply.mutable_move();
    move.set_ply(1);
    move.set_notation("d4-e4");
    move.set_side(v1::SIDE_FOX);
    move.set_from("d4");
    move.set_to("e4");
    move.set_position(game.position());
    move.set_state(v1::GAME_STATE_ACTIVE);
    set_now(*move.mutable_time());
    *game.mutable_last_move() = move;
    return reply;
}

grpc::ByteBuffer byte_buffer(const std::string& bytes) {
    grpc::Slice slice(bytes);
    return grpc::ByteBuffer(&slice, 1);
}

// One connection per statement in flight; PostgreSQL's own group commit
// batches their WAL flushes as it does pgbench's.
PGconn* connect_database(const Options& options) {
    PGconn* conn = PQconnectdb(options.database_url.c_str());
    if (PQstatus(conn) != CONNECTION_OK) die(PQerrorMessage(conn));
    PGresult* prepared = PQprepare(conn, "write", options.sql.c_str(), 0, nullptr);
    if (PQresultStatus(prepared) != PGRES_COMMAND_OK) die(PQerrorMessage(conn));
    PQclear(prepared);
    return conn;
}

// The game number a client plays (MakeMoveRequest.game_id), as $1.
std::string game_number(const v1::MakeMoveRequest& request) {
    int n = 1;
    std::from_chars(request.game_id().data(), request.game_id().data() + request.game_id().size(),
                    n);
    return std::to_string(n);
}

// Blocking writes on the calling thread (gRPC's callback thread: no hop to
// another thread, which is the cheapest at few clients; foxgeese itself
// never blocks gRPC's threads, so that a slow database cannot stall them).
class InlineWriter {
  public:
    explicit InlineWriter(const Options& options) {
        for (int i = 0; i < options.connections; ++i)
            idle_.push_back(connect_database(options));
    }
    void write(const std::string& game) {
        PGconn* conn;
        {
            std::unique_lock lock(mutex_);
            freed_.wait(lock, [&] { return !idle_.empty(); });
            conn = idle_.back();
            idle_.pop_back();
        }
        const char* values[] = {game.c_str()};
        PGresult* result = PQexecPrepared(conn, "write", 1, values, nullptr, nullptr, 0);
        if (PQresultStatus(result) != PGRES_COMMAND_OK && PQresultStatus(result) != PGRES_TUPLES_OK)
            die(PQresultErrorMessage(result));
        PQclear(result);
        std::lock_guard lock(mutex_);
        idle_.push_back(conn);
        freed_.notify_one();
    }

  private:
    std::mutex mutex_;
    std::condition_variable freed_;
    std::vector<PGconn*> idle_;
};

// Non-blocking writes: sent from gRPC's thread, their results read by one
// thread polling every connection, which then finishes the call (cheapest at
// many clients: one wake-up can complete several calls).
class AsyncWriter {
  public:
    explicit AsyncWriter(const Options& options) : epoll_(epoll_create1(0)) {
        for (int i = 0; i < options.connections; ++i) {
            auto slot = std::make_unique<Slot>();
            slot->conn = connect_database(options);
            PQsetnonblocking(slot->conn, 1);
            epoll_event event{};
            event.events = EPOLLIN;
            event.data.ptr = slot.get();
            epoll_ctl(epoll_, EPOLL_CTL_ADD, PQsocket(slot->conn), &event);
            idle_.push_back(slot.get());
            slots_.push_back(std::move(slot));
        }
        thread_ = std::thread([this] { poll(); });
        thread_.detach();
    }
    void write(std::string game, std::function<void()> done) {
        std::lock_guard lock(mutex_);
        if (idle_.empty()) {
            waiting_.push_back({std::move(game), std::move(done)});
            return;
        }
        Slot* slot = idle_.back();
        idle_.pop_back();
        send(*slot, {std::move(game), std::move(done)});
    }

  private:
    struct Job {
        std::string game;
        std::function<void()> done;
    };
    struct Slot {
        PGconn* conn = nullptr;
        std::mutex mutex;  // the sender and the poller never use a connection at once
        bool busy = false;
        Job job;
    };

    static void send(Slot& slot, Job job) {
        std::lock_guard lock(slot.mutex);
        slot.job = std::move(job);
        slot.busy = true;
        const char* values[] = {slot.job.game.c_str()};
        if (!PQsendQueryPrepared(slot.conn, "write", 1, values, nullptr, nullptr, 0))
            die(PQerrorMessage(slot.conn));
        while (PQflush(slot.conn) == 1) {
        }
    }

    void poll() {
        epoll_event events[64];
        for (;;) {
            const int n = epoll_wait(epoll_, events, 64, -1);
            for (int i = 0; i < n; ++i) {
                Slot& slot = *static_cast<Slot*>(events[i].data.ptr);
                std::unique_lock slot_lock(slot.mutex);
                if (!PQconsumeInput(slot.conn)) die(PQerrorMessage(slot.conn));
                if (!slot.busy) continue;
                bool complete = false;
                while (!PQisBusy(slot.conn)) {
                    PGresult* result = PQgetResult(slot.conn);
                    if (result == nullptr) {
                        complete = true;
                        break;
                    }
                    if (PQresultStatus(result) != PGRES_COMMAND_OK &&
                        PQresultStatus(result) != PGRES_TUPLES_OK)
                        die(PQresultErrorMessage(result));
                    PQclear(result);
                }
                if (!complete) continue;
                slot.busy = false;
                std::function<void()> done = std::move(slot.job.done);
                slot_lock.unlock();
                {
                    std::lock_guard lock(mutex_);
                    if (waiting_.empty()) {
                        idle_.push_back(&slot);
                    } else {
                        send(slot, std::move(waiting_.front()));
                        waiting_.pop_front();
                    }
                }
                done();
            }
        }
    }

    const int epoll_;
    std::vector<std::unique_ptr<Slot>> slots_;
    std::mutex mutex_;
    std::vector<Slot*> idle_;
    std::deque<Job> waiting_;
    std::thread thread_;
};

// A WatchGame stream that writes what it is given, in order, one at a time.
class WatchWriter : public grpc::ServerWriteReactor<grpc::ByteBuffer> {
  public:
    void send(const std::shared_ptr<const grpc::ByteBuffer>& event) {
        std::lock_guard lock(mutex_);
        if (gone_) return;
        if (writing_) {
            queued_.push_back(event);
            return;
        }
        writing_ = true;
        current_ = event;
        StartWrite(current_.get());
    }
    void OnWriteDone(bool ok) override {
        std::lock_guard lock(mutex_);
        if (!ok) {
            gone_ = true;
            return;
        }
        if (queued_.empty()) {
            writing_ = false;
            current_.reset();
            return;
        }
        current_ = queued_.front();
        queued_.pop_front();
        StartWrite(current_.get());
    }
    void OnDone() override {}

  private:
    std::mutex mutex_;
    bool writing_ = false;
    bool gone_ = false;
    std::shared_ptr<const grpc::ByteBuffer> current_;
    std::deque<std::shared_ptr<const grpc::ByteBuffer>> queued_;
};

// Every watcher, both kinds; a broadcast walks them split over threads, as
// foxgeese's watch hub does with its walk pool.
class Watchers {
  public:
    explicit Watchers(int walk_threads) : walk_threads_(walk_threads) {}
    void add(WatchWriter* writer) {
        std::lock_guard lock(mutex_);
        streams_.push_back(writer);
    }
    void add(int socket) {
        std::lock_guard lock(mutex_);
        sockets_.push_back(socket);
    }
    // The MoveMade of `reply`'s move, stamped now; built only when someone
    // watches, so that the moves floor pays nothing for it.
    void broadcast(const v1::MakeMoveResponse& reply) {
        std::vector<WatchWriter*> streams;
        std::vector<int> sockets;
        {
            std::lock_guard lock(mutex_);
            if (streams_.empty() && sockets_.empty()) return;
            streams = streams_;
            sockets = sockets_;
        }
        v1::WatchGameResponse event;
        set_now(*event.mutable_time());
        *event.mutable_move_made()->mutable_move() = reply.move();
        *event.mutable_move_made()->mutable_move()->mutable_time() = event.time();
        *event.mutable_move_made()->mutable_game() = reply.game();
        const std::string bytes = event.SerializeAsString();
        const auto shared = std::make_shared<const grpc::ByteBuffer>(byte_buffer(bytes));
        // The line carries the send time for the client's clock arithmetic.
        const std::string line =
            std::to_string(event.time().seconds() * 1'000'000 + event.time().nanos() / 1000) + " " +
            std::string(bytes.size(), 'x') + "\n";
        auto walk = [&](std::size_t part) {
            const std::size_t step = static_cast<std::size_t>(walk_threads_);
            for (std::size_t i = part; i < sockets.size(); i += step)
                (void)!::send(sockets[i], line.data(), line.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
            for (std::size_t i = part; i < streams.size(); i += step)
                streams[i]->send(shared);
        };
        std::vector<std::thread> helpers;
        for (int part = 1; part < walk_threads_; ++part)
            helpers.emplace_back(walk, part);
        walk(0);
        for (std::thread& helper : helpers)
            helper.join();
    }

  private:
    const int walk_threads_;
    std::mutex mutex_;
    std::vector<WatchWriter*> streams_;
    std::vector<int> sockets_;
};

void accept_lines(int port, Watchers& watchers) {
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    const int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        listen(listener, 4096) != 0)
        die("cannot listen on port " + std::to_string(port));
    std::thread([listener, &watchers] {
        for (;;) {
            const int socket = accept(listener, nullptr, nullptr);
            if (socket >= 0) watchers.add(socket);
        }
    }).detach();
}

class FloorService final : public v1::FoxGeeseService::WithRawCallbackMethod_WatchGame<
                               v1::FoxGeeseService::CallbackService> {
  public:
    FloorService(const Options& options, Watchers& watchers)
        : watchers_(watchers), reply_(canned_reply()) {
        if (options.database_url.empty()) return;
        if (options.db_mode == "async")
            async_ = std::make_unique<AsyncWriter>(options);
        else
            inline_ = std::make_unique<InlineWriter>(options);
    }

    grpc::ServerUnaryReactor* MakeMove(grpc::CallbackServerContext* context,
                                       const v1::MakeMoveRequest* request,
                                       v1::MakeMoveResponse* response) override {
        grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
        auto finish = [this, reactor, response] {
            *response = reply_;
            watchers_.broadcast(reply_);
            reactor->Finish(grpc::Status::OK);
        };
        if (async_) {
            async_->write(game_number(*request), finish);
            return reactor;
        }
        if (inline_) inline_->write(game_number(*request));
        finish();
        return reactor;
    }

    grpc::ServerWriteReactor<grpc::ByteBuffer>* WatchGame(grpc::CallbackServerContext*,
                                                          const grpc::ByteBuffer*) override {
        auto* writer = new WatchWriter;  // lives as long as the process: a bench program
        watchers_.add(writer);
        return writer;
    }

  private:
    Watchers& watchers_;
    const v1::MakeMoveResponse reply_;
    std::unique_ptr<InlineWriter> inline_;
    std::unique_ptr<AsyncWriter> async_;
};

namespace http = boost::beast::http;

// One HTTP/1.1 connection, kept alive: each POST .../games/N/moves runs the
// write for game N on this thread and gets `reply_json`.
void serve_http_connection(boost::asio::ip::tcp::socket socket, InlineWriter* writer,
                           const std::string& reply_json) {
    socket.set_option(boost::asio::ip::tcp::no_delay(true));
    boost::beast::flat_buffer buffer;
    for (;;) {
        http::request<http::string_body> request;
        boost::system::error_code error;
        http::read(socket, buffer, request, error);
        if (error) return;
        // "/v1/games/7/moves": the number after "games/".
        const std::string_view target(request.target().data(), request.target().size());
        const auto at = target.find("games/");
        int game = 1;
        if (at != std::string_view::npos)
            std::from_chars(target.data() + at + 6, target.data() + target.size(), game);
        if (writer) writer->write(std::to_string(game));
        http::response<http::string_body> response{http::status::ok, request.version()};
        response.set(http::field::content_type, "application/json");
        response.keep_alive(request.keep_alive());
        response.body() = reply_json;
        response.prepare_payload();
        http::write(socket, response, error);
        if (error || !request.keep_alive()) return;
    }
}

void serve_http(const Options& options) {
    static InlineWriter* writer =
        options.database_url.empty() ? nullptr : new InlineWriter(options);  // lives on
    static const std::string reply_json = [] {
        std::string json;
        (void)google::protobuf::util::MessageToJsonString(canned_reply(), &json);
        return json;
    }();
    // Bound before "ready" is printed; accepted on a thread of its own.
    static boost::asio::io_context io;
    static boost::asio::ip::tcp::acceptor acceptor(io);
    const boost::asio::ip::tcp::endpoint endpoint(boost::asio::ip::make_address("127.0.0.1"),
                                                  static_cast<unsigned short>(options.http_port));
    boost::system::error_code error;
    acceptor.open(endpoint.protocol(), error);
    if (!error) acceptor.set_option(boost::asio::socket_base::reuse_address(true), error);
    if (!error) acceptor.bind(endpoint, error);
    if (!error) acceptor.listen(boost::asio::socket_base::max_listen_connections, error);
    if (error) die("cannot listen on port " + std::to_string(options.http_port));
    std::thread([] {
        for (;;) {
            boost::asio::ip::tcp::socket socket(io);
            acceptor.accept(socket);
            std::thread(serve_http_connection, std::move(socket), writer, std::cref(reply_json))
                .detach();
        }
    }).detach();
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    CLI::App app{"foxgeese-floor-server: the least a move server can do, for bench/floor.sh"};
    app.add_option("--grpc-port", options.grpc_port, "gRPC port")->check(CLI::Range(1, 65535));
    app.add_option("--lines-port", options.lines_port,
                   "raw TCP port whose connections get one line per move (0: none)")
        ->check(CLI::Range(0, 65535));
    app.add_option("--database-url", options.database_url,
                   "libpq connection string; empty: MakeMove writes nothing");
    app.add_option("--http-port", options.http_port, "HTTP/1.1 port for MakeMove as REST (0: none)")
        ->check(CLI::Range(0, 65535));
    app.add_option("--sql", options.sql, "the statement each MakeMove runs, $1 the game number");
    app.add_option("--db-mode", options.db_mode, "inline: block gRPC's thread; async: poll")
        ->check(CLI::IsMember({"inline", "async"}));
    app.add_option("--connections", options.connections, "database connections")
        ->check(CLI::Range(1, 64));
    app.add_option("--walk-threads", options.walk_threads, "threads per broadcast")
        ->check(CLI::Range(1, 16));
    CLI11_PARSE(app, argc, argv);

    Watchers watchers(options.walk_threads);
    if (options.lines_port != 0) accept_lines(options.lines_port, watchers);
    if (options.http_port != 0) serve_http(options);
    FloorService service(options, watchers);
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:" + std::to_string(options.grpc_port),
                             grpc::InsecureServerCredentials());
    builder.RegisterService(&service);
    std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
    if (!server) die("cannot listen on port " + std::to_string(options.grpc_port));
    std::cout << "ready, reply " << canned_reply().ByteSizeLong() << " bytes" << std::endl;
    server->Wait();
}
