// Imported games as PostgreSQL stores them: their repetition history row
// for row as played moves leave it, a stored comment with control
// characters exported as replacements, and their own listing (the rest of
// ExportGame and ImportGame: game_records_test.cpp).
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "tests/service/core/record_samples.h"
#include "tests/service/harness/service_harness.h"

namespace foxgeese::test {
namespace {

using ImportedHistory = ScratchServiceTest;

// The repetition history as MakeMove keeps it: the start and every
// position after a move, each counted.
TEST_F(ImportedHistory, StoresEveryPositionsOccurrencesAsPlayedMovesWould) {
    // Fox and a goose step back and forth: the start occurs three times.
    const std::string text =
        "[Variant \"standard\"]\n[Geese \"15\"]\n[GeeseSideways \"true\"]\n"
        "[TimeControl \"-\"]\n[Result \"draw\"]\n[EndReason \"threefold_repetition\"]\n\n"
        "1. d4-d5\n2. a4-b4\n3. d5-d4\n4. b4-a4\n5. d4-d5\n6. a4-b4\n7. d5-d4\n8. b4-a4\ndraw\n";
    const Reply<v1::ImportGameResponse> imported = client().import_game(text);
    ASSERT_TRUE(IsOk(imported));
    EXPECT_EQ(imported->game().end_reason(), v1::END_REASON_THREEFOLD_REPETITION);

    // The same game played here has the same history.
    const SeatedGame played = start_game("standard", [] {
        v1::GameOptions options;
        options.set_geese(15);
        options.set_geese_sideways(true);
        return options;
    }());
    play_all(played, {"d4-d5", "a4-b4", "d5-d4", "b4-a4", "d4-d5", "a4-b4", "d5-d4", "b4-a4"});
    ASSERT_EQ(client().get(played.id)->game().end_reason(), v1::END_REASON_THREEFOLD_REPETITION);

    pqxx::connection connection(database_url());
    pqxx::nontransaction tx(connection);
    const auto history = [&](const std::string& id) {
        std::vector<std::string> rows;
        for (const auto& row :
             tx.exec_params("SELECT position_key, occurrences, last_ply FROM position_occurrences"
                            " WHERE game_id = $1::uuid ORDER BY position_key",
                            id))
            rows.push_back(row[0].as<std::string>() + " " + row[1].as<std::string>() + " " +
                           row[2].as<std::string>());
        return rows;
    };
    const std::vector<std::string> expected = history(played.id);
    EXPECT_EQ(expected.size(), 4u);
    EXPECT_EQ(history(imported->game().game_id()), expected);
}

TEST_F(ImportedHistory, AnExportWritesAStoredCommentsControlCharactersAsReplacements) {
    const Reply<v1::ImportGameResponse> imported =
        client().import_game("[Variant \"standard\"]\n[Result \"*\"]\n\n1. d4-d5 {x} *\n");
    ASSERT_TRUE(IsOk(imported));
    const std::string id = imported->game().game_id();
    // As a server before the rule stored it: U+009B, U+0085 and an escape.
    {
        pqxx::connection connection(database_url());
        pqxx::work tx(connection);
        tx.exec_params("UPDATE moves SET comment = $1 WHERE game_id = $2",
                       "\u009B31mred\u0085\x1B[0m", id);
        tx.commit();
    }
    const Reply<google::api::HttpBody> exported = client().export_game(id);
    ASSERT_TRUE(IsOk(exported));
    EXPECT_NE(exported->data().find("1. d4-d5 {\uFFFD31mred\uFFFD\uFFFD[0m}\n"), std::string::npos)
        << exported->data();
    // What it writes is a record again.
    EXPECT_TRUE(IsOk(client().import_game(exported->data())));
}

TEST_F(ImportedHistory, PublicImportedGamesHaveTheirOwnListing) {
    const std::string a = client().import_game(kFourGeese, v1::VISIBILITY_PUBLIC)->game().game_id();
    ASSERT_TRUE(IsOk(client().import_game(kFourGeese)));  // private: not listed
    clock().advance(std::chrono::seconds(1));
    const std::string b = client().import_game(kFourGeese, v1::VISIBILITY_PUBLIC)->game().game_id();
    const SeatedGame here = start_game("standard", {}, "", v1::VISIBILITY_PUBLIC);
    ASSERT_TRUE(IsOk(client().resign(here.id, here.fox_token)));

    v1::ListGamesRequest request;
    request.set_filter(v1::GAME_LIST_FILTER_IMPORTED);
    Reply<v1::ListGamesResponse> listed = client().list_games(request);
    ASSERT_TRUE(IsOk(listed));
    std::vector<std::string> ids;
    for (const v1::Game& g : listed->games()) {
        EXPECT_TRUE(g.imported());
        ids.push_back(g.game_id());
    }
    EXPECT_EQ(ids, (std::vector<std::string>{b, a}));  // newest import first, no private one

    // Recently finished games are the ones played here.
    request.set_filter(v1::GAME_LIST_FILTER_RECENT);
    listed = client().list_games(request);
    ASSERT_TRUE(IsOk(listed));
    ASSERT_EQ(listed->games_size(), 1);
    EXPECT_EQ(listed->games(0).game_id(), here.id);
    EXPECT_FALSE(listed->games(0).imported());
}

}  // namespace
}  // namespace foxgeese::test
