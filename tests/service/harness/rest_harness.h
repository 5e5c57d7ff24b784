// The REST side end to end: a real Replica (gRPC, the PostgreSQL store,
// the watch hub) with an HttpServer on top, both on free ports, so every REST
// answer can be checked against the same call over gRPC.
#pragma once

#include <google/protobuf/message.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "google/rpc/status.pb.h"
#include "service/app/replica.h"
#include "service/rest/http_server.h"
#include "tests/service/harness/http_test_client.h"
#include "tests/service/harness/service_harness.h"
#include "tests/service/harness/test_replica_options.h"

namespace foxgeese::test {

class RestTest : public ::testing::Test {
  protected:
    // Migrates the shared test database and starts both servers on it.
    void SetUp() override;
    void TearDown() override;

    // The HttpServer's options; tests may change them before start_servers().
    service::HttpServerOptions& http_options() { return http_options_; }
    // (Re)starts the servers on a database (after migrating it).
    void start_servers(const std::string& database_url);
    // Restarts only the HttpServer, with http_options().
    void restart_http();
    // Adjusts the replica's options (after test_replica_options).
    virtual void configure(service::ReplicaOptions&) {}

    int port() const { return http_->port(); }
    service::Replica& server() { return *server_; }
    service::HttpServer& http() { return *http_; }
    ServiceClient& grpc() { return *grpc_; }

    // One REST call on a fresh connection.
    HttpReply rest(const std::string& method, const std::string& target,
                   const std::string& body = "", const Auth& auth = Auth::none(),
                   std::map<std::string, std::string> headers = {});
    HttpReply get(const std::string& target) { return rest("GET", target); }
    HttpReply post(const std::string& target, const std::string& body,
                   const Auth& auth = Auth::none()) {
        return rest("POST", target, body, auth);
    }

    // Creates a game as the fox side over gRPC and joins it as the geese.
    SeatedGame start_game(const std::string& start_position = "");

  private:
    service::HttpServerOptions http_options_;
    std::unique_ptr<service::Replica> server_;
    std::unique_ptr<service::HttpServer> http_;
    std::unique_ptr<ServiceClient> grpc_;
};

// A message in proto3 JSON (as a client would send it).
std::string to_json(const google::protobuf::Message& message);

// Parses a REST body into `out`, rejecting unknown fields; false (with the
// parser's complaint added to the test's failures) when it does not parse.
bool parse_json(const std::string& json, google::protobuf::Message& out);

// The google.rpc.Status of a REST error body / of a gRPC status's details.
google::rpc::Status rest_status(const HttpReply& reply);
google::rpc::Status grpc_status(const grpc::Status& status);

// The HTTP status the API documents for a gRPC code.
int documented_http_status(grpc::StatusCode code);

// Passes when a REST reply is 200 JSON and decodes to exactly `expected`.
::testing::AssertionResult SameResponse(const HttpReply& reply,
                                        const google::protobuf::Message& expected);
// Passes when a REST reply is the error of a gRPC call: the documented HTTP
// status, and the same google.rpc.Status (code, message, ErrorInfo and
// BadRequest) as JSON.
::testing::AssertionResult SameError(const HttpReply& reply, const grpc::Status& expected);
// Passes when a REST reply is a JSON error with this HTTP status, code and
// ErrorInfo reason.
::testing::AssertionResult IsRestError(const HttpReply& reply, int http_status,
                                       grpc::StatusCode code, const std::string& reason);

// The ErrorInfo reason and BadRequest field of a REST error body.
std::string rest_reason(const HttpReply& reply);
std::string rest_bad_field(const HttpReply& reply);

}  // namespace foxgeese::test
