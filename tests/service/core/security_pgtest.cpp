// Seat tokens and invite codes are secrets the server keeps only as SHA-256
// digests: read the rows of a scratch database directly and make sure no
// secret appears in them, nor in anything a reading call returns.
#include <pqxx/pqxx>
#include <regex>
#include <string>
#include <vector>

#include "tests/service/harness/service_harness.h"

namespace foxgeese::test {
namespace {

using SecretStorage = ScratchServiceTest;

TEST_F(SecretStorage, TokensAndInviteCodesAreStoredOnlyAsHashes) {
    std::vector<std::string> secrets;
    // A joined private game, with moves (one with a request_id).
    // A CreateGame retry (before the token is used) issues new secrets.
    v1::CreateGameRequest request = create_request("standard", v1::SEAT_CHOICE_FOX);
    request.set_request_id("6f1c2a52-0d3e-4c8a-9b1e-000000000005");
    const v1::CreateGameResponse first = create_game(request);
    const v1::CreateGameResponse created = create_game(request);
    const std::string& id = created.game().game_id();
    ASSERT_EQ(first.game().game_id(), id);
    const Reply<v1::JoinGameResponse> joined =
        client().join(id, created.invite_code(), "6f1c2a52-0d3e-4c8a-9b1e-000000000006");
    ASSERT_TRUE(IsOk(joined));
    secrets = {first.seat_token(), first.invite_code(), created.seat_token(), created.invite_code(),
               joined->seat_token()};
    v1::MakeMoveRequest move;
    move.set_game_id(id);
    move.set_move("d4-d5");
    move.set_request_id("secret-move");
    ASSERT_TRUE(IsOk(client().move(move, created.seat_token())));
    ASSERT_TRUE(IsOk(client().move(id, "c3-c4", joined->seat_token())));
    ASSERT_TRUE(IsOk(client().offer_draw(id, joined->seat_token())));
    // A both-seats public game.
    const v1::CreateGameResponse both =
        create_game(create_request("two_foxes", v1::SEAT_CHOICE_BOTH, v1::VISIBILITY_PUBLIC));
    secrets.push_back(both.seat_token());
    secrets.push_back(both.invite_code());
    for (const std::string& s : secrets)
        ASSERT_GE(s.size(), 16u) << "a secret too short to search for";

    pqxx::connection connection(database_url());
    pqxx::nontransaction tx(connection);
    // Every column of every row of every table, as text (tables added later
    // are covered too); the moves' stored replies as raw bytes as well.
    std::vector<std::string> stored;
    const pqxx::result tables = tx.exec(
        "SELECT quote_ident(table_name) FROM information_schema.tables"
        " WHERE table_schema = 'public' AND table_type = 'BASE TABLE'");
    ASSERT_GE(tables.size(), 3u);
    for (const auto& table : tables) {
        const std::string name = table[0].as<std::string>();
        for (const auto& row : tx.exec("SELECT t::text FROM " + name + " t"))
            stored.push_back(name + ": " + row[0].as<std::string>());
    }
    for (const auto& row : tx.exec("SELECT response FROM moves WHERE response IS NOT NULL"))
        stored.push_back("moves.response: " + pqxx::binarystring(row[0]).str());
    ASSERT_EQ(tx.exec1("SELECT count(*) FROM games")[0].as<int>(), 2);
    for (const std::string& text : stored) {
        for (const std::string& secret : secrets) {
            EXPECT_EQ(text.find(secret), std::string::npos)
                << "a secret is stored in clear: " << text.substr(0, 80);
        }
    }

    // The digests are SHA-256 in hex; an open seat has none.
    const std::regex sha256_hex("[0-9a-f]{64}");
    for (const auto& row :
         tx.exec("SELECT fox_token_hash, geese_token_hash, invite_code_hash, fox_request_hash,"
                 " geese_request_hash, create_request_hash FROM games")) {
        for (int column = 0; column < 3; ++column) {
            ASSERT_FALSE(row[column].is_null()) << "column " << column;
            EXPECT_TRUE(std::regex_match(row[column].as<std::string>(), sha256_hex))
                << "column " << column << ": " << row[column].as<std::string>();
        }
        for (int column = 3; column < 6; ++column) {
            if (row[column].is_null()) continue;
            EXPECT_TRUE(std::regex_match(row[column].as<std::string>(), sha256_hex))
                << "request hash column " << column;
        }
    }
    // Distinct secrets have distinct digests: the two seats differ.
    const auto seats = tx.exec1(
        "SELECT fox_token_hash, geese_token_hash FROM games WHERE game_id = " + tx.quote(id) +
        "::uuid");
    EXPECT_NE(seats[0].as<std::string>(), seats[1].as<std::string>());
}

TEST_F(SecretStorage, NoReadingCallEverShowsATokenOrInviteCode) {
    const v1::CreateGameResponse created =
        create_game(create_request("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PUBLIC));
    const std::string& id = created.game().game_id();
    EXPECT_TRUE(created.game().SerializeAsString().find(created.seat_token()) == std::string::npos);
    const Reply<v1::JoinGameResponse> joined = client().join(id, "");
    ASSERT_TRUE(IsOk(joined));
    ASSERT_TRUE(IsOk(client().move(id, "d4-d5", created.seat_token())));
    const std::vector<std::string> secrets = {created.seat_token(), created.invite_code(),
                                              joined->seat_token()};
    std::vector<std::string> shown;
    shown.push_back(joined->game().SerializeAsString());
    shown.push_back(client().get(id)->SerializeAsString());
    shown.push_back(client().list_moves(id)->SerializeAsString());
    v1::ListGamesRequest list;
    list.set_filter(v1::GAME_LIST_FILTER_ACTIVE);
    const Reply<v1::ListGamesResponse> listed = client().list_games(list);
    ASSERT_TRUE(IsOk(listed));
    ASSERT_EQ(listed->games_size(), 1);
    shown.push_back(listed->SerializeAsString());
    for (const std::string& bytes : shown) {
        for (const std::string& secret : secrets)
            EXPECT_EQ(bytes.find(secret), std::string::npos);
    }
}

}  // namespace
}  // namespace foxgeese::test
