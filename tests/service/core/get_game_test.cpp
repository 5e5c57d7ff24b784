// GetGame and ListMoves over gRPC: every field of a game through its
// lifecycle, the replay of its moves, and the errors of the read calls.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "engine/rules/game.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"
#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using GetGame = MemoryServiceTest;
using ListMoves = MemoryServiceTest;
using ReadCalls = MemoryServiceTest;

std::int64_t now_micros() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

v1::Game get(ServiceClient& client, const std::string& id) {
    const Reply<v1::GetGameResponse> got = client.get(id);
    EXPECT_TRUE(IsOk(got)) << id;
    return got->game();
}

TEST_F(GetGame, ShowsEveryFieldThroughTheGamesLifecycle) {
    const std::int64_t before_create = now_micros();
    v1::CreateGameRequest request =
        create_request("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PUBLIC);
    request.mutable_options()->set_geese_sideways(true);
    const v1::CreateGameResponse created = create_game(request);
    const std::int64_t after_create = now_micros();
    const std::string& id = created.game().game_id();

    // Waiting for the geese.
    v1::Game g = get(client(), id);
    EXPECT_EQ(g.game_id(), id);
    EXPECT_EQ(g.variant(), "standard");
    EXPECT_EQ(g.options().geese(), 13);
    EXPECT_TRUE(g.options().geese_sideways());
    EXPECT_EQ(g.state(), v1::GAME_STATE_WAITING);
    EXPECT_EQ(g.result(), v1::GAME_RESULT_UNSPECIFIED);
    EXPECT_EQ(g.end_reason(), v1::END_REASON_UNSPECIFIED);
    EXPECT_EQ(g.start_position(), "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0");
    EXPECT_EQ(g.position(), g.start_position());
    EXPECT_EQ(g.side_to_move(), v1::SIDE_FOX);
    EXPECT_EQ(g.ply(), 0);
    EXPECT_EQ(g.quiet_plies(), 0);
    EXPECT_EQ(g.geese_count(), 13);
    EXPECT_EQ(g.fox_count(), 1);
    EXPECT_EQ(g.geese_captured(), 0);
    // Filled while waiting too, sorted as strings.
    EXPECT_EQ(to_vector(g.legal_moves()),
              engine_legal_moves("standard", g.options(), g.position()));
    EXPECT_TRUE(std::is_sorted(g.legal_moves().begin(), g.legal_moves().end()));
    EXPECT_FALSE(g.legal_moves_omitted());
    EXPECT_FALSE(g.has_last_move());
    EXPECT_TRUE(g.fox_seat_taken());
    EXPECT_FALSE(g.geese_seat_taken());
    EXPECT_EQ(g.draw_offered_by(), v1::SIDE_UNSPECIFIED);
    EXPECT_EQ(g.visibility(), v1::VISIBILITY_PUBLIC);
    EXPECT_GE(micros(g.create_time()), before_create - 1'000'000);  // same host's clock
    EXPECT_LE(micros(g.create_time()), after_create + 1'000'000);
    EXPECT_EQ(micros(g.update_time()), micros(g.create_time()));

    // The geese join.
    const Reply<v1::JoinGameResponse> joined = client().join(id, "");
    ASSERT_TRUE(IsOk(joined));
    g = get(client(), id);
    EXPECT_EQ(g.state(), v1::GAME_STATE_ACTIVE);
    EXPECT_TRUE(g.geese_seat_taken());
    EXPECT_GT(micros(g.update_time()), micros(g.create_time()));
    const SeatedGame game{id, created.seat_token(), joined->seat_token(), "", g};

    // Five plies, the last a capture: d4 jumps the goose that came to c4.
    play_all(game, {"d4-d5", "a3-a4", "d5-d4", "c3-c4"});
    const std::int64_t update_before_capture = micros(get(client(), id).update_time());
    const v1::MakeMoveResponse capture = play(game, "d4xb4");
    g = get(client(), id);
    EXPECT_EQ(g.state(), v1::GAME_STATE_ACTIVE);
    EXPECT_EQ(g.position(), "3/3/7/GF5/1G1GGGG/GGG/GGG g 0 5");
    EXPECT_EQ(g.side_to_move(), v1::SIDE_GEESE);
    EXPECT_EQ(g.ply(), 5);
    EXPECT_EQ(g.quiet_plies(), 0);
    EXPECT_EQ(g.geese_count(), 12);
    EXPECT_EQ(g.geese_captured(), 1);
    EXPECT_EQ(to_vector(g.legal_moves()),
              engine_legal_moves("standard", g.options(), g.position()));
    ASSERT_TRUE(g.has_last_move());
    EXPECT_EQ(g.last_move().SerializeAsString(), capture.move().SerializeAsString());
    EXPECT_EQ(g.last_move().notation(), "d4xb4");
    EXPECT_EQ(to_vector(g.last_move().captured()), std::vector<std::string>{"c4"});
    EXPECT_GT(micros(g.update_time()), update_before_capture);
    EXPECT_EQ(g.create_time().SerializeAsString(),
              created.game().create_time().SerializeAsString());

    // A draw offer shows, and moves the update time.
    ASSERT_TRUE(IsOk(client().offer_draw(id, game.geese_token)));
    const v1::Game offered = get(client(), id);
    EXPECT_EQ(offered.draw_offered_by(), v1::SIDE_GEESE);
    EXPECT_GT(micros(offered.update_time()), micros(g.update_time()));

    // Finished: the result, no legal moves, the position as it was.
    ASSERT_TRUE(IsOk(client().resign(id, game.fox_token)));
    const v1::Game finished = get(client(), id);
    EXPECT_EQ(finished.state(), v1::GAME_STATE_FINISHED);
    EXPECT_EQ(finished.result(), v1::GAME_RESULT_GEESE_WIN);
    EXPECT_EQ(finished.end_reason(), v1::END_REASON_RESIGNATION);
    EXPECT_EQ(finished.position(), g.position());
    EXPECT_EQ(finished.side_to_move(), v1::SIDE_GEESE);
    EXPECT_TRUE(finished.legal_moves().empty());
    EXPECT_EQ(finished.last_move().SerializeAsString(), capture.move().SerializeAsString());
}

TEST_F(ListMoves, ReplaysTheStartAndEveryMoveWithThePositionAndStatusAfterIt) {
    const SeatedGame game = start_game("big_cross");
    const Reply<v1::ListMovesResponse> empty = client().list_moves(game.id);
    ASSERT_TRUE(IsOk(empty));
    EXPECT_EQ(empty->start_position(), "3/3/1F1/9/9/GGGGGGGGG/GGG/GGG/GGG f 0 0");
    EXPECT_EQ(empty->moves_size(), 0);

    Game engine(Position(*Variant::find("big_cross", {}).value()));
    const std::vector<std::string> notations = {"e7-e6", "a4-a5", "e6-e5", "b4-b5",
                                                "e5-d5", "e4-e5", "d5xf5", "c4-c5"};
    std::vector<v1::Move> returned;
    for (const std::string& n : notations) {
        returned.push_back(play(game, n).move());
        ASSERT_TRUE(engine.play(n)) << n;
        EXPECT_EQ(returned.back().position(), format_position_code(engine.position())) << n;
    }
    const Reply<v1::ListMovesResponse> replay = client().list_moves(game.id);
    ASSERT_TRUE(IsOk(replay));
    EXPECT_EQ(replay->start_position(), empty->start_position());
    ASSERT_EQ(replay->moves_size(), static_cast<int>(notations.size()));
    for (int i = 0; i < replay->moves_size(); ++i) {
        const v1::Move& m = replay->moves(i);
        EXPECT_EQ(m.ply(), i + 1);
        EXPECT_EQ(m.notation(), notations[i]);
        EXPECT_EQ(m.side(), i % 2 == 0 ? v1::SIDE_FOX : v1::SIDE_GEESE);
        EXPECT_EQ(m.state(), v1::GAME_STATE_ACTIVE);
        EXPECT_EQ(m.SerializeAsString(), returned[i].SerializeAsString()) << "ply " << i + 1;
    }
    EXPECT_EQ(to_vector(replay->moves(6).captured()), std::vector<std::string>{"e5"});
    EXPECT_EQ(replay->game().SerializeAsString(), get(client(), game.id).SerializeAsString());

    // The move that ends the game carries the result.
    ASSERT_TRUE(IsOk(client().resign(game.id, game.fox_token)));
    const Reply<v1::ListMovesResponse> after = client().list_moves(game.id);
    ASSERT_TRUE(IsOk(after));
    EXPECT_EQ(after->moves_size(), replay->moves_size());
    EXPECT_EQ(after->game().state(), v1::GAME_STATE_FINISHED);
}

TEST_F(ListMoves, AGameFromACustomStartContinuesItsPlyCount) {
    const std::string start = "3/3/7/3F3/G6/GGG/GGG g 7 31";
    const SeatedGame game = start_game("standard", {}, start);
    play_all(game, {"a3-a4", "d4-d5"});
    const Reply<v1::ListMovesResponse> replay = client().list_moves(game.id);
    ASSERT_TRUE(IsOk(replay));
    EXPECT_EQ(replay->start_position(), start);
    ASSERT_EQ(replay->moves_size(), 2);
    EXPECT_EQ(replay->moves(0).ply(), 32);
    EXPECT_EQ(replay->moves(0).side(), v1::SIDE_GEESE);
    EXPECT_EQ(replay->moves(1).ply(), 33);
    EXPECT_EQ(replay->game().ply(), 33);
}

TEST_F(ReadCalls, MalformedGameIdsAreInvalidArgument) {
    const v1::CreateGameResponse created = create_game(create_request("standard"));
    const std::string& id = created.game().game_id();
    std::string no_dashes = id;
    std::erase(no_dashes, '-');
    for (const std::string& bad :
         {std::string(), std::string("abc"), no_dashes, id + "-0",
          std::string("zzzzzzzz-zzzz-4zzz-8zzz-zzzzzzzzzzzz"), std::string(5000, 'a')}) {
        const grpc::Status get_status = client().get(bad).status;
        EXPECT_TRUE(IsError(get_status, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"))
            << "GetGame '" << bad.substr(0, 50) << "'";
        EXPECT_EQ(bad_request_field(get_status), "game_id");
        const grpc::Status moves_status = client().list_moves(bad).status;
        EXPECT_TRUE(IsError(moves_status, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"))
            << "ListMoves '" << bad.substr(0, 50) << "'";
        EXPECT_EQ(bad_request_field(moves_status), "game_id");
    }
}

TEST_F(ReadCalls, WellFormedUnknownIdsAreGameNotFound) {
    for (const grpc::Status& status :
         {client().get(kUnknownGameId).status, client().list_moves(kUnknownGameId).status}) {
        EXPECT_TRUE(IsError(status, grpc::StatusCode::NOT_FOUND, "GAME_NOT_FOUND"));
        const auto info = error_info(status);
        ASSERT_TRUE(info.has_value());
        EXPECT_EQ(info->metadata().count("game_id") ? info->metadata().at("game_id") : "",
                  kUnknownGameId);
    }
}

}  // namespace
}  // namespace foxgeese::test
