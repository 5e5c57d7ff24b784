// ExportGame and ImportGame over gRPC: the record of a finished game, of a
// game in progress and of a waiting one with a custom start and a clock;
// records imported from every configuration read back byte for byte and
// replay through GetGame, ListMoves and WatchGame as the engine plays them;
// imported games have no seats; and every refused record names its place
// and stores nothing. On the memory store; what PostgreSQL stores of an
// imported game and its listing: game_records_pgtest.cpp.
#include <string>
#include <vector>

#include "engine/record/game_record.h"
#include "engine/rules/position_code.h"
#include "tests/engine/support/random_record.h"
#include "tests/service/core/record_samples.h"
#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

const Variant& engine_variant(const v1::Game& game) {
    VariantOptions options;
    if (game.options().has_geese()) options.geese = game.options().geese();
    if (game.options().has_geese_sideways())
        options.geese_sideways = game.options().geese_sideways();
    return **Variant::find(game.variant(), options);
}

// The record the server must write for a game it read as `game`, with
// these moves: built with the engine's writer from what the API shows.
std::string expected_record(const v1::Game& game, const std::vector<std::string>& moves,
                            Outcome result, RecordEnd end, bool ended) {
    GameRecord record;
    record.variant = &engine_variant(game);
    record.start = custom_start(*parse_position_code(*record.variant, game.start_position()));
    if (game.time_control().has_real_time()) {
        record.time_control = {RecordTimeControl::Kind::kRealTime,
                               game.time_control().real_time().initial().seconds() * 1000,
                               game.time_control().real_time().increment().seconds() * 1000, 0};
    } else if (game.time_control().has_correspondence()) {
        record.time_control = {RecordTimeControl::Kind::kCorrespondence, 0, 0,
                               game.time_control().correspondence().days_per_move()};
    }
    record.result = result;
    record.end = end;
    record.created = game.create_time().seconds();
    if (ended) record.ended = game.update_time().seconds();
    for (const std::string& m : moves)
        record.moves.push_back({m, ""});
    return format_record(record);
}

// A seeded random game of the configuration, up to `max_plies`, as a
// record with a time control and dates; one the rules did not end is
// agreed drawn for an even seed.
std::string random_record(const Variant& v, std::uint64_t seed, int max_plies) {
    GameRecord record = testing::random_game_record(v, seed, max_plies);
    if (!record.end.named() && seed % 2 == 0) {
        record.result = Outcome::kDraw;
        record.end.other = OffRulesEnd::kDrawAgreed;
    }
    record.time_control = {RecordTimeControl::Kind::kRealTime, 180'000, 2'000, 0};
    record.created = 1'750'000'000 + static_cast<std::int64_t>(seed);
    record.ended = *record.created + 600;
    return format_record(record);
}

using GameRecords = MemoryServiceTest;

TEST_F(GameRecords, ExportsAFinishedGameAsItsRecord) {
    const SeatedGame game = start_game();
    play_all(game, {"d4-d5", "c3-c4", "d5-d6"});
    ASSERT_TRUE(IsOk(client().resign(game.id, game.fox_token)));
    const Reply<v1::GetGameResponse> got = client().get(game.id);
    ASSERT_TRUE(IsOk(got));

    const Reply<google::api::HttpBody> exported = client().export_game(game.id);
    ASSERT_TRUE(IsOk(exported));
    EXPECT_EQ(exported->content_type(), "text/plain; charset=utf-8");
    EXPECT_EQ(exported->data(),
              expected_record(got->game(), {"d4-d5", "c3-c4", "d5-d6"}, Outcome::kGeeseWin,
                              RecordEnd{EndReason::kNone, OffRulesEnd::kResignation}, true));
    EXPECT_NE(exported->data().find("[EndReason \"resignation\"]\n"), std::string::npos);
    // It is a record the engine reads back.
    EXPECT_TRUE(parse_record(exported->data()).ok());
}

TEST_F(GameRecords, ExportsGamesInProgressWaitingAndWithClocks) {
    const SeatedGame playing = start_game("two_foxes");
    play_all(playing, {"c7-c6"});
    Reply<v1::GetGameResponse> got = client().get(playing.id);
    Reply<google::api::HttpBody> exported = client().export_game(playing.id);
    ASSERT_TRUE(IsOk(exported));
    EXPECT_EQ(exported->data(),
              expected_record(got->game(), {"c7-c6"}, Outcome::kOngoing, {}, false));
    EXPECT_NE(exported->data().find("\n1. c7-c6\n*\n"), std::string::npos);
    EXPECT_EQ(exported->data().find("EndReason"), std::string::npos);

    v1::CreateGameRequest waiting = create_request(
        "standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PRIVATE, "3/3/7/3F3/G2G3/3/G1G f 0 0");
    waiting.mutable_time_control()->mutable_real_time()->mutable_initial()->set_seconds(300);
    waiting.mutable_time_control()->mutable_real_time()->mutable_increment()->set_seconds(3);
    const v1::CreateGameResponse created = create_game(waiting);
    exported = client().export_game(created.game().game_id());
    ASSERT_TRUE(IsOk(exported));
    EXPECT_EQ(exported->data(), expected_record(created.game(), {}, Outcome::kOngoing, {}, false));
    EXPECT_NE(exported->data().find("[Start \"3/3/7/3F3/G2G3/3/G1G f 0 0\"]\n[TimeControl "
                                    "\"300+3\"]\n"),
              std::string::npos);

    v1::CreateGameRequest post = create_request("big_cross", v1::SEAT_CHOICE_BOTH);
    post.mutable_time_control()->mutable_correspondence()->set_days_per_move(3);
    const v1::CreateGameResponse slow = create_game(post);
    exported = client().export_game(slow.game().game_id());
    ASSERT_TRUE(IsOk(exported));
    EXPECT_NE(exported->data().find("[TimeControl \"1/259200\"]"), std::string::npos);
}

TEST_F(GameRecords, ExportRefusesABadIdAndAnUnknownGame) {
    const Reply<google::api::HttpBody> bad = client().export_game("not-a-uuid");
    EXPECT_TRUE(IsError(bad, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    EXPECT_EQ(bad_request_field(bad.status), "game_id");
    EXPECT_TRUE(
        IsError(client().export_game(""), grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    EXPECT_TRUE(IsError(client().export_game(kUnknownGameId), grpc::StatusCode::NOT_FOUND,
                        "GAME_NOT_FOUND"));
}

TEST_F(GameRecords, AnImportedGameReadsAndReplaysAsTheRecordSays) {
    const Reply<v1::ImportGameResponse> imported = client().import_game(kFourGeese);
    ASSERT_TRUE(IsOk(imported));
    const v1::Game& game = imported->game();
    EXPECT_TRUE(game.imported());
    EXPECT_EQ(game.state(), v1::GAME_STATE_FINISHED);
    EXPECT_EQ(game.result(), v1::GAME_RESULT_FOX_SIDE_WINS);
    EXPECT_EQ(game.end_reason(), v1::END_REASON_GEESE_BELOW_THRESHOLD);
    EXPECT_EQ(game.start_position(), "3/3/7/3F3/G2G3/3/G1G g 0 0");
    EXPECT_EQ(game.position(), "3/3/7/7/G6/GF1/2G g 0 2");
    EXPECT_EQ(game.ply(), 2);
    EXPECT_EQ(game.geese_captured(), 1);
    EXPECT_EQ(game.visibility(), v1::VISIBILITY_PRIVATE);
    EXPECT_FALSE(game.fox_seat_taken());
    EXPECT_FALSE(game.geese_seat_taken());
    EXPECT_FALSE(game.has_time_control());
    EXPECT_FALSE(game.has_clocks());
    EXPECT_EQ(game.legal_moves_size(), 0);
    EXPECT_EQ(game.last_move().notation(), "d4xd2");

    const Reply<v1::GetGameResponse> got = client().get(game.game_id());
    ASSERT_TRUE(IsOk(got));
    EXPECT_EQ(got->game().SerializeAsString(), game.SerializeAsString());

    const Reply<v1::ListMovesResponse> moves = client().list_moves(game.game_id());
    ASSERT_TRUE(IsOk(moves));
    ASSERT_EQ(moves->moves_size(), 2);
    const v1::Move& first = moves->moves(0);
    EXPECT_EQ(first.ply(), 1);
    EXPECT_EQ(first.notation(), "c1-c2");
    EXPECT_EQ(first.side(), v1::SIDE_GEESE);
    EXPECT_EQ(first.comment(), "the geese close up");
    EXPECT_EQ(first.state(), v1::GAME_STATE_ACTIVE);
    EXPECT_EQ(first.position(), "3/3/7/3F3/G2G3/G2/2G f 0 1");
    const v1::Move& second = moves->moves(1);
    EXPECT_EQ(second.notation(), "d4xd2");
    EXPECT_EQ(second.side(), v1::SIDE_FOX);
    EXPECT_EQ(to_vector(second.captured()), std::vector<std::string>{"d3"});
    EXPECT_EQ(second.comment(), "");
    EXPECT_EQ(second.state(), v1::GAME_STATE_FINISHED);
    EXPECT_EQ(second.result(), v1::GAME_RESULT_FOX_SIDE_WINS);
    EXPECT_EQ(second.end_reason(), v1::END_REASON_GEESE_BELOW_THRESHOLD);

    // A watcher who resumes gets the moves it missed, then the end.
    WatchStream watch(server().grpc_port(), game.game_id(), 0);
    const auto snapshot = watch.next();
    ASSERT_TRUE(snapshot.has_value());
    ASSERT_EQ(snapshot->snapshot().moves_size(), 2);
    EXPECT_EQ(snapshot->snapshot().moves(1).notation(), "d4xd2");
    const auto end = watch.wait_for_end();
    ASSERT_TRUE(end.has_value());
    EXPECT_TRUE(end->ok());

    // The record comes back as it went in.
    const Reply<google::api::HttpBody> exported = client().export_game(game.game_id());
    ASSERT_TRUE(IsOk(exported));
    EXPECT_EQ(exported->data(), kFourGeese);
}

TEST_F(GameRecords, ImportedGamesHaveNoSeatsToJoinOrPlay) {
    const Reply<v1::ImportGameResponse> imported =
        client().import_game(kFourGeese, v1::VISIBILITY_PUBLIC);
    ASSERT_TRUE(IsOk(imported));
    const std::string id = imported->game().game_id();
    EXPECT_TRUE(RejectsUnchanged(id, grpc::StatusCode::FAILED_PRECONDITION, "GAME_OVER",
                                 [&] { return client().join(id, "").status; }));
    EXPECT_TRUE(RejectsUnchanged(id, grpc::StatusCode::UNAUTHENTICATED, "TOKEN_INVALID",
                                 [&] { return client().resign(id, kUnknownToken).status; }));
    EXPECT_TRUE(RejectsUnchanged(id, grpc::StatusCode::UNAUTHENTICATED, "TOKEN_INVALID",
                                 [&] { return client().offer_rematch(id, kUnknownToken).status; }));
}

TEST_F(GameRecords, ARecordWithoutAResultIsStoredUnfinished) {
    const std::string text =
        "[Variant \"big_cross\"]\n[TimeControl \"-\"]\n[Result \"*\"]\n\n1. e7-e6 {opening}\n*\n";
    const Reply<v1::ImportGameResponse> imported = client().import_game(text);
    ASSERT_TRUE(IsOk(imported));
    EXPECT_EQ(imported->game().state(), v1::GAME_STATE_FINISHED);
    EXPECT_EQ(imported->game().result(), v1::GAME_RESULT_NONE);
    EXPECT_EQ(imported->game().end_reason(), v1::END_REASON_UNFINISHED);
    const Reply<google::api::HttpBody> exported = client().export_game(imported->game().game_id());
    ASSERT_TRUE(IsOk(exported));
    EXPECT_EQ(exported->data(), text);
}

TEST_F(GameRecords, AnExportedGameImportsAsTheSameGame) {
    const SeatedGame game = start_game("standard", [] {
        v1::GameOptions options;
        options.set_geese(15);
        options.set_geese_sideways(true);
        return options;
    }());
    play_all(game, {"d4-c4", "a4-b4", "c4-c5"});
    ASSERT_TRUE(IsOk(client().offer_draw(game.id, game.fox_token)));
    ASSERT_TRUE(IsOk(client().respond_draw(game.id, true, game.geese_token)));
    const Reply<google::api::HttpBody> original = client().export_game(game.id);
    ASSERT_TRUE(IsOk(original));

    const Reply<v1::ImportGameResponse> copy = client().import_game(original->data());
    ASSERT_TRUE(IsOk(copy));
    EXPECT_NE(copy->game().game_id(), game.id);
    const Reply<google::api::HttpBody> again = client().export_game(copy->game().game_id());
    ASSERT_TRUE(IsOk(again));
    EXPECT_EQ(again->data(), original->data());
    // The same game, move by move, but for when its moves were stored.
    const Reply<v1::ListMovesResponse> played = client().list_moves(game.id);
    const Reply<v1::ListMovesResponse> stored = client().list_moves(copy->game().game_id());
    ASSERT_EQ(played->moves_size(), stored->moves_size());
    for (int i = 0; i < played->moves_size(); ++i) {
        v1::Move a = played->moves(i);
        v1::Move b = stored->moves(i);
        a.clear_time();
        b.clear_time();
        EXPECT_EQ(a.SerializeAsString(), b.SerializeAsString()) << i;
    }
    EXPECT_EQ(stored->game().result(), v1::GAME_RESULT_DRAW);
    EXPECT_EQ(stored->game().end_reason(), v1::END_REASON_DRAW_AGREED);
}

TEST_F(GameRecords, RecordsOfEveryConfigurationRoundTripAndReplayAsTheEnginePlaysThem) {
    int checked = 0;
    for (const Variant* v : Variant::all()) {
        for (std::uint64_t seed : {1u, 2u}) {
            const std::string text = random_record(*v, seed * 104729 + checked, 300);
            SCOPED_TRACE(text);
            const Reply<v1::ImportGameResponse> imported = client().import_game(text);
            ASSERT_TRUE(IsOk(imported));
            const std::string id = imported->game().game_id();
            const Reply<google::api::HttpBody> exported = client().export_game(id);
            ASSERT_TRUE(IsOk(exported));
            EXPECT_EQ(exported->data(), text);

            // Every stored move is the engine's.
            const ParsedRecord parsed = parse_record(text).value();
            const Reply<v1::ListMovesResponse> moves = client().list_moves(id);
            ASSERT_TRUE(IsOk(moves));
            ASSERT_EQ(moves->moves_size(), static_cast<int>(parsed.played.size()));
            for (std::size_t i = 0; i < parsed.played.size(); ++i) {
                const PlayedMove& p = parsed.played[i];
                const v1::Move& m = moves->moves(static_cast<int>(i));
                EXPECT_EQ(m.notation(), parsed.record.moves[i].notation);
                EXPECT_EQ(m.comment(), parsed.record.moves[i].comment);
                EXPECT_EQ(m.position(), format_position_code(p.after));
                EXPECT_EQ(m.state() == v1::GAME_STATE_FINISHED, p.status.over());
            }
            ++checked;
        }
    }
    EXPECT_EQ(checked, 16);
}

using ImportedHistory = MemoryServiceTest;

TEST_F(ImportedHistory, RefusedRecordsSayWhereAndStoreNothing) {
    struct Case {
        std::string record;
        std::string reason;
        std::string line;
        std::string column;
        std::string problem;
    };
    const std::string header = "[Variant \"standard\"]\n[Result \"*\"]\n\n";
    const std::vector<Case> cases = {
        {"[Variant \"standard\"]\n[Opening \"x\"]\n", "RECORD_INVALID", "2", "2", "unknown_tag"},
        {"[Variant \"chess\"]\n[Result \"*\"]\n\n*", "RECORD_INVALID", "1", "11",
         "unknown_variant"},
        {header + "1. d4-d5 2. c3-c9 *", "RECORD_INVALID", "4", "13", "bad_notation"},
        {header + "1. d4-d5 c3-c4 d5-d3 *", "RECORD_ILLEGAL_MOVE", "4", "16", "illegal_move"},
        {"[Variant \"standard\"]\n[Result \"draw\"]\n\n1. d4-d5 draw", "RECORD_RESULT_MISMATCH",
         "2", "10", "result_mismatch"},
        {header + std::string(kMaxRecordBytes, ' ') + "*", "RECORD_INVALID", "1", "1", "too_long"},
        // C1 control characters: U+009B starts a terminal's escape sequence.
        {header + "1. d4-d5 {\u009B31m} *", "RECORD_INVALID", "4", "11", "syntax"},
        {header + "1. d4-d5 {next\u0085line} *", "RECORD_INVALID", "4", "15", "syntax"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.record.substr(0, 80));
        const Reply<v1::ImportGameResponse> refused = client().import_game(c.record);
        ASSERT_TRUE(IsError(refused, grpc::StatusCode::INVALID_ARGUMENT, c.reason));
        EXPECT_EQ(bad_request_field(refused.status), "record");
        const auto info = error_info(refused.status);
        ASSERT_TRUE(info.has_value());
        EXPECT_EQ(info->metadata().at("line"), c.line);
        EXPECT_EQ(info->metadata().at("column"), c.column);
        EXPECT_EQ(info->metadata().at("problem"), c.problem);
        EXPECT_EQ(refused.status.error_message().rfind(
                      "line " + c.line + ", column " + c.column + ": ", 0),
                  0u)
            << refused.status.error_message();
        if (c.reason == "RECORD_ILLEGAL_MOVE") {
            EXPECT_EQ(info->metadata().at("ply"), "3");
            EXPECT_EQ(info->metadata().at("move"), "d5-d3");
        }
    }
    EXPECT_TRUE(
        IsError(client().import_game(""), grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    v1::ImportGameRequest odd;
    odd.set_record(kFourGeese);
    set_enum_number(odd, "visibility", 9);
    const Reply<v1::ImportGameResponse> refused = client().import_game(odd);
    EXPECT_TRUE(IsError(refused, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"));
    EXPECT_EQ(bad_request_field(refused.status), "visibility");
    EXPECT_EQ(count_rows("games"), 0);
    EXPECT_EQ(count_rows("moves"), 0);
    EXPECT_EQ(count_rows("position_occurrences"), 0);
}

}  // namespace
}  // namespace foxgeese::test
