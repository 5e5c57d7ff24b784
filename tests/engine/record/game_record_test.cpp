// Game records: the canonical text of a known game, round trips of random
// games of every configuration (with comments, time controls and dates), a
// custom start, the lenient forms the parser reads, the size limits, and
// every refusal with its problem, line and column.
#include "engine/record/game_record.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/rules/game.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "random_record.h"
#include "variant_configs.h"

namespace foxgeese {
namespace {

using ::testing::HasSubstr;

const Variant& variant(std::string_view name, VariantOptions options = {}) {
    return **Variant::find(name, options);
}

// The record of a game the engine plays from `start` with `moves`.
GameRecord played(const Variant& v, std::optional<Position> start,
                  const std::vector<std::string>& moves) {
    GameRecord record;
    record.variant = &v;
    record.start = start;
    Game game(record.start_position());
    for (const std::string& m : moves) {
        Result<Move> move = game.play(m);
        EXPECT_TRUE(move.ok()) << m << ": " << move.error().message;
        record.moves.push_back({format_move(game.position().board(), *move), ""});
    }
    record.result = game.status().outcome;
    record.end.rules = game.status().reason;
    return record;
}

ParsedRecord parse_ok(const std::string& text) {
    auto parsed = parse_record(text);
    EXPECT_TRUE(parsed.ok()) << "line " << parsed.error().line << ", column "
                             << parsed.error().column << ": " << parsed.error().message << "\n"
                             << text;
    return parsed.ok() ? parsed.value() : ParsedRecord{};
}

// Expects the text refused with this problem at this place.
void expect_refused(const std::string& text, RecordProblem problem, int line, int column,
                    const std::string& words) {
    SCOPED_TRACE(text);
    auto parsed = parse_record(text);
    ASSERT_FALSE(parsed.ok());
    const RecordError& e = parsed.error();
    EXPECT_EQ(record_problem_name(e.problem), record_problem_name(problem)) << e.message;
    EXPECT_EQ(e.line, line) << e.message;
    EXPECT_EQ(e.column, column) << e.message;
    EXPECT_THAT(e.message, HasSubstr(words));
}

// The header every hand-written test record starts with.
const std::string kStandardHeader =
    "[Variant \"standard\"]\n[Geese \"13\"]\n[GeeseSideways \"false\"]\n[TimeControl \"-\"]\n";

constexpr std::string_view kFourGeese = "3/3/7/3F3/G2G3/3/G1G f 0 0";

TEST(GameRecord, WritesTheCanonicalText) {
    const Variant& v = variant("standard");
    GameRecord record = played(v, *parse_position_code(v, kFourGeese), {"d4xd2"});
    record.moves[0].comment = "three geese are too few";
    record.time_control = {RecordTimeControl::Kind::kRealTime, 300'000, 3'000, 0};
    record.created = 1796126400;
    record.ended = 1796126407;
    const std::string text = format_record(record);
    EXPECT_EQ(text,
              "[Variant \"standard\"]\n"
              "[Geese \"13\"]\n"
              "[GeeseSideways \"false\"]\n"
              "[Start \"3/3/7/3F3/G2G3/3/G1G f 0 0\"]\n"
              "[TimeControl \"300+3\"]\n"
              "[Result \"fox_side_wins\"]\n"
              "[EndReason \"geese_below_threshold\"]\n"
              "[Created \"2026-12-01T12:00:00Z\"]\n"
              "[Ended \"2026-12-01T12:00:07Z\"]\n"
              "\n"
              "1. d4xd2 {three geese are too few}\n"
              "fox_side_wins\n");
    const ParsedRecord parsed = parse_ok(text);
    EXPECT_EQ(parsed.record, record);
    ASSERT_EQ(parsed.played.size(), 1u);
    EXPECT_EQ(format_position_code(parsed.played[0].after), "3/3/7/7/G6/1F1/G1G g 0 1");
    EXPECT_EQ(parsed.played[0].status.reason, EndReason::kGeeseBelowThreshold);
}

TEST(GameRecord, AVariantWithoutOptionsHasNoOptionTagsAndAGameInProgressEndsWithAStar) {
    const GameRecord record = played(variant("two_foxes"), std::nullopt, {"c7-c6", "a4-a5"});
    EXPECT_EQ(format_record(record),
              "[Variant \"two_foxes\"]\n[TimeControl \"-\"]\n[Result \"*\"]\n\n"
              "1. c7-c6\n2. a4-a5\n*\n");
    EXPECT_EQ(parse_ok(format_record(record)).record, record);
}

class EveryConfiguration : public ::testing::TestWithParam<const Variant*> {};

TEST_P(EveryConfiguration, RandomGamesRoundTripExactly) {
    const Variant& v = *GetParam();
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        GameRecord record = testing::random_game_record(v, seed * 7919, seed % 3 == 0 ? 40 : 400);
        switch (seed % 3) {
            case 0:
                record.time_control = {RecordTimeControl::Kind::kRealTime, 90'500, 0, 0};
                break;
            case 1:
                record.time_control = {RecordTimeControl::Kind::kCorrespondence, 0, 0, 3};
                break;
            default:
                break;
        }
        if (seed % 2 == 0) {
            record.created = 1'700'000'000 + static_cast<std::int64_t>(seed);
            record.ended = *record.created + 3600;
        }
        // A game the rules did not end: resigned, or still going.
        if (!record.end.named() && seed % 4 == 1) {
            record.result = Outcome::kGeeseWin;
            record.end.other = OffRulesEnd::kResignation;
        }
        const std::string text = format_record(record);
        SCOPED_TRACE(text);
        const ParsedRecord parsed = parse_ok(text);
        EXPECT_EQ(parsed.record, record);
        EXPECT_EQ(format_record(parsed.record), text);
        ASSERT_EQ(parsed.played.size(), record.moves.size());
        // The replay is the engine's: the last position is the game's.
        Game game{Position(v)};
        for (const RecordMove& m : record.moves)
            ASSERT_TRUE(game.play(m.notation).ok());
        if (!parsed.played.empty()) {
            EXPECT_EQ(parsed.played.back().after, game.position());
            EXPECT_EQ(parsed.played.back().status, game.status());
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Variants, EveryConfiguration, ::testing::ValuesIn(Variant::all()),
                         [](const auto& p) { return testing::config_name(*p.param); });

TEST(GameRecord, ACustomStartKeepsItsSideToMoveAndCountersAndNumbersFromItsPly) {
    const Variant& v = variant("standard", {17, true});
    const Position start = *parse_position_code(v, "3/3/G5G/G2F2G/GGGGGGG/GGG/GGG g 7 40");
    const GameRecord record = played(v, start, {"a4-b4", "d4-d5"});
    const std::string text = format_record(record);
    EXPECT_THAT(text, HasSubstr("[Geese \"17\"]\n[GeeseSideways \"true\"]\n"
                                "[Start \"3/3/G5G/G2F2G/GGGGGGG/GGG/GGG g 7 40\"]\n"));
    EXPECT_THAT(text, HasSubstr("\n41. a4-b4\n42. d4-d5\n*\n"));
    const ParsedRecord parsed = parse_ok(text);
    EXPECT_EQ(parsed.record, record);
    EXPECT_EQ(parsed.played.back().after.quiet_plies(), 9);

    // The variant's own start given as Start is no custom start.
    const ParsedRecord plain = parse_ok(kStandardHeader +
                                        "[Start \"3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0\"]\n"
                                        "[Result \"*\"]\n\n*\n");
    EXPECT_FALSE(plain.record.start.has_value());
}

TEST(GameRecord, ReadsLenientFormsAndWritesThemCanonically) {
    // CRLF, tabs, tags in any order and without the blank line, numbers
    // left out or glued to their move, upper case, several moves a line,
    // padded comments, and the rules' end reason left out.
    const std::string text =
        "\r\n[Result \"fox_side_wins\"]\r\n\t[Variant   \"standard\"]  \r\n"
        "[Start \"3/3/7/3F3/G2G3/3/G1G f 0 0\"]\r\n"
        "1.D4XD2 {   three left  }   fox_side_wins\r\n\r\n";
    const ParsedRecord parsed = parse_ok(text);
    EXPECT_EQ(parsed.record.end.rules, EndReason::kGeeseBelowThreshold);
    EXPECT_EQ(parsed.record.moves.at(0).notation, "d4xd2");
    EXPECT_EQ(parsed.record.moves.at(0).comment, "three left");
    EXPECT_EQ(format_record(parsed.record),
              "[Variant \"standard\"]\n[Geese \"13\"]\n[GeeseSideways \"false\"]\n"
              "[Start \"3/3/7/3F3/G2G3/3/G1G f 0 0\"]\n[TimeControl \"-\"]\n"
              "[Result \"fox_side_wins\"]\n[EndReason \"geese_below_threshold\"]\n\n"
              "1. d4xd2 {three left}\nfox_side_wins\n");

    const ParsedRecord several =
        parse_ok("[Variant \"big_cross\"]\n[Result \"*\"]\n1. e7-e6 2. a4-a5{a}3. e6-e5 *");
    ASSERT_EQ(several.record.moves.size(), 3u);
    EXPECT_EQ(several.record.moves[1].comment, "a");
}

TEST(GameRecord, TimeControlsAndTimesHaveOneTextEach) {
    const std::vector<std::pair<std::string, RecordTimeControl>> controls = {
        {"-", {}},
        {"300+3", {RecordTimeControl::Kind::kRealTime, 300'000, 3'000, 0}},
        {"90.5+0.25", {RecordTimeControl::Kind::kRealTime, 90'500, 250, 0}},
        {"1/172800", {RecordTimeControl::Kind::kCorrespondence, 0, 0, 2}},
    };
    for (const auto& [text, control] : controls) {
        EXPECT_EQ(format_time_control(control), text);
        const auto parsed = parse_time_control(text);
        ASSERT_TRUE(parsed.ok()) << text;
        EXPECT_EQ(*parsed, control);
    }
    EXPECT_EQ(format_time_control(*parse_time_control("90.50+0")), "90.5+0");
    for (const char* bad : {"", "300", "300+", "+3", "0+0", "86401+0", "60+3601", "1/100", "1/0",
                            "1/31622400", "060+0", "1.2345+0", "5m+3s"})
        EXPECT_FALSE(parse_time_control(bad).ok()) << bad;

    EXPECT_EQ(format_record_time(0), "1970-01-01T00:00:00Z");
    EXPECT_EQ(parse_record_time("2024-02-29T23:59:59Z"), 1709251199);
    EXPECT_EQ(format_record_time(1709251199), "2024-02-29T23:59:59Z");
    for (const char* bad : {"2023-02-29T00:00:00Z", "1969-12-31T23:59:59Z", "2026-13-01T00:00:00Z",
                            "2026-12-01T24:00:00Z", "2026-12-01 12:00:00Z", "2026-12-01T12:00:00",
                            "2026-12-01T12:00:00+01:00"})
        EXPECT_FALSE(parse_record_time(bad).has_value()) << bad;
}

TEST(GameRecord, CommentsAreUpToTheirLimitAndFollowAMove) {
    const std::string moves = "[Variant \"two_foxes\"]\n[Result \"*\"]\n\n";
    const std::string longest(kMaxCommentChars - 1, 'x');
    const ParsedRecord ok = parse_ok(moves + "1. c7-c6 {" + longest + "é}\n*\n");
    EXPECT_EQ(ok.record.moves[0].comment.size(), kMaxCommentChars + 1);  // é is two bytes
    expect_refused(moves + "1. c7-c6 {" + longest + "xy}\n*\n", RecordProblem::kBadComment, 4, 10,
                   "at most 500 characters");
    expect_refused(moves + "{first} 1. c7-c6 *", RecordProblem::kBadComment, 4, 1,
                   "follows the move");
    expect_refused(moves + "1. c7-c6 {one} {two} *", RecordProblem::kBadComment, 4, 16,
                   "at most one per move");
    expect_refused(moves + "1. c7-c6 {open\n} *", RecordProblem::kBadComment, 4, 10, "not closed");
    expect_refused(moves + "1. c7-c6 {a {b} *", RecordProblem::kBadComment, 4, 13, "{ inside");
    expect_refused(moves + "1. {early} c7-c6 *", RecordProblem::kBadComment, 4, 4,
                   "follows the move");
}

TEST(GameRecord, RefusesWhatDoesNotParseWithItsLineAndColumn) {
    const std::string header = kStandardHeader;  // lines 1-4
    struct Case {
        std::string text;
        RecordProblem problem;
        int line;
        int column;
        std::string words;
    };
    const std::vector<Case> cases = {
        {"", RecordProblem::kMissingTag, 1, 1, "starts with its tags"},
        {"1. d4-d5 *", RecordProblem::kMissingTag, 1, 1, "starts with its tags"},
        {"[Result \"*\"]\n\n*", RecordProblem::kMissingTag, 1, 1, "no Variant tag"},
        {"[Variant \"standard\"]\n\n*", RecordProblem::kMissingTag, 1, 1, "no Result tag"},
        {"[Variant \"standard\"]\n[Event \"club night\"]\n", RecordProblem::kUnknownTag, 2, 2,
         "unknown tag Event"},
        {"[Variant \"standard\"]\n[Result \"*\"]\n[Variant \"standard\"]\n",
         RecordProblem::kDuplicateTag, 3, 2, "given twice (first on line 1)"},
        {"[Variant standard]\n", RecordProblem::kSyntax, 1, 10, "in quotes"},
        {"[Variant \"standard]\n", RecordProblem::kSyntax, 1, 20, "not closed"},
        {"[Variant \"standard\"\n", RecordProblem::kSyntax, 1, 20, "not closed with ]"},
        {"[Variant \"standard\"] [Result \"*\"]\n", RecordProblem::kSyntax, 1, 22,
         "one tag per line"},
        {"[ \"standard\"]\n", RecordProblem::kSyntax, 1, 2, "no name"},
        {"[Variant \"chess\"]\n[Result \"*\"]\n\n*", RecordProblem::kUnknownVariant, 1, 11,
         "chess"},
        {"[Variant \"standard\"]\n[Geese \"14\"]\n[Result \"*\"]\n\n*", RecordProblem::kBadOptions,
         2, 9, "14"},
        {"[Variant \"big_cross\"]\n[GeeseSideways \"true\"]\n[Result \"*\"]\n\n*",
         RecordProblem::kBadOptions, 2, 17, ""},
        {"[Variant \"standard\"]\n[Geese \"many\"]\n", RecordProblem::kBadTagValue, 2, 9,
         "13, 15 or 17"},
        {"[Variant \"standard\"]\n[GeeseSideways \"yes\"]\n", RecordProblem::kBadTagValue, 2, 17,
         "true or false"},
        {header + "[Start \"3/3/7/3F3 f 0 0\"]\n[Result \"*\"]\n\n*", RecordProblem::kBadStart, 5,
         9, ""},
        {header + "[Start \"3/3/7/3F3/G2G3/3/G2 f 0 0\"]\n[Result \"*\"]\n\n*",
         RecordProblem::kBadStart, 5, 9, "already be over"},
        // 230,897 jump paths (tests/engine/search/complex_positions_test.cpp).
        {"[Variant \"standard\"]\n[Geese \"17\"]\n[Start \"1G1/GGG/1G1GFG1/GGGGGGG/1G1G1G1/3/3 f 0 "
         "0\"]\n[Result \"*\"]\n\n*",
         RecordProblem::kStartTooComplex, 3, 9, "more than 100000 legal moves"},
        {"[Variant \"standard\"]\n[TimeControl \"5 min\"]\n", RecordProblem::kBadTagValue, 2, 15,
         "300+3"},
        {header + "[Result \"1-0\"]\n\n*", RecordProblem::kBadTagValue, 5, 10, "fox_side_wins"},
        {header + "[Result \"*\"]\n[EndReason \"checkmate\"]\n\n*", RecordProblem::kBadTagValue, 6,
         13, "checkmate"},
        {header + "[Result \"*\"]\n[Created \"yesterday\"]\n\n*", RecordProblem::kBadTagValue, 6,
         11, "2026-12-01T12:00:00Z"},
        {header + "[Result \"*\"]\n[Created \"2026-12-01T12:00:00Z\"]\n[Ended "
                  "\"2026-11-30T12:00:00Z\"]\n\n*",
         RecordProblem::kBadTagValue, 7, 9, "before Created"},
        {header + "[Result \"*\"]\n\n1. d4-d5", RecordProblem::kSyntax, 7, 9, "missing"},
        {header + "[Result \"*\"]\n\n*\n1. d4-d5", RecordProblem::kSyntax, 8, 1,
         "nothing may follow"},
        {header + "[Result \"*\"]\n\n1 d4-d5 *", RecordProblem::kSyntax, 7, 1, "digits and a dot"},
        {header + "[Result \"*\"]\n\n1-0", RecordProblem::kSyntax, 7, 1, "results are words"},
        {header + "[Result \"*\"]\n\n1. 2. d4-d5 *", RecordProblem::kSyntax, 7, 4,
         "follows a move number"},
        {header + "[Result \"*\"]\n\n1. *", RecordProblem::kSyntax, 7, 4, "no move after it"},
        {header + "[Result \"*\"]\n\n1. d4-d5\n[Ended \"2026-12-01T12:00:00Z\"]\n*",
         RecordProblem::kSyntax, 8, 1, "tags come before the moves"},
        {header + "[Result \"*\"]\n\n1. d4-d5 } *", RecordProblem::kSyntax, 7, 10, "without its {"},
        {header + "[Result \"*\"]\n\n1. d4-d9 *", RecordProblem::kBadNotation, 7, 4, "not a point"},
        {header + "[Result \"*\"]\n\n1. d4–d5 *", RecordProblem::kBadNotation, 7, 4, "en dash"},
        {header + "[Result \"*\"]\n\n2. d4-d5 *", RecordProblem::kBadMoveNumber, 7, 1,
         "this move is ply 1"},
        {header + "[Result \"*\"]\n\n1. d4-d5 c3-c4 2. d5-d6 *", RecordProblem::kBadMoveNumber, 7,
         16, "not pairs"},
        {header + "[Result \"*\"]\n\n1. d4-d5 {café}\u0001 *", RecordProblem::kSyntax, 7, 16,
         "control character"},
        {header + "[Result \"*\"]\n\n1. d4-d5 {caf\xE9} *", RecordProblem::kSyntax, 7, 14,
         "not UTF-8"},
        // C1 control characters: U+0085 (next line) and U+009B, which a
        // terminal takes as the start of an escape sequence.
        {header + "[Result \"*\"]\n\n1. d4-d5 {a\u0085b} *", RecordProblem::kSyntax, 7, 12,
         "control character (code 133)"},
        {header + "[Result \"*\"]\n\n1. d4-d5 {\u009B31m} *", RecordProblem::kSyntax, 7, 11,
         "control character (code 155)"},
        {"[Variant \"standard\u009B\"]\n", RecordProblem::kSyntax, 1, 19, "control character"},
        {header + "[Result \"draw\"]\n\n1. d4-d5 *", RecordProblem::kResultMismatch, 7, 10,
         "the Result tag says draw"},
    };
    for (const Case& c : cases)
        expect_refused(c.text, c.problem, c.line, c.column, c.words);
}

TEST(GameRecord, WritesAStoredCommentsControlCharactersAsReplacementCharacters) {
    // As an older server may have stored them; U+00A0 and U+00E9 are kept.
    GameRecord record = played(variant("standard"), std::nullopt, {"d4-d5"});
    record.moves[0].comment = "a\u0085b\u009B31m\u00A0\u00E9\x01\x7F";
    const std::string text = format_record(record);
    EXPECT_THAT(text, HasSubstr("1. d4-d5 {a\uFFFDb\uFFFD31m\u00A0\u00E9\uFFFD\uFFFD}\n"));
    EXPECT_EQ(parse_ok(text).record.moves[0].comment, "a\uFFFDb\uFFFD31m\u00A0\u00E9\uFFFD\uFFFD");
}

TEST(GameRecord, RefusesAnIllegalMoveWithItsPlyAndTheEnginesReason) {
    const std::string text = kStandardHeader + "[Result \"*\"]\n\n1. d4-d5\n2. c3-c4\n3. d5-d7 *\n";
    auto parsed = parse_record(text);
    ASSERT_FALSE(parsed.ok());
    const RecordError& e = parsed.error();
    EXPECT_EQ(e.problem, RecordProblem::kIllegalMove);
    EXPECT_EQ(e.line, 9);
    EXPECT_EQ(e.column, 4);
    EXPECT_EQ(e.ply, 3);
    EXPECT_EQ(e.move, "d5-d7");
    EXPECT_THAT(e.message, HasSubstr("ply 3: d5-d7 is not legal: "));

    // A move after the rules ended the game is as illegal.
    expect_refused(kStandardHeader +
                       "[Start \"3/3/7/3F3/G2G3/3/G1G f 0 0\"]\n[Result \"fox_side_wins\"]\n\n"
                       "1. d4xd2 2. c1-c2 fox_side_wins",
                   RecordProblem::kIllegalMove, 8, 13, "the game is over");
}

TEST(GameRecord, TheResultAndEndReasonMustFitTheMoves) {
    const std::string four =
        kStandardHeader + "[Start \"3/3/7/3F3/G2G3/3/G1G f 0 0\"]\n";  // 5 lines
    const std::string open = kStandardHeader;                          // 4 lines
    // The error is at the EndReason tag's value when there is one, else at
    // the Result tag's.
    struct Case {
        std::string tags;
        std::string moves;
        int line;
        std::string words;
    };
    const std::vector<Case> cases = {
        {four + "[Result \"draw\"]\n", "1. d4xd2 draw", 6, "\"fox_side_wins\" by"},
        {four + "[Result \"fox_side_wins\"]\n[EndReason \"resignation\"]\n",
         "1. d4xd2 fox_side_wins", 7, "not by \"resignation\""},
        {open + "[Result \"geese_win\"]\n", "1. d4-d5 geese_win", 5, "needs an EndReason"},
        {open + "[Result \"*\"]\n[EndReason \"resignation\"]\n", "1. d4-d5 *", 6,
         "win for the other side"},
        {open + "[Result \"fox_side_wins\"]\n[EndReason \"draw_agreed\"]\n",
         "1. d4-d5 fox_side_wins", 6, "\"draw\""},
        {open + "[Result \"fox_side_wins\"]\n[EndReason \"timeout\"]\n", "1. d4-d5 fox_side_wins",
         6, "before both sides have moved"},
        // After two plies the fox is to move: on time the geese win.
        {open + "[Result \"fox_side_wins\"]\n[EndReason \"timeout\"]\n",
         "1. d4-d5 2. c3-c4 fox_side_wins", 6, "\"geese_win\""},
        {open + "[Result \"fox_side_wins\"]\n[EndReason \"opponent_left\"]\n",
         "1. d4-d5 2. c3-c4 fox_side_wins", 6, "claims \"geese_win\" or \"draw\""},
        {open + "[Result \"*\"]\n[EndReason \"aborted\"]\n", "1. d4-d5 2. c3-c4 *", 6,
         "before both sides have moved"},
        {open + "[Result \"draw\"]\n[EndReason \"aborted\"]\n", "draw", 6, "has no result"},
        {open + "[Result \"*\"]\n[EndReason \"expired\"]\n", "1. d4-d5 *", 6, "has no moves"},
        {open + "[Result \"draw\"]\n[EndReason \"threefold_repetition\"]\n", "1. d4-d5 draw", 6,
         "do not end the game by \"threefold_repetition\""},
    };
    for (const Case& c : cases) {
        const bool at_end_reason = c.tags.find("EndReason") != std::string::npos;
        expect_refused(c.tags + "\n" + c.moves + "\n", RecordProblem::kResultMismatch, c.line,
                       at_end_reason ? 13 : 10, c.words);
    }

    // What a game on the server may end with besides the rules.
    for (const std::string& ok :
         {open + "[Result \"geese_win\"]\n[EndReason \"timeout\"]\n\n1. d4-d5 2. c3-c4 geese_win",
          open + "[Result \"draw\"]\n[EndReason \"opponent_left\"]\n\n1. d4-d5 2. c3-c4 draw",
          open + "[Result \"fox_side_wins\"]\n[EndReason \"resignation\"]\n\nfox_side_wins",
          open + "[Result \"draw\"]\n[EndReason \"draw_agreed\"]\n\n1. d4-d5 draw",
          open + "[Result \"*\"]\n[EndReason \"aborted\"]\n\n1. d4-d5 *",
          open + "[Result \"*\"]\n[EndReason \"cancelled\"]\n\n*", open + "[Result \"*\"]\n\n*"})
        parse_ok(ok);
}

TEST(GameRecord, RefusesWhatIsOverItsLimits) {
    const std::string too_long =
        kStandardHeader + "[Result \"*\"]\n\n" + std::string(kMaxRecordBytes, ' ') + "*";
    expect_refused(too_long, RecordProblem::kTooLong, 1, 1, "at most 49152");

    // The ply counter stops at kMaxPly.
    expect_refused(kStandardHeader +
                       "[Start \"3/3/7/3F3/GGGGGGG/GGG/GGG f 0 999999\"]\n"
                       "[Result \"*\"]\n\nd4-d5 c3-c4 *",
                   RecordProblem::kTooManyMoves, 8, 7, "1000000");

    // A long game, one move longer than a record holds: the fox steps, the
    // geese step sideways until the fifty-move rule is near and then
    // forward, and among the moves that keep the game going each side takes
    // the wanted kind first, then the one whose position occurred least.
    const Variant& v = variant("big_cross");
    Game game{Position(v)};
    std::string moves;
    std::size_t count = 0;
    while (count <= kMaxRecordMoves) {
        MoveList legal;
        generate_legal_moves(game.position(), legal);
        const Position& pos = game.position();
        const bool geese = pos.side_to_move() == Side::kGeese;
        const bool advance = geese && pos.quiet_plies() >= 96;
        std::optional<Game> best;
        std::string best_move;
        std::pair<bool, int> best_rank{true, 0};
        for (std::size_t i = 0; i < legal.size(); ++i) {
            const Move& m = legal[i];
            const bool forward = geese && v.board().rank_of(m.to) > v.board().rank_of(m.from);
            const bool wanted = !m.is_jump() && (!geese || forward == advance);
            const std::string notation = format_move(v.board(), m);
            Game next = game;
            if (!next.play(notation).ok() || next.status().over()) continue;
            const std::pair<bool, int> rank{!wanted, next.occurrences()};
            if (!best || rank < best_rank) {
                best = std::move(next);
                best_move = notation;
                best_rank = rank;
            }
        }
        const bool moved = best.has_value();
        if (moved) {
            game = std::move(*best);
            moves += best_move + " ";
        }
        ASSERT_TRUE(moved) << "the walk found no move at ply " << count << " in "
                           << format_position_code(game.position());
        ++count;
    }
    auto parsed = parse_record("[Variant \"big_cross\"]\n[Result \"*\"]\n\n" + moves + "*");
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.error().problem, RecordProblem::kTooManyMoves);
    EXPECT_THAT(parsed.error().message, HasSubstr("at most 2000 moves"));
    // One fewer is a record.
    moves.erase(moves.find_last_of(' ', moves.size() - 2) + 1);
    parse_ok("[Variant \"big_cross\"]\n[Result \"*\"]\n\n" + moves + "*");
}

TEST(GameRecord, ProblemsHaveStableNames) {
    EXPECT_EQ(record_problem_name(RecordProblem::kUnknownTag), "unknown_tag");
    EXPECT_EQ(record_problem_name(RecordProblem::kIllegalMove), "illegal_move");
    EXPECT_EQ(record_problem_name(RecordProblem::kResultMismatch), "result_mismatch");
    EXPECT_EQ(record_problem_name(RecordProblem::kStartTooComplex), "start_too_complex");
    for (RecordEnd end : {RecordEnd{EndReason::kPenFilled, OffRulesEnd::kNone},
                          RecordEnd{EndReason::kNone, OffRulesEnd::kResignation},
                          RecordEnd{EndReason::kNone, OffRulesEnd::kExpired}})
        EXPECT_EQ(record_end_named(record_end_name(end)), end);
    EXPECT_EQ(record_end_name(RecordEnd{EndReason::kFiftyMoveRule, OffRulesEnd::kNone}),
              "fifty_move_rule");
    EXPECT_FALSE(record_end_named("").has_value());
}

}  // namespace
}  // namespace foxgeese
