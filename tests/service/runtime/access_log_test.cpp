// The access log's two formats, its levels and the request ids it repeats.
#include "service/runtime/access_log.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <regex>

#include "tests/service/runtime/capture_sink.h"

namespace foxgeese::service {
namespace {

using test::CaptureSink;

struct Captured {
    std::shared_ptr<CaptureSink> sink = std::make_shared<CaptureSink>();
    std::shared_ptr<spdlog::logger> logger;

    explicit Captured(LogFormat format, spdlog::level::level_enum level = spdlog::level::info) {
        if (format == LogFormat::kJson) {
            sink->set_formatter(make_json_formatter(JsonPayload::kMembers));
        } else {
            sink->set_pattern("[%l] %v");
        }
        logger = std::make_shared<spdlog::logger>("access", sink);
        logger->set_level(level);
    }
};

AccessEntry sample_move() {
    AccessEntry entry;
    entry.transport = "http";
    entry.method = "POST /v1/games/{game_id}/moves";
    entry.rpc = "MakeMove";
    entry.http_status = 400;
    entry.code = "INVALID_ARGUMENT";
    entry.reason = "ILLEGAL_MOVE";
    entry.duration = std::chrono::microseconds(1'234'567);
    entry.game_id = "5d0c58f4-27a9-4f53-9d8e-3a4c7d1e2b90";
    entry.request_id = "req-42";
    entry.peer = "203.0.113.9";
    entry.bytes_in = 41;
    entry.bytes_out = 256;
    return entry;
}

google::protobuf::Struct parse_object(const std::string& line) {
    google::protobuf::Struct object;
    const auto status = google::protobuf::util::JsonStringToMessage(line, &object);
    EXPECT_TRUE(status.ok()) << status.ToString() << "\n" << line;
    return object;
}

TEST(AccessLogTest, TextLineIsKeyValuePairs) {
    Captured out(LogFormat::kText);
    AccessLog(true, out.logger, LogFormat::kText).write(sample_move());
    ASSERT_EQ(out.sink->lines().size(), 1u);
    EXPECT_EQ(out.sink->lines()[0],
              "[info] access transport=http method=\"POST /v1/games/{game_id}/moves\" "
              "rpc=MakeMove status=400 code=INVALID_ARGUMENT reason=ILLEGAL_MOVE "
              "duration_ms=1234.567 game_id=5d0c58f4-27a9-4f53-9d8e-3a4c7d1e2b90 "
              "request_id=req-42 peer=203.0.113.9 bytes_in=41 bytes_out=256");
}

TEST(AccessLogTest, JsonLineHasEveryFieldAsAMember) {
    Captured out(LogFormat::kJson);
    AccessEntry entry = sample_move();
    entry.events = 7;
    AccessLog(true, out.logger, LogFormat::kJson).write(entry);
    ASSERT_EQ(out.sink->lines().size(), 1u);
    const auto object = parse_object(out.sink->lines()[0]);
    const auto& f = object.fields();
    EXPECT_EQ(f.at("logger").string_value(), "access");
    EXPECT_EQ(f.at("level").string_value(), "info");
    EXPECT_EQ(f.at("kind").string_value(), "access");
    EXPECT_EQ(f.at("transport").string_value(), "http");
    EXPECT_EQ(f.at("method").string_value(), "POST /v1/games/{game_id}/moves");
    EXPECT_EQ(f.at("rpc").string_value(), "MakeMove");
    EXPECT_EQ(f.at("status").number_value(), 400);
    EXPECT_EQ(f.at("code").string_value(), "INVALID_ARGUMENT");
    EXPECT_EQ(f.at("reason").string_value(), "ILLEGAL_MOVE");
    EXPECT_DOUBLE_EQ(f.at("duration_ms").number_value(), 1234.567);
    EXPECT_EQ(f.at("game_id").string_value(), "5d0c58f4-27a9-4f53-9d8e-3a4c7d1e2b90");
    EXPECT_EQ(f.at("request_id").string_value(), "req-42");
    EXPECT_EQ(f.at("peer").string_value(), "203.0.113.9");
    EXPECT_EQ(f.at("bytes_in").number_value(), 41);
    EXPECT_EQ(f.at("bytes_out").number_value(), 256);
    EXPECT_EQ(f.at("events").number_value(), 7);
    EXPECT_EQ(f.count("msg"), 0u);
}

TEST(AccessLogTest, EmptyFieldsAreLeftOut) {
    Captured out(LogFormat::kJson);
    AccessEntry entry;
    entry.transport = "grpc";
    entry.method = "ListVariants";
    entry.code = "OK";
    AccessLog(true, out.logger, LogFormat::kJson).write(entry);
    const auto object = parse_object(out.sink->lines().at(0));
    EXPECT_EQ(object.fields().count("reason"), 0u);
    EXPECT_EQ(object.fields().count("game_id"), 0u);
    EXPECT_EQ(object.fields().count("status"), 0u);
    EXPECT_EQ(object.fields().count("events"), 0u);
    EXPECT_EQ(object.fields().at("bytes_out").number_value(), 0);
}

TEST(AccessLogTest, DisabledWritesNothing) {
    Captured out(LogFormat::kText);
    AccessLog(false, out.logger, LogFormat::kText).write(sample_move());
    EXPECT_TRUE(out.sink->lines().empty());
}

TEST(AccessLogTest, RoutineCallsOnlyAtDebug) {
    AccessEntry probe;
    probe.transport = "http";
    probe.method = "GET /healthz";
    probe.routine = true;
    Captured info(LogFormat::kText, spdlog::level::info);
    AccessLog(true, info.logger, LogFormat::kText).write(probe);
    EXPECT_TRUE(info.sink->lines().empty());
    Captured debug(LogFormat::kText, spdlog::level::debug);
    AccessLog(true, debug.logger, LogFormat::kText).write(probe);
    ASSERT_EQ(debug.sink->lines().size(), 1u);
    EXPECT_EQ(debug.sink->lines()[0].rfind("[debug] access ", 0), 0u);
}

TEST(AccessLogTest, PlainRequestIdsAreRepeated) {
    EXPECT_EQ(request_id_for("req-42"), "req-42");
    EXPECT_EQ(request_id_for("a.b_c:d-E9"), "a.b_c:d-E9");
    EXPECT_EQ(request_id_for(std::string(64, 'x')), std::string(64, 'x'));
}

TEST(AccessLogTest, OtherRequestIdsAreReplacedByRandomOnes) {
    const std::regex uuid("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    for (const std::string& sent :
         {std::string(), std::string(65, 'x'), std::string("two words"), std::string("line\nbreak"),
          std::string("quote\"d"), std::string("caf\xc3\xa9"), std::string("a=b")}) {
        const std::string id = request_id_for(sent);
        EXPECT_TRUE(std::regex_match(id, uuid)) << sent << " -> " << id;
    }
    EXPECT_NE(request_id_for(""), request_id_for(""));
}

}  // namespace
}  // namespace foxgeese::service
