#include "tests/service/harness/rest_harness.h"

#include <google/protobuf/util/message_differencer.h>
#include <spdlog/spdlog.h>

#include "google/rpc/error_details.pb.h"
#include "storage/migrations.h"
#include "tests/support/test_database.h"

namespace foxgeese::test {

void RestTest::SetUp() {
    spdlog::set_level(spdlog::level::warn);
    http_options_.listen_address = "127.0.0.1";
    http_options_.port = 0;
    http_options_.io_threads = 2;
    http_options_.cors_allowed_origins = {"https://play.example"};
    http_options_.drain_timeout = std::chrono::seconds(5);
    start_servers(test_database_url());
}

void RestTest::TearDown() {
    grpc_.reset();
    if (http_) http_->shutdown();
    http_.reset();
    if (server_) server_->shutdown();
    server_.reset();
}

void RestTest::start_servers(const std::string& database_url) {
    TearDown();
    // Idempotent, and safe while other test processes do the same.
    storage::apply_migrations(database_url);
    service::ReplicaOptions options = test_replica_options(database_url);
    options.grpc_port = 0;
    options.db_pool_size = 8;
    options.drain_timeout = std::chrono::seconds(2);
    configure(options);
    server_ = std::make_unique<service::Replica>(options);
    grpc_ = std::make_unique<ServiceClient>(server_->grpc_port());
    restart_http();
}

void RestTest::restart_http() {
    if (http_) http_->shutdown();
    http_.reset();
    service::Replica* server = server_.get();
    http_ = std::make_unique<service::HttpServer>(
        http_options_, server->logic(), server->hub(), server->metrics(), server->work(),
        server->access_log(), [server] { return server->ready(); },
        [server] { return server->metrics().render(); });
}

HttpReply RestTest::rest(const std::string& method, const std::string& target,
                         const std::string& body, const Auth& auth,
                         std::map<std::string, std::string> headers) {
    if (auth.value()) headers["Authorization"] = *auth.value();
    if (!body.empty() && !headers.count("Content-Type"))
        headers["Content-Type"] = "application/json";
    return http_call(port(), method, target, body, headers);
}

SeatedGame RestTest::start_game(const std::string& start_position) {
    const v1::CreateGameRequest request =
        create_request("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PRIVATE, start_position);
    const Reply<v1::CreateGameResponse> created = grpc().create(request);
    EXPECT_TRUE(IsOk(created));
    SeatedGame game;
    game.id = created->game().game_id();
    game.fox_token = created->seat_token();
    game.invite_code = created->invite_code();
    const Reply<v1::JoinGameResponse> joined = grpc().join(game.id, game.invite_code);
    EXPECT_TRUE(IsOk(joined));
    game.geese_token = joined->seat_token();
    game.game = joined->game();
    return game;
}

std::string to_json(const google::protobuf::Message& message) {
    std::string out;
    const auto status = google::protobuf::util::MessageToJsonString(message, &out);
    EXPECT_TRUE(status.ok()) << status.message();
    return out;
}

bool parse_json(const std::string& json, google::protobuf::Message& out) {
    google::protobuf::util::JsonParseOptions options;
    options.ignore_unknown_fields = false;
    const auto status = google::protobuf::util::JsonStringToMessage(json, &out, options);
    if (!status.ok()) {
        ADD_FAILURE() << "not a JSON " << out.GetTypeName() << ": " << status.message() << "\n"
                      << json;
        return false;
    }
    return true;
}

google::rpc::Status rest_status(const HttpReply& reply) {
    google::rpc::Status status;
    parse_json(reply.body, status);
    return status;
}

google::rpc::Status grpc_status(const grpc::Status& status) {
    google::rpc::Status out;
    out.ParseFromString(status.error_details());
    return out;
}

int documented_http_status(grpc::StatusCode code) {
    switch (code) {
        case grpc::StatusCode::OK:
            return 200;
        case grpc::StatusCode::INVALID_ARGUMENT:
        case grpc::StatusCode::FAILED_PRECONDITION:
        case grpc::StatusCode::OUT_OF_RANGE:
            return 400;
        case grpc::StatusCode::UNAUTHENTICATED:
            return 401;
        case grpc::StatusCode::PERMISSION_DENIED:
            return 403;
        case grpc::StatusCode::NOT_FOUND:
            return 404;
        case grpc::StatusCode::ABORTED:
        case grpc::StatusCode::ALREADY_EXISTS:
            return 409;
        case grpc::StatusCode::RESOURCE_EXHAUSTED:
            return 429;
        case grpc::StatusCode::CANCELLED:
            return 499;
        case grpc::StatusCode::UNIMPLEMENTED:
            return 501;
        case grpc::StatusCode::UNAVAILABLE:
            return 503;
        case grpc::StatusCode::DEADLINE_EXCEEDED:
            return 504;
        default:
            return 500;
    }
}

::testing::AssertionResult SameResponse(const HttpReply& reply,
                                        const google::protobuf::Message& expected) {
    if (reply.status != 200) {
        return ::testing::AssertionFailure() << "HTTP " << reply.status << ": " << reply.body;
    }
    if (reply.header("Content-Type") != "application/json") {
        return ::testing::AssertionFailure() << "Content-Type " << reply.header("Content-Type");
    }
    std::unique_ptr<google::protobuf::Message> got(expected.New());
    if (!parse_json(reply.body, *got)) return ::testing::AssertionFailure() << "bad JSON";
    std::string diff;
    google::protobuf::util::MessageDifferencer differencer;
    differencer.ReportDifferencesToString(&diff);
    if (!differencer.Compare(expected, *got)) {
        return ::testing::AssertionFailure() << "REST and gRPC differ:\n" << diff;
    }
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult SameError(const HttpReply& reply, const grpc::Status& expected) {
    if (expected.ok()) return ::testing::AssertionFailure() << "the gRPC call succeeded";
    const int want = documented_http_status(expected.error_code());
    if (reply.status != want) {
        return ::testing::AssertionFailure()
               << "HTTP " << reply.status << " instead of " << want << ": " << reply.body;
    }
    if (reply.header("Content-Type") != "application/json") {
        return ::testing::AssertionFailure() << "Content-Type " << reply.header("Content-Type");
    }
    const google::rpc::Status got = rest_status(reply);
    const google::rpc::Status grpc = grpc_status(expected);
    std::string diff;
    google::protobuf::util::MessageDifferencer differencer;
    differencer.ReportDifferencesToString(&diff);
    if (!differencer.Compare(grpc, got)) {
        return ::testing::AssertionFailure() << "REST and gRPC errors differ:\n" << diff;
    }
    return ::testing::AssertionSuccess() << describe(expected);
}

::testing::AssertionResult IsRestError(const HttpReply& reply, int http_status,
                                       grpc::StatusCode code, const std::string& reason) {
    if (reply.status != http_status) {
        return ::testing::AssertionFailure()
               << "HTTP " << reply.status << " instead of " << http_status << ": " << reply.body;
    }
    if (reply.header("Content-Type") != "application/json") {
        return ::testing::AssertionFailure() << "Content-Type " << reply.header("Content-Type");
    }
    const google::rpc::Status status = rest_status(reply);
    if (status.code() != static_cast<int>(code)) {
        return ::testing::AssertionFailure() << "code " << status.code() << ": " << reply.body;
    }
    if (rest_reason(reply) != reason) {
        return ::testing::AssertionFailure()
               << "reason " << rest_reason(reply) << ": " << reply.body;
    }
    return ::testing::AssertionSuccess();
}

std::string rest_reason(const HttpReply& reply) {
    const google::rpc::Status status = rest_status(reply);
    for (const auto& detail : status.details()) {
        google::rpc::ErrorInfo info;
        if (detail.UnpackTo(&info) && info.domain() == "foxgeese.dev") return info.reason();
    }
    return "";
}

std::string rest_bad_field(const HttpReply& reply) {
    const google::rpc::Status status = rest_status(reply);
    for (const auto& detail : status.details()) {
        google::rpc::BadRequest bad;
        if (detail.Is<google::rpc::BadRequest>() && detail.UnpackTo(&bad) &&
            bad.field_violations_size() > 0)
            return bad.field_violations(0).field();
    }
    return "";
}

}  // namespace foxgeese::test
