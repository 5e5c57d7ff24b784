// Two `foxgeese play` processes, each with its own seat token, play whole
// games against each other through a Replica in this process: each learns
// its seat from the token alone (GetSeat), sees the other's moves as they
// are made (WatchGame, no polling), and both transcripts tell every move once
// and in order. A server restart in the middle breaks both streams; both
// sessions reconnect with from_ply and miss nothing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "service/app/replica.h"
#include "storage/migrations.h"
#include "tests/service/harness/service_harness.h"
#include "tests/service/harness/test_replica_options.h"
#include "tests/support/test_database.h"
#include "tests/tools/interactive_program.h"

namespace foxgeese::test {
namespace {

using ::testing::HasSubstr;

// The "<side> played <move>" lines of a transcript, in order.
std::vector<std::string> told_moves(const std::string& transcript) {
    std::vector<std::string> moves;
    const std::regex played("(fox|geese) played (\\S+)\n");
    for (auto it = std::sregex_iterator(transcript.begin(), transcript.end(), played);
         it != std::sregex_iterator(); ++it)
        moves.push_back((*it)[1].str() + " " + (*it)[2].str());
    return moves;
}

bool ends_with(const std::string& text, const std::string& tail) {
    return text.size() >= tail.size() &&
           text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

class PlaySessions : public ::testing::Test {
  protected:
    void SetUp() override {
        url_ = test_database_url();
        storage::apply_migrations(url_);
        start_server(0);
        client_ = std::make_unique<ServiceClient>(server_->grpc_port());
    }

    void start_server(int port) {
        service::ReplicaOptions options = test_replica_options(url_);
        options.grpc_port = port;
        options.db_pool_size = 4;
        options.drain_timeout = std::chrono::seconds(1);
        server_ = std::make_unique<service::Replica>(options);
        port_ = server_->grpc_port();
    }

    // Stops the server (every watch stream ends) and starts it again on the
    // same port.
    void restart_server() {
        server_->shutdown();
        server_.reset();
        start_server(port_);
    }

    std::unique_ptr<InteractiveProgram> play(const std::string& token) {
        return std::make_unique<InteractiveProgram>(
            std::vector<std::string>{FOXGEESE_BINARY, "play", "--token", token, "--server",
                                     "127.0.0.1:" + std::to_string(port_)});
    }

    // Plays `notation` in the session whose turn it is: waits for its prompt
    // after it has told `told` moves, types the move, and waits until the
    // session told it.
    void type_move(InteractiveProgram& session, const std::string& side,
                   const std::string& notation, std::size_t told) {
        const std::string prompt = side + " to move> ";
        ASSERT_TRUE(session.wait_for_output(
            [&](const std::string& out) {
                return ends_with(out, prompt) && told_moves(out).size() == told;
            },
            "the " + side + " prompt after " + std::to_string(told) + " moves"));
        session.write_line(notation);
        ASSERT_TRUE(session.wait_for_output(
            [&](const std::string& out) { return told_moves(out).size() == told + 1; },
            side + " playing " + notation));
    }

    // The move the test plays for the side to move: the fox takes whenever
    // it can (so the game ends soon), the geese play their first legal move.
    std::string choose_move(const v1::Game& game) {
        const auto& moves = game.legal_moves();
        if (game.side_to_move() == v1::SIDE_FOX) {
            for (const std::string& move : moves) {
                if (move.find('x') != std::string::npos) return move;
            }
        }
        return moves.empty() ? "" : moves[0];
    }

    std::string url_;
    int port_ = 0;
    std::unique_ptr<service::Replica> server_;
    std::unique_ptr<ServiceClient> client_;
};

TEST_F(PlaySessions, TwoProcessesPlayAWholeGame) {
    const SeatedGame game = [&] {
        const auto created = client_->create(
            create_request("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PRIVATE));
        EXPECT_TRUE(created.ok());
        SeatedGame seated;
        seated.id = created->game().game_id();
        seated.fox_token = created->seat_token();
        seated.invite_code = created->invite_code();
        return seated;
    }();
    auto fox = play(game.fox_token);
    // The fox waits for its opponent, then sees the geese join.
    ASSERT_TRUE(fox->wait_for_output(
        [](const std::string& out) {
            return out.find("waiting for an opponent") != std::string::npos;
        },
        "the fox waiting for an opponent"));
    const auto joined = client_->join(game.id, game.invite_code);
    ASSERT_TRUE(joined.ok());
    auto geese = play(joined->seat_token());
    // Both transcripts are to hold every move: the geese's session starts first.
    ASSERT_TRUE(geese->wait_for_output(
        [](const std::string& out) {
            return out.find("waiting for the fox to move") != std::string::npos;
        },
        "the geese waiting for the fox's first move"));

    std::vector<std::string> played;
    for (int ply = 0; ply < 400; ++ply) {
        const auto current = client_->get(game.id);
        ASSERT_TRUE(current.ok());
        if (current->game().state() == v1::GAME_STATE_FINISHED) break;
        const bool fox_moves = current->game().side_to_move() == v1::SIDE_FOX;
        const std::string move = choose_move(current->game());
        ASSERT_FALSE(move.empty());
        type_move(fox_moves ? *fox : *geese, fox_moves ? "fox" : "geese", move, played.size());
        if (HasFatalFailure()) return;
        played.push_back(std::string(fox_moves ? "fox " : "geese ") + move);
    }
    const auto final_game = client_->get(game.id);
    ASSERT_EQ(final_game->game().state(), v1::GAME_STATE_FINISHED) << "no end in 400 plies";
    ASSERT_GE(played.size(), 10u);

    EXPECT_EQ(fox->wait_for_exit(), 0);
    EXPECT_EQ(geese->wait_for_exit(), 0);
    for (InteractiveProgram* session : {fox.get(), geese.get()}) {
        const std::string out = session->out();
        EXPECT_EQ(told_moves(out), played) << out;
        EXPECT_THAT(out, HasSubstr("in game " + game.id + "\n"));
        EXPECT_NE(out.find("\ngame over: "), std::string::npos) << out;
        EXPECT_EQ(session->err(), "");
    }
    EXPECT_THAT(fox->out(), HasSubstr("you play the fox"));
    EXPECT_THAT(fox->out(), HasSubstr("the opponent joined"));
    EXPECT_THAT(geese->out(), HasSubstr("you play the geese"));
    // Both tell the same ending.
    const auto last_line = [](const std::string& out) {
        const auto start = out.rfind("game over: ");
        return start == std::string::npos ? std::string() : out.substr(start);
    };
    EXPECT_EQ(last_line(fox->out()), last_line(geese->out()));
    EXPECT_FALSE(last_line(fox->out()).empty());
}

TEST_F(PlaySessions, BothSessionsReconnectAfterTheServerRestarts) {
    const auto created =
        client_->create(create_request("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PRIVATE));
    ASSERT_TRUE(created.ok());
    const std::string id = created->game().game_id();
    const auto joined = client_->join(id, created->invite_code());
    ASSERT_TRUE(joined.ok());
    auto fox = play(created->seat_token());
    auto geese = play(joined->seat_token());
    ASSERT_TRUE(geese->wait_for_output(
        [](const std::string& out) {
            return out.find("waiting for the fox to move") != std::string::npos;
        },
        "the geese waiting for the fox's first move"));

    type_move(*fox, "fox", "d4-d5", 0);
    type_move(*geese, "geese", "c3-c4", 1);
    restart_server();
    for (InteractiveProgram* session : {fox.get(), geese.get()}) {
        ASSERT_TRUE(session->wait_for_output(
            [](const std::string& out) {
                const auto lost = out.find("lost the connection to the server");
                return lost != std::string::npos &&
                       out.find("reconnected\n", lost) != std::string::npos;
            },
            "a lost connection, then reconnected"));
    }
    type_move(*fox, "fox", "d5-d6", 2);
    type_move(*geese, "geese", "e3-e4", 3);
    // The fox resigns once it has seen the geese's last move.
    ASSERT_TRUE(fox->wait_for_output(
        [](const std::string& out) {
            return ends_with(out, "fox to move> ") && told_moves(out).size() == 4;
        },
        "the fox prompt after four moves"));
    fox->write_line("resign");
    EXPECT_EQ(fox->wait_for_exit(), 0);
    EXPECT_EQ(geese->wait_for_exit(), 0);
    const std::vector<std::string> played = {"fox d4-d5", "geese c3-c4", "fox d5-d6",
                                             "geese e3-e4"};
    for (InteractiveProgram* session : {fox.get(), geese.get()}) {
        EXPECT_EQ(told_moves(session->out()), played) << session->out();
        EXPECT_THAT(session->out(), HasSubstr("game over: the geese win (resignation)\n"));
    }
}

TEST_F(PlaySessions, TheGameGivenMustBeTheTokensGame) {
    const auto created =
        client_->create(create_request("standard", v1::SEAT_CHOICE_FOX, v1::VISIBILITY_PRIVATE));
    ASSERT_TRUE(created.ok());
    InteractiveProgram session({FOXGEESE_BINARY, "play", "0b6f3c1e-6a4e-4c51-9d3a-6f3b2f8f6a2d",
                                "--token", created->seat_token(), "--server",
                                "127.0.0.1:" + std::to_string(port_)});
    EXPECT_EQ(session.wait_for_exit(), 2);
    EXPECT_THAT(session.err(),
                HasSubstr("the token holds a seat in game " + created->game().game_id()));
    EXPECT_EQ(session.out(), "");

    InteractiveProgram forged({FOXGEESE_BINARY, "play", "--token", "fgs_forged", "--server",
                               "127.0.0.1:" + std::to_string(port_)});
    EXPECT_EQ(forged.wait_for_exit(), 1);
    EXPECT_THAT(forged.err(), HasSubstr("foxgeese: TOKEN_INVALID: "));
}

}  // namespace
}  // namespace foxgeese::test
