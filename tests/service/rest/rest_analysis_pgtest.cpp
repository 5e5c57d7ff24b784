// AnalyzePosition and AnalyzeGame over REST: the routes, the JSON shapes of
// scores, lines and marks, the same answers and errors as gRPC, and a busy
// replica's refusal as 429 with Retry-After.
#include <string>

#include "tests/service/harness/held_analysis.h"
#include "tests/service/harness/rest_harness.h"

namespace foxgeese::test {
namespace {

class RestAnalysis : public RestTest {
  protected:
    // One place, and a call that finds it taken is refused at once.
    void configure(service::ReplicaOptions& options) override {
        options.game.analysis.concurrency = 1;
        options.game.analysis.max_wait = std::chrono::milliseconds(0);
    }
};

TEST_F(RestAnalysis, AnalyzePositionAnswersAsGrpcDoesInJson) {
    const HttpReply reply = post("/v1/positions:analyze",
                                 R"({"variant":"standard","position":"3/3/3GG2/5GG/6F/3/G2 f 0 20",
                                     "depth":3,"lines":2})");
    ASSERT_EQ(reply.status, 200) << reply.body;
    // Exact results and estimates as the Score oneof's JSON names.
    EXPECT_NE(reply.body.find(R"("winInPlies":1)"), std::string::npos) << reply.body;
    EXPECT_NE(reply.body.find(R"("text":"win in 1")"), std::string::npos) << reply.body;
    EXPECT_NE(reply.body.find(R"("points":)"), std::string::npos) << reply.body;  // the 2nd line
    EXPECT_NE(reply.body.find(R"("move":"g3xg5xe3","score")"), std::string::npos) << reply.body;
    EXPECT_NE(reply.body.find(R"("sideToMove":"SIDE_FOX")"), std::string::npos) << reply.body;
    EXPECT_NE(reply.body.find(R"("pv":["g3xg5xe3")"), std::string::npos) << reply.body;

    v1::AnalyzePositionRequest request;
    request.set_variant("standard");
    request.set_position("3/3/3GG2/5GG/6F/3/G2 f 0 20");
    request.set_depth(3);
    request.set_lines(2);
    const Reply<v1::AnalyzePositionResponse> over_grpc = grpc().analyze_position(request);
    ASSERT_TRUE(IsOk(over_grpc));
    EXPECT_TRUE(SameResponse(reply, over_grpc.response));
}

TEST_F(RestAnalysis, BadRequestsGetTheSameErrorsAsOverGrpc) {
    v1::AnalyzePositionRequest request;
    request.set_variant("standard");
    request.set_lines(9);
    EXPECT_TRUE(SameError(post("/v1/positions:analyze", R"({"variant":"standard","lines":9})"),
                          grpc().analyze_position(request).status));
    request.set_lines(1);
    request.set_position("3/3/7/3F3 f 0 0");
    const HttpReply bad_position =
        post("/v1/positions:analyze", R"({"variant":"standard","position":"3/3/7/3F3 f 0 0"})");
    EXPECT_TRUE(
        IsRestError(bad_position, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_POSITION"));
    EXPECT_TRUE(SameError(bad_position, grpc().analyze_position(request).status));
    EXPECT_TRUE(IsRestError(post("/v1/games/" + kUnknownGameId + ":analyze", "{}"), 404,
                            grpc::StatusCode::NOT_FOUND, "GAME_NOT_FOUND"));
    EXPECT_TRUE(IsRestError(rest("GET", "/v1/positions:analyze"), 405,
                            grpc::StatusCode::UNIMPLEMENTED, "METHOD_NOT_ALLOWED"));
}

TEST_F(RestAnalysis, AnalyzeGameMarksThePassedUpCaptureInJson) {
    // The fox could take seven geese at once (e5xg3x...xe5) and steps instead.
    const SeatedGame game = start_game("3/GG1/4F2/G1G2G1/1G3G1/1GG/1G1 f 0 20");
    ASSERT_TRUE(IsOk(grpc().move(game.id, "e5-e6", game.fox_token)));
    ASSERT_TRUE(IsOk(grpc().resign(game.id, game.geese_token)));

    const HttpReply reply = post("/v1/games/" + game.id + ":analyze", "");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_NE(reply.body.find(R"("mark":"MOVE_MARK_WIN_THROWN_AWAY")"), std::string::npos)
        << reply.body;
    EXPECT_NE(reply.body.find(R"("bestMove":"e5xg3xe3xe1xc3xc5xc7xe5")"), std::string::npos)
        << reply.body;
    EXPECT_NE(reply.body.find(R"("scoreBefore":{"text":"win in 1","winInPlies":1})"),
              std::string::npos)
        << reply.body;
    // int64 travels as a string in proto3 JSON; times as RFC 3339.
    EXPECT_NE(reply.body.find(R"("nodesPerPly":"100000")"), std::string::npos) << reply.body;
    EXPECT_NE(reply.body.find(R"("analyzeTime":")"), std::string::npos) << reply.body;

    // The stored analysis, over either transport.
    const Reply<v1::AnalyzeGameResponse> over_grpc = grpc().analyze_game(game.id);
    ASSERT_TRUE(IsOk(over_grpc));
    EXPECT_TRUE(SameResponse(reply, over_grpc.response));
    EXPECT_EQ(server().metrics().analyses.value({"AnalyzeGame"}), 1);
}

TEST_F(RestAnalysis, ABusyReplicaIs429WithRetryAfter) {
    const SeatedGame game = start_game();
    HeldAnalysis held(server());
    const HttpReply refused = post("/v1/positions:analyze", R"({"variant":"standard","depth":1})");
    EXPECT_TRUE(IsRestError(refused, 429, grpc::StatusCode::RESOURCE_EXHAUSTED, "ANALYSIS_BUSY"));
    EXPECT_EQ(refused.header("retry-after"), "1") << refused.body;
    const google::rpc::Status status = rest_status(refused);
    bool has_retry_info = false;
    for (const auto& detail : status.details())
        has_retry_info = has_retry_info || detail.Is<google::rpc::RetryInfo>();
    EXPECT_TRUE(has_retry_info) << refused.body;
    EXPECT_TRUE(IsRestError(post("/v1/games/" + game.id + ":analyze", "{}"), 429,
                            grpc::StatusCode::RESOURCE_EXHAUSTED, "ANALYSIS_BUSY"));

    held.release();
    EXPECT_EQ(post("/v1/positions:analyze", R"({"variant":"standard","depth":1})").status, 200);
}

}  // namespace
}  // namespace foxgeese::test
