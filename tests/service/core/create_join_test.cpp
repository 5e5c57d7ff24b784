// CreateGame and JoinGame over gRPC: seats, options, custom starts,
// visibility, invite codes, and every error they document. Rejected
// CreateGame calls run on a scratch database whose rows are counted.
#include <regex>
#include <set>
#include <string>

#include "tests/service/harness/memory_service_harness.h"

namespace foxgeese::test {
namespace {

using CreateGame = MemoryServiceTest;
using JoinGame = MemoryServiceTest;
using CreateGameRejects = MemoryServiceTest;

constexpr const char* kStandardStart = "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0";

v1::GameOptions standard_options(int geese, bool sideways) {
    v1::GameOptions options;
    options.set_geese(geese);
    options.set_geese_sideways(sideways);
    return options;
}

TEST_F(CreateGame, FoxSeatWaitsForTheGeese) {
    const v1::CreateGameResponse created =
        create_game(create_request("standard", v1::SEAT_CHOICE_FOX));
    EXPECT_EQ(created.seat(), v1::SEAT_FOX);
    EXPECT_FALSE(created.seat_token().empty());
    EXPECT_FALSE(created.invite_code().empty());
    const v1::Game& g = created.game();
    EXPECT_TRUE(std::regex_match(
        g.game_id(),
        std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")))
        << g.game_id();
    EXPECT_EQ(g.variant(), "standard");
    EXPECT_EQ(g.state(), v1::GAME_STATE_WAITING);
    EXPECT_EQ(g.result(), v1::GAME_RESULT_UNSPECIFIED);
    EXPECT_EQ(g.end_reason(), v1::END_REASON_UNSPECIFIED);
    EXPECT_TRUE(g.fox_seat_taken());
    EXPECT_FALSE(g.geese_seat_taken());
    // Defaults are filled in for standard.
    ASSERT_TRUE(g.options().has_geese());
    ASSERT_TRUE(g.options().has_geese_sideways());
    EXPECT_EQ(g.options().geese(), 13);
    EXPECT_FALSE(g.options().geese_sideways());
    EXPECT_EQ(g.start_position(), kStandardStart);
    EXPECT_EQ(g.position(), kStandardStart);
    // Unspecified visibility means private.
    EXPECT_EQ(g.visibility(), v1::VISIBILITY_PRIVATE);
}

TEST_F(CreateGame, GeeseSeatLeavesTheFoxSeatOpen) {
    const v1::CreateGameResponse created =
        create_game(create_request("standard", v1::SEAT_CHOICE_GEESE));
    EXPECT_EQ(created.seat(), v1::SEAT_GEESE);
    EXPECT_EQ(created.game().state(), v1::GAME_STATE_WAITING);
    EXPECT_FALSE(created.game().fox_seat_taken());
    EXPECT_TRUE(created.game().geese_seat_taken());
}

TEST_F(CreateGame, RandomSeatGivesFoxOrGeeseAndBothOccur) {
    // Unspecified is random too. 2 x 40 fair coins all alike: odds 2^-39.
    for (const v1::SeatChoice choice : {v1::SEAT_CHOICE_RANDOM, v1::SEAT_CHOICE_UNSPECIFIED}) {
        std::set<int> seats;
        for (int i = 0; i < 40; ++i) {
            const v1::CreateGameResponse created = create_game(create_request("standard", choice));
            ASSERT_TRUE(created.seat() == v1::SEAT_FOX || created.seat() == v1::SEAT_GEESE)
                << v1::Seat_Name(created.seat());
            seats.insert(created.seat());
            EXPECT_EQ(created.game().fox_seat_taken(), created.seat() == v1::SEAT_FOX);
            EXPECT_EQ(created.game().geese_seat_taken(), created.seat() == v1::SEAT_GEESE);
            EXPECT_EQ(created.game().state(), v1::GAME_STATE_WAITING);
        }
        EXPECT_EQ(seats.size(), 2u) << v1::SeatChoice_Name(choice);
    }
}

TEST_F(CreateGame, BothSeatsStartTheGameAtOnceAndPlayBothSides) {
    const v1::CreateGameResponse created =
        create_game(create_request("standard", v1::SEAT_CHOICE_BOTH));
    EXPECT_EQ(created.seat(), v1::SEAT_BOTH);
    EXPECT_EQ(created.game().state(), v1::GAME_STATE_ACTIVE);
    EXPECT_TRUE(created.game().fox_seat_taken());
    EXPECT_TRUE(created.game().geese_seat_taken());
    const std::string& id = created.game().game_id();
    // One token moves for whichever side is to move.
    const Reply<v1::MakeMoveResponse> fox = client().move(id, "d4-d5", created.seat_token());
    ASSERT_TRUE(IsOk(fox));
    EXPECT_EQ(fox->move().side(), v1::SIDE_FOX);
    const Reply<v1::MakeMoveResponse> geese = client().move(id, "c3-c4", created.seat_token());
    ASSERT_TRUE(IsOk(geese));
    EXPECT_EQ(geese->move().side(), v1::SIDE_GEESE);
    EXPECT_EQ(geese->game().ply(), 2);
}

TEST_F(CreateGame, OptionsChooseTheGeeseAndSideways) {
    struct Case {
        int geese;
        bool sideways;
        const char* start;
    };
    for (const Case c :
         {Case{13, true, kStandardStart}, Case{15, false, "3/3/7/G2F2G/GGGGGGG/GGG/GGG f 0 0"},
          Case{17, true, "3/3/G5G/G2F2G/GGGGGGG/GGG/GGG f 0 0"}}) {
        v1::CreateGameRequest request = create_request("standard");
        *request.mutable_options() = standard_options(c.geese, c.sideways);
        const v1::Game g = create_game(request).game();
        EXPECT_EQ(g.options().geese(), c.geese);
        EXPECT_EQ(g.options().geese_sideways(), c.sideways);
        EXPECT_EQ(g.start_position(), c.start);
        EXPECT_EQ(g.geese_count(), c.geese);
    }
    // Only one option given: the other takes its default.
    v1::CreateGameRequest request = create_request("standard");
    request.mutable_options()->set_geese_sideways(true);
    const v1::Game g = create_game(request).game();
    EXPECT_EQ(g.options().geese(), 13);
    EXPECT_TRUE(g.options().geese_sideways());
}

TEST_F(CreateGame, VariantsWithoutOptionsShowNone) {
    const v1::Game big = create_game(create_request("big_cross")).game();
    EXPECT_FALSE(big.has_options() &&
                 (big.options().has_geese() || big.options().has_geese_sideways()));
    EXPECT_EQ(big.start_position(), "3/3/1F1/9/9/GGGGGGGGG/GGG/GGG/GGG f 0 0");
    EXPECT_EQ(big.geese_count(), 18);
    EXPECT_EQ(big.fox_count(), 1);
    const v1::Game two = create_game(create_request("two_foxes")).game();
    EXPECT_FALSE(two.has_options() &&
                 (two.options().has_geese() || two.options().has_geese_sideways()));
    EXPECT_EQ(two.start_position(), "F1F/3/7/GGGGGGG/GGGGGGG/GGG/GGG f 0 0");
    EXPECT_EQ(two.geese_count(), 20);
    EXPECT_EQ(two.fox_count(), 2);
}

TEST_F(CreateGame, CustomStartKeepsItsCountersAndSideToMove) {
    // Seven geese, the geese to move, 7 quiet plies after 31 plies.
    const std::string start = "3/3/7/3F3/G6/GGG/GGG g 7 31";
    const SeatedGame game = start_game("standard", {}, start);
    const v1::Game& g = game.game;
    EXPECT_EQ(g.start_position(), start);
    EXPECT_EQ(g.position(), start);
    EXPECT_EQ(g.side_to_move(), v1::SIDE_GEESE);
    EXPECT_EQ(g.ply(), 31);
    EXPECT_EQ(g.quiet_plies(), 7);
    EXPECT_EQ(g.geese_count(), 7);
    // Captured counts from the custom start, not from the variant's.
    EXPECT_EQ(g.geese_captured(), 0);
    EXPECT_EQ(to_vector(g.legal_moves()), engine_legal_moves("standard", g.options(), start));

    // The counters continue from the code: a forward goose step resets the
    // quiet count, a fox step adds to it.
    const v1::MakeMoveResponse geese = play(game, "a3-a4");
    EXPECT_EQ(geese.move().ply(), 32);
    EXPECT_EQ(geese.game().quiet_plies(), 0);
    const v1::MakeMoveResponse fox = play(game, "d4-d5");
    EXPECT_EQ(fox.game().ply(), 33);
    EXPECT_EQ(fox.game().quiet_plies(), 1);
    EXPECT_EQ(fox.game().position(), "3/3/3F3/G6/7/GGG/GGG g 1 33");
}

TEST_F(CreateGame, CustomStartIsReadInEitherCaseWithSpacesAndStoredCanonically) {
    v1::CreateGameRequest request = create_request("standard");
    request.set_start_position("  3/3/7/3f3/g6/ggg/ggg G 7 31 ");
    const v1::Game g = create_game(request).game();
    EXPECT_EQ(g.start_position(), "3/3/7/3F3/G6/GGG/GGG g 7 31");
    EXPECT_EQ(g.position(), g.start_position());
}

TEST_F(CreateGame, VisibilityIsPublicOrPrivate) {
    EXPECT_EQ(create_game(create_request("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PUBLIC))
                  .game()
                  .visibility(),
              v1::VISIBILITY_PUBLIC);
    EXPECT_EQ(create_game(create_request("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PRIVATE))
                  .game()
                  .visibility(),
              v1::VISIBILITY_PRIVATE);
    EXPECT_EQ(
        create_game(create_request("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_UNSPECIFIED))
            .game()
            .visibility(),
        v1::VISIBILITY_PRIVATE);
}

TEST_F(CreateGame, GetGameReadsBackExactlyWhatCreateGameReturned) {
    for (const std::string variant : {"standard", "big_cross", "two_foxes"}) {
        const v1::CreateGameResponse created = create_game(create_request(variant));
        const Reply<v1::GetGameResponse> got = client().get(created.game().game_id());
        ASSERT_TRUE(IsOk(got));
        EXPECT_EQ(got->game().SerializeAsString(), created.game().SerializeAsString())
            << "created " << created.game().ShortDebugString() << "\nread    "
            << got->game().ShortDebugString();
    }
}

TEST_F(JoinGame, PrivateGameJoinsWithTheInviteCodeIntoTheOpenSeat) {
    for (const v1::SeatChoice creator : {v1::SEAT_CHOICE_FOX, v1::SEAT_CHOICE_GEESE}) {
        const v1::CreateGameResponse created = create_game(create_request("standard", creator));
        const Reply<v1::JoinGameResponse> joined =
            client().join(created.game().game_id(), created.invite_code());
        ASSERT_TRUE(IsOk(joined));
        EXPECT_EQ(joined->seat(), creator == v1::SEAT_CHOICE_FOX ? v1::SEAT_GEESE : v1::SEAT_FOX);
        EXPECT_FALSE(joined->seat_token().empty());
        EXPECT_NE(joined->seat_token(), created.seat_token());
        const v1::Game& g = joined->game();
        EXPECT_EQ(g.state(), v1::GAME_STATE_ACTIVE);
        EXPECT_TRUE(g.fox_seat_taken());
        EXPECT_TRUE(g.geese_seat_taken());
        EXPECT_GE(micros(g.update_time()), micros(g.create_time()));
        const Reply<v1::GetGameResponse> got = client().get(g.game_id());
        ASSERT_TRUE(IsOk(got));
        EXPECT_EQ(got->game().SerializeAsString(), g.SerializeAsString());
    }
}

TEST_F(JoinGame, PublicGameNeedsNoInviteCodeAndIgnoresAWrongOne) {
    const v1::CreateGameResponse a =
        create_game(create_request("big_cross", v1::SEAT_CHOICE_GEESE, v1::VISIBILITY_PUBLIC));
    const Reply<v1::JoinGameResponse> without = client().join(a.game().game_id(), "");
    ASSERT_TRUE(IsOk(without));
    EXPECT_EQ(without->seat(), v1::SEAT_FOX);
    EXPECT_EQ(without->game().state(), v1::GAME_STATE_ACTIVE);

    const v1::CreateGameResponse b =
        create_game(create_request("two_foxes", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PUBLIC));
    const Reply<v1::JoinGameResponse> wrong = client().join(b.game().game_id(), "not-the-code");
    ASSERT_TRUE(IsOk(wrong));
    EXPECT_EQ(wrong->seat(), v1::SEAT_GEESE);
}

TEST_F(JoinGame, TheJoinersTokenMovesForItsSide) {
    const SeatedGame game = start_game();
    const Reply<v1::MakeMoveResponse> fox = client().move(game.id, "d4-d5", game.fox_token);
    ASSERT_TRUE(IsOk(fox));
    const Reply<v1::MakeMoveResponse> geese = client().move(game.id, "a3-a4", game.geese_token);
    ASSERT_TRUE(IsOk(geese));
    EXPECT_EQ(geese->move().side(), v1::SIDE_GEESE);
}

// ---- errors ----

TEST_F(CreateGameRejects, MalformedRequestsCreateNothing) {
    struct Case {
        const char* what;
        v1::CreateGameRequest request;
        const char* field;
    };
    std::vector<Case> cases;
    cases.push_back({"missing variant", create_request(""), "variant"});
    cases.push_back({"unknown variant", create_request("chess"), "variant"});
    {
        v1::CreateGameRequest r = create_request("standard");
        r.set_request_id(std::string(65, 'r'));
        cases.push_back({"request_id of 65 characters", r, "request_id"});
    }
    {
        v1::CreateGameRequest r = create_request("standard");
        set_enum_number(r, "seat", 99);
        cases.push_back({"unknown seat choice", r, "seat"});
    }
    {
        v1::CreateGameRequest r = create_request("standard");
        set_enum_number(r, "visibility", 42);
        cases.push_back({"unknown visibility", r, "visibility"});
    }
    for (const Case& c : cases) {
        const Reply<v1::CreateGameResponse> reply = client().create(c.request);
        EXPECT_TRUE(IsError(reply, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"))
            << c.what;
        EXPECT_EQ(bad_request_field(reply.status), c.field) << c.what;
    }
    EXPECT_EQ(count_rows("games"), 0);
    EXPECT_EQ(count_rows("position_occurrences"), 0);
}

TEST_F(CreateGameRejects, OptionsTheVariantDoesNotAllowAreInvalidOptions) {
    struct Case {
        const char* variant;
        v1::GameOptions options;
        const char* option;
    };
    v1::GameOptions geese_14;
    geese_14.set_geese(14);
    v1::GameOptions geese_18;
    geese_18.set_geese(18);
    v1::GameOptions geese_20;
    geese_20.set_geese(20);
    v1::GameOptions sideways;
    sideways.set_geese_sideways(true);
    for (const Case& c :
         {Case{"standard", geese_14, "geese"}, Case{"big_cross", geese_18, "geese"},
          Case{"two_foxes", geese_20, "geese"}, Case{"big_cross", sideways, "geese_sideways"},
          Case{"two_foxes", sideways, "geese_sideways"}}) {
        v1::CreateGameRequest request = create_request(c.variant);
        *request.mutable_options() = c.options;
        const Reply<v1::CreateGameResponse> reply = client().create(request);
        EXPECT_TRUE(IsError(reply, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_OPTIONS"))
            << c.variant << " " << c.options.ShortDebugString();
        const auto info = error_info(reply.status);
        ASSERT_TRUE(info.has_value());
        EXPECT_EQ(info->metadata().count("option") ? info->metadata().at("option") : "", c.option)
            << c.variant << " " << c.options.ShortDebugString();
    }
    EXPECT_EQ(count_rows("games"), 0);
}

TEST_F(CreateGameRejects, StartPositionsThatAreNotValidOrAlreadyDecidedAreInvalidPosition) {
    struct Case {
        const char* what;
        const char* variant;
        std::string code;
        int geese;  // standard's geese option, 0 for the default
    };
    for (const Case& c : {
             Case{"not a code", "standard", "hello", 0},
             Case{"big_cross's board for standard", "standard",
                  "3/3/1F1/9/9/GGGGGGGGG/GGG/GGG/GGG f 0 0", 0},
             Case{"standard's board for big_cross", "big_cross", kStandardStart, 0},
             Case{"two foxes in standard", "standard", "F1F/3/7/GGGGGGG/GGGGGGG/GGG/GGG f 0 0", 0},
             Case{"15 geese with the 13-geese option", "standard",
                  "3/3/7/G2F2G/GGGGGGG/GGG/GGG f 0 0", 13},
             Case{"quiet counter above 100", "standard", "3/3/7/3F3/GGGGGGG/GGG/GGG f 101 200", 0},
             Case{"side to move x", "standard", "3/3/7/3F3/GGGGGGG/GGG/GGG x 0 0", 0},
             // A counter the engine reads, too near its bound for a game to go on.
             Case{"ply counter near the bound", "standard", "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 1000000",
                  0},
             // Decided: three geese left (the fox side has won).
             Case{"3 geese left", "standard", "3/3/7/3F3/GGG4/3/3 f 0 10", 0},
             // Decided: the fox on d7 is hemmed in by geese and every jump
             // lands on a goose or off the board.
             Case{"fox trapped", "standard", "GFG/GGG/GGGGGGG/7/7/3/3 f 0 20", 0},
             // Decided: two_foxes with the pen full of geese.
             Case{"pen filled", "two_foxes", "GGG/GGG/F1GGG1F/7/7/3/3 f 0 30", 0},
         }) {
        v1::CreateGameRequest request = create_request(c.variant);
        request.set_start_position(c.code);
        if (c.geese) request.mutable_options()->set_geese(c.geese);
        const Reply<v1::CreateGameResponse> reply = client().create(request);
        EXPECT_TRUE(IsError(reply, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_POSITION"))
            << c.what;
        EXPECT_EQ(bad_request_field(reply.status), "start_position") << c.what;
    }
    EXPECT_EQ(count_rows("games"), 0);
    EXPECT_EQ(count_rows("position_occurrences"), 0);
    // The count does see a game that is created.
    create_game(create_request("standard"));
    EXPECT_EQ(count_rows("games"), 1);
}

TEST_F(JoinGame, MalformedRequestsAreInvalidArgument) {
    const v1::CreateGameResponse created = create_game(create_request("standard"));
    const std::string& id = created.game().game_id();
    struct Case {
        const char* what;
        std::string game_id;
        std::string invite;
        std::string request_id;
        const char* field;
    };
    for (const Case& c : {
             Case{"missing game_id", "", created.invite_code(), "", "game_id"},
             Case{"malformed game_id", "not-a-uuid", created.invite_code(), "", "game_id"},
             Case{"game_id with a trailing character", id + "0", created.invite_code(), "",
                  "game_id"},
             Case{"invite code of 65 characters", id, std::string(65, 'i'), "", "invite_code"},
             Case{"request_id of 65 characters", id, created.invite_code(), std::string(65, 'r'),
                  "request_id"},
         }) {
        grpc::Status status;
        EXPECT_TRUE(
            RejectsUnchanged(id, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT",
                             [&] {
                                 status = client().join(c.game_id, c.invite, c.request_id).status;
                                 return status;
                             }))
            << c.what;
        EXPECT_EQ(bad_request_field(status), c.field) << c.what;
    }
}

TEST_F(JoinGame, UnknownGameIsGameNotFound) {
    const Reply<v1::JoinGameResponse> reply = client().join(kUnknownGameId, "whatever");
    EXPECT_TRUE(IsError(reply, grpc::StatusCode::NOT_FOUND, "GAME_NOT_FOUND"));
    const auto info = error_info(reply.status);
    ASSERT_TRUE(info.has_value());
    EXPECT_EQ(info->metadata().count("game_id") ? info->metadata().at("game_id") : "",
              kUnknownGameId);
}

TEST_F(JoinGame, PrivateGameWithoutTheRightInviteIsInviteInvalid) {
    const v1::CreateGameResponse created = create_game(create_request("standard"));
    const std::string& id = created.game().game_id();
    const v1::CreateGameResponse other = create_game(create_request("standard"));
    for (const std::string& invite : {std::string(), std::string("wrong-code"), other.invite_code(),
                                      created.seat_token().substr(0, 16)}) {
        EXPECT_TRUE(RejectsUnchanged(id, grpc::StatusCode::PERMISSION_DENIED, "INVITE_INVALID",
                                     [&] { return client().join(id, invite).status; }))
            << "invite '" << invite << "'";
    }
    // The right code still works afterwards.
    EXPECT_TRUE(IsOk(client().join(id, created.invite_code())));
}

TEST_F(JoinGame, GameWithNoOpenSeatIsSeatTaken) {
    const SeatedGame private_game = start_game();
    EXPECT_TRUE(RejectsUnchanged(
        private_game.id, grpc::StatusCode::ALREADY_EXISTS, "SEAT_TAKEN",
        [&] { return client().join(private_game.id, private_game.invite_code).status; }));
    const SeatedGame public_game = start_game("standard", {}, "", v1::VISIBILITY_PUBLIC);
    EXPECT_TRUE(RejectsUnchanged(public_game.id, grpc::StatusCode::ALREADY_EXISTS, "SEAT_TAKEN",
                                 [&] { return client().join(public_game.id, "").status; }));
    const v1::CreateGameResponse both =
        create_game(create_request("two_foxes", v1::SEAT_CHOICE_BOTH, v1::VISIBILITY_PUBLIC));
    EXPECT_TRUE(RejectsUnchanged(both.game().game_id(), grpc::StatusCode::ALREADY_EXISTS,
                                 "SEAT_TAKEN",
                                 [&] { return client().join(both.game().game_id(), "").status; }));
}

}  // namespace
}  // namespace foxgeese::test
