// GetTablebase over REST: GET /v1/tablebase with the request's fields as
// query parameters (options too, by their dotted names), the same answer as
// over gRPC in proto3 JSON, and the same errors.
#include <string>

#include "tests/service/core/tablebase_shared.h"
#include "tests/service/harness/rest_harness.h"
#include "tests/support/small_tablebase.h"

namespace foxgeese::test {
namespace {

class RestTablebase : public RestTest {
  protected:
    void configure(service::ReplicaOptions& options) override {
        options.game.tablebase = small_tablebase();
    }
};

// A position code in a query: its spaces and slashes escaped.
std::string query_code(const std::string& code) {
    std::string out;
    for (const char c : code) {
        if (c == ' ') {
            out += "%20";
        } else if (c == '/') {
            out += "%2F";
        } else {
            out += c;
        }
    }
    return out;
}

TEST_F(RestTablebase, AnswersAsGrpcDoesInJson) {
    const HttpReply reply =
        get("/v1/tablebase?variant=standard&position=" + query_code(kGeeseWinOrThrow));
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_NE(reply.body.find(R"("category":"TABLEBASE_CATEGORY_WIN")"), std::string::npos)
        << reply.body;
    EXPECT_NE(reply.body.find(R"({"move":"c4-d5","category":"TABLEBASE_CATEGORY_WIN","plies":1)"),
              std::string::npos)
        << reply.body;
    const Reply<v1::GetTablebaseResponse> over_grpc =
        grpc().get_tablebase(tablebase_request(kGeeseWinOrThrow));
    ASSERT_TRUE(IsOk(over_grpc));
    EXPECT_TRUE(SameResponse(reply, over_grpc.response));
}

TEST_F(RestTablebase, PositionsOutsideItAndBadInputGetTheGrpcErrors) {
    // The start has 13 geese: 404 NOT_IN_TABLEBASE.
    const HttpReply start = get("/v1/tablebase?variant=standard");
    EXPECT_TRUE(IsRestError(start, 404, grpc::StatusCode::NOT_FOUND, "NOT_IN_TABLEBASE"));
    EXPECT_TRUE(SameError(start, grpc().get_tablebase(tablebase_request("")).status));
    // Sideways geese, by the option's dotted query name.
    v1::GetTablebaseRequest sideways = tablebase_request(kFoxTakesTwoToWin);
    sideways.mutable_options()->set_geese_sideways(true);
    const HttpReply with_sideways =
        get("/v1/tablebase?variant=standard&options.geeseSideways=true&position=" +
            query_code(kFoxTakesTwoToWin));
    EXPECT_TRUE(IsRestError(with_sideways, 404, grpc::StatusCode::NOT_FOUND, "NOT_IN_TABLEBASE"));
    EXPECT_TRUE(SameError(with_sideways, grpc().get_tablebase(sideways).status));
    // A bad position and an unknown parameter.
    EXPECT_TRUE(IsRestError(get("/v1/tablebase?variant=standard&position=garbage"), 400,
                            grpc::StatusCode::INVALID_ARGUMENT, "INVALID_POSITION"));
    EXPECT_TRUE(IsRestError(get("/v1/tablebase?variant=standard&depth=3"), 400,
                            grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    EXPECT_TRUE(IsRestError(rest("POST", "/v1/tablebase", "{}"), 405,
                            grpc::StatusCode::UNIMPLEMENTED, "METHOD_NOT_ALLOWED"));
}

}  // namespace
}  // namespace foxgeese::test
