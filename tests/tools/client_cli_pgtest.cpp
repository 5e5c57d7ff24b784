// The foxgeese program's client commands against a real server: a Replica
// runs in this process on the run's throwaway PostgreSQL, and the built
// foxgeese binary is run as a separate process, as a user or a script would.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "program_runner.h"
#include "service/app/replica.h"
#include "storage/migrations.h"
#include "tests/service/harness/test_replica_options.h"
#include "tests/support/test_database.h"

extern char** environ;

namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

constexpr std::string_view kStandardStart = "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0";
// The first line of every standard board: ranks are drawn from the top.
constexpr std::string_view kStandardFiles = "    a   b   c   d   e   f   g\n";

using Output = foxgeese::test::ProgramOutput;

// The environment of this process without the client's own variables, plus
// `extra`: a FOXGEESE_TOKEN set where the tests run must not leak in.
std::vector<std::string> child_environment(const std::map<std::string, std::string>& extra) {
    std::vector<std::string> env;
    for (char** e = environ; *e != nullptr; ++e) {
        const std::string entry = *e;
        if (entry.starts_with("FOXGEESE_SERVER=") || entry.starts_with("FOXGEESE_TOKEN=")) continue;
        env.push_back(entry);
    }
    for (const auto& [name, value] : extra)
        env.push_back(name + "=" + value);
    return env;
}

// Runs the built foxgeese binary with `input` on stdin; kills it after a
// minute so that a session stuck waiting fails the test instead of hanging it.
Output run(const std::vector<std::string>& args, const std::string& input = "",
           const std::map<std::string, std::string>& env = {}) {
    std::vector<std::string> argv = {FOXGEESE_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    const std::vector<std::string> environment = child_environment(env);
    return foxgeese::test::run_program(argv, input, &environment);
}

// The "key: value" lines before the first empty line (what scripts parse).
std::map<std::string, std::string> header_fields(const std::string& text) {
    std::map<std::string, std::string> fields;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line) && !line.empty();) {
        const auto colon = line.find(": ");
        if (colon != std::string::npos) fields[line.substr(0, colon)] = line.substr(colon + 2);
    }
    return fields;
}

int count_of(const std::string& text, std::string_view piece) {
    int n = 0;
    for (auto at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1))
        ++n;
    return n;
}

// Exit status 1, nothing on stdout, one line "foxgeese: REASON: ..." on stderr.
void expect_server_error(const Output& r, const std::string& reason) {
    EXPECT_EQ(r.exit_status, 1) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_THAT(r.err, StartsWith("foxgeese: " + reason + ": "));
    EXPECT_EQ(count_of(r.err, "\n"), 1) << r.err;
}

void expect_usage_error(const Output& r, const std::string& words) {
    EXPECT_EQ(r.exit_status, 2) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_THAT(r.err, AllOf(StartsWith("foxgeese: "), HasSubstr(words)));
    EXPECT_EQ(count_of(r.err, "\n"), 1) << r.err;
}

// A port nothing listens on: bound once by the kernel's choice, then freed.
int closed_port() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), length), 0);
    EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
    close(fd);
    return ntohs(address.sin_port);
}

// One server for the whole suite.
class ClientCliTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        const std::string url = foxgeese::test::test_database_url();
        foxgeese::storage::apply_migrations(url);
        foxgeese::service::ReplicaOptions options = foxgeese::test::test_replica_options(url);
        options.db_pool_size = 4;
        options.drain_timeout = std::chrono::seconds(1);
        options.bot.threads = 1;  // for games against the bot
        server_ = std::make_unique<foxgeese::service::Replica>(options);
        address_ = "127.0.0.1:" + std::to_string(server_->grpc_port());
    }

    static void TearDownTestSuite() { server_.reset(); }

    // The command with --server pointing at this suite's server.
    static Output client(std::vector<std::string> args, const std::string& input = "") {
        args.push_back("--server");
        args.push_back(address_);
        return run(args, input);
    }

    struct Seat {
        std::string game_id;
        std::string seat;
        std::string token;
        std::string invite;
    };

    static Seat create(const std::vector<std::string>& options) {
        std::vector<std::string> args = {"create"};
        args.insert(args.end(), options.begin(), options.end());
        const Output r = client(args);
        EXPECT_EQ(r.exit_status, 0) << r.err;
        auto fields = header_fields(r.out);
        return Seat{fields["game_id"], fields["seat"], fields["seat_token"], fields["invite_code"]};
    }

    static Seat join(const Seat& creator) {
        const Output r = client({"join", creator.game_id, "--invite", creator.invite});
        EXPECT_EQ(r.exit_status, 0) << r.err;
        auto fields = header_fields(r.out);
        return Seat{fields["game_id"], fields["seat"], fields["seat_token"], ""};
    }

    static Output move(const Seat& seat, const std::string& notation) {
        return client({"move", seat.game_id, notation, "--token", seat.token});
    }

    static std::unique_ptr<foxgeese::service::Replica> server_;
    static std::string address_;
};

std::unique_ptr<foxgeese::service::Replica> ClientCliTest::server_;
std::string ClientCliTest::address_;

TEST_F(ClientCliTest, CreatePrintsKeyValueLinesThenTheBoard) {
    const Output r = client({"create", "--variant", "standard", "--seat", "fox"});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    auto fields = header_fields(r.out);
    EXPECT_EQ(fields.size(), 4u) << r.out;
    EXPECT_EQ(fields["game_id"].size(), 36u);
    EXPECT_EQ(fields["seat"], "fox");
    EXPECT_THAT(fields["seat_token"], StartsWith("fgs_"));
    EXPECT_FALSE(fields["invite_code"].empty());
    // The start position drawn: the fox on d4, the geese below, lines between.
    EXPECT_THAT(r.out, HasSubstr("4   .---.---.---F---.---.---.\n"
                                 "    | X | X | X | X | X | X |\n"
                                 "3   G---G---G---G---G---G---G\n"));
    EXPECT_THAT(r.out, HasSubstr(kStandardFiles));
    EXPECT_THAT(r.out, HasSubstr("state: waiting\nopen seat: geese\n"));
    EXPECT_THAT(r.out, HasSubstr("position: " + std::string(kStandardStart) + "\n"));
}

TEST_F(ClientCliTest, CreatePassesOptionsAndPosition) {
    const Output r = client({"create", "--variant", "standard", "--geese=15", "--sideways",
                             "--seat", "both", "--public"});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    EXPECT_EQ(header_fields(r.out)["seat"], "both");
    EXPECT_THAT(r.out, HasSubstr("variant: standard (15 geese, sideways steps)\n"));
    EXPECT_THAT(r.out, HasSubstr("state: active\n"));

    const std::string code = "3/3/7/3F3/GGGGGGG/1G1/3 g 0 7";
    const Output custom =
        client({"create", "--variant", "standard", "--position", code, "--seat", "both"});
    ASSERT_EQ(custom.exit_status, 0) << custom.err;
    EXPECT_THAT(custom.out, HasSubstr("position: " + code + "\n"));
    EXPECT_THAT(custom.out, HasSubstr("to move: geese\nply: 7\n"));

    expect_server_error(client({"create", "--variant", "chess"}), "INVALID_ARGUMENT");
    expect_server_error(client({"create", "--variant", "big_cross", "--geese", "13"}),
                        "INVALID_OPTIONS");
}

TEST_F(ClientCliTest, JoinNeedsTheInviteCodeOfAPrivateGame) {
    const Seat fox = create({"--variant", "standard", "--seat", "fox"});
    expect_server_error(client({"join", fox.game_id}), "INVITE_INVALID");
    expect_server_error(client({"join", fox.game_id, "--invite", "wrong"}), "INVITE_INVALID");

    const Output r = client({"join", fox.game_id, "--invite", fox.invite});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    auto fields = header_fields(r.out);
    EXPECT_EQ(fields.size(), 3u) << r.out;
    EXPECT_EQ(fields["game_id"], fox.game_id);
    EXPECT_EQ(fields["seat"], "geese");
    EXPECT_THAT(fields["seat_token"], StartsWith("fgs_"));
    EXPECT_NE(fields["seat_token"], fox.token);
    EXPECT_THAT(r.out, HasSubstr("state: active\n"));

    expect_server_error(client({"join", fox.game_id, "--invite", fox.invite}), "SEAT_TAKEN");
}

TEST_F(ClientCliTest, ShowPrintsBoardSideToMovePlyStateAndLegalMoves) {
    const Seat both = create({"--variant", "standard", "--seat", "both"});
    const Output r = client({"show", both.game_id});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    EXPECT_EQ(header_fields(r.out)["game_id"], both.game_id);
    EXPECT_THAT(r.out, HasSubstr("7           .---.---.\n"
                                 "            | X | X |\n"));
    EXPECT_THAT(r.out, HasSubstr("1           G---G---G\n" + std::string(kStandardFiles)));
    EXPECT_THAT(r.out, HasSubstr("state: active\nto move: fox\nply: 0\n"));
    EXPECT_THAT(r.out, HasSubstr("legal moves: d4-c4 d4-c5 d4-d5 d4-e4 d4-e5\n"));

    expect_server_error(client({"show", "0b6f3c1e-6a4e-4c51-9d3a-6f3b2f8f6a2d"}), "GAME_NOT_FOUND");
    expect_server_error(client({"show", "not-a-uuid"}), "INVALID_ARGUMENT");
}

TEST_F(ClientCliTest, ShowDrawsTheBigCrossWithItsOwnDiagonals) {
    const Seat both = create({"--variant", "big_cross", "--seat", "both"});
    const Output r = client({"show", both.game_id});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    // cross45: nine files, and diagonals only through every second point.
    EXPECT_THAT(r.out, HasSubstr("9               .---.---.\n"
                                 "                | \\ | / |\n"
                                 "8               .---.---.\n"
                                 "                | / | \\ |\n"
                                 "7               .---F---.\n"));
    EXPECT_THAT(r.out, HasSubstr("4   G---G---G---G---G---G---G---G---G\n"));
    EXPECT_THAT(r.out, HasSubstr("\n    a   b   c   d   e   f   g   h   i\n"));
}

TEST_F(ClientCliTest, MoveNeedsALegalMoveAndTheToken) {
    const Seat both = create({"--variant", "standard", "--seat", "both"});
    const Output r = move(both, "D4-D5");
    ASSERT_EQ(r.exit_status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_THAT(r.out, StartsWith("move: fox d4-d5\n\n"));
    EXPECT_THAT(r.out, HasSubstr("5   .---.---.---F---.---.---.\n"));
    EXPECT_THAT(r.out, HasSubstr("position: 3/3/3F3/7/GGGGGGG/GGG/GGG g 1 1\n"));
    EXPECT_THAT(r.out, HasSubstr("to move: geese\nply: 1\n"));

    // The geese are to move, and d5 holds the fox.
    const Output illegal = move(both, "d5-d6");
    expect_server_error(illegal, "ILLEGAL_MOVE");
    EXPECT_THAT(illegal.err, Not(HasSubstr(both.token)));
    expect_server_error(move(both, "d4-"), "INVALID_NOTATION");
    expect_server_error(client({"move", both.game_id, "c3-c4"}), "TOKEN_REQUIRED");
    expect_server_error(client({"move", both.game_id, "c3-c4", "--token", "fgs_nothing"}),
                        "TOKEN_INVALID");
    expect_server_error(
        client({"move", both.game_id, "c3-c4", "--token", both.token, "--expected-ply", "0"}),
        "PLY_MISMATCH");

    const Output expected =
        client({"move", both.game_id, "c3-c4", "--token", both.token, "--expected-ply", "1"});
    ASSERT_EQ(expected.exit_status, 0) << expected.err;
    EXPECT_THAT(expected.out, HasSubstr("ply: 2\n"));
}

TEST_F(ClientCliTest, MoveWithARequestIdIsNotMadeTwice) {
    const Seat both = create({"--variant", "standard", "--seat", "both"});
    const std::vector<std::string> args = {"move",     both.game_id,   "d4-d5", "--token",
                                           both.token, "--request-id", "try-1"};
    const Output first = client(args);
    const Output again = client(args);
    ASSERT_EQ(first.exit_status, 0) << first.err;
    ASSERT_EQ(again.exit_status, 0) << again.err;
    EXPECT_EQ(first.out, again.out);
    EXPECT_THAT(client({"show", both.game_id}).out, HasSubstr("ply: 1\n"));
}

TEST_F(ClientCliTest, SeatTokenComesFromTheEnvironmentToo) {
    const Seat both = create({"--variant", "standard", "--seat", "both"});
    const Output r = run({"move", both.game_id, "d4-d5"}, "",
                         {{"FOXGEESE_SERVER", address_}, {"FOXGEESE_TOKEN", both.token}});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    EXPECT_THAT(r.out, StartsWith("move: fox d4-d5\n"));
}

TEST_F(ClientCliTest, MovesReplaysEveryPlyWithItsBoard) {
    const Seat both = create({"--variant", "standard", "--seat", "both"});
    for (const char* m : {"d4-d5", "c3-c4", "d5-e5"})
        ASSERT_EQ(move(both, m).exit_status, 0) << m;
    const Output r = client({"moves", both.game_id});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("start: " + std::string(kStandardStart) + "\n"));
    EXPECT_THAT(r.out, HasSubstr("\nply 1: fox d4-d5\n"));
    EXPECT_THAT(r.out, HasSubstr("\nply 2: geese c3-c4\n"));
    EXPECT_THAT(r.out, HasSubstr("\nply 3: fox d5-e5\n"));
    EXPECT_EQ(count_of(r.out, "\nply "), 3);
    // The start and the board after each of the three moves.
    EXPECT_EQ(count_of(r.out, kStandardFiles), 4);
    EXPECT_EQ(count_of(r.out, "status: active\n"), 3);
    EXPECT_THAT(r.out, HasSubstr("position: 3/3/4F2/2G4/GG1GGGG/GGG/GGG g 1 3\n"));
    EXPECT_THAT(r.out, HasSubstr("\nstate: active\n"));

    // The engine command of the same name still answers without a server.
    const Output engine =
        run({"moves", "--variant", "standard", "--position", std::string(kStandardStart)});
    EXPECT_EQ(engine.exit_status, 0);
    EXPECT_EQ(engine.out, "d4-c4\nd4-c5\nd4-d5\nd4-e4\nd4-e5\n");
}

TEST_F(ClientCliTest, ResignEndsTheGame) {
    const Seat fox = create({"--variant", "standard", "--seat", "fox"});
    expect_server_error(client({"resign", fox.game_id, "--token", fox.token}), "GAME_NOT_STARTED");
    join(fox);
    const Output r = client({"resign", fox.game_id, "--token", fox.token});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    EXPECT_THAT(r.out, StartsWith("resigned: the geese win (resignation)\n"));
    const Output shown = client({"show", fox.game_id});
    EXPECT_THAT(shown.out, HasSubstr("state: finished\nresult: geese_win\nreason: resignation\n"));
    EXPECT_THAT(shown.out, Not(HasSubstr("legal moves")));
    expect_server_error(move(fox, "d4-d5"), "GAME_OVER");
    EXPECT_THAT(client({"moves", fox.game_id}).out,
                HasSubstr("state: finished\nresult: geese_win\nreason: resignation\n"));
}

TEST_F(ClientCliTest, DrawIsOfferedThenDeclinedOrAccepted) {
    const Seat fox = create({"--variant", "standard", "--seat", "fox"});
    const Seat geese = join(fox);
    const Output offered = client({"offer-draw", fox.game_id, "--token", fox.token});
    ASSERT_EQ(offered.exit_status, 0) << offered.err;
    EXPECT_THAT(offered.out, StartsWith("draw offered by: fox\n"));
    EXPECT_THAT(offered.out, HasSubstr("\ndraw offered by: fox\n"));
    expect_server_error(client({"respond-draw", fox.game_id, "accept", "--token", fox.token}),
                        "WRONG_SEAT");

    const Output declined =
        client({"respond-draw", fox.game_id, "decline", "--token", geese.token});
    ASSERT_EQ(declined.exit_status, 0) << declined.err;
    EXPECT_THAT(declined.out, StartsWith("draw declined\n"));
    expect_server_error(client({"respond-draw", fox.game_id, "accept", "--token", geese.token}),
                        "NO_DRAW_OFFER");

    ASSERT_EQ(client({"offer-draw", fox.game_id, "--token", geese.token}).exit_status, 0);
    const Output accepted = client({"respond-draw", fox.game_id, "accept", "--token", fox.token});
    ASSERT_EQ(accepted.exit_status, 0) << accepted.err;
    EXPECT_THAT(accepted.out, StartsWith("draw accepted: a draw (draw agreed)\n"));
    EXPECT_THAT(accepted.out, HasSubstr("result: draw\nreason: draw_agreed\n"));
}

TEST_F(ClientCliTest, PlayWithBothSeatsReadsMovesFromPipedInput) {
    const Seat both = create({"--variant", "standard", "--seat", "both"});
    const Output r = client({"play", both.game_id, "--token", both.token},
                            "d4-d5\nmoves\nd5-d7\nc3-c4\n\ndraw\nresign\nd4-d5\n");
    ASSERT_EQ(r.exit_status, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("fox to move> d4-d5\nfox played d4-d5\n"));
    EXPECT_THAT(r.out, HasSubstr("geese to move> moves\nlegal moves: a3-a4 a3-b4"));
    EXPECT_THAT(r.out, HasSubstr("geese to move> c3-c4\ngeese played c3-c4\n"));
    EXPECT_THAT(r.out, HasSubstr("fox to move> draw\nfox offers a draw"));
    EXPECT_THAT(r.out, HasSubstr("fox to move> resign\nfox resigned\n"
                                 "game over: the geese win (resignation)\n"));
    // Seven prompts; the line after "resign" was never read.
    EXPECT_EQ(count_of(r.out, "to move> "), 7) << r.out;
    // The illegal move was refused with its reason, and play went on.
    EXPECT_EQ(r.err.rfind("foxgeese: ILLEGAL_MOVE: ", 0), 0u) << r.err;
    EXPECT_EQ(count_of(r.err, "\n"), 1) << r.err;

    const Output replay = client({"moves", both.game_id});
    EXPECT_EQ(count_of(replay.out, "\nply "), 2);
    EXPECT_THAT(replay.out, HasSubstr("reason: resignation\n"));
}

TEST_F(ClientCliTest, PlayWaitsForTheOpponentsMove) {
    const Seat fox = create({"--variant", "standard", "--seat", "fox"});
    const Seat geese = join(fox);
    // The geese's session: it polls while the fox side thinks, then plays c3-c4.
    auto session = std::async(std::launch::async, [&] {
        return client({"play", geese.game_id, "--token", geese.token}, "c3-c4\n");
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    ASSERT_EQ(move(fox, "d4-d5").exit_status, 0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (client({"show", fox.game_id}).out.find("ply: 2\n") == std::string::npos) {
        ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the geese never moved";
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    ASSERT_EQ(client({"resign", fox.game_id, "--token", fox.token}).exit_status, 0);

    const Output r = session.get();
    ASSERT_EQ(r.exit_status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_THAT(r.out, HasSubstr("waiting for the fox to move"));
    EXPECT_THAT(r.out, HasSubstr("fox played d4-d5\n"));
    EXPECT_THAT(r.out, HasSubstr("geese to move> c3-c4\ngeese played c3-c4\n"));
    EXPECT_THAT(r.out, HasSubstr("game over: the geese win (resignation)\n"));
    EXPECT_EQ(count_of(r.out, "to move> "), 1) << r.out;
}

TEST_F(ClientCliTest, CreateSeatsABotThatPlayIsPlayedAgainst) {
    const Output created =
        client({"create", "--variant", "standard", "--seat", "geese", "--bot", "1"});
    ASSERT_EQ(created.exit_status, 0) << created.err;
    EXPECT_THAT(created.out, HasSubstr("state: active\n"));
    EXPECT_THAT(created.out, HasSubstr("bot: fox (level 1)\n"));
    auto fields = header_fields(created.out);
    EXPECT_EQ(fields["seat"], "geese");
    // The bot, the fox side, moves first; a3-a4 is legal whatever it played,
    // and the session waits for the bot's answer before the input ends.
    const Output r =
        client({"play", fields["game_id"], "--token", fields["seat_token"]}, "a3-a4\n");
    ASSERT_EQ(r.exit_status, 0) << r.err;
    const std::size_t played = r.out.find("geese to move> a3-a4\ngeese played a3-a4\n");
    ASSERT_NE(played, std::string::npos) << r.out;
    EXPECT_NE(r.out.find("fox played ", played), std::string::npos) << r.out;
    expect_server_error(client({"create", "--variant", "standard", "--bot", "9"}),
                        "INVALID_ARGUMENT");
}

TEST_F(ClientCliTest, PlaySaysTheBotDeclinedADrawOffer) {
    const Output created =
        client({"create", "--variant", "standard", "--seat", "geese", "--bot", "1"});
    ASSERT_EQ(created.exit_status, 0) << created.err;
    auto fields = header_fields(created.out);
    // The bot declines at once, in the reply to the offer. Its answer on the
    // watch stream comes before its answer to a3-a4, which the session waits
    // for before the input ends, and is not told again.
    const Output r =
        client({"play", fields["game_id"], "--token", fields["seat_token"]}, "draw\na3-a4\n");
    ASSERT_EQ(r.exit_status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_THAT(r.out, HasSubstr("> draw\nthe bot (fox) declined the draw\n"));
    EXPECT_EQ(count_of(r.out, "declined the draw"), 1) << r.out;
    EXPECT_EQ(r.out.find("offers a draw"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("unspecified"), std::string::npos) << r.out;
    const std::size_t played = r.out.find("geese to move> a3-a4\ngeese played a3-a4\n");
    ASSERT_NE(played, std::string::npos) << r.out;
    EXPECT_NE(r.out.find("fox played ", played), std::string::npos) << r.out;
}

TEST_F(ClientCliTest, PlayLeavesWhenTheInputEnds) {
    const Seat both = create({"--variant", "standard", "--seat", "both"});
    const Output r = client({"play", both.game_id, "--token", both.token}, "d4-d5\nquit\n");
    ASSERT_EQ(r.exit_status, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("geese to move> quit\nleaving the game"));
    const Output eof = client({"play", both.game_id, "--token", both.token}, "");
    ASSERT_EQ(eof.exit_status, 0) << eof.err;
    EXPECT_THAT(eof.out, HasSubstr("end of input"));
    EXPECT_THAT(client({"show", both.game_id}).out, HasSubstr("state: active\n"));
}

TEST_F(ClientCliTest, ExportPrintsTheRecordAndImportStoresItAgain) {
    const Seat both = create({"--variant", "standard", "--seat", "both"});
    ASSERT_EQ(move(both, "d4-d5").exit_status, 0);
    const Output exported = client({"export", both.game_id});
    ASSERT_EQ(exported.exit_status, 0) << exported.err;
    EXPECT_EQ(exported.err, "");
    EXPECT_THAT(exported.out, StartsWith("[Variant \"standard\"]\n[Geese \"13\"]\n"));
    EXPECT_THAT(exported.out, HasSubstr("\n1. d4-d5\n*\n"));

    // From standard input: the new game's id, then the game.
    const Output imported = client({"import", "-"}, exported.out);
    ASSERT_EQ(imported.exit_status, 0) << imported.err;
    const std::string copy = header_fields(imported.out)["game_id"];
    EXPECT_EQ(copy.size(), 36u);
    EXPECT_NE(copy, both.game_id);
    EXPECT_THAT(imported.out, HasSubstr("state: finished\nresult: none\nreason: unfinished\n"));
    EXPECT_EQ(client({"export", copy}).out, exported.out);

    // From a file, listed in public.
    foxgeese::test::ScratchFile file;
    { std::ofstream(file.path(), std::ios::binary) << exported.out; }
    const Output listed = client({"import", file.path(), "--public"});
    ASSERT_EQ(listed.exit_status, 0) << listed.err;
    EXPECT_EQ(client({"export", header_fields(listed.out)["game_id"]}).out, exported.out);
}

TEST_F(ClientCliTest, ImportAndExportSayWhatIsWrong) {
    expect_server_error(client({"export", "0b6f3c1e-6a4e-4c51-9d3a-6f3b2f8f6a2d"}),
                        "GAME_NOT_FOUND");
    expect_server_error(client({"export", "not-a-uuid"}), "INVALID_ARGUMENT");
    const Output illegal =
        client({"import", "-"}, "[Variant \"standard\"]\n[Result \"*\"]\n\n1. d4-d7 *\n");
    expect_server_error(illegal, "RECORD_ILLEGAL_MOVE");
    EXPECT_THAT(illegal.err, HasSubstr("line 4, column 4: ply 1: d4-d7 is not legal"));
    expect_server_error(client({"import", "-"}, "1. d4-d5 *\n"), "RECORD_INVALID");
    expect_usage_error(client({"import", "/nonexistent/game.txt"}),
                       "cannot read /nonexistent/game.txt");
    expect_usage_error(client({"import", "-"}, std::string(48 * 1024 + 1, ' ')),
                       "longer than a record may be");
    expect_usage_error(client({"import"}), "import FILE|-");
    expect_usage_error(client({"export"}), "export GAME_ID");
}

TEST_F(ClientCliTest, ConnectionFailureNamesTheAddress) {
    const std::string address = "127.0.0.1:" + std::to_string(closed_port());
    const Output r = run({"show", "0b6f3c1e-6a4e-4c51-9d3a-6f3b2f8f6a2d", "--server", address});
    expect_server_error(r, "UNAVAILABLE");
    EXPECT_THAT(r.err, HasSubstr(address));
    // The same through the environment variable.
    const Output env =
        run({"show", "0b6f3c1e-6a4e-4c51-9d3a-6f3b2f8f6a2d"}, "", {{"FOXGEESE_SERVER", address}});
    expect_server_error(env, "UNAVAILABLE");
    EXPECT_THAT(env.err, HasSubstr(address));
}

TEST_F(ClientCliTest, BadArgumentsExitWithStatusTwo) {
    expect_usage_error(client({"create"}), "--variant");
    expect_usage_error(client({"create", "--variant", "standard", "--seat", "left"}), "--seat");
    expect_usage_error(client({"create", "--variant", "standard", "--geese", "many"}), "--geese");
    expect_usage_error(client({"create", "--variant", "standard", "--colour", "red"}),
                       "unknown option --colour");
    expect_usage_error(client({"join"}), "join GAME_ID");
    expect_usage_error(client({"show", "a", "b"}), "show GAME_ID");
    expect_usage_error(client({"move", "a"}), "move GAME_ID MOVE");
    expect_usage_error(client({"move", "a", "d4-d5", "--expected-ply", "-1"}), "--expected-ply");
    expect_usage_error(client({"respond-draw", "a", "maybe"}), "accept or decline");
    expect_usage_error(client({"play", "a"}), "--token");
    expect_usage_error(run({"show", "a", "--server"}), "--server needs a value");
    // A bad token is refused before anything is sent, and not echoed.
    const Output token = client({"resign", "a", "--token", "two words"});
    expect_usage_error(token, "token");
    EXPECT_THAT(token.err, Not(HasSubstr("two words")));
}

}  // namespace
