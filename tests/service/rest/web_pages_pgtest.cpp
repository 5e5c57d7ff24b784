// What the HTTP port serves besides the API, on a real server: the OpenAPI
// document (and every operation in it reaches its RPC, answering with a
// status the document lists), the docs page, and the web client only when
// it is enabled.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "service/core/rpc_table.h"
#include "service/rest/openapi_document.h"
#include "tests/service/harness/rest_harness.h"
#include "tests/support/test_database.h"

namespace foxgeese::test {
namespace {

using Json = nlohmann::json;

std::string upper(std::string text) {
    for (char& c : text)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

class WebPagesTest : public RestTest {};

TEST_F(WebPagesTest, ServesTheOpenApiDocumentAtOpenapiJson) {
    const HttpReply reply = get("/openapi.json");
    ASSERT_EQ(reply.status, 200);
    EXPECT_EQ(reply.header("content-type"), "application/json");
    EXPECT_EQ(reply.body, service::openapi_json());
    EXPECT_EQ(Json::parse(reply.body).at("openapi"), "3.1.0");

    const HttpReply again =
        rest("GET", "/openapi.json", "", Auth::none(), {{"If-None-Match", reply.header("etag")}});
    EXPECT_EQ(again.status, 304);
    EXPECT_TRUE(again.body.empty());
    // HEAD: GET's headers, no body (raw, since the reply has no body to read).
    HttpClient head(port());
    head.send_raw("HEAD /openapi.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const std::string bytes = head.read_all_raw();
    EXPECT_EQ(bytes.rfind("HTTP/1.1 200", 0), 0u) << bytes;
    EXPECT_NE(bytes.find("Content-Length: " + std::to_string(reply.body.size())),
              std::string::npos);
    EXPECT_EQ(bytes.substr(bytes.size() - 4), "\r\n\r\n");
    EXPECT_TRUE(IsRestError(post("/openapi.json", "{}"), 405, grpc::StatusCode::UNIMPLEMENTED,
                            "METHOD_NOT_ALLOWED"));
}

// The document's operations, called on the server with a game nobody has:
// each reaches its RPC (no ROUTE_NOT_FOUND or METHOD_NOT_ALLOWED) and gets
// an HTTP status the operation documents.
TEST_F(WebPagesTest, EveryDocumentedOperationReachesItsRpc) {
    const Json document = Json::parse(get("/openapi.json").body);
    const std::string unknown_game = random_request_id();
    int operations = 0;
    for (const auto& [path, methods] : document.at("paths").items()) {
        const std::string target =
            std::regex_replace(path, std::regex("\\{game_id\\}"), unknown_game);
        for (const auto& [method, operation] : methods.items()) {
            ++operations;
            SCOPED_TRACE(method + " " + target);
            const bool body = operation.contains("requestBody");
            const HttpReply reply = rest(upper(method), target, body ? "{}" : "");
            const std::string status = std::to_string(reply.status);
            if (reply.status != 200) {
                const std::string reason = rest_reason(reply);
                EXPECT_NE(reason, "ROUTE_NOT_FOUND");
                EXPECT_NE(reason, "METHOD_NOT_ALLOWED");
            }
            EXPECT_TRUE(operation.at("responses").contains(status)) << status << " " << reply.body;
        }
    }
    // One operation per RPC.
    EXPECT_EQ(operations, static_cast<int>(service::rpc_methods().size()));
    EXPECT_EQ(rest_reason(get("/v1/games/" + unknown_game + ":bogus")), "ROUTE_NOT_FOUND");
}

TEST_F(WebPagesTest, TheReplicaServesTheDocsPageButNotTheWebClientByDefault) {
    const int port = server().http_port();
    const HttpReply docs = http_call(port, "GET", "/docs");
    ASSERT_EQ(docs.status, 200);
    EXPECT_EQ(docs.header("content-type"), "text/html; charset=utf-8");
    EXPECT_NE(docs.header("content-security-policy").find("default-src 'none'"), std::string::npos);
    EXPECT_NE(docs.body.find("spec-url=\"/openapi.json\""), std::string::npos);
    EXPECT_NE(docs.body.find("src=\"/docs/redoc.standalone.js\""), std::string::npos);
    const HttpReply redoc = http_call(port, "GET", "/docs/redoc.standalone.js");
    EXPECT_EQ(redoc.status, 200);
    EXPECT_EQ(redoc.header("content-type"), "text/javascript; charset=utf-8");
    EXPECT_GT(redoc.body.size(), 500'000u);
    EXPECT_EQ(http_call(port, "GET", "/openapi.json").body, service::openapi_json());

    for (const char* page : {"/", "/assets/app.js", "/play", "/play/"}) {
        EXPECT_EQ(rest_reason(http_call(port, "GET", page)), "ROUTE_NOT_FOUND") << page;
    }
}

TEST_F(WebPagesTest, WithWebClientTheReplicaServesItAsTheHomePage) {
    service::ReplicaOptions options;
    options.database_url = test_database_url();
    options.db_pool_size = 2;
    options.drain_timeout = std::chrono::seconds(1);
    options.web_client = true;
    service::Replica replica(options);
    const int port = replica.http_port();

    const HttpReply index = http_call(port, "GET", "/");
    ASSERT_EQ(index.status, 200);
    EXPECT_EQ(index.header("content-type"), "text/html; charset=utf-8");
    EXPECT_NE(index.body.find("src=\"assets/app.js\""), std::string::npos);
    // Strict: scripts and styles only from the server itself, nothing inline.
    const std::string policy = index.header("content-security-policy");
    EXPECT_NE(policy.find("script-src 'self';"), std::string::npos) << policy;
    EXPECT_NE(policy.find("style-src 'self';"), std::string::npos) << policy;
    EXPECT_EQ(policy.find("unsafe"), std::string::npos) << policy;
    for (const char* module : {"app", "api", "i18n", "dom", "context", "seats", "words", "clock",
                               "board", "moves", "watch", "graph", "home", "game", "analysis"}) {
        const HttpReply script = http_call(port, "GET", std::string("/assets/") + module + ".js");
        EXPECT_EQ(script.status, 200) << module;
        EXPECT_EQ(script.header("content-type"), "text/javascript; charset=utf-8") << module;
    }
    EXPECT_EQ(http_call(port, "GET", "/assets/style.css").header("content-type"),
              "text/css; charset=utf-8");
    // Links to where the client was before lead to the home page (a share
    // link's #fragment stays with the browser across the redirect).
    for (const char* old_path : {"/play", "/play/"}) {
        const HttpReply moved = http_call(port, "GET", old_path);
        EXPECT_EQ(moved.status, 308) << old_path;
        EXPECT_EQ(moved.header("location"), "/") << old_path;
    }
    EXPECT_EQ(http_call(port, "GET", "/docs").status, 200);
    replica.shutdown();
}

}  // namespace
}  // namespace foxgeese::test
