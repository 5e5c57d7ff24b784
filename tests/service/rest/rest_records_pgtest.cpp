// Game records over REST: GET /v1/games/{game_id}/record answers the record
// itself as text/plain (the bytes ExportGame gives over gRPC), HEAD the same
// headers; POST /v1/games:import takes the record in JSON and answers the
// imported game; errors are the JSON status of the same call over gRPC.
#include <cstdio>
#include <random>
#include <string>

#include "engine/record/game_record.h"
#include "engine/rules/game.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "tests/service/harness/rest_harness.h"

namespace foxgeese::test {
namespace {

using RestRecords = RestTest;

const std::string kRecord =
    "[Variant \"two_foxes\"]\n[TimeControl \"600+5\"]\n[Result \"*\"]\n[EndReason \"aborted\"]\n"
    "[Created \"2026-01-02T03:04:05Z\"]\n[Ended \"2026-01-02T03:05:00Z\"]\n\n"
    "1. c7-c6 {Zug — «opening»}\n*\n";

std::string import_body(const std::string& record, const std::string& visibility = "") {
    v1::ImportGameRequest request;
    request.set_record(record);
    if (!visibility.empty()) {
        v1::Visibility value = v1::VISIBILITY_UNSPECIFIED;
        EXPECT_TRUE(v1::Visibility_Parse(visibility, &value));
        request.set_visibility(value);
    }
    return to_json(request);
}

// A record of nearly the most bytes a record may have, nearly all of them
// double quotes: a big_cross game of random moves (from a fixed seed) that
// the rules do not end, each move with a comment of 500 quotes.
std::string quote_filled_record() {
    const std::string comment = " {" + std::string(kMaxCommentChars, '"') + "}\n";
    const Variant& variant = **Variant::find("big_cross", {});
    std::mt19937 random(7);
    // Canonical, as an export writes it back.
    const std::string header = "[Variant \"big_cross\"]\n[TimeControl \"-\"]\n[Result \"*\"]\n\n";
    std::string record = header;
    Game game{Position(variant)};
    while (true) {
        MoveList moves;
        generate_legal_moves(game.position(), moves);
        Game next = game;
        const std::string notation = format_move(variant.board(), moves[random() % moves.size()]);
        if (!next.play(notation).ok() || next.status().over()) {
            game = Game{Position(variant)};  // try another game
            record = header;
            continue;
        }
        const std::string line = std::to_string(next.position().ply()) + ". " + notation + comment;
        if (record.size() + line.size() + 2 > kMaxRecordBytes) break;
        record += line;
        game = std::move(next);
    }
    return record + "*\n";
}

// The same JSON body with every character of the record written as \uXXXX.
std::string unicode_escaped_body(const std::string& record) {
    std::string body = R"({"record":")";
    for (const unsigned char c : record) {
        char escape[7];
        std::snprintf(escape, sizeof escape, "\\u%04x", c);  // the record is ASCII
        body += escape;
    }
    return body + "\"}";
}

TEST_F(RestRecords, ARecordOfTheLargestSizeIsTakenInAnyLegalJson) {
    const std::string record = quote_filled_record();
    ASSERT_GT(record.size(), kMaxRecordBytes - 600);
    ASSERT_LE(record.size(), kMaxRecordBytes);
    ASSERT_TRUE(IsOk(grpc().import_game(record)));

    // Its quotes double in JSON: far more than the 64 KiB of other bodies.
    const std::string quoted = import_body(record);
    ASSERT_GT(quoted.size(), 96'000u);
    const HttpReply reply = post("/v1/games:import", quoted);
    ASSERT_EQ(reply.status, 200) << reply.body.substr(0, 400);
    v1::ImportGameResponse imported;
    ASSERT_TRUE(parse_json(reply.body, imported));
    EXPECT_TRUE(get("/v1/games/" + imported.game().game_id() + "/record").body == record);

    // Every character escaped: six times the record.
    const std::string escaped = unicode_escaped_body(record);
    ASSERT_GT(escaped.size(), 290'000u);
    const HttpReply escaped_reply = post("/v1/games:import", escaped);
    ASSERT_EQ(escaped_reply.status, 200) << escaped_reply.body.substr(0, 400);

    // The body itself stays bounded: six times the largest record and 16 KiB.
    std::string too_large = escaped;
    too_large.insert(1, 6 * kMaxRecordBytes + 16 * 1024 + 1 - escaped.size(), ' ');
    EXPECT_TRUE(IsRestError(post("/v1/games:import", too_large), 413,
                            grpc::StatusCode::INVALID_ARGUMENT, "PAYLOAD_TOO_LARGE"));
    // Other routes keep their 64 KiB.
    EXPECT_TRUE(IsRestError(post("/v1/games", quoted), 413, grpc::StatusCode::INVALID_ARGUMENT,
                            "PAYLOAD_TOO_LARGE"));
}

TEST_F(RestRecords, ARecordIsPlainTextTheSameAsOverGrpc) {
    const SeatedGame game = start_game();
    ASSERT_TRUE(IsOk(grpc().move(game.id, "d4-d5", game.fox_token)));
    const HttpReply reply = get("/v1/games/" + game.id + "/record");
    EXPECT_EQ(reply.status, 200);
    EXPECT_EQ(reply.header("content-type"), "text/plain; charset=utf-8");
    EXPECT_EQ(reply.header("cache-control"), "no-store");
    EXPECT_EQ(reply.header("x-content-type-options"), "nosniff");
    const Reply<google::api::HttpBody> exported = grpc().export_game(game.id);
    ASSERT_TRUE(IsOk(exported));
    EXPECT_EQ(reply.body, exported->data());
    EXPECT_NE(reply.body.find("\n1. d4-d5\n*\n"), std::string::npos);

    // HEAD: the same headers and no body (the connection then closes).
    HttpClient connection(port());
    connection.send_raw("HEAD /v1/games/" + game.id +
                        "/record HTTP/1.1\r\nHost: x\r\n"
                        "Connection: close\r\n\r\n");
    const std::string head = connection.read_all_raw();
    EXPECT_EQ(head.rfind("HTTP/1.1 200", 0), 0u) << head;
    EXPECT_NE(head.find("Content-Type: text/plain; charset=utf-8\r\n"), std::string::npos) << head;
    EXPECT_NE(head.find("Content-Length: " + std::to_string(reply.body.size()) + "\r\n"),
              std::string::npos)
        << head;
    EXPECT_EQ(head.substr(head.size() - 4), "\r\n\r\n") << "a HEAD answer carried a body";
}

TEST_F(RestRecords, ExportErrorsAreTheJsonStatusOfGrpc) {
    const HttpReply unknown = get("/v1/games/" + kUnknownGameId + "/record");
    EXPECT_TRUE(IsRestError(unknown, 404, grpc::StatusCode::NOT_FOUND, "GAME_NOT_FOUND"));
    EXPECT_TRUE(SameError(unknown, grpc().export_game(kUnknownGameId).status));
    EXPECT_EQ(unknown.header("content-type"), "application/json");

    const HttpReply bad = get("/v1/games/nope/record");
    EXPECT_TRUE(IsRestError(bad, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    EXPECT_TRUE(SameError(bad, grpc().export_game("nope").status));
    EXPECT_EQ(rest_bad_field(bad), "game_id");

    const HttpReply query = get("/v1/games/" + kUnknownGameId + "/record?format=pgn");
    EXPECT_TRUE(IsRestError(query, 400, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    const HttpReply post = rest("POST", "/v1/games/" + kUnknownGameId + "/record", "{}");
    EXPECT_EQ(post.status, 405);
}

TEST_F(RestRecords, ImportTakesTheRecordInJsonAndExportGivesItBack) {
    const HttpReply reply = post("/v1/games:import", import_body(kRecord, "VISIBILITY_PUBLIC"));
    ASSERT_EQ(reply.status, 200) << reply.body;
    v1::ImportGameResponse response;
    ASSERT_TRUE(parse_json(reply.body, response));
    const v1::Game& game = response.game();
    EXPECT_TRUE(game.imported());
    EXPECT_EQ(game.state(), v1::GAME_STATE_FINISHED);
    EXPECT_EQ(game.result(), v1::GAME_RESULT_NONE);
    EXPECT_EQ(game.end_reason(), v1::END_REASON_ABORTED);
    EXPECT_EQ(game.visibility(), v1::VISIBILITY_PUBLIC);
    EXPECT_NE(reply.body.find("\"imported\":true"), std::string::npos);

    EXPECT_TRUE(
        SameResponse(get("/v1/games/" + game.game_id()), grpc().get(game.game_id()).response));
    const HttpReply moves = get("/v1/games/" + game.game_id() + "/moves");
    EXPECT_NE(moves.body.find("\"comment\":\"Zug — «opening»\""), std::string::npos) << moves.body;
    const HttpReply record = get("/v1/games/" + game.game_id() + "/record");
    EXPECT_EQ(record.status, 200);
    EXPECT_EQ(record.body, kRecord);
}

TEST_F(RestRecords, ARefusedRecordIsTheJsonStatusOfGrpcWithItsPlace) {
    const std::string bad = "[Variant \"two_foxes\"]\n[Result \"*\"]\n\n1. c7-c5 *\n";
    const HttpReply reply = post("/v1/games:import", import_body(bad));
    EXPECT_TRUE(IsRestError(reply, 400, grpc::StatusCode::INVALID_ARGUMENT, "RECORD_ILLEGAL_MOVE"));
    EXPECT_TRUE(SameError(reply, grpc().import_game(bad).status));
    EXPECT_EQ(rest_bad_field(reply), "record");
    const google::rpc::Status status = rest_status(reply);
    google::rpc::ErrorInfo info;
    ASSERT_TRUE(status.details(0).UnpackTo(&info));
    EXPECT_EQ(info.metadata().at("line"), "4");
    EXPECT_EQ(info.metadata().at("column"), "4");
    EXPECT_EQ(info.metadata().at("ply"), "1");

    EXPECT_TRUE(IsRestError(post("/v1/games:import", "{}"), 400, grpc::StatusCode::INVALID_ARGUMENT,
                            "INVALID_ARGUMENT"));
    EXPECT_TRUE(IsRestError(post("/v1/games:import", "{\"record\":7}"), 400,
                            grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    EXPECT_EQ(rest("GET", "/v1/games:import").status, 405);
}

}  // namespace
}  // namespace foxgeese::test
