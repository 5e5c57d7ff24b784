// The foxgeese program's engine commands, run as a separate process: exact
// output formats for scripts, and exit status 2 with one line on stderr (and
// nothing of it on stdout) for every kind of bad input.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "program_runner.h"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

using Output = foxgeese::test::ProgramOutput;

// Runs the built foxgeese binary with `args`, `input` on stdin.
Output run(const std::vector<std::string>& args, const std::string& input = "") {
    std::vector<std::string> argv = {FOXGEESE_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    const Output result = foxgeese::test::run_program(argv, input);
    EXPECT_NE(result.exit_status, -1) << "foxgeese did not exit normally";
    return result;
}

// Exit status 2, nothing on stdout, one line "foxgeese: ..." on stderr
// containing each of `words`.
void expect_usage_error(const Output& r, const std::vector<std::string>& words) {
    EXPECT_EQ(r.exit_status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_THAT(r.err, StartsWith("foxgeese: "));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.back(), '\n');
    for (const std::string& word : words)
        EXPECT_THAT(r.err, HasSubstr(word));
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

// --- perft ---------------------------------------------------------------

TEST(CliPerft, PrintsTheLeafCountAndNothingElse) {
    const Output r = run({"perft", "--variant", "standard", "3"});
    EXPECT_EQ(r.exit_status, 0);
    EXPECT_EQ(r.out, "572\n");
    EXPECT_EQ(r.err, "");
}

TEST(CliPerft, AcceptsOptionsWithEqualsAndDepthZero) {
    EXPECT_EQ(run({"perft", "--variant=standard", "1"}).out, "5\n");
    EXPECT_EQ(run({"perft", "--variant", "standard", "0"}).out, "1\n");
    // The big_cross fox starts on e7 without diagonals: four steps.
    EXPECT_EQ(run({"perft", "--variant", "big_cross", "1"}).out, "4\n");
}

TEST(CliPerft, OptionsReachTheEngine) {
    const std::string plain = run({"perft", "--variant", "standard", "4"}).out;
    EXPECT_THAT(plain, ::testing::MatchesRegex("[0-9]+\n"));
    // Sideways goose steps become possible once a goose has moved up.
    EXPECT_NE(run({"perft", "--variant", "standard", "--sideways", "4"}).out, plain);
    // Extra geese on a4/g4 (and a5/g5) change the tree below the first ply.
    const std::string thirteen = run({"perft", "--variant", "standard", "3"}).out;
    EXPECT_NE(run({"perft", "--variant", "standard", "--geese", "15", "3"}).out, thirteen);
    EXPECT_NE(run({"perft", "--variant", "standard", "--geese=17", "3"}).out, thirteen);
}

TEST(CliPerft, DividePrintsSortedMoveCountLinesThenTheTotal) {
    const Output r = run({"perft", "--variant", "standard", "--divide", "2"});
    EXPECT_EQ(r.exit_status, 0);
    EXPECT_EQ(r.out, "d4-c4 16\nd4-c5 19\nd4-d5 19\nd4-e4 16\nd4-e5 19\n89\n");
    EXPECT_EQ(r.err, "");
}

TEST(CliPerft, DivideLinesSumToTheTotalAndThePlainPerft) {
    const Output r = run({"perft", "--variant", "two_foxes", "--divide", "3"});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    std::vector<std::string> out = lines(r.out);
    ASSERT_GE(out.size(), 2u);
    const std::string total = out.back();
    out.pop_back();
    EXPECT_TRUE(std::is_sorted(out.begin(), out.end()));
    std::uint64_t sum = 0;
    for (const std::string& line : out) {
        const std::size_t space = line.find(' ');
        ASSERT_NE(space, std::string::npos) << line;
        EXPECT_EQ(line.find(' ', space + 1), std::string::npos) << line;
        sum += std::stoull(line.substr(space + 1));
    }
    EXPECT_EQ(std::to_string(sum), total);
    EXPECT_EQ(run({"perft", "--variant", "two_foxes", "3"}).out, total + "\n");
}

TEST(CliPerft, FromAPositionCode) {
    // The loop position: 13 moves.
    EXPECT_EQ(
        run({"perft", "--variant", "standard", "--position", "3/3/3G3/2G1G2/2FG3/3/3 f 0 0", "1"})
            .out,
        "13\n");
}

// --- moves ---------------------------------------------------------------

TEST(CliMoves, PrintsTheSortedLegalMovesOnly) {
    const Output r =
        run({"moves", "--variant", "standard", "--position", "3/3/3G3/2G1G2/2FG3/3/3 f 0 0"});
    EXPECT_EQ(r.exit_status, 0);
    EXPECT_EQ(r.out,
              "c3-b3\nc3-b4\nc3-c2\nc3-d2\nc3-d4\nc3xc5\nc3xc5xe5\nc3xc5xe5xe3\n"
              "c3xc5xe5xe3xc3\nc3xe3\nc3xe3xe5\nc3xe3xe5xc5\nc3xe3xe5xc5xc3\n");
    EXPECT_EQ(r.err, "");
}

TEST(CliMoves, GeeseMovesFollowTheSidewaysOption) {
    const std::string code = "3/3/7/3F3/3G3/GGG/3 g 0 0";
    EXPECT_EQ(run({"moves", "--variant", "standard", "--position", code}).out,
              "c2-c3\nd2-c3\nd2-e3\nd3-c4\nd3-e4\ne2-e3\n");
    EXPECT_EQ(run({"moves", "--variant", "standard", "--sideways", "--position", code}).out,
              "c2-c3\nd2-c3\nd2-e3\nd3-c3\nd3-c4\nd3-e3\nd3-e4\ne2-e3\n");
}

TEST(CliMoves, CompulsoryCaptureListsOnlyTheMaximalJump) {
    EXPECT_EQ(
        run({"moves", "--variant", "two_foxes", "--position", "F2/3/3F3/3G3/G3G2/GGG/GGG f 0 0"})
            .out,
        "d5xd3xf3\n");
}

TEST(CliMoves, DecidedPositionHasNoMoves) {
    const Output r =
        run({"moves", "--variant", "standard", "--position", "3/3/7/7/2G1G2/GG1/FGG f 0 0"});
    EXPECT_EQ(r.exit_status, 0);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "");
}

// --- replay --------------------------------------------------------------

TEST(CliReplay, PrintsPlyMoveCodeStatusAndReasonPerPly) {
    const Output r = run({"replay", "--variant", "standard"}, "d4-d5\nc3-c4\n");
    EXPECT_EQ(r.exit_status, 0);
    EXPECT_EQ(r.out,
              "1\td4-d5\t3/3/3F3/7/GGGGGGG/GGG/GGG g 1 1\tongoing\t\n"
              "2\tc3-c4\t3/3/3F3/2G4/GG1GGGG/GGG/GGG f 0 2\tongoing\t\n");
    EXPECT_EQ(r.err, "");
}

TEST(CliReplay, WritesMovesCanonicallyAndSkipsBlankLines) {
    const Output r = run({"replay", "--variant", "standard"}, "  D4-D5  \n\n \t\r\nC3-C4\r\n");
    EXPECT_EQ(r.exit_status, 0) << r.err;
    EXPECT_EQ(r.out,
              "1\td4-d5\t3/3/3F3/7/GGGGGGG/GGG/GGG g 1 1\tongoing\t\n"
              "2\tc3-c4\t3/3/3F3/2G4/GG1GGGG/GGG/GGG f 0 2\tongoing\t\n");
}

TEST(CliReplay, EmptyInputPrintsNothing) {
    const Output r = run({"replay", "--variant", "big_cross"}, "");
    EXPECT_EQ(r.exit_status, 0);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "");
}

TEST(CliReplay, GameEndsWithTheFoxTrapped) {
    const Output r = run(
        {"replay", "--variant", "standard", "--position", "3/3/7/7/2G4/GGG/FGG g 0 0"}, "e2-e3\n");
    EXPECT_EQ(r.exit_status, 0) << r.err;
    EXPECT_EQ(r.out, "1\te2-e3\t3/3/7/7/2G1G2/GG1/FGG f 0 1\tgeese_win\tno_legal_move\n");
}

TEST(CliReplay, GameEndsWithTheGeeseBelowThreshold) {
    const Output r = run(
        {"replay", "--variant", "standard", "--position", "3/3/3G3/3F3/7/3/GGG f 7 20"}, "d4xd6\n");
    EXPECT_EQ(r.exit_status, 0) << r.err;
    EXPECT_EQ(r.out, "21\td4xd6\t3/1F1/7/7/7/3/GGG g 0 21\tfox_side_wins\tgeese_below_threshold\n");
}

TEST(CliReplay, GameEndsWithThePenFilled) {
    const Output r =
        run({"replay", "--variant", "two_foxes", "--position", "GGG/GGG/3GG2/2G4/F5F/3/3 g 0 0"},
            "c4-c5\n");
    EXPECT_EQ(r.exit_status, 0) << r.err;
    EXPECT_EQ(r.out, "1\tc4-c5\tGGG/GGG/2GGG2/7/F5F/3/3 f 0 1\tgeese_win\tpen_filled\n");
}

TEST(CliReplay, GameEndsByThreefoldRepetitionOfASidewaysShuffle) {
    // From the 15-geese start: the start position is the first occurrence.
    const std::string shuffle = "d4-d5\na4-b4\nd5-d4\nb4-a4\n";
    const Output r =
        run({"replay", "--variant", "standard", "--geese", "15", "--sideways"}, shuffle + shuffle);
    EXPECT_EQ(r.exit_status, 0) << r.err;
    const std::vector<std::string> out = lines(r.out);
    ASSERT_EQ(out.size(), 8u);
    EXPECT_EQ(out[3], "4\tb4-a4\t3/3/7/G2F2G/GGGGGGG/GGG/GGG f 4 4\tongoing\t");
    for (int i = 0; i < 7; ++i)
        EXPECT_THAT(out[i], HasSubstr("\tongoing\t")) << i;
    EXPECT_EQ(out[7], "8\tb4-a4\t3/3/7/G2F2G/GGGGGGG/GGG/GGG f 8 8\tdraw\tthreefold_repetition");
}

TEST(CliReplay, GameEndsByTheFiftyMoveRule) {
    const Output r = run({"replay", "--variant", "standard", "--sideways", "--position",
                          "3/1F1/7/7/G6/3/GGG f 98 40"},
                         "d6-d5\na3-b3\n");
    EXPECT_EQ(r.exit_status, 0) << r.err;
    EXPECT_EQ(r.out,
              "41\td6-d5\t3/3/3F3/7/G6/3/GGG g 99 41\tongoing\t\n"
              "42\ta3-b3\t3/3/3F3/7/1G5/3/GGG f 100 42\tdraw\tfifty_move_rule\n");
}

TEST(CliReplay, ReadsMovesFromAFileToo) {
    foxgeese::test::ScratchFile moves;
    { std::ofstream(moves.path()) << "d4-d5\nc3-c4\n"; }
    const Output r = run({"replay", "--variant", "standard", moves.path()});
    EXPECT_EQ(r.exit_status, 0) << r.err;
    EXPECT_EQ(lines(r.out).size(), 2u);
    expect_usage_error(run({"replay", "--variant", "standard", "/nonexistent/moves.txt"}),
                       {"cannot read /nonexistent/moves.txt"});
    expect_usage_error(run({"replay", "--variant", "standard", "a", "b"}),
                       {"unexpected argument 'b'"});
}

// A game record names its own variant and start; the plies are printed as
// for bare moves, the record's comments and tags aside.
const std::string kRecord =
    "\n[Variant \"standard\"]\n[Geese \"13\"]\n[GeeseSideways \"false\"]\n"
    "[Start \"3/3/3G3/3F3/7/3/GGG f 7 20\"]\n[TimeControl \"-\"]\n"
    "[Result \"fox_side_wins\"]\n[EndReason \"geese_below_threshold\"]\n\n"
    "21. d4xd6 {the last capture}\nfox_side_wins\n";

TEST(CliReplay, ReadsAGameRecordFromStdinOrAFile) {
    const std::string expected =
        "21\td4xd6\t3/1F1/7/7/7/3/GGG g 0 21\tfox_side_wins\tgeese_below_threshold\n";
    const Output piped = run({"replay"}, kRecord);
    EXPECT_EQ(piped.exit_status, 0) << piped.err;
    EXPECT_EQ(piped.out, expected);
    EXPECT_EQ(piped.err, "");

    foxgeese::test::ScratchFile file;
    { std::ofstream(file.path()) << kRecord; }
    const Output named = run({"replay", file.path()});
    EXPECT_EQ(named.exit_status, 0) << named.err;
    EXPECT_EQ(named.out, expected);
    EXPECT_EQ(run({"replay", "-"}, kRecord).out, expected);

    // The same game as bare moves gives the same lines.
    EXPECT_EQ(run({"replay", "--variant", "standard", "--position", "3/3/3G3/3F3/7/3/GGG f 7 20"},
                  "d4xd6\n")
                  .out,
              expected);
}

TEST(CliReplay, ARecordIsRefusedWholeWithItsLineAndColumn) {
    std::string illegal = kRecord;
    illegal.replace(illegal.find("d4xd6"), 5, "d4-d6");
    const Output r = run({"replay"}, illegal);
    expect_usage_error(r, {"line 10, column 5", "ply 21: d4-d6 is not legal"});

    expect_usage_error(run({"replay"}, "[Variant \"standard\"]\n[Player \"me\"]\n"),
                       {"line 2, column 2", "unknown tag Player"});
    // A record brings its own variant: flags would contradict it.
    expect_usage_error(run({"replay", "--variant", "standard"}, kRecord), {"leave out --variant"});
    std::string huge = kRecord;
    huge.insert(huge.find("fox_side_wins\n", huge.find("21.")), std::string(50 * 1024, ' '));
    expect_usage_error(run({"replay"}, huge), {"line 1, column 1", "at most 49152"});
}

// --- analyze -------------------------------------------------------------

// The fox wins in 3 plies: it steps to c3, any goose move follows, and it
// takes down to three geese (search_test has the same position).
constexpr const char* kFoxWinsInThree = "3/3/G6/1GF4/1G5/1G1/1G1 f 0 20";

TEST(CliAnalyze, AForcedWinIsAnExactScoreWithItsLineAndDepth) {
    const Output r =
        run({"analyze", "--variant", "standard", "--position", kFoxWinsInThree, "--depth", "6"});
    EXPECT_EQ(r.exit_status, 0);
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out, "1. win in 3 (depth 6): c4-c3 d1-c2 c3xc1xe3\n");
}

TEST(CliAnalyze, LinesAreRankedWithDistinctLegalFirstMoves) {
    const std::string code = "3/3/1F1/9/9/GGGGGGGGG/GGG/GGG/GGG f 0 0";
    const Output r = run(
        {"analyze", "--variant", "big_cross", "--position", code, "--depth", "4", "--lines", "3"});
    EXPECT_EQ(r.exit_status, 0);
    const std::vector<std::string> legal =
        lines(run({"moves", "--variant", "big_cross", "--position", code}).out);
    const std::vector<std::string> analysed = lines(r.out);
    ASSERT_EQ(analysed.size(), 3u) << r.out;
    std::vector<std::string> first_moves;
    for (std::size_t i = 0; i < analysed.size(); ++i) {
        const std::string& line = analysed[i];
        EXPECT_THAT(line, StartsWith(std::to_string(i + 1) + ". ")) << line;
        const auto head_end = line.find("(depth 4): ");
        ASSERT_NE(head_end, std::string::npos) << line;
        std::istringstream pv(line.substr(head_end + std::string("(depth 4): ").size()));
        std::string first;
        pv >> first;
        EXPECT_NE(std::find(legal.begin(), legal.end(), first), legal.end()) << line;
        first_moves.push_back(first);
    }
    std::sort(first_moves.begin(), first_moves.end());
    EXPECT_EQ(std::unique(first_moves.begin(), first_moves.end()), first_moves.end());
}

TEST(CliAnalyze, ATimeLimitGivesOneLineByDefault) {
    const Output r = run({"analyze", "--variant", "two_foxes", "--position",
                          "F1F/3/7/GGGGGGG/GGGGGGG/GGG/GGG f 0 0", "--time", "0.2"});
    EXPECT_EQ(r.exit_status, 0);
    ASSERT_EQ(lines(r.out).size(), 1u) << r.out;
    EXPECT_THAT(r.out, StartsWith("1. "));
    EXPECT_THAT(r.out, HasSubstr("(depth "));
}

TEST(CliAnalyze, AFinishedGameSaysHowItEnded) {
    const Output r = run({"analyze", "--variant", "standard", "--position",
                          "3/3/7/7/2G1G2/GG1/FGG f 0 0", "--depth", "3"});
    EXPECT_EQ(r.exit_status, 0);
    EXPECT_EQ(r.out, "game over: geese_win (no_legal_move)\n");
}

TEST(CliAnalyze, BadArguments) {
    const std::vector<std::string> base = {"analyze", "--variant", "standard", "--position",
                                           kFoxWinsInThree};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = base;
        args.insert(args.end(), extra.begin(), extra.end());
        return run(args);
    };
    expect_usage_error(run({"analyze", "--variant", "standard"}), {"--position"});
    expect_usage_error(with({"--depth", "3", "--time", "1"}), {"--depth", "--time"});
    for (const char* depth : {"0", "x", "101", "2.5"})
        expect_usage_error(with({"--depth", depth}), {"--depth", depth});
    for (const char* time : {"0", "-1", "soon", "4000"})
        expect_usage_error(with({"--time", time}), {"--time", time});
    for (const char* count : {"0", "33", "all"})
        expect_usage_error(with({"--lines", count}), {"--lines", count});
    expect_usage_error(with({"--depth"}), {"--depth", "needs a value"});
    expect_usage_error(with({"extra"}), {"unexpected argument", "extra"});
}

// --- errors ----------------------------------------------------------------

TEST(CliErrors, UnknownVariant) {
    expect_usage_error(run({"perft", "--variant", "chess", "1"}), {"unknown variant", "chess"});
    expect_usage_error(run({"moves", "--variant", "chess", "--position", "x"}),
                       {"unknown variant"});
    expect_usage_error(run({"replay", "--variant", "chess"}, "d4-d5\n"), {"unknown variant"});
}

TEST(CliErrors, MissingVariant) {
    expect_usage_error(run({"perft", "1"}), {"--variant"});
}

TEST(CliErrors, GeeseOptionOnBigCross) {
    expect_usage_error(run({"perft", "--variant", "big_cross", "--geese", "13", "1"}),
                       {"big_cross", "no options"});
}

TEST(CliErrors, SidewaysOptionOnTwoFoxes) {
    expect_usage_error(run({"perft", "--variant", "two_foxes", "--sideways", "1"}),
                       {"two_foxes", "no options"});
}

TEST(CliErrors, GeeseCountOutOfRangeOrNotANumber) {
    expect_usage_error(run({"perft", "--variant", "standard", "--geese", "14", "1"}),
                       {"13, 15 or 17"});
    expect_usage_error(run({"perft", "--variant", "standard", "--geese", "many", "1"}),
                       {"--geese", "many"});
}

TEST(CliErrors, BadPositionCode) {
    expect_usage_error(run({"moves", "--variant", "standard", "--position", "garbage"}),
                       {"invalid position code"});
    // Two foxes on the one-fox board.
    expect_usage_error(run({"perft", "--variant", "standard", "--position",
                            "F1F/3/7/GGGGGGG/GGGGGGG/GGG/GGG f 0 0", "1"}),
                       {"invalid position code", "fox"});
    expect_usage_error(
        run({"replay", "--variant", "standard", "--position", "3/3/7 f 0 0"}, "d4-d5\n"),
        {"invalid position code"});
    expect_usage_error(run({"moves", "--variant", "standard"}), {"--position"});
}

TEST(CliErrors, BadDepth) {
    for (const char* depth : {"x", "-1", "21", "3.5", "", "1e3"}) {
        expect_usage_error(run({"perft", "--variant", "standard", depth}), {"DEPTH"});
    }
    expect_usage_error(run({"perft", "--variant", "standard"}), {"DEPTH"});
    expect_usage_error(run({"perft", "--variant", "standard", "1", "2"}), {"DEPTH"});
}

TEST(CliErrors, UnknownOption) {
    expect_usage_error(run({"perft", "--variant", "standard", "--depth", "3"}),
                       {"unknown option", "--depth"});
    // --divide belongs to perft only.
    expect_usage_error(run({"moves", "--variant", "standard", "--divide", "--position",
                            "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0"}),
                       {"--divide"});
}

TEST(CliErrors, IllegalMoveInReplayNamesTheLineAndTheMove) {
    const Output r = run({"replay", "--variant", "standard"}, "d4-d5\nd5-d7\nc3-c4\n");
    EXPECT_EQ(r.exit_status, 2);
    // The plies before the bad line were printed; the error goes to stderr only.
    EXPECT_EQ(r.out, "1\td4-d5\t3/3/3F3/7/GGGGGGG/GGG/GGG g 1 1\tongoing\t\n");
    EXPECT_THAT(r.err, StartsWith("foxgeese: "));
    EXPECT_THAT(r.err, HasSubstr("line 2"));
    EXPECT_THAT(r.err, HasSubstr("d5-d7"));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_THAT(r.out, Not(HasSubstr("rejected")));
}

TEST(CliErrors, IllegalMoveCountsBlankLinesInTheLineNumber) {
    const Output r =
        run({"replay", "--variant", "standard", "--position", "3/3/7/3F3/3G3/GGG/3 g 0 0"},
            "d2-c3\n\n\nd4-d5\n \nc2-c1\n");
    EXPECT_EQ(r.exit_status, 2);
    EXPECT_EQ(lines(r.out).size(), 2u);
    EXPECT_THAT(r.err, HasSubstr("line 6"));
    EXPECT_THAT(r.err, HasSubstr("c2-c1"));
    EXPECT_THAT(r.err, HasSubstr("backward"));
}

TEST(CliErrors, MalformedMoveInReplay) {
    const Output r = run({"replay", "--variant", "standard"}, "zz\n");
    expect_usage_error(r, {"line 1", "zz"});
    const Output mixed = run({"replay", "--variant", "standard"}, "d4-d5\nc3xc4-c5\n");
    EXPECT_EQ(mixed.exit_status, 2);
    EXPECT_THAT(mixed.err, HasSubstr("line 2"));
    EXPECT_THAT(mixed.err, HasSubstr("mixed"));
    EXPECT_EQ(lines(mixed.out).size(), 1u);
}

TEST(CliErrors, LongMalformedMoveIsShortenedInTheMessage) {
    const Output r = run({"replay", "--variant", "standard"}, std::string(5000, 'd') + "\n");
    expect_usage_error(r, {"line 1", "..."});
    EXPECT_LT(r.err.size(), 400u);
}

TEST(CliErrors, MoveAfterTheGameEnded) {
    const Output r =
        run({"replay", "--variant", "standard", "--position", "3/3/3G3/3F3/7/3/GGG f 0 0"},
            "d4xd6\nc1-c2\n");
    EXPECT_EQ(r.exit_status, 2);
    EXPECT_EQ(r.out, "1\td4xd6\t3/1F1/7/7/7/3/GGG g 0 1\tfox_side_wins\tgeese_below_threshold\n");
    EXPECT_THAT(r.err, StartsWith("foxgeese: "));
    EXPECT_THAT(r.err, HasSubstr("line 2"));
    EXPECT_THAT(r.err, HasSubstr("c1-c2"));
    EXPECT_THAT(r.err, HasSubstr("over"));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(CliErrors, MoveInAGameSetUpDecided) {
    const Output r =
        run({"replay", "--variant", "standard", "--position", "3/3/7/7/2G1G2/GG1/FGG f 0 0"},
            "c1-c2\n");
    expect_usage_error(r, {"line 1", "over"});
}

TEST(CliErrors, UnknownCommandOrNoCommand) {
    const Output unknown = run({"fly"});
    EXPECT_EQ(unknown.exit_status, 2);
    EXPECT_EQ(unknown.out, "");
    EXPECT_THAT(unknown.err, HasSubstr("unknown command 'fly'"));
    const Output none = run({});
    EXPECT_EQ(none.exit_status, 2);
    EXPECT_EQ(none.out, "");
    EXPECT_THAT(none.err, HasSubstr("usage"));
}

TEST(CliHelp, HelpGoesToStdoutWithStatusZero) {
    const Output r = run({"--help"});
    EXPECT_EQ(r.exit_status, 0);
    EXPECT_THAT(r.out, HasSubstr("usage: foxgeese"));
    EXPECT_EQ(r.err, "");
}

}  // namespace
