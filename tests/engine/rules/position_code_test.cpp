// Position codes: round trips, the lenient forms readers accept, and a clear
// kInvalidPosition error (never a crash) for everything else.
#include "engine/rules/position_code.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/position.h"
#include "engine/rules/variant.h"
#include "random_playout.h"

namespace foxgeese {
namespace {

using ::testing::HasSubstr;
using namespace std::string_literals;

const Variant& standard(int geese = 13) {
    VariantOptions options;
    options.geese = geese;
    return **Variant::find("standard", options);
}
const Variant& big_cross() {
    return **Variant::find("big_cross", {});
}
const Variant& two_foxes() {
    return **Variant::find("two_foxes", {});
}

constexpr const char* kStandardStart = "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0";

TEST(PositionCodeRoundTrip, ParsingTheFormattedCodeGivesThePositionBack) {
    int checked = 0;
    for (const Variant* variant : Variant::all()) {
        for (const Position& pos : testing::random_playout_positions(*variant, 99, 300)) {
            const std::string code = format_position_code(pos);
            Result<Position> parsed = parse_position_code(*variant, code);
            ASSERT_TRUE(parsed.ok()) << code << ": " << parsed.error().message;
            EXPECT_EQ(*parsed, pos) << code;
            EXPECT_EQ(parsed->hash(), pos.hash()) << code;
            EXPECT_EQ(format_position_code(*parsed), code);
            ++checked;
        }
    }
    EXPECT_EQ(checked, 8 * 300);
}

TEST(PositionCodeRoundTrip, RepetitionKeyIsTheCodeWithoutTheCounters) {
    const Position pos(standard());
    EXPECT_EQ(format_repetition_key(pos), "3/3/7/3F3/GGGGGGG/GGG/GGG f");
}

TEST(PositionCodeRoundTrip, CountersAtTheirLimitsRoundTrip) {
    for (const char* code : {"3/3/7/3F3/GGGGGGG/GGG/GGG g 100 1000000",
                             "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 1", "3/3/7/3F3/7/3/3 g 9 10"}) {
        Result<Position> pos = parse_position_code(standard(), code);
        ASSERT_TRUE(pos.ok()) << code << ": " << pos.error().message;
        EXPECT_EQ(format_position_code(*pos), code);
    }
}

TEST(PositionCodeRead, AcceptsLowercasePiecesAndUppercaseSide) {
    const Position start(standard());
    for (const char* code : {"3/3/7/3f3/ggggggg/ggg/ggg f 0 0", "3/3/7/3F3/GgGgGgG/gGg/GGG F 0 0",
                             "3/3/7/3f3/GGGGGGG/GGG/GGG F 0 0"}) {
        Result<Position> pos = parse_position_code(standard(), code);
        ASSERT_TRUE(pos.ok()) << code << ": " << pos.error().message;
        EXPECT_EQ(*pos, start) << code;
        EXPECT_EQ(format_position_code(*pos), kStandardStart);
    }
    Result<Position> geese_to_move =
        parse_position_code(standard(), "3/3/3F3/7/GGGGGGG/GGG/GGG G 1 1");
    ASSERT_TRUE(geese_to_move.ok());
    EXPECT_EQ(geese_to_move->side_to_move(), Side::kGeese);
}

TEST(PositionCodeRead, AcceptsSurroundingSpaces) {
    for (std::string code : {" "s + kStandardStart, kStandardStart + "  "s,
                             "   "s + kStandardStart + "   "s, "\t"s + kStandardStart + "\n"s}) {
        Result<Position> pos = parse_position_code(standard(), code);
        ASSERT_TRUE(pos.ok()) << "'" << code << "': " << pos.error().message;
        EXPECT_EQ(*pos, Position(standard()));
    }
}

TEST(PositionCodeRead, AcceptsEveryStartCodeAndDecidedPositions) {
    EXPECT_TRUE(parse_position_code(standard(15), "3/3/7/G2F2G/GGGGGGG/GGG/GGG f 0 0").ok());
    EXPECT_TRUE(parse_position_code(standard(17), "3/3/G5G/G2F2G/GGGGGGG/GGG/GGG f 0 0").ok());
    EXPECT_TRUE(parse_position_code(big_cross(), "3/3/1F1/9/9/GGGGGGGGG/GGG/GGG/GGG f 0 0").ok());
    EXPECT_TRUE(parse_position_code(two_foxes(), "F1F/3/7/GGGGGGG/GGGGGGG/GGG/GGG f 0 0").ok());
    // No geese at all, a full pen: valid codes of decided positions.
    EXPECT_TRUE(parse_position_code(standard(), "3/3/7/3F3/7/3/3 g 0 9").ok());
    EXPECT_TRUE(parse_position_code(two_foxes(), "GGG/GGG/2GGG2/7/F5F/3/3 f 0 30").ok());
}

TEST(PositionCodeRead, AllowsFewerGeeseThanTheStart) {
    // 17-geese standard reads a 15-geese code, not the other way round.
    EXPECT_TRUE(parse_position_code(standard(17), "3/3/7/G2F2G/GGGGGGG/GGG/GGG f 0 0").ok());
}

bool printable_ascii(const std::string& text) {
    for (char c : text) {
        if (c < 0x20 || c > 0x7e) return false;
    }
    return true;
}

struct BadCode {
    const Variant* variant;
    std::string code;
    std::string word;  // a word the message must contain
};

void expect_invalid(const BadCode& bad) {
    Result<Position> pos = parse_position_code(*bad.variant, bad.code);
    std::string shown = bad.code.substr(0, 80);
    ASSERT_FALSE(pos.ok()) << "accepted: '" << shown << "'";
    EXPECT_EQ(pos.error().code, ErrorCode::kInvalidPosition) << shown;
    EXPECT_FALSE(pos.error().message.empty()) << shown;
    EXPECT_THAT(pos.error().message, HasSubstr(bad.word)) << "'" << shown << "'";
    EXPECT_EQ(pos.error().message.find('\n'), std::string::npos) << shown;
    EXPECT_LT(pos.error().message.size(), 300u) << shown;
}

TEST(PositionCodeReject, WrongNumberOfRanks) {
    for (const BadCode& bad : std::vector<BadCode>{
             {&standard(), "3/3/7/3F3/GGGGGGG/GGG f 0 0", "ranks"},
             {&standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG/3 f 0 0", "ranks"},
             {&standard(), "3F3 f 0 0", "rank 7"},
             {&standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG/ f 0 0", "ranks"},
             // A cross45 code on the cross33 board and the other way round.
             {&standard(), "3/3/1F1/9/9/GGGGGGGGG/GGG/GGG/GGG f 0 0", "rank"},
             {&big_cross(), kStandardStart, "rank"},
         }) {
        expect_invalid(bad);
    }
}

TEST(PositionCodeReject, WrongNumberOfPointsInARank) {
    for (const BadCode& bad : std::vector<BadCode>{
             {&standard(), "3/3/7/3F3/GGGGGG/GGG/GGG f 0 0", "rank 3 describes 6 points"},
             {&standard(), "3/3/7/3F3/GGGGGGGG/GGG/GGG f 0 0", "rank 3"},
             {&standard(), "3/3/7/3F3/GGGGGGG/GGG/GG f 0 0", "rank 1"},
             {&standard(), "4/3/7/3F3/GGGGGGG/GGG/GGG f 0 0", "rank 7"},
             {&standard(), "3/3/8/3F3/GGGGGGG/GGG/GGG f 0 0", "rank 5"},
             {&standard(), "3/3/7/3F4/GGGGGGG/GGG/GGG f 0 0", "rank 4"},
             {&standard(), "3//7/3F3/GGGGGGG/GGG/GGG f 0 0", "rank 6"},
             {&standard(), "3/3/7/3F3/GGGGGGGGGGGGGGGGGGGG/GGG/GGG f 0 0", "rank 3"},
             {&big_cross(), "3/3/1F1/9/8/GGGGGGGGG/GGG/GGG/GGG f 0 0", "rank 5"},
         }) {
        expect_invalid(bad);
    }
}

TEST(PositionCodeReject, TwoDigitsInARowOrTheDigitZero) {
    for (const BadCode& bad : std::vector<BadCode>{
             {&standard(), "3/3/34/3F3/GGGGGGG/GGG/GGG f 0 0", "two digits"},
             {&standard(), "3/3/61/3F3/GGGGGGG/GGG/GGG f 0 0", "two digits"},
             {&standard(), "3/21/7/3F3/GGGGGGG/GGG/GGG f 0 0", "two digits"},
             {&big_cross(), "3/3/1F1/9/45/GGGGGGGGG/GGG/GGG/GGG f 0 0", "two digits"},
             {&standard(), "3/3/07/3F3/GGGGGGG/GGG/GGG f 0 0", "'0'"},
             {&standard(), "3/3/7/3F3/GGGGGGG/GGG/GG0G f 0 0", "'0'"},
         }) {
        expect_invalid(bad);
    }
}

TEST(PositionCodeReject, UnknownPieceLetters) {
    for (const char* piece : {"X", "K", ".", "-", "*", "P", "x", "N"}) {
        expect_invalid({&standard(), "3/3/7/3F3/GGG" + std::string(piece) + "GGG/GGG/GGG f 0 0",
                        "'" + std::string(piece) + "'"});
    }
}

TEST(PositionCodeReject, WrongNumberOfFoxes) {
    for (const BadCode& bad : std::vector<BadCode>{
             {&standard(), "3/3/7/7/GGGGGGG/GGG/GGG f 0 0", "fox"},
             {&standard(), "3/3/7/2FF3/GGGGGGG/GGG/GGG f 0 0", "fox"},
             {&big_cross(), "3/3/3/9/9/GGGGGGGGG/GGG/GGG/GGG f 0 0", "fox"},
             {&two_foxes(), "F2/3/7/GGGGGGG/GGGGGGG/GGG/GGG f 0 0", "2 foxes"},
             {&two_foxes(), "FFF/3/7/GGGGGGG/GGGGGGG/GGG/GGG f 0 0", "2 foxes"},
         }) {
        expect_invalid(bad);
    }
}

TEST(PositionCodeReject, MoreGeeseThanTheVariantStartsWith) {
    for (const BadCode& bad : std::vector<BadCode>{
             {&standard(), "3/3/7/G2F3/GGGGGGG/GGG/GGG f 0 0", "geese"},
             {&standard(), "3/3/7/G2F2G/GGGGGGG/GGG/GGG f 0 0", "13 geese"},
             {&standard(15), "3/3/G5G/G2F2G/GGGGGGG/GGG/GGG f 0 0", "15 geese"},
             {&big_cross(), "3/3/1F1/9/G8/GGGGGGGGG/GGG/GGG/GGG f 0 0", "18 geese"},
             {&two_foxes(), "F1F/3/G6/GGGGGGG/GGGGGGG/GGG/GGG f 0 0", "20 geese"},
         }) {
        expect_invalid(bad);
    }
}

TEST(PositionCodeReject, BadSideToMove) {
    for (const char* side : {"x", "fox", "ff", "0", "geese", "b", "w"}) {
        expect_invalid({&standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG " + std::string(side) + " 0 0",
                        "side to move"});
    }
}

TEST(PositionCodeReject, CountersOutOfRangeOrNotPlainNumbers) {
    const std::string placement = "3/3/7/3F3/GGGGGGG/GGG/GGG f ";
    for (const char* quiet : {"101", "-1", "+1", "01", "00", "1a", "a", "0x1", "1.0", "1e2",
                              "99999999", "2147483648", "-2147483649", "٣"}) {
        expect_invalid({&standard(), placement + quiet + " 0", "quiet-ply counter"});
    }
    for (const char* ply : {"1000001", "-1", "+0", "007", "12b", "1,000", "99999999999"}) {
        expect_invalid({&standard(), placement + "0 " + ply, "ply counter"});
    }
}

TEST(PositionCodeReject, CountersWithAMinusSignEvenForZero) {
    // "-0" is a sign in front of a number: not a plain counter.
    const std::string placement = "3/3/7/3F3/GGGGGGG/GGG/GGG f ";
    expect_invalid({&standard(), placement + "-0 0", "quiet-ply counter"});
    expect_invalid({&standard(), placement + "0 -0", "ply counter"});
}

TEST(PositionCodeReject, MissingOrExtraFields) {
    for (const BadCode& bad : std::vector<BadCode>{
             {&standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG f 0", "4 fields"},
             {&standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG f", "4 fields"},
             {&standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG", "4 fields"},
             {&standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0 0", "4 fields"},
             {&standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0 extra", "4 fields"},
             {&standard(), "f 0 0", "4 fields"},
         }) {
        expect_invalid(bad);
    }
}

TEST(PositionCodeReject, SeparatorsOtherThanSingleSpaces) {
    for (const BadCode& bad : std::vector<BadCode>{
             {&standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG  f 0 0", "single spaces"},
             {&standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG f 0  0", "single spaces"},
             {&standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG\tf 0 0", "fields"},
             {&standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG f\t0\t0", "fields"},
             {&standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG\nf 0 0", "fields"},
             {&standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG,f,0,0", "fields"},
             {&standard(), "3 3 7 3F3 GGGGGGG GGG GGG f 0 0", "fields"},
         }) {
        expect_invalid(bad);
    }
}

TEST(PositionCodeReject, EmptyOrBlank) {
    for (const char* code : {"", " ", "   ", "\t", "\n"})
        expect_invalid({&standard(), code, "empty"});
}

TEST(PositionCodeReject, HugeInputIsRefusedByLength) {
    expect_invalid({&standard(), std::string(10 * 1024, 'G'), "longer than"});
    expect_invalid({&standard(), std::string(10 * 1024, ' '), "longer than"});
    expect_invalid({&standard(), kStandardStart + std::string(10 * 1024, ' '), "longer than"});
    // Just under the limit is read (and rejected for what it says).
    expect_invalid(
        {&standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 " + std::string(200, '1'), "ply counter"});
}

TEST(PositionCodeReject, EmbeddedNulBytes) {
    for (const std::string& code :
         {"3/3/7/3F3/GGG\0GGG/GGG/GGG f 0 0"s, "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0\0"s,
          "3/3/7/3F3/GGGGGGG/GGG/GGG f\0 0 0"s, "\0"s, "\0 3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0"s}) {
        Result<Position> pos = parse_position_code(standard(), code);
        ASSERT_FALSE(pos.ok()) << code.size();
        EXPECT_EQ(pos.error().code, ErrorCode::kInvalidPosition);
        EXPECT_FALSE(pos.error().message.empty());
    }
    expect_invalid({&standard(), "3/3/7/3F3/GGG\0GGG/GGG/GGG f 0 0"s, "byte 0"});
}

TEST(PositionCodeReject, NonAsciiBytes) {
    for (const std::string& code :
         {"3/3/7/3F3/GGGÉGGG/GGG/GGG f 0 0"s, "3/3/7/3F3/GGG\xffGGG/GGG/GGG f 0 0"s,
          "3/3/7/3F3/GGGGGGG/GGG/GGG \xc6\x92 0 0"s, "\xef\xbb\xbf" + std::string(kStandardStart),
          "３/3/7/3F3/GGGGGGG/GGG/GGG f 0 0"s}) {
        expect_invalid({&standard(), code, "invalid position code"});
    }
    expect_invalid({&standard(), "3/3/7/3F3/GGG\xffGGG/GGG/GGG f 0 0"s, "byte 255"});
}

TEST(PositionCodeReject, MessagesQuoteOnlyPrintableAscii) {
    // Messages go to logs and API responses (protobuf strings must be valid
    // UTF-8), so input bytes are shown escaped, as notation errors do, in
    // every field.
    for (const std::string& code :
         {"3/3/7/3F3/GGG\0GGG/GGG/GGG f 0 0"s, "3/3/7/3F3/GGG\xffGGG/GGG/GGG f 0 0"s,
          "3/3/7/3F3/GGGGGGG/GGG/GGG \xc6\x92 0 0"s, "3/3/7/3F3/GGGGGGG/GGG/GGG \xff 0 0"s,
          "3/3/7/3F3/GGGGGGG/GGG/GGG f\0 0 0"s, "3/3/7/3F3/GGGGGGG/GGG/GGG f 1\x01 0"s,
          "3/3/7/3F3/GGGGGGG/GGG/GGG f \xd9\xa3 0"s, "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0\0"s,
          "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 \xff"s}) {
        Result<Position> pos = parse_position_code(standard(), code);
        ASSERT_FALSE(pos.ok());
        EXPECT_TRUE(printable_ascii(pos.error().message)) << pos.error().message;
    }
}

TEST(PositionCodeReject, MessagesNameTheProblem) {
    Result<Position> pos = parse_position_code(standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG f 101 0");
    ASSERT_FALSE(pos.ok());
    EXPECT_THAT(pos.error().message, HasSubstr("0 to 100"));
    EXPECT_THAT(pos.error().message, HasSubstr("101"));
}

}  // namespace
}  // namespace foxgeese
