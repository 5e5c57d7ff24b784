// Hostile and broken HTTP: every kind gets a clean JSON 4xx (or a quiet
// close when there is no one left to answer), and the server goes on
// answering the next normal request.
#include <chrono>
#include <string>
#include <thread>

#include "tests/service/harness/rest_harness.h"

namespace foxgeese::test {
namespace {

class HttpMalformed : public RestTest {
  protected:
    // The server still answers a normal request on a new connection.
    void expect_alive() {
        const HttpReply reply = get("/v1/variants");
        EXPECT_EQ(reply.status, 200) << "the server stopped answering";
    }

    // Sends raw bytes on a fresh connection and reads one response.
    HttpReply raw(const std::string& bytes) {
        HttpClient connection(port());
        connection.send_raw(bytes);
        return connection.read();
    }

    // A raw request whose error response must close the connection.
    void expect_rejected(const std::string& bytes, int status, const std::string& reason) {
        HttpClient connection(port());
        connection.send_raw(bytes);
        const HttpReply reply = connection.read();
        EXPECT_TRUE(IsRestError(reply, status, grpc::StatusCode::INVALID_ARGUMENT, reason));
        EXPECT_EQ(reply.header("Connection"), "close");
        EXPECT_TRUE(connection.closed_by_server());
        expect_alive();
    }
};

TEST_F(HttpMalformed, GarbageBytesAre400) {
    for (const std::string& garbage :
         {std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 16),
          std::string("\0\0\0\0\r\n\r\n", 8), std::string("hello there\r\n\r\n"),
          std::string("GET\r\n\r\n"), std::string("GET /v1/variants\r\n\r\n"),
          std::string("GET /v1/variants HTTX/1.1\r\n\r\n"),
          std::string("GET /v1/variants HTTP/1.1\r\nNoColonHere\r\n\r\n"),
          std::string("GET /v1/variants HTTP/1.1\r\nBad Name: x\r\n\r\n"),
          std::string(
              "POST /v1/games HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n{}"),
          std::string("POST /v1/games HTTP/1.1\r\nContent-Length: -3\r\n\r\n"),
          std::string("POST /v1/games HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")}) {
        SCOPED_TRACE(garbage);
        expect_rejected(garbage, 400, "MALFORMED_REQUEST");
    }
}

TEST_F(HttpMalformed, OtherProtocolVersionsAndTargetsAre400) {
    for (const std::string request :
         {"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "GET /v1/variants HTTP/2.0\r\n\r\n",
          "GET /v1/variants HTTP/0.9\r\n\r\n",
          "GET http://example.com/v1/variants HTTP/1.1\r\n\r\n", "GET * HTTP/1.1\r\n\r\n",
          "CONNECT example.com:443 HTTP/1.1\r\n\r\n"}) {
        SCOPED_TRACE(request);
        const HttpReply reply = raw(request);
        EXPECT_TRUE(
            IsRestError(reply, 400, grpc::StatusCode::INVALID_ARGUMENT, "MALFORMED_REQUEST"));
    }
    expect_alive();
}

TEST_F(HttpMalformed, BadJsonIs400NamingTheProblem) {
    for (const std::string body :
         {"{", "{\"variant\": }", "not json", "{\"variant\": \"standard\"} x", "\xff\xfe{}"}) {
        const HttpReply reply = post("/v1/games", body);
        EXPECT_TRUE(IsRestError(reply, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"))
            << body;
        EXPECT_NE(rest_status(reply).message().find("JSON"), std::string::npos) << reply.body;
    }
    expect_alive();
}

TEST_F(HttpMalformed, BodiesThatAreNotJsonAre415) {
    const std::string body = R"({"variant": "standard"})";
    for (const std::string type : {"text/plain", "application/x-www-form-urlencoded",
                                   "application/jsonx", "multipart/form-data; boundary=x", ""}) {
        const HttpReply reply =
            rest("POST", "/v1/games", body, Auth::none(), {{"Content-Type", type}});
        EXPECT_TRUE(
            IsRestError(reply, 415, grpc::StatusCode::INVALID_ARGUMENT, "UNSUPPORTED_MEDIA_TYPE"))
            << type;
    }
    // No Content-Type at all.
    const HttpReply missing =
        raw("POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(body.size()) +
            "\r\n\r\n" + body);
    EXPECT_EQ(missing.status, 415);
    for (const std::string type : {"application/json", "application/json; charset=utf-8",
                                   "Application/JSON;charset=UTF-8", " application/json "}) {
        const HttpReply reply =
            rest("POST", "/v1/games", body, Auth::none(), {{"Content-Type", type}});
        EXPECT_EQ(reply.status, 200) << type << ": " << reply.body;
    }
    // Without a body there is nothing to type; a GET's body is ignored.
    EXPECT_EQ(rest("POST", "/v1/games", "", Auth::none(), {{"Content-Type", "text/plain"}}).status,
              400);
    EXPECT_EQ(
        rest("GET", "/v1/variants", "junk", Auth::none(), {{"Content-Type", "text/plain"}}).status,
        200);
}

TEST_F(HttpMalformed, UnknownRoutesAre404) {
    EXPECT_TRUE(IsRestError(get("/wp-admin/install.php"), 404, grpc::StatusCode::NOT_FOUND,
                            "ROUTE_NOT_FOUND"));
    EXPECT_TRUE(IsRestError(post("/v1/games/x/y/z", "{}"), 404, grpc::StatusCode::NOT_FOUND,
                            "ROUTE_NOT_FOUND"));
    expect_alive();
}

TEST_F(HttpMalformed, OversizedBodiesAre413) {
    // Refused from the Content-Length alone, before the body is read.
    expect_rejected(
        "POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: 1000000\r\n\r\n{",
        413, "PAYLOAD_TOO_LARGE");
    // A body that really is too large, sent in full.
    const std::string big = "{\"variant\": \"" + std::string(70 * 1024, 'x') + "\"}";
    const HttpReply sent = post("/v1/games", big);
    EXPECT_TRUE(IsRestError(sent, 413, grpc::StatusCode::INVALID_ARGUMENT, "PAYLOAD_TOO_LARGE"));
    // Chunked, with no length up front.
    std::string chunked =
        "POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n";
    for (int i = 0; i < 80; ++i)
        chunked += "400\r\n" + std::string(1024, ' ') + "\r\n";
    chunked += "0\r\n\r\n";
    expect_rejected(chunked, 413, "PAYLOAD_TOO_LARGE");
    // Exactly the limit is fine.
    std::string at_limit = R"({"variant": "chess"})";
    at_limit.insert(1, 64 * 1024 - at_limit.size(), ' ');
    ASSERT_EQ(at_limit.size(), 64u * 1024);
    const HttpReply limit = post("/v1/games", at_limit);
    EXPECT_TRUE(IsRestError(limit, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
}

TEST_F(HttpMalformed, BadPercentEncodingIs400) {
    for (const char* target :
         {"/v1/games/%zz", "/v1/games/%4", "/v1/games/ab%g0/moves", "/v1/variants?language=%",
          "/v1/games?variant=%2x", "/v1/games?%zz=1", "/v1/variants?language=%C0%AF"}) {
        const HttpReply reply = get(target);
        EXPECT_TRUE(IsRestError(reply, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"))
            << target;
    }
    expect_alive();
}

TEST_F(HttpMalformed, OversizedHeadersAre431) {
    expect_rejected(
        "GET /v1/variants HTTP/1.1\r\nHost: x\r\nX-Long: " + std::string(9000, 'a') + "\r\n\r\n",
        431, "HEADERS_TOO_LARGE");
    expect_rejected("GET /v1/games/" + std::string(9000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n", 431,
                    "HEADERS_TOO_LARGE");
    std::string many = "GET /v1/variants HTTP/1.1\r\nHost: x\r\n";
    for (int i = 0; i < 2000; ++i)
        many += "X-" + std::to_string(i) + ": y\r\n";
    expect_rejected(many + "\r\n", 431, "HEADERS_TOO_LARGE");
    // Large but within the limit is fine.
    const HttpReply fits =
        rest("GET", "/v1/variants", "", Auth::none(), {{"X-Padding", std::string(6000, 'p')}});
    EXPECT_EQ(fits.status, 200);
}

TEST_F(HttpMalformed, PipelinedRequestsAreAnsweredInOrder) {
    const SeatedGame game = start_game();
    std::string batch;
    std::vector<int> expected;
    for (int i = 0; i < 60; ++i) {
        switch (i % 4) {
            case 0:
                batch += "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
                expected.push_back(200);
                break;
            case 1:
                batch += "GET /v1/games/" + game.id + " HTTP/1.1\r\nHost: x\r\n\r\n";
                expected.push_back(200);
                break;
            case 2:
                batch += "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n";
                expected.push_back(404);
                break;
            case 3:
                batch +=
                    "POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    "Content-Length: 2\r\n\r\n{}";
                expected.push_back(400);
                break;
        }
    }
    HttpClient connection(port());
    connection.send_raw(batch);
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const HttpReply reply = connection.read();
        ASSERT_EQ(reply.status, expected[i]) << "response " << i << ": " << reply.body;
        if (expected[i] == 200 && i % 4 == 1) {
            v1::GetGameResponse got;
            ASSERT_TRUE(parse_json(reply.body, got));
            EXPECT_EQ(got.game().game_id(), game.id);
        }
    }
    // A malformed request in the middle ends the connection after its 400.
    HttpClient broken(port());
    broken.send_raw(
        "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\nGET /healthz "
        "HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(broken.read().status, 200);
    EXPECT_EQ(broken.read().status, 400);
    EXPECT_TRUE(broken.closed_by_server());
}

TEST_F(HttpMalformed, ClientsThatGoAwayMidRequestLeaveNoTrace) {
    for (const std::string half : {"GET /v1/vari", "GET /v1/variants HTTP/1.1\r\nHost: x\r\n",
                                   "POST /v1/games HTTP/1.1\r\nContent-Type: "
                                   "application/json\r\nContent-Length: 100\r\n\r\n{\"va"}) {
        {
            HttpClient closes(port());
            closes.send_raw(half);
            closes.close();
        }
        {
            HttpClient resets(port());
            resets.send_raw(half);
            resets.reset();
        }
        expect_alive();
    }
    // Half-closed after half a request: told so, if it still listens.
    HttpClient half_closed(port());
    half_closed.send_raw("POST /v1/games HTTP/1.1\r\nContent-Length: 50\r\n\r\n{");
    half_closed.shutdown_send();
    const std::string rest_of_it = half_closed.read_all_raw();
    EXPECT_NE(rest_of_it.find("400 Bad Request"), std::string::npos) << rest_of_it;
    expect_alive();
}

TEST_F(HttpMalformed, IdleAndSlowConnectionsAreClosed) {
    http_options().idle_timeout = std::chrono::milliseconds(300);
    http_options().request_timeout = std::chrono::milliseconds(600);
    restart_http();
    HttpClient idle(port(), std::chrono::seconds(5));
    ASSERT_EQ(idle.request("GET", "/healthz").status, 200);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_TRUE(idle.closed_by_server());
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));

    HttpClient never_speaks(port(), std::chrono::seconds(5));
    EXPECT_TRUE(never_speaks.closed_by_server());

    HttpClient slow(port(), std::chrono::seconds(5));
    slow.send_raw("GET /v1/variants HTTP/1.1\r\n");
    EXPECT_TRUE(slow.closed_by_server());

    // A slow trickle that keeps sending still runs into the request timeout.
    HttpClient trickle(port(), std::chrono::seconds(5));
    bool cut_off = false;
    try {
        for (int i = 0; i < 40 && !cut_off; ++i) {
            trickle.send_raw("X");
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    } catch (const std::exception&) {
        cut_off = true;
    }
    EXPECT_TRUE(cut_off || trickle.closed_by_server());
    expect_alive();
}

TEST_F(HttpMalformed, Http10AndExpectContinueAreServed) {
    HttpClient old(port());
    old.send_raw("GET /healthz HTTP/1.0\r\n\r\n");
    const HttpReply reply = old.read();
    EXPECT_EQ(reply.status, 200);
    EXPECT_TRUE(old.closed_by_server());

    HttpClient waits(port());
    const std::string body = R"({"variant": "standard"})";
    waits.send_raw(
        "POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Expect: 100-continue\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\n\r\n");
    EXPECT_EQ(waits.read().status, 100);
    waits.send_raw(body);
    EXPECT_EQ(waits.read().status, 200);
}

TEST_F(HttpMalformed, AFloodOfBadConnectionsDoesNotStopTheServer) {
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([this, t] {
            for (int i = 0; i < 20; ++i) {
                try {
                    HttpClient connection(port());
                    connection.send_raw(i % 2 ? "\x01\x02\x03 nonsense\r\n\r\n"
                                              : "GET /v1/games/%%% HTTP/1.1\r\n\r\n");
                    if ((t + i) % 3 == 0)
                        connection.reset();
                    else
                        connection.read();
                } catch (const std::exception&) {
                    // The server may close first; only its survival matters.
                }
            }
        });
    }
    for (auto& thread : threads)
        thread.join();
    expect_alive();
}

}  // namespace
}  // namespace foxgeese::test
