// The access log of a running replica, both transports: one JSON line per
// request and per finished watch stream with its method or route template,
// status and reason, game, request id, peer and bytes; the request id is
// sent back; probes stay out of the info log; and no line ever holds a seat
// token, an invite code or a CreateGame request id.
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <regex>

#include "service/runtime/access_log.h"
#include "service/runtime/logging.h"
#include "tests/service/harness/rest_harness.h"
#include "tests/service/runtime/capture_sink.h"

namespace foxgeese::test {
namespace {

using google::protobuf::Struct;

class AccessLogged : public RestTest {
  protected:
    void configure(service::ReplicaOptions& options) override {
        sink_->set_formatter(service::make_json_formatter(service::JsonPayload::kMembers));
        auto logger = std::make_shared<spdlog::logger>("access", sink_);
        logger->set_level(spdlog::level::info);
        options.access_log = std::make_shared<service::AccessLog>(true, std::move(logger),
                                                                  service::LogFormat::kJson);
        options.game.limits.trusted_proxy_hops = trusted_hops();
    }
    virtual int trusted_hops() const { return 0; }

    // The first access line whose fields `match` accepts, waiting for it.
    Struct line_where(const std::function<bool(const Struct&)>& match) {
        const auto line = sink_->wait_for([&](const std::string& text) {
            Struct object;
            return google::protobuf::util::JsonStringToMessage(text, &object).ok() && match(object);
        });
        if (!line) {
            std::string all;
            for (const auto& l : sink_->lines())
                all += l + "\n";
            ADD_FAILURE() << "no such access line among:\n" << all;
            return {};
        }
        Struct object;
        EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(*line, &object).ok());
        return object;
    }
    Struct line_with(const std::string& key, const std::string& value) {
        return line_where([&](const Struct& s) {
            const auto it = s.fields().find(key);
            return it != s.fields().end() && it->second.string_value() == value;
        });
    }

    std::vector<std::string> lines() const { return sink_->lines(); }

  private:
    std::shared_ptr<CaptureSink> sink_ = std::make_shared<CaptureSink>();
};

std::string field(const Struct& s, const std::string& key) {
    const auto it = s.fields().find(key);
    return it == s.fields().end() ? "" : it->second.string_value();
}
double number(const Struct& s, const std::string& key) {
    const auto it = s.fields().find(key);
    return it == s.fields().end() ? -1 : it->second.number_value();
}

TEST_F(AccessLogged, GrpcCallHasItsLineAndItsRequestIdBack) {
    auto stub = v1::FoxGeeseService::NewStub(new_channel(server().grpc_port()));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    context.AddMetadata("x-request-id", "trace-grpc-1");
    v1::CreateGameResponse created;
    const grpc::Status status = stub->CreateGame(
        &context, create_request("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PRIVATE),
        &created);
    ASSERT_TRUE(status.ok()) << status.error_message();
    const auto echoed = context.GetServerInitialMetadata().find("x-request-id");
    ASSERT_NE(echoed, context.GetServerInitialMetadata().end());
    EXPECT_EQ(std::string(echoed->second.data(), echoed->second.size()), "trace-grpc-1");

    const Struct line = line_with("request_id", "trace-grpc-1");
    EXPECT_EQ(field(line, "transport"), "grpc");
    EXPECT_EQ(field(line, "method"), "CreateGame");
    EXPECT_EQ(field(line, "code"), "OK");
    EXPECT_EQ(field(line, "game_id"), created.game().game_id());
    EXPECT_EQ(field(line, "peer"), "127.0.0.1");
    EXPECT_GT(number(line, "bytes_in"), 0);
    EXPECT_EQ(number(line, "bytes_out"), static_cast<double>(created.ByteSizeLong()));
    EXPECT_GE(number(line, "duration_ms"), 0);
    EXPECT_EQ(line.fields().count("status"), 0u);
}

TEST_F(AccessLogged, GrpcRefusalCarriesItsReasonAndGame) {
    const SeatedGame game = start_game();
    ASSERT_FALSE(grpc().move(game.id, "not a move", game.fox_token).ok());
    const Struct line = line_where([&](const Struct& s) {
        return field(s, "method") == "MakeMove" && field(s, "game_id") == game.id;
    });
    EXPECT_EQ(field(line, "code"), "INVALID_ARGUMENT");
    EXPECT_FALSE(field(line, "reason").empty());
    EXPECT_EQ(number(line, "bytes_out"), 0);
}

TEST_F(AccessLogged, RestCallHasItsRouteTemplateAndRequestId) {
    const std::string body = R"({"variant":"standard","seat":"SEAT_CHOICE_FOX"})";
    const HttpReply created =
        rest("POST", "/v1/games", body, Auth::none(), {{"X-Request-Id", "trace-rest-1"}});
    ASSERT_EQ(created.status, 200) << created.body;
    EXPECT_EQ(created.header("x-request-id"), "trace-rest-1");
    v1::CreateGameResponse response;
    ASSERT_TRUE(parse_json(created.body, response));

    const Struct line = line_with("request_id", "trace-rest-1");
    EXPECT_EQ(field(line, "transport"), "http");
    EXPECT_EQ(field(line, "method"), "POST /v1/games");
    EXPECT_EQ(field(line, "rpc"), "CreateGame");
    EXPECT_EQ(number(line, "status"), 200);
    EXPECT_EQ(field(line, "code"), "OK");
    EXPECT_EQ(field(line, "game_id"), response.game().game_id());
    EXPECT_EQ(field(line, "peer"), "127.0.0.1");
    EXPECT_EQ(number(line, "bytes_in"), static_cast<double>(body.size()));
    EXPECT_EQ(number(line, "bytes_out"), static_cast<double>(created.body.size()));

    // A path variable is logged as its template, never as the client's text.
    const HttpReply got = rest("GET", "/v1/games/" + response.game().game_id(), "", Auth::none(),
                               {{"X-Request-Id", "trace-rest-2"}});
    ASSERT_EQ(got.status, 200);
    const Struct read = line_with("request_id", "trace-rest-2");
    EXPECT_EQ(field(read, "method"), "GET /v1/games/{game_id}");
    EXPECT_EQ(field(read, "game_id"), response.game().game_id());
}

TEST_F(AccessLogged, RestErrorsAreLoggedWithStatusAndReason) {
    const HttpReply unknown =
        rest("GET", "/v1/nothing/here/%0a%22", "", Auth::none(), {{"X-Request-Id", "trace-404"}});
    EXPECT_EQ(unknown.status, 404);
    const Struct missing = line_with("request_id", "trace-404");
    EXPECT_EQ(field(missing, "method"), "(no route)");
    EXPECT_EQ(number(missing, "status"), 404);
    EXPECT_EQ(field(missing, "reason"), "ROUTE_NOT_FOUND");

    // A malformed game id is refused and not logged as one.
    const HttpReply bad =
        rest("GET", "/v1/games/not-a-game", "", Auth::none(), {{"X-Request-Id", "trace-400"}});
    EXPECT_EQ(bad.status, 400);
    const Struct refused = line_with("request_id", "trace-400");
    EXPECT_EQ(field(refused, "method"), "GET /v1/games/{game_id}");
    EXPECT_EQ(field(refused, "reason"), "INVALID_ARGUMENT");
    EXPECT_EQ(field(refused, "game_id"), "");
}

TEST_F(AccessLogged, RequestIdsThatAreNotPlainAreReplaced) {
    const HttpReply reply = rest("GET", "/v1/variants", "", Auth::none(),
                                 {{"X-Request-Id", "has spaces and \"quotes\""}});
    ASSERT_EQ(reply.status, 200);
    const std::string id = reply.header("x-request-id");
    EXPECT_TRUE(std::regex_match(id, std::regex("[0-9a-f-]{36}"))) << id;
    const Struct line = line_with("request_id", id);
    EXPECT_EQ(field(line, "method"), "GET /v1/variants");
}

TEST_F(AccessLogged, ProbesStayOutOfTheInfoLog) {
    ASSERT_EQ(rest("GET", "/healthz", "", Auth::none(), {{"X-Request-Id", "probe-1"}}).status, 200);
    ASSERT_EQ(rest("GET", "/metrics", "", Auth::none(), {{"X-Request-Id", "probe-2"}}).status, 200);
    // A call after them: once its line is there, theirs would be too.
    ASSERT_EQ(rest("GET", "/openapi.json", "", Auth::none(), {{"X-Request-Id", "after"}}).status,
              200);
    EXPECT_EQ(field(line_with("request_id", "after"), "method"), "GET /openapi.json");
    for (const std::string& text : lines())
        EXPECT_EQ(text.find("probe-"), std::string::npos) << text;
}

TEST_F(AccessLogged, FinishedWatchStreamsHaveTheirLine) {
    const SeatedGame game = start_game();
    {
        HttpClient watcher(port());
        watcher.send("GET", "/v1/games/" + game.id + ":watch", "",
                     {{"X-Request-Id", "watch-rest"}});
        const HttpReply header = watcher.read_header();
        ASSERT_EQ(header.status, 200);
        EXPECT_EQ(header.header("x-request-id"), "watch-rest");
        ASSERT_TRUE(watcher.read_line().has_value());  // the game as it stands
        ASSERT_TRUE(IsOk(grpc().resign(game.id, game.fox_token)));
        while (watcher.read_line()) {
        }
    }
    const Struct rest_line = line_with("request_id", "watch-rest");
    EXPECT_EQ(field(rest_line, "method"), "GET /v1/games/{game_id}:watch");
    EXPECT_EQ(field(rest_line, "rpc"), "WatchGame");
    EXPECT_EQ(field(rest_line, "code"), "OK");
    EXPECT_EQ(field(rest_line, "game_id"), game.id);
    EXPECT_GE(number(rest_line, "events"), 2);
    EXPECT_GT(number(rest_line, "bytes_out"), 0);

    const SeatedGame other = start_game();
    {
        WatchStream stream(server().grpc_port(), other.id);
        ASSERT_TRUE(stream.next().has_value());
        stream.cancel();
    }
    const Struct grpc_line = line_where([&](const Struct& s) {
        return field(s, "method") == "WatchGame" && field(s, "game_id") == other.id;
    });
    EXPECT_EQ(field(grpc_line, "transport"), "grpc");
    EXPECT_EQ(field(grpc_line, "code"), "CANCELLED");
    EXPECT_GE(number(grpc_line, "events"), 1);
}

TEST_F(AccessLogged, NoLineHoldsATokenAnInviteCodeOrASeatRequestId) {
    v1::CreateGameRequest request =
        create_request("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PRIVATE);
    request.set_request_id("9b2f7c1e-6a4d-4e8b-9c3f-2d1a0b5e7f61");
    const auto created = grpc().create(request);
    ASSERT_TRUE(IsOk(created));
    const std::string id = created->game().game_id();
    const auto joined =
        grpc().join(id, created->invite_code(), "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0");
    ASSERT_TRUE(IsOk(joined));
    ASSERT_TRUE(IsOk(grpc().get_seat(created->seat_token())));
    ASSERT_EQ(rest("POST", "/v1/games/" + id + ":offerDraw", "{}", joined->seat_token()).status,
              200);
    ASSERT_EQ(rest("GET", "/v1/seat", "", Auth::header("Bearer fgs_forged")).status, 401);
    line_where([&](const Struct& s) { return field(s, "method") == "GET /v1/seat"; });
    const std::vector<std::string> secrets = {created->seat_token(),
                                              joined->seat_token(),
                                              created->invite_code(),
                                              "fgs_forged",
                                              "9b2f7c1e-6a4d-4e8b-9c3f-2d1a0b5e7f61",
                                              "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"};
    ASSERT_GE(lines().size(), 5u);
    for (const std::string& text : lines()) {
        for (const std::string& secret : secrets)
            EXPECT_EQ(text.find(secret), std::string::npos) << secret << " in " << text;
    }
}

class AccessLoggedBehindAProxy : public AccessLogged {
  protected:
    int trusted_hops() const override { return 1; }
};

TEST_F(AccessLoggedBehindAProxy, PeerIsTheForwardedClient) {
    ASSERT_EQ(rest("GET", "/v1/variants", "", Auth::none(),
                   {{"X-Request-Id", "via-proxy"}, {"X-Forwarded-For", "198.51.100.7"}})
                  .status,
              200);
    EXPECT_EQ(field(line_with("request_id", "via-proxy"), "peer"), "198.51.100.7");
}

}  // namespace
}  // namespace foxgeese::test
