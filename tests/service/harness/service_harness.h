// The game service end to end: a real Replica (gRPC on a free port, the
// PostgreSQL store) and a client stub that talks to it over the network, as a
// frontend would. Tests derive from ServiceTest (the run's shared database,
// which other tests fill at the same time) or ScratchServiceTest (a fresh
// database of their own, for listings and row counts); those that need no
// PostgreSQL from MemoryServiceTest (memory_service_harness.h).
#pragma once

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "foxgeese/v1/game_service.grpc.pb.h"
#include "google/rpc/error_details.pb.h"
#include "service/app/replica.h"
#include "tests/service/harness/test_replica_options.h"

namespace foxgeese::test {

namespace v1 = ::foxgeese::v1;

// The answer of one call: its status and, when it succeeded, its response.
template <class T>
struct Reply {
    grpc::Status status;
    T response;

    bool ok() const { return status.ok(); }
    const T* operator->() const { return &response; }
};

// What a call sends as "authorization" metadata. A std::string converts to
// "Bearer <token>", the usual case.
class Auth {
  public:
    Auth(const std::string& seat_token)  // NOLINT(google-explicit-constructor)
        : header_("Bearer " + seat_token) {}
    static Auth none() { return Auth(); }
    static Auth header(std::string value) {
        Auth auth;
        auth.header_ = std::move(value);
        return auth;
    }
    const std::optional<std::string>& value() const { return header_; }

  private:
    Auth() = default;
    std::optional<std::string> header_;
};

// A stub with one helper per RPC; every call has a deadline. Thread-safe.
class ServiceClient {
  public:
    explicit ServiceClient(int port);
    // A client of the server at `target` ("[::1]:50051").
    explicit ServiceClient(const std::string& target);

    Reply<v1::ListVariantsResponse> list_variants(const std::string& language = "");
    Reply<v1::CreateGameResponse> create(const v1::CreateGameRequest& request);
    Reply<v1::JoinGameResponse> join(const std::string& game_id, const std::string& invite_code,
                                     const std::string& request_id = "");
    Reply<v1::GetGameResponse> get(const std::string& game_id);
    Reply<v1::ListGamesResponse> list_games(const v1::ListGamesRequest& request);
    Reply<v1::ListMovesResponse> list_moves(const std::string& game_id);
    Reply<v1::MakeMoveResponse> move(const v1::MakeMoveRequest& request, const Auth& auth);
    Reply<v1::MakeMoveResponse> move(const std::string& game_id, const std::string& notation,
                                     const Auth& auth);
    Reply<v1::ResignGameResponse> resign(const std::string& game_id, const Auth& auth);
    Reply<v1::OfferDrawResponse> offer_draw(const std::string& game_id, const Auth& auth);
    Reply<v1::RespondDrawResponse> respond_draw(const std::string& game_id, bool accept,
                                                const Auth& auth);
    Reply<v1::AbortGameResponse> abort(const std::string& game_id, const Auth& auth);
    Reply<v1::CancelGameResponse> cancel(const std::string& game_id, const Auth& auth);
    Reply<v1::ClaimVictoryResponse> claim(const std::string& game_id, bool draw, const Auth& auth);
    Reply<v1::OfferRematchResponse> offer_rematch(const std::string& game_id, const Auth& auth);
    Reply<v1::RespondRematchResponse> respond_rematch(const std::string& game_id, bool accept,
                                                      const Auth& auth);
    Reply<v1::JoinRematchResponse> join_rematch(const std::string& game_id, const Auth& auth);
    Reply<v1::GetSeatResponse> get_seat(const Auth& auth);
    Reply<google::api::HttpBody> export_game(const std::string& game_id);
    Reply<v1::ImportGameResponse> import_game(
        const std::string& record, v1::Visibility visibility = v1::VISIBILITY_UNSPECIFIED);
    Reply<v1::ImportGameResponse> import_game(const v1::ImportGameRequest& request);
    // As if relayed with this X-Forwarded-For, when not empty.
    Reply<v1::AnalyzePositionResponse> analyze_position(const v1::AnalyzePositionRequest& request,
                                                        const std::string& forwarded_for = "");
    Reply<v1::AnalyzeGameResponse> analyze_game(const std::string& game_id);
    Reply<v1::GetTablebaseResponse> get_tablebase(const v1::GetTablebaseRequest& request,
                                                  const std::string& forwarded_for = "");
    // A CreateGame or JoinGame as if relayed by proxies with this
    // X-Forwarded-For header.
    Reply<v1::CreateGameResponse> create_forwarded(const v1::CreateGameRequest& request,
                                                   const std::string& forwarded_for);

    // SeekGame, as if relayed with this X-Forwarded-For when not empty; on
    // `context` when given (a test may cancel it meanwhile; it sets no
    // deadline of its own then).
    Reply<v1::SeekGameResponse> seek(const v1::SeekGameRequest& request,
                                     const std::string& forwarded_for = "",
                                     grpc::ClientContext* context = nullptr);

  private:
    std::shared_ptr<grpc::Channel> channel_;
    std::unique_ptr<v1::FoxGeeseService::Stub> stub_;
};

// One WatchGame stream, read on a thread of its own into a queue, so a test
// waits for the events it expects (with a timeout) instead of sleeping, and a
// stream that stays silent fails the test instead of hanging it.
// Thread-safe.
class WatchStream {
  public:
    using Clock = std::chrono::steady_clock;
    using Match = std::function<bool(const v1::WatchGameResponse&)>;
    // Generous: a busy two-core machine may take a while to deliver an event.
    static constexpr Clock::duration kDefaultTimeout = std::chrono::seconds(10);

    // Opens the stream (with "authorization" metadata when `auth` has some).
    WatchStream(std::shared_ptr<grpc::Channel> channel, const std::string& game_id,
                std::optional<int> from_ply = std::nullopt, const Auth& auth = Auth::none());
    // The same on a channel of its own to a server on `port`.
    WatchStream(int port, const std::string& game_id, std::optional<int> from_ply = std::nullopt,
                const Auth& auth = Auth::none());
    // Cancels the stream if it still runs.
    ~WatchStream();
    WatchStream(const WatchStream&) = delete;
    WatchStream& operator=(const WatchStream&) = delete;

    // The next event not taken yet, waiting up to `timeout` for it; nothing
    // when the stream ended or the time ran out first.
    std::optional<v1::WatchGameResponse> next(Clock::duration timeout = kDefaultTimeout);
    // The next event that `match` accepts; the events before it are taken
    // (and dropped).
    std::optional<v1::WatchGameResponse> wait_for_event(const Match& match,
                                                        Clock::duration timeout = kDefaultTimeout);
    // The next event that is neither a Presence nor a Heartbeat.
    std::optional<v1::WatchGameResponse> next_change(Clock::duration timeout = kDefaultTimeout);
    // The stream's final status once it has ended (every event it carried is
    // queued by then); nothing if it still runs after `timeout`.
    std::optional<grpc::Status> wait_for_end(Clock::duration timeout = kDefaultTimeout);
    // The events received and not taken yet.
    std::vector<v1::WatchGameResponse> untaken() const;
    // Every event received so far, taken or not, in order.
    std::vector<v1::WatchGameResponse> received() const;
    // The stream's events, one short line each, for failure messages.
    std::string describe_received() const;
    // Cancels the call (as a client that goes away) and waits for its end.
    void cancel();

  private:
    void read_all();

    grpc::ClientContext context_;
    std::unique_ptr<v1::FoxGeeseService::Stub> stub_;
    std::unique_ptr<grpc::ClientReader<v1::WatchGameResponse>> reader_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<v1::WatchGameResponse> events_;
    std::size_t taken_ = 0;
    std::optional<grpc::Status> status_;
    std::thread thread_;
};

// A channel of its own to a server on `port` on this host.
std::shared_ptr<grpc::Channel> new_channel(int port);

// The google.rpc.ErrorInfo in a failed status's details, if there is one.
std::optional<google::rpc::ErrorInfo> error_info(const grpc::Status& status);
// The delay of the google.rpc.RetryInfo in the details, in milliseconds.
std::optional<std::int64_t> retry_delay_ms(const grpc::Status& status);
// The field the google.rpc.BadRequest in the details names ("" if none).
std::string bad_request_field(const grpc::Status& status);

// Passes when the call failed with `code` and an ErrorInfo of domain
// "foxgeese.dev" with `reason`; the message says what came instead.
::testing::AssertionResult IsError(const grpc::Status& status, grpc::StatusCode code,
                                   const std::string& reason);
template <class T>
::testing::AssertionResult IsError(const Reply<T>& reply, grpc::StatusCode code,
                                   const std::string& reason) {
    return IsError(reply.status, code, reason);
}

// Passes when the call succeeded; otherwise says which error came.
::testing::AssertionResult IsOk(const grpc::Status& status);
template <class T>
::testing::AssertionResult IsOk(const Reply<T>& reply) {
    return IsOk(reply.status);
}

// "Code REASON: message" of a status, for failure messages and counting.
std::string describe(const grpc::Status& status);

// Sets an enum field to a raw number, e.g. one the API does not define.
void set_enum_number(google::protobuf::Message& message, const std::string& field, int number);

// A CreateGameRequest with the usual fields.
v1::CreateGameRequest create_request(const std::string& variant,
                                     v1::SeatChoice seat = v1::SEAT_CHOICE_FOX,
                                     v1::Visibility visibility = v1::VISIBILITY_PRIVATE,
                                     const std::string& start_position = "");

// The engine's legal moves in a position, in canonical notation, sorted as
// Game.legal_moves is.
std::vector<std::string> engine_legal_moves(const std::string& variant,
                                            const v1::GameOptions& options,
                                            const std::string& position_code);

// A repeated string field as a vector, for comparisons that print diffs.
std::vector<std::string> to_vector(const google::protobuf::RepeatedPtrField<std::string>& field);

// A timestamp in microseconds since the epoch.
std::int64_t micros(const google::protobuf::Timestamp& timestamp);

// A game whose two seats are held by two different players.
struct SeatedGame {
    std::string id;
    std::string fox_token;
    std::string geese_token;
    std::string invite_code;
    v1::Game game;  // as JoinGame returned it
};

// Everything the API shows of a game (GetGame and ListMoves), to tell whether
// a request changed anything.
struct GameSnapshot {
    v1::GetGameResponse get;
    v1::ListMovesResponse moves;
    bool operator==(const GameSnapshot& other) const;
    std::string debug_string() const;
};

// The service's clock in tests: real time plus an offset the test moves
// forward, so that a test skips a retry window instead of waiting it out.
class TestClock : public service::Clock {
  public:
    std::int64_t now_us() const override;
    void advance(std::chrono::microseconds by) { offset_us_ += by.count(); }

  private:
    std::atomic<std::int64_t> offset_us_{0};
};

// What every service test has, whatever store its server runs on: a client
// of the server, the clock the server reads, and helpers that create, join
// and play games through the client.
class ServiceTestBase : public ::testing::Test {
  protected:
    ServiceClient& client() { return *client_; }
    // The clock every server this test starts reads.
    TestClock& clock() { return clock_; }
    // Another client with a channel of its own, for concurrent callers.
    std::unique_ptr<ServiceClient> new_client() const;

    // CreateGame that must succeed (a failure is recorded and an empty
    // response returned).
    v1::CreateGameResponse create_game(const v1::CreateGameRequest& request);
    // Creates a game as the fox side and joins it as the geese.
    SeatedGame start_game(const std::string& variant = "standard",
                          const v1::GameOptions& options = {},
                          const std::string& start_position = "",
                          v1::Visibility visibility = v1::VISIBILITY_PRIVATE);
    // Creates the game `request` describes as the fox side and joins it as
    // the geese (request.seat is set to SEAT_CHOICE_FOX).
    SeatedGame start_game_with(v1::CreateGameRequest request);
    // Plays the first of the legal moves with the side to move's token;
    // the reply, whatever it is.
    Reply<v1::MakeMoveResponse> play_any(const SeatedGame& game);
    // MakeMove that must succeed, with the token of the side to move.
    v1::MakeMoveResponse play(const SeatedGame& game, const std::string& notation);
    // Plays several moves in turn.
    void play_all(const SeatedGame& game, const std::vector<std::string>& notations);

    GameSnapshot snapshot(const std::string& game_id);
    // Passes when `call` fails with code and reason and the game reads
    // exactly as before (GetGame and ListMoves, byte for byte).
    ::testing::AssertionResult RejectsUnchanged(const std::string& game_id, grpc::StatusCode code,
                                                const std::string& reason,
                                                const std::function<grpc::Status()>& call);

    // Points the client at the server on `port` (none: drops it).
    void connect_client(std::optional<int> port);

  private:
    TestClock clock_;
    int port_ = 0;
    std::unique_ptr<ServiceClient> client_;
};

// The service on a real Replica and PostgreSQL.
class ServiceTest : public ServiceTestBase {
  protected:
    // Migrates the shared test database and starts a server on it.
    void SetUp() override;
    void TearDown() override;

    // Starts a server on `database_url` (stopping the running one first) and
    // points the client at it.
    void start_server(const std::string& database_url);
    // Adjusts the options of every server this test starts (after the
    // harness's own: see test_replica_options).
    virtual void configure(service::ReplicaOptions&) {}
    // A new server on the same database, as after a deploy or a crash.
    void restart_server();
    // The running server (its port, hub and pool).
    service::Replica& server() { return *server_; }
    const std::string& database_url() const { return database_url_; }

  private:
    std::string database_url_;
    std::unique_ptr<service::Replica> server_;
};

// A ServiceTest on a freshly created and migrated database of its own.
class ScratchServiceTest : public ServiceTest {
  protected:
    void SetUp() override;
    // Rows of a table of the scratch database.
    long count_rows(const std::string& table);
};

// A new random UUIDv4, as a client makes a request_id (each call another).
std::string random_request_id();

// Well-formed ids and tokens that belong to nothing.
inline const std::string kUnknownGameId = "00000000-0000-4000-8000-000000000000";
inline const std::string kUnknownToken = "fgs_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

}  // namespace foxgeese::test
