#include "tests/service/harness/service_harness.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <pqxx/pqxx>
#include <random>
#include <sstream>

#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"
#include "google/rpc/status.pb.h"
#include "storage/migrations.h"
#include "tests/support/test_database.h"

namespace foxgeese::test {
namespace {

// Long enough for a loaded machine, short enough that a hang fails the test.
constexpr auto kCallDeadline = std::chrono::seconds(30);

std::unique_ptr<grpc::ClientContext> context_for(const Auth& auth) {
    auto context = std::make_unique<grpc::ClientContext>();
    context->set_deadline(std::chrono::system_clock::now() + kCallDeadline);
    if (auth.value()) context->AddMetadata("authorization", *auth.value());
    return context;
}

template <class Response, class Request, class Method>
Reply<Response> call(v1::FoxGeeseService::Stub& stub, Method method, const Request& request,
                     const Auth& auth = Auth::none()) {
    auto context = context_for(auth);
    Reply<Response> reply;
    reply.status = (stub.*method)(context.get(), request, &reply.response);
    return reply;
}

}  // namespace

ServiceClient::ServiceClient(int port) : ServiceClient("127.0.0.1:" + std::to_string(port)) {}

ServiceClient::ServiceClient(const std::string& target)
    : channel_(grpc::CreateChannel(target, grpc::InsecureChannelCredentials())),
      stub_(v1::FoxGeeseService::NewStub(channel_)) {}

Reply<v1::ListVariantsResponse> ServiceClient::list_variants(const std::string& language) {
    v1::ListVariantsRequest request;
    request.set_language(language);
    return call<v1::ListVariantsResponse>(*stub_, &v1::FoxGeeseService::Stub::ListVariants,
                                          request);
}

Reply<v1::CreateGameResponse> ServiceClient::create(const v1::CreateGameRequest& request) {
    return call<v1::CreateGameResponse>(*stub_, &v1::FoxGeeseService::Stub::CreateGame, request);
}

Reply<v1::JoinGameResponse> ServiceClient::join(const std::string& game_id,
                                                const std::string& invite_code,
                                                const std::string& request_id) {
    v1::JoinGameRequest request;
    request.set_game_id(game_id);
    request.set_invite_code(invite_code);
    request.set_request_id(request_id);
    return call<v1::JoinGameResponse>(*stub_, &v1::FoxGeeseService::Stub::JoinGame, request);
}

Reply<v1::GetGameResponse> ServiceClient::get(const std::string& game_id) {
    v1::GetGameRequest request;
    request.set_game_id(game_id);
    return call<v1::GetGameResponse>(*stub_, &v1::FoxGeeseService::Stub::GetGame, request);
}

Reply<v1::ListGamesResponse> ServiceClient::list_games(const v1::ListGamesRequest& request) {
    return call<v1::ListGamesResponse>(*stub_, &v1::FoxGeeseService::Stub::ListGames, request);
}

Reply<v1::ListMovesResponse> ServiceClient::list_moves(const std::string& game_id) {
    v1::ListMovesRequest request;
    request.set_game_id(game_id);
    return call<v1::ListMovesResponse>(*stub_, &v1::FoxGeeseService::Stub::ListMoves, request);
}

Reply<v1::MakeMoveResponse> ServiceClient::move(const v1::MakeMoveRequest& request,
                                                const Auth& auth) {
    return call<v1::MakeMoveResponse>(*stub_, &v1::FoxGeeseService::Stub::MakeMove, request, auth);
}

Reply<v1::MakeMoveResponse> ServiceClient::move(const std::string& game_id,
                                                const std::string& notation, const Auth& auth) {
    v1::MakeMoveRequest request;
    request.set_game_id(game_id);
    request.set_move(notation);
    return move(request, auth);
}

Reply<v1::ResignGameResponse> ServiceClient::resign(const std::string& game_id, const Auth& auth) {
    v1::ResignGameRequest request;
    request.set_game_id(game_id);
    return call<v1::ResignGameResponse>(*stub_, &v1::FoxGeeseService::Stub::ResignGame, request,
                                        auth);
}

Reply<v1::OfferDrawResponse> ServiceClient::offer_draw(const std::string& game_id,
                                                       const Auth& auth) {
    v1::OfferDrawRequest request;
    request.set_game_id(game_id);
    return call<v1::OfferDrawResponse>(*stub_, &v1::FoxGeeseService::Stub::OfferDraw, request,
                                       auth);
}

Reply<v1::RespondDrawResponse> ServiceClient::respond_draw(const std::string& game_id, bool accept,
                                                           const Auth& auth) {
    v1::RespondDrawRequest request;
    request.set_game_id(game_id);
    request.set_accept(accept);
    return call<v1::RespondDrawResponse>(*stub_, &v1::FoxGeeseService::Stub::RespondDraw, request,
                                         auth);
}

std::shared_ptr<grpc::Channel> new_channel(int port) {
    grpc::ChannelArguments args;
    // A channel of its own: its own connection, not one shared by every
    // channel to the same address.
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    return grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(port),
                                     grpc::InsecureChannelCredentials(), args);
}

// A stream lives at most this long, so a hung one ends the test's wait.
constexpr auto kWatchDeadline = std::chrono::seconds(180);

WatchStream::WatchStream(std::shared_ptr<grpc::Channel> channel, const std::string& game_id,
                         std::optional<int> from_ply, const Auth& auth)
    : stub_(v1::FoxGeeseService::NewStub(channel)) {
    context_.set_deadline(std::chrono::system_clock::now() + kWatchDeadline);
    if (auth.value()) context_.AddMetadata("authorization", *auth.value());
    v1::WatchGameRequest request;
    request.set_game_id(game_id);
    if (from_ply) request.set_from_ply(*from_ply);
    reader_ = stub_->WatchGame(&context_, request);
    thread_ = std::thread([this] { read_all(); });
}

WatchStream::WatchStream(int port, const std::string& game_id, std::optional<int> from_ply,
                         const Auth& auth)
    : WatchStream(new_channel(port), game_id, from_ply, auth) {}

WatchStream::~WatchStream() {
    cancel();
}

void WatchStream::read_all() {
    v1::WatchGameResponse event;
    while (reader_->Read(&event)) {
        {
            std::lock_guard lock(mutex_);
            events_.push_back(event);
        }
        changed_.notify_all();
    }
    const grpc::Status status = reader_->Finish();
    {
        std::lock_guard lock(mutex_);
        status_ = status;
    }
    changed_.notify_all();
}

std::optional<v1::WatchGameResponse> WatchStream::next(Clock::duration timeout) {
    return wait_for_event([](const v1::WatchGameResponse&) { return true; }, timeout);
}

std::optional<v1::WatchGameResponse> WatchStream::wait_for_event(const Match& match,
                                                                 Clock::duration timeout) {
    const auto deadline = Clock::now() + timeout;
    std::unique_lock lock(mutex_);
    while (true) {
        while (taken_ < events_.size()) {
            const v1::WatchGameResponse& event = events_[taken_++];
            if (match(event)) return event;
        }
        if (status_) return std::nullopt;
        if (changed_.wait_until(lock, deadline) == std::cv_status::timeout &&
            taken_ == events_.size()) {
            return std::nullopt;
        }
    }
}

std::optional<v1::WatchGameResponse> WatchStream::next_change(Clock::duration timeout) {
    return wait_for_event(
        [](const v1::WatchGameResponse& e) { return !e.has_presence() && !e.has_heartbeat(); },
        timeout);
}

std::optional<grpc::Status> WatchStream::wait_for_end(Clock::duration timeout) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, timeout, [&] { return status_.has_value(); });
    return status_;
}

std::vector<v1::WatchGameResponse> WatchStream::untaken() const {
    std::lock_guard lock(mutex_);
    return std::vector<v1::WatchGameResponse>(events_.begin() + static_cast<long>(taken_),
                                              events_.end());
}

std::vector<v1::WatchGameResponse> WatchStream::received() const {
    std::lock_guard lock(mutex_);
    return events_;
}

std::string WatchStream::describe_received() const {
    std::lock_guard lock(mutex_);
    std::string text;
    for (std::size_t i = 0; i < events_.size(); ++i) {
        const v1::WatchGameResponse& e = events_[i];
        text += "  #" + std::to_string(i) + (i < taken_ ? " " : " (untaken) ");
        if (e.has_snapshot()) {
            text += "snapshot ply " + std::to_string(e.snapshot().game().ply()) + " moves " +
                    std::to_string(e.snapshot().moves_size());
        } else if (e.has_move_made()) {
            text += "move_made " + std::to_string(e.move_made().move().ply()) + " " +
                    e.move_made().move().notation();
        } else if (e.has_game_ended()) {
            text += "game_ended " + e.game_ended().game().ShortDebugString().substr(0, 160);
        } else {
            text += e.ShortDebugString();
        }
        text += "\n";
    }
    text += status_ ? "  ended: " + describe(*status_) + "\n" : "  (still open)\n";
    return text;
}

void WatchStream::cancel() {
    context_.TryCancel();
    if (thread_.joinable()) thread_.join();
}

std::optional<google::rpc::ErrorInfo> error_info(const grpc::Status& status) {
    google::rpc::Status details;
    if (status.error_details().empty() || !details.ParseFromString(status.error_details())) {
        return std::nullopt;
    }
    for (const auto& any : details.details()) {
        google::rpc::ErrorInfo info;
        if (any.Is<google::rpc::ErrorInfo>() && any.UnpackTo(&info)) return info;
    }
    return std::nullopt;
}

std::optional<std::int64_t> retry_delay_ms(const grpc::Status& status) {
    google::rpc::Status details;
    if (!details.ParseFromString(status.error_details())) return std::nullopt;
    for (const auto& any : details.details()) {
        google::rpc::RetryInfo retry;
        if (any.Is<google::rpc::RetryInfo>() && any.UnpackTo(&retry)) {
            return retry.retry_delay().seconds() * 1000 + retry.retry_delay().nanos() / 1'000'000;
        }
    }
    return std::nullopt;
}

std::string bad_request_field(const grpc::Status& status) {
    google::rpc::Status details;
    if (!details.ParseFromString(status.error_details())) return "";
    for (const auto& any : details.details()) {
        google::rpc::BadRequest bad;
        if (any.Is<google::rpc::BadRequest>() && any.UnpackTo(&bad) &&
            bad.field_violations_size() > 0) {
            return bad.field_violations(0).field();
        }
    }
    return "";
}

std::string describe(const grpc::Status& status) {
    if (status.ok()) return "OK";
    const auto info = error_info(status);
    return "code " + std::to_string(status.error_code()) + " " +
           (info ? info->reason() : std::string("(no ErrorInfo)")) + ": " + status.error_message();
}

::testing::AssertionResult IsError(const grpc::Status& status, grpc::StatusCode code,
                                   const std::string& reason) {
    if (status.ok()) {
        return ::testing::AssertionFailure()
               << "succeeded, expected code " << code << " " << reason;
    }
    const auto info = error_info(status);
    if (status.error_code() != code || !info || info->reason() != reason ||
        info->domain() != "foxgeese.dev") {
        return ::testing::AssertionFailure()
               << "expected code " << code << " " << reason << " (domain foxgeese.dev), got "
               << describe(status) << (info ? " domain " + info->domain() : "");
    }
    // The details repeat the code; a client may read either.
    google::rpc::Status details;
    details.ParseFromString(status.error_details());
    if (details.code() != code) {
        return ::testing::AssertionFailure() << "google.rpc.Status in the details has code "
                                             << details.code() << ", the call " << code;
    }
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult IsOk(const grpc::Status& status) {
    if (status.ok()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "failed: " << describe(status);
}

void set_enum_number(google::protobuf::Message& message, const std::string& field, int number) {
    const auto* descriptor = message.GetDescriptor()->FindFieldByName(field);
    ASSERT_NE(descriptor, nullptr) << field;
    message.GetReflection()->SetEnumValue(&message, descriptor, number);
}

v1::CreateGameRequest create_request(const std::string& variant, v1::SeatChoice seat,
                                     v1::Visibility visibility, const std::string& start_position) {
    v1::CreateGameRequest request;
    request.set_variant(variant);
    request.set_seat(seat);
    request.set_visibility(visibility);
    request.set_start_position(start_position);
    return request;
}

std::vector<std::string> engine_legal_moves(const std::string& variant,
                                            const v1::GameOptions& options,
                                            const std::string& position_code) {
    VariantOptions engine_options;
    if (options.has_geese()) engine_options.geese = options.geese();
    if (options.has_geese_sideways()) engine_options.geese_sideways = options.geese_sideways();
    Result<const Variant*> found = Variant::find(variant, engine_options);
    if (!found) {
        ADD_FAILURE() << "engine: " << found.error().message;
        return {};
    }
    Result<Position> position = parse_position_code(**found, position_code);
    if (!position) {
        ADD_FAILURE() << "engine: " << position.error().message;
        return {};
    }
    std::vector<std::string> moves;
    for_each_legal_move(*position,
                        [&](const Move& m) { moves.push_back(format_move(position->board(), m)); });
    std::sort(moves.begin(), moves.end());
    return moves;
}

std::vector<std::string> to_vector(const google::protobuf::RepeatedPtrField<std::string>& field) {
    return std::vector<std::string>(field.begin(), field.end());
}

std::int64_t micros(const google::protobuf::Timestamp& timestamp) {
    return timestamp.seconds() * 1'000'000 + timestamp.nanos() / 1000;
}

bool GameSnapshot::operator==(const GameSnapshot& other) const {
    return get.SerializeAsString() == other.get.SerializeAsString() &&
           moves.SerializeAsString() == other.moves.SerializeAsString();
}

std::string GameSnapshot::debug_string() const {
    return "GetGame {" + get.ShortDebugString() + "} ListMoves {" + moves.ShortDebugString() + "}";
}

void ServiceTest::SetUp() {
    // Warnings and errors only: a failing test's output stays readable.
    spdlog::set_level(spdlog::level::warn);
    const std::string url = test_database_url();
    // Idempotent, and safe while other test processes do the same.
    storage::apply_migrations(url);
    start_server(url);
}

void ServiceTest::TearDown() {
    connect_client(std::nullopt);
    if (server_) server_->shutdown();
    server_.reset();
}

void ServiceTest::start_server(const std::string& database_url) {
    connect_client(std::nullopt);
    if (server_) server_->shutdown();
    server_.reset();
    database_url_ = database_url;
    service::ReplicaOptions options = test_replica_options(database_url, &clock());
    options.grpc_port = 0;
    options.db_pool_size = 8;
    options.drain_timeout = std::chrono::seconds(2);
    configure(options);
    server_ = std::make_unique<service::Replica>(options);
    connect_client(server_->grpc_port());
}

void ServiceTestBase::connect_client(std::optional<int> port) {
    client_.reset();
    port_ = port.value_or(0);
    if (port) client_ = std::make_unique<ServiceClient>(*port);
}

namespace {

template <class Request>
Request for_game(const std::string& game_id) {
    Request request;
    request.set_game_id(game_id);
    return request;
}

}  // namespace

Reply<v1::AbortGameResponse> ServiceClient::abort(const std::string& game_id, const Auth& auth) {
    return call<v1::AbortGameResponse>(*stub_, &v1::FoxGeeseService::Stub::AbortGame,
                                       for_game<v1::AbortGameRequest>(game_id), auth);
}

Reply<v1::CancelGameResponse> ServiceClient::cancel(const std::string& game_id, const Auth& auth) {
    return call<v1::CancelGameResponse>(*stub_, &v1::FoxGeeseService::Stub::CancelGame,
                                        for_game<v1::CancelGameRequest>(game_id), auth);
}

Reply<v1::ClaimVictoryResponse> ServiceClient::claim(const std::string& game_id, bool draw,
                                                     const Auth& auth) {
    auto request = for_game<v1::ClaimVictoryRequest>(game_id);
    request.set_draw(draw);
    return call<v1::ClaimVictoryResponse>(*stub_, &v1::FoxGeeseService::Stub::ClaimVictory, request,
                                          auth);
}

Reply<v1::OfferRematchResponse> ServiceClient::offer_rematch(const std::string& game_id,
                                                             const Auth& auth) {
    return call<v1::OfferRematchResponse>(*stub_, &v1::FoxGeeseService::Stub::OfferRematch,
                                          for_game<v1::OfferRematchRequest>(game_id), auth);
}

Reply<v1::RespondRematchResponse> ServiceClient::respond_rematch(const std::string& game_id,
                                                                 bool accept, const Auth& auth) {
    auto request = for_game<v1::RespondRematchRequest>(game_id);
    request.set_accept(accept);
    return call<v1::RespondRematchResponse>(*stub_, &v1::FoxGeeseService::Stub::RespondRematch,
                                            request, auth);
}

Reply<v1::JoinRematchResponse> ServiceClient::join_rematch(const std::string& game_id,
                                                           const Auth& auth) {
    return call<v1::JoinRematchResponse>(*stub_, &v1::FoxGeeseService::Stub::JoinRematch,
                                         for_game<v1::JoinRematchRequest>(game_id), auth);
}

Reply<v1::GetSeatResponse> ServiceClient::get_seat(const Auth& auth) {
    return call<v1::GetSeatResponse>(*stub_, &v1::FoxGeeseService::Stub::GetSeat,
                                     v1::GetSeatRequest(), auth);
}

Reply<google::api::HttpBody> ServiceClient::export_game(const std::string& game_id) {
    v1::ExportGameRequest request;
    request.set_game_id(game_id);
    return call<google::api::HttpBody>(*stub_, &v1::FoxGeeseService::Stub::ExportGame, request);
}

Reply<v1::ImportGameResponse> ServiceClient::import_game(const std::string& record,
                                                         v1::Visibility visibility) {
    v1::ImportGameRequest request;
    request.set_record(record);
    request.set_visibility(visibility);
    return import_game(request);
}

Reply<v1::ImportGameResponse> ServiceClient::import_game(const v1::ImportGameRequest& request) {
    return call<v1::ImportGameResponse>(*stub_, &v1::FoxGeeseService::Stub::ImportGame, request);
}

Reply<v1::CreateGameResponse> ServiceClient::create_forwarded(const v1::CreateGameRequest& request,
                                                              const std::string& forwarded_for) {
    auto context = context_for(Auth::none());
    context->AddMetadata("x-forwarded-for", forwarded_for);
    Reply<v1::CreateGameResponse> reply;
    reply.status = stub_->CreateGame(context.get(), request, &reply.response);
    return reply;
}

Reply<v1::SeekGameResponse> ServiceClient::seek(const v1::SeekGameRequest& request,
                                                const std::string& forwarded_for,
                                                grpc::ClientContext* context) {
    std::unique_ptr<grpc::ClientContext> own;
    if (context == nullptr) {
        own = context_for(Auth::none());
        context = own.get();
    }
    if (!forwarded_for.empty()) context->AddMetadata("x-forwarded-for", forwarded_for);
    Reply<v1::SeekGameResponse> reply;
    reply.status = stub_->SeekGame(context, request, &reply.response);
    return reply;
}

Reply<v1::AnalyzePositionResponse> ServiceClient::analyze_position(
    const v1::AnalyzePositionRequest& request, const std::string& forwarded_for) {
    auto context = context_for(Auth::none());
    if (!forwarded_for.empty()) context->AddMetadata("x-forwarded-for", forwarded_for);
    Reply<v1::AnalyzePositionResponse> reply;
    reply.status = stub_->AnalyzePosition(context.get(), request, &reply.response);
    return reply;
}

Reply<v1::GetTablebaseResponse> ServiceClient::get_tablebase(const v1::GetTablebaseRequest& request,
                                                             const std::string& forwarded_for) {
    auto context = context_for(Auth::none());
    if (!forwarded_for.empty()) context->AddMetadata("x-forwarded-for", forwarded_for);
    Reply<v1::GetTablebaseResponse> reply;
    reply.status = stub_->GetTablebase(context.get(), request, &reply.response);
    return reply;
}

Reply<v1::AnalyzeGameResponse> ServiceClient::analyze_game(const std::string& game_id) {
    v1::AnalyzeGameRequest request;
    request.set_game_id(game_id);
    return call<v1::AnalyzeGameResponse>(*stub_, &v1::FoxGeeseService::Stub::AnalyzeGame, request);
}

std::string random_request_id() {
    thread_local std::mt19937_64 random{std::random_device{}()};
    const std::uint64_t high = random(), low = random();
    char text[37];
    // Version 4 in the third group, the RFC 4122 variant in the fourth.
    std::snprintf(text, sizeof text, "%08x-%04x-4%03x-%04x-%012llx",
                  static_cast<unsigned>(high >> 32), static_cast<unsigned>((high >> 16) & 0xffff),
                  static_cast<unsigned>(high & 0xfff),
                  static_cast<unsigned>(0x8000 | ((low >> 48) & 0x3fff)),
                  static_cast<unsigned long long>(low & 0xffffffffffffULL));
    return text;
}

std::int64_t TestClock::now_us() const {
    return service::system_clock().now_us() + offset_us_.load();
}

std::unique_ptr<ServiceClient> ServiceTestBase::new_client() const {
    return std::make_unique<ServiceClient>(port_);
}

void ServiceTest::restart_server() {
    start_server(database_url_);
}

v1::CreateGameResponse ServiceTestBase::create_game(const v1::CreateGameRequest& request) {
    Reply<v1::CreateGameResponse> created = client().create(request);
    EXPECT_TRUE(IsOk(created)) << request.ShortDebugString();
    return created.response;
}

SeatedGame ServiceTestBase::start_game(const std::string& variant, const v1::GameOptions& options,
                                       const std::string& start_position,
                                       v1::Visibility visibility) {
    v1::CreateGameRequest request =
        create_request(variant, v1::SEAT_CHOICE_FOX, visibility, start_position);
    *request.mutable_options() = options;
    const v1::CreateGameResponse created = create_game(request);
    SeatedGame game;
    game.id = created.game().game_id();
    game.fox_token = created.seat_token();
    game.invite_code = created.invite_code();
    Reply<v1::JoinGameResponse> joined = client().join(game.id, game.invite_code);
    EXPECT_TRUE(IsOk(joined)) << "joining " << game.id;
    EXPECT_EQ(joined->seat(), v1::SEAT_GEESE);
    game.geese_token = joined->seat_token();
    game.game = joined->game();
    return game;
}

SeatedGame ServiceTestBase::start_game_with(v1::CreateGameRequest request) {
    request.set_seat(v1::SEAT_CHOICE_FOX);
    const v1::CreateGameResponse created = create_game(request);
    SeatedGame game;
    game.id = created.game().game_id();
    game.fox_token = created.seat_token();
    game.invite_code = created.invite_code();
    Reply<v1::JoinGameResponse> joined = client().join(game.id, game.invite_code);
    EXPECT_TRUE(IsOk(joined)) << "joining " << game.id;
    game.geese_token = joined->seat_token();
    game.game = joined->game();
    return game;
}

Reply<v1::MakeMoveResponse> ServiceTestBase::play_any(const SeatedGame& game) {
    Reply<v1::GetGameResponse> current = client().get(game.id);
    EXPECT_TRUE(IsOk(current));
    if (current->game().legal_moves().empty()) {
        ADD_FAILURE() << "no legal move to play: " << current->game().ShortDebugString();
        return {};
    }
    const std::string& token =
        current->game().side_to_move() == v1::SIDE_FOX ? game.fox_token : game.geese_token;
    return client().move(game.id, current->game().legal_moves(0), token);
}

v1::MakeMoveResponse ServiceTestBase::play(const SeatedGame& game, const std::string& notation) {
    Reply<v1::GetGameResponse> current = client().get(game.id);
    EXPECT_TRUE(IsOk(current));
    const std::string& token =
        current->game().side_to_move() == v1::SIDE_FOX ? game.fox_token : game.geese_token;
    Reply<v1::MakeMoveResponse> moved = client().move(game.id, notation, token);
    EXPECT_TRUE(IsOk(moved)) << "move " << notation << " at ply " << current->game().ply();
    return moved.response;
}

void ServiceTestBase::play_all(const SeatedGame& game, const std::vector<std::string>& notations) {
    for (const std::string& notation : notations)
        play(game, notation);
}

GameSnapshot ServiceTestBase::snapshot(const std::string& game_id) {
    GameSnapshot shot;
    Reply<v1::GetGameResponse> got = client().get(game_id);
    Reply<v1::ListMovesResponse> moves = client().list_moves(game_id);
    EXPECT_TRUE(IsOk(got)) << "GetGame " << game_id;
    EXPECT_TRUE(IsOk(moves)) << "ListMoves " << game_id;
    shot.get = got.response;
    shot.moves = moves.response;
    // The clocks are read at each call: what was read when, and how much the
    // running clock shows then, are not changes to the game.
    for (v1::Game* g : {shot.get.mutable_game(), shot.moves.mutable_game()}) {
        if (!g->has_clocks()) continue;
        v1::Clocks& clocks = *g->mutable_clocks();
        clocks.clear_read_time();
        if (clocks.running() == v1::SIDE_FOX) clocks.clear_fox_remaining();
        if (clocks.running() == v1::SIDE_GEESE) clocks.clear_geese_remaining();
    }
    return shot;
}

::testing::AssertionResult ServiceTestBase::RejectsUnchanged(
    const std::string& game_id, grpc::StatusCode code, const std::string& reason,
    const std::function<grpc::Status()>& call) {
    const GameSnapshot before = snapshot(game_id);
    const grpc::Status status = call();
    ::testing::AssertionResult error = IsError(status, code, reason);
    if (!error) return error;
    const GameSnapshot after = snapshot(game_id);
    if (!(after == before)) {
        return ::testing::AssertionFailure()
               << "the rejected request (" << reason << ") changed the game:\nbefore "
               << before.debug_string() << "\nafter  " << after.debug_string();
    }
    return ::testing::AssertionSuccess();
}

void ScratchServiceTest::SetUp() {
    spdlog::set_level(spdlog::level::warn);
    const std::string url = create_scratch_database(
        ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name());
    storage::apply_migrations(url);
    start_server(url);
}

long ScratchServiceTest::count_rows(const std::string& table) {
    pqxx::connection connection(database_url());
    pqxx::nontransaction tx(connection);
    return tx.exec1("SELECT count(*) FROM " + tx.quote_name(table))[0].as<long>();
}

}  // namespace foxgeese::test
