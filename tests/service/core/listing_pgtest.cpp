// ListGames over gRPC, on a scratch database so that no other test's games
// show up: the three filters, the variant filter, the order, paging with
// page tokens, the page size limits and the errors.
#include <algorithm>
#include <map>
#include <pqxx/pqxx>
#include <set>
#include <string>
#include <vector>

#include "tests/service/harness/service_harness.h"

namespace foxgeese::test {
namespace {

class ListGames : public ScratchServiceTest {
  protected:
    v1::ListGamesRequest request(v1::GameListFilter filter, const std::string& variant = "",
                                 int page_size = 0, const std::string& token = "") {
        v1::ListGamesRequest r;
        r.set_filter(filter);
        r.set_variant(variant);
        r.set_page_size(page_size);
        r.set_page_token(token);
        return r;
    }

    // The ids of every page, following next_page_token; page sizes cycle
    // through `sizes`.
    std::vector<std::string> list_all(v1::GameListFilter filter, const std::string& variant,
                                      const std::vector<int>& sizes) {
        std::vector<std::string> ids;
        std::string token;
        for (int page = 0; page < 1000; ++page) {
            const int size = sizes[page % sizes.size()];
            const Reply<v1::ListGamesResponse> reply =
                client().list_games(request(filter, variant, size, token));
            EXPECT_TRUE(IsOk(reply)) << "page " << page;
            if (!reply.ok()) return ids;
            EXPECT_LE(reply->games_size(), size == 0 ? 20 : std::min(size, 100));
            for (const v1::Game& g : reply->games())
                ids.push_back(g.game_id());
            token = reply->next_page_token();
            if (token.empty()) return ids;
        }
        ADD_FAILURE() << "next_page_token never ran out";
        return ids;
    }

    std::vector<std::string> first_page(v1::GameListFilter filter, const std::string& variant = "",
                                        int page_size = 100) {
        const Reply<v1::ListGamesResponse> reply =
            client().list_games(request(filter, variant, page_size));
        EXPECT_TRUE(IsOk(reply));
        std::vector<std::string> ids;
        for (const v1::Game& g : reply->games())
            ids.push_back(g.game_id());
        return ids;
    }

    std::string create(const std::string& variant, v1::SeatChoice seat, v1::Visibility visibility,
                       std::string* token = nullptr) {
        const v1::CreateGameResponse created =
            create_game(create_request(variant, seat, visibility));
        if (token) *token = created.seat_token();
        return created.game().game_id();
    }

    // Ids ordered as the listings promise: by a time, newest first.
    std::vector<std::string> newest_first(std::vector<std::string> ids, bool by_update_time) {
        std::map<std::string, std::int64_t> key;
        for (const std::string& id : ids) {
            const Reply<v1::GetGameResponse> got = client().get(id);
            EXPECT_TRUE(IsOk(got));
            key[id] =
                micros(by_update_time ? got->game().update_time() : got->game().create_time());
        }
        std::sort(ids.begin(), ids.end(), [&](const std::string& a, const std::string& b) {
            return key[a] != key[b] ? key[a] > key[b] : a > b;
        });
        return ids;
    }
};

TEST_F(ListGames, AnEmptyDatabaseListsNothing) {
    for (const v1::GameListFilter filter :
         {v1::GAME_LIST_FILTER_OPEN, v1::GAME_LIST_FILTER_ACTIVE, v1::GAME_LIST_FILTER_RECENT}) {
        const Reply<v1::ListGamesResponse> reply = client().list_games(request(filter));
        ASSERT_TRUE(IsOk(reply));
        EXPECT_EQ(reply->games_size(), 0);
        EXPECT_TRUE(reply->next_page_token().empty());
    }
}

TEST_F(ListGames, FiltersListPublicGamesByStateNewestFirstAndNeverPrivateOnes) {
    std::vector<std::string> open, active, recent;
    // Open: waiting public games of every variant.
    open.push_back(create("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PUBLIC));
    open.push_back(create("big_cross", v1::SEAT_CHOICE_GEESE, v1::VISIBILITY_PUBLIC));
    open.push_back(create("standard", v1::SEAT_CHOICE_RANDOM, v1::VISIBILITY_PUBLIC));
    open.push_back(create("two_foxes", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PUBLIC));
    open.push_back(create("big_cross", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PUBLIC));
    // Active: joined, or both seats from the start.
    std::vector<SeatedGame> seated;
    for (const std::string variant : {"standard", "two_foxes", "big_cross"}) {
        seated.push_back(start_game(variant, {}, "", v1::VISIBILITY_PUBLIC));
        active.push_back(seated.back().id);
    }
    active.push_back(create("standard", v1::SEAT_CHOICE_BOTH, v1::VISIBILITY_PUBLIC));
    // Finished: resigned and drawn.
    {
        const SeatedGame g = start_game("big_cross", {}, "", v1::VISIBILITY_PUBLIC);
        ASSERT_TRUE(IsOk(client().resign(g.id, g.fox_token)));
        recent.push_back(g.id);
        const SeatedGame h = start_game("standard", {}, "", v1::VISIBILITY_PUBLIC);
        ASSERT_TRUE(IsOk(client().offer_draw(h.id, h.fox_token)));
        ASSERT_TRUE(IsOk(client().respond_draw(h.id, true, h.geese_token)));
        recent.push_back(h.id);
    }
    // The oldest active game moves; the listing keeps its place (newest
    // first by creation), so pages stay stable while games are played.
    play(seated[0], "d4-d5");
    // Private games in every state: never listed.
    std::set<std::string> hidden;
    hidden.insert(create("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PRIVATE));
    hidden.insert(create("big_cross", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_UNSPECIFIED));
    hidden.insert(start_game("standard").id);
    hidden.insert(create("two_foxes", v1::SEAT_CHOICE_BOTH, v1::VISIBILITY_PRIVATE));
    {
        const SeatedGame g = start_game("two_foxes");
        ASSERT_TRUE(IsOk(client().resign(g.id, g.geese_token)));
        hidden.insert(g.id);
    }

    EXPECT_EQ(first_page(v1::GAME_LIST_FILTER_OPEN), newest_first(open, false));
    EXPECT_EQ(first_page(v1::GAME_LIST_FILTER_UNSPECIFIED), newest_first(open, false));
    const std::vector<std::string> active_order = newest_first(active, false);
    EXPECT_EQ(first_page(v1::GAME_LIST_FILTER_ACTIVE), active_order);
    EXPECT_EQ(active_order.back(), seated[0].id);
    EXPECT_EQ(first_page(v1::GAME_LIST_FILTER_RECENT), newest_first(recent, true));

    for (const v1::GameListFilter filter :
         {v1::GAME_LIST_FILTER_OPEN, v1::GAME_LIST_FILTER_ACTIVE, v1::GAME_LIST_FILTER_RECENT}) {
        const Reply<v1::ListGamesResponse> reply = client().list_games(request(filter));
        ASSERT_TRUE(IsOk(reply));
        for (const v1::Game& g : reply->games()) {
            EXPECT_FALSE(hidden.count(g.game_id())) << "private game listed";
            EXPECT_EQ(g.visibility(), v1::VISIBILITY_PUBLIC);
            EXPECT_EQ(g.state(), filter == v1::GAME_LIST_FILTER_OPEN     ? v1::GAME_STATE_WAITING
                                 : filter == v1::GAME_LIST_FILTER_ACTIVE ? v1::GAME_STATE_ACTIVE
                                                                         : v1::GAME_STATE_FINISHED);
            // A listed game is the game as GetGame shows it.
            const Reply<v1::GetGameResponse> got = client().get(g.game_id());
            ASSERT_TRUE(IsOk(got));
            EXPECT_EQ(g.SerializeAsString(), got->game().SerializeAsString());
        }
    }
}

TEST_F(ListGames, TheLobbyLeavesOutARematchWaitingForItsKeptSeat) {
    const SeatedGame old = start_game("standard", {}, "", v1::VISIBILITY_PUBLIC);
    ASSERT_TRUE(IsOk(client().resign(old.id, old.fox_token)));
    ASSERT_TRUE(IsOk(client().offer_rematch(old.id, old.fox_token)));
    const Reply<v1::RespondRematchResponse> accepted =
        client().respond_rematch(old.id, true, old.geese_token);
    ASSERT_TRUE(IsOk(accepted));
    // Public and waiting, but its other seat is kept for the old fox side:
    // a stranger could not join it, so the lobby does not offer it.
    const v1::Game& rematch = accepted->rematch();
    ASSERT_EQ(rematch.state(), v1::GAME_STATE_WAITING);
    ASSERT_EQ(rematch.visibility(), v1::VISIBILITY_PUBLIC);
    const std::string open = create("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PUBLIC);
    EXPECT_EQ(first_page(v1::GAME_LIST_FILTER_OPEN), std::vector<std::string>{open});
}

TEST_F(ListGames, TheVariantFilterKeepsOneVariant) {
    std::map<std::string, std::vector<std::string>> by_variant;
    for (int i = 0; i < 3; ++i) {
        for (const std::string variant : {"standard", "big_cross", "two_foxes"}) {
            if (variant == "two_foxes" && i == 2) continue;
            by_variant[variant].push_back(
                create(variant, v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PUBLIC));
        }
    }
    for (const auto& [variant, ids] : by_variant) {
        EXPECT_EQ(first_page(v1::GAME_LIST_FILTER_OPEN, variant), newest_first(ids, false))
            << variant;
        // Paged too, one game a page.
        EXPECT_EQ(list_all(v1::GAME_LIST_FILTER_OPEN, variant, {1}), newest_first(ids, false))
            << variant;
    }
    EXPECT_EQ(first_page(v1::GAME_LIST_FILTER_OPEN).size(), 8u);
    EXPECT_TRUE(first_page(v1::GAME_LIST_FILTER_ACTIVE, "standard").empty());
}

TEST_F(ListGames, PagesCoverEveryGameExactlyOnceInOrder) {
    std::vector<std::string> open;
    const char* variants[] = {"standard", "big_cross", "two_foxes"};
    for (int i = 0; i < 23; ++i) {
        open.push_back(create(variants[i % 3], v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PUBLIC));
    }
    std::vector<std::string> active, recent;
    for (int i = 0; i < 7; ++i) {
        const SeatedGame g = start_game(variants[i % 3], {}, "", v1::VISIBILITY_PUBLIC);
        if (i % 2 == 0) {
            ASSERT_TRUE(IsOk(client().resign(g.id, g.fox_token)));
            recent.push_back(g.id);
        } else {
            active.push_back(g.id);
        }
    }
    const std::vector<std::string> open_order = newest_first(open, false);
    for (const std::vector<int>& sizes :
         {std::vector<int>{5}, std::vector<int>{1}, std::vector<int>{3, 7}, std::vector<int>{22},
          std::vector<int>{23}, std::vector<int>{24}, std::vector<int>{0}}) {
        const std::vector<std::string> paged = list_all(v1::GAME_LIST_FILTER_OPEN, "", sizes);
        EXPECT_EQ(paged, open_order) << "page sizes starting " << sizes[0];
        EXPECT_EQ(std::set<std::string>(paged.begin(), paged.end()).size(), paged.size())
            << "a game was listed twice";
    }
    EXPECT_EQ(list_all(v1::GAME_LIST_FILTER_ACTIVE, "", {2}), newest_first(active, false));
    EXPECT_EQ(list_all(v1::GAME_LIST_FILTER_RECENT, "", {2}), newest_first(recent, true));
    EXPECT_EQ(list_all(v1::GAME_LIST_FILTER_OPEN, "big_cross", {2}).size(), 8u);
}

TEST_F(ListGames, GamesThatMoveWhileAClientPagesAreListedOnceEach) {
    std::vector<SeatedGame> games;
    std::vector<std::string> ids;
    for (int i = 0; i < 6; ++i) {
        games.push_back(start_game("standard", {}, "", v1::VISIBILITY_PUBLIC));
        ids.push_back(games.back().id);
    }
    std::vector<std::string> listed;
    std::string token;
    do {
        const Reply<v1::ListGamesResponse> reply =
            client().list_games(request(v1::GAME_LIST_FILTER_ACTIVE, "", 2, token));
        ASSERT_TRUE(IsOk(reply));
        for (const v1::Game& g : reply->games())
            listed.push_back(g.game_id());
        token = reply->next_page_token();
        // Between pages, one of the oldest games (those listed last) moves.
        if (!token.empty()) play(games[listed.size() / 2 - 1], "d4-d5");
    } while (!token.empty());
    EXPECT_EQ(listed, newest_first(ids, false));
}

TEST_F(ListGames, PageSizeZeroMeansTwentyAndAboveAHundredMeansAHundred) {
    for (int i = 0; i < 105; ++i)
        create("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PUBLIC);
    const Reply<v1::ListGamesResponse> by_default =
        client().list_games(request(v1::GAME_LIST_FILTER_OPEN, "", 0));
    ASSERT_TRUE(IsOk(by_default));
    EXPECT_EQ(by_default->games_size(), 20);
    EXPECT_FALSE(by_default->next_page_token().empty());
    const Reply<v1::ListGamesResponse> capped =
        client().list_games(request(v1::GAME_LIST_FILTER_OPEN, "", 1000));
    ASSERT_TRUE(IsOk(capped));
    EXPECT_EQ(capped->games_size(), 100);
    EXPECT_FALSE(capped->next_page_token().empty());
    EXPECT_EQ(list_all(v1::GAME_LIST_FILTER_OPEN, "", {1000}).size(), 105u);
}

TEST_F(ListGames, BadRequestsAreInvalidArgument) {
    for (int i = 0; i < 3; ++i) {
        create("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PUBLIC);
        start_game("standard", {}, "", v1::VISIBILITY_PUBLIC);
    }
    const Reply<v1::ListGamesResponse> open_page =
        client().list_games(request(v1::GAME_LIST_FILTER_OPEN, "", 1));
    ASSERT_TRUE(IsOk(open_page));
    const std::string open_token = open_page->next_page_token();
    ASSERT_FALSE(open_token.empty());
    const Reply<v1::ListGamesResponse> standard_page =
        client().list_games(request(v1::GAME_LIST_FILTER_OPEN, "standard", 1));
    ASSERT_TRUE(IsOk(standard_page));
    const std::string standard_token = standard_page->next_page_token();
    ASSERT_FALSE(standard_token.empty());
    // The tokens themselves are good.
    EXPECT_TRUE(IsOk(client().list_games(request(v1::GAME_LIST_FILTER_OPEN, "", 1, open_token))));
    EXPECT_TRUE(IsOk(
        client().list_games(request(v1::GAME_LIST_FILTER_OPEN, "standard", 1, standard_token))));

    struct Case {
        const char* what;
        v1::ListGamesRequest request;
        const char* field;
    };
    std::vector<Case> cases = {
        {"negative page_size", request(v1::GAME_LIST_FILTER_OPEN, "", -1), "page_size"},
        {"unknown variant", request(v1::GAME_LIST_FILTER_OPEN, "chess"), "variant"},
        {"garbage page_token", request(v1::GAME_LIST_FILTER_OPEN, "", 0, "not a token"),
         "page_token"},
        {"hex garbage page_token", request(v1::GAME_LIST_FILTER_OPEN, "", 0, "deadbeef"),
         "page_token"},
        {"truncated page_token",
         request(v1::GAME_LIST_FILTER_OPEN, "", 0, open_token.substr(0, open_token.size() / 2)),
         "page_token"},
        {"page_token of another filter", request(v1::GAME_LIST_FILTER_ACTIVE, "", 0, open_token),
         "page_token"},
        {"page_token of another filter", request(v1::GAME_LIST_FILTER_RECENT, "", 0, open_token),
         "page_token"},
        {"page_token without the variant it was made with",
         request(v1::GAME_LIST_FILTER_OPEN, "", 0, standard_token), "page_token"},
        {"page_token with another variant",
         request(v1::GAME_LIST_FILTER_OPEN, "big_cross", 0, standard_token), "page_token"},
        {"page_token with a variant it was made without",
         request(v1::GAME_LIST_FILTER_OPEN, "standard", 0, open_token), "page_token"},
        {"oversized page_token", request(v1::GAME_LIST_FILTER_OPEN, "", 0, std::string(4096, 'a')),
         "page_token"},
    };
    {
        v1::ListGamesRequest r = request(v1::GAME_LIST_FILTER_OPEN);
        set_enum_number(r, "filter", 99);
        cases.push_back({"unknown filter", r, "filter"});
    }
    for (const Case& c : cases) {
        const Reply<v1::ListGamesResponse> reply = client().list_games(c.request);
        EXPECT_TRUE(IsError(reply, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"))
            << c.what;
        EXPECT_EQ(bad_request_field(reply.status), c.field) << c.what;
    }
}

// The foxgeese_games gauge's counts: the unfinished games exactly (over
// their partial index), every game only as the statistics estimate it.
using GameCounts = ScratchServiceTest;

TEST_F(GameCounts, CountWaitingAndActiveGamesAndEstimateTheRest) {
    for (int i = 0; i < 3; ++i)
        create_game(create_request("standard"));
    const SeatedGame active = start_game();
    const SeatedGame finished = start_game("big_cross");
    ASSERT_TRUE(IsOk(client().resign(finished.id, finished.fox_token)));

    storage::PostgresGameStore store(server().pool());
    storage::GameCounts counts = store.count_games();
    EXPECT_EQ(counts.waiting, 3);
    EXPECT_EQ(counts.active, 1);
    // Before any ANALYZE the table has no statistics: the estimate is 0 or
    // a guess, never a count that cost a scan. After one it is exact here.
    pqxx::connection conn(database_url());
    pqxx::nontransaction tx(conn);
    tx.exec0("ANALYZE games");
    counts = store.count_games();
    EXPECT_EQ(counts.estimated_total, 5);

    // The count can run over the partial index alone (on five rows the
    // planner would rather read the table, so it is told not to).
    tx.exec0("SET enable_seqscan = off");
    const pqxx::result plan =
        tx.exec("EXPLAIN SELECT state, count(*) FROM games WHERE state IN (1, 2) GROUP BY state");
    std::string text;
    for (const auto& row : plan)
        text += row[0].as<std::string>() + "\n";
    EXPECT_NE(text.find("games_unfinished"), std::string::npos) << text;
    (void)active;
}

}  // namespace
}  // namespace foxgeese::test
