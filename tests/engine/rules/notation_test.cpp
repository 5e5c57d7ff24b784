// Move notation: round trips of generated moves, the lenient forms parsers
// accept, and a clear kInvalidNotation error for everything else.
#include "engine/rules/notation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/movegen.h"
#include "engine/rules/position.h"
#include "engine/rules/variant.h"
#include "random_playout.h"

namespace foxgeese {
namespace {

using ::testing::HasSubstr;
using namespace std::string_literals;

const Board& cross33() {
    return Board::cross33();
}
const Board& cross45() {
    return Board::cross45();
}

int point(const Board& board, std::string_view name) {
    return board.point_at(name[0] - 'a', name[1] - '1');
}

// The path as point names, for readable comparisons.
std::vector<std::string> names(const Board& board, const MovePath& path) {
    std::vector<std::string> out;
    for (int i = 0; i < path.count; ++i)
        out.push_back(board.point_name(path.points[i]));
    return out;
}

// A message a person can read and any log or API can carry.
bool printable_ascii(const std::string& text) {
    for (char c : text) {
        if (c < 0x20 || c > 0x7e) return false;
    }
    return true;
}

TEST(NotationRoundTrip, GeneratedMovesParseBackToTheirPath) {
    int checked = 0;
    for (const Variant* variant : Variant::all()) {
        for (const Position& pos : testing::random_playout_positions(*variant, 5, 250)) {
            const Board& board = pos.board();
            for_each_legal_move(pos, [&](const Move& m) {
                const std::string written = format_move(board, m);
                Result<MovePath> path = parse_move(board, written);
                ASSERT_TRUE(path.ok()) << written << ": " << path.error().message;
                EXPECT_EQ(path->jump, m.is_jump()) << written;
                ASSERT_EQ(path->count, m.jump_count + (m.is_jump() ? 1 : 2)) << written;
                EXPECT_EQ(path->points[0], m.from);
                if (m.is_jump()) {
                    for (int i = 0; i < m.jump_count; ++i)
                        EXPECT_EQ(path->points[i + 1], m.path[i]) << written;
                } else {
                    EXPECT_EQ(path->points[1], m.to) << written;
                }
                EXPECT_EQ(format_path(board, *path), written);
                ++checked;
            });
        }
    }
    EXPECT_GT(checked, 10000);
}

TEST(NotationRoundTrip, EveryPointNameParsesToItsPoint) {
    for (const Board* board : {&cross33(), &cross45()}) {
        for (int p = 0; p < board->point_count(); ++p) {
            const std::string name = board->point_name(p);
            Result<int> parsed = parse_point(*board, name);
            ASSERT_TRUE(parsed.ok()) << name;
            EXPECT_EQ(*parsed, p);
        }
    }
}

TEST(NotationWrite, CanonicalFormIsLowercaseWithDashOrX) {
    const Board& b = cross33();
    EXPECT_EQ(format_move(b, Move::step(point(b, "d4"), point(b, "d5"))), "d4-d5");
    Move jump;
    jump.from = static_cast<std::uint8_t>(point(b, "e7"));
    jump.path[0] = static_cast<std::uint8_t>(point(b, "c5"));
    jump.path[1] = static_cast<std::uint8_t>(point(b, "a3"));
    jump.jump_count = 2;
    jump.to = jump.path[1];
    EXPECT_EQ(format_move(b, jump), "e7xc5xa3");
}

TEST(NotationRead, AcceptsUpperCaseAndSurroundingSpaces) {
    const Board& b = cross33();
    for (const char* text :
         {"d4-d5", "D4-D5", "d4-D5", " d4-d5", "d4-d5 ", "\td4-d5\n", "  D4-d5\r\n"}) {
        Result<MovePath> path = parse_move(b, text);
        ASSERT_TRUE(path.ok()) << "'" << text << "': " << path.error().message;
        EXPECT_FALSE(path->jump);
        EXPECT_EQ(names(b, *path), (std::vector<std::string>{"d4", "d5"})) << text;
    }
    for (const char* text : {"e7xc5xa3", "E7XC5XA3", "e7Xc5xA3", " e7xc5xa3  "}) {
        Result<MovePath> path = parse_move(b, text);
        ASSERT_TRUE(path.ok()) << "'" << text << "': " << path.error().message;
        EXPECT_TRUE(path->jump);
        EXPECT_EQ(names(b, *path), (std::vector<std::string>{"e7", "c5", "a3"})) << text;
        EXPECT_EQ(format_path(b, *path), "e7xc5xa3");
    }
}

TEST(NotationRead, AcceptsPointsThatExistOnlyOnTheBigBoard) {
    // h5 and e9 are points of cross45, not of cross33.
    EXPECT_TRUE(parse_move(cross45(), "h5-i5").ok());
    EXPECT_TRUE(parse_move(cross45(), "e9-e8").ok());
    EXPECT_FALSE(parse_move(cross33(), "h5-i5").ok());
    EXPECT_FALSE(parse_move(cross33(), "e9-e8").ok());
}

TEST(NotationRead, SyntaxIsCheckedNotLegality) {
    // A path the rules forbid still parses: find_legal_move() judges it.
    Result<MovePath> path = parse_move(cross33(), "a3-g5");
    ASSERT_TRUE(path.ok());
    EXPECT_EQ(names(cross33(), *path), (std::vector<std::string>{"a3", "g5"}));
    EXPECT_TRUE(parse_move(cross33(), "d4xd4").ok());
}

TEST(NotationRead, AcceptsAJumpSequenceOfTwentyJumps) {
    std::string text = "d4";
    for (int i = 0; i < 20; ++i)
        text += i % 2 == 0 ? "xd6" : "xd4";
    Result<MovePath> path = parse_move(cross33(), text);
    ASSERT_TRUE(path.ok()) << path.error().message;
    EXPECT_EQ(path->count, 21);
}

struct BadMove {
    const Board* board;
    std::string text;
    std::string word;  // a word the message must contain
};

void expect_invalid(const BadMove& bad) {
    Result<MovePath> path = parse_move(*bad.board, bad.text);
    const std::string shown = bad.text.substr(0, 60);
    ASSERT_FALSE(path.ok()) << "accepted: '" << shown << "'";
    EXPECT_EQ(path.error().code, ErrorCode::kInvalidNotation) << shown;
    EXPECT_FALSE(path.error().message.empty()) << shown;
    EXPECT_THAT(path.error().message, HasSubstr(bad.word)) << "'" << shown << "'";
    EXPECT_TRUE(printable_ascii(path.error().message)) << path.error().message;
    EXPECT_LT(path.error().message.size(), 300u);
}

TEST(NotationReject, EmptyOrBlank) {
    for (const char* text : {"", " ", "\t", "\r\n"})
        expect_invalid({&cross33(), text, "empty"});
}

TEST(NotationReject, SinglePoint) {
    expect_invalid({&cross33(), "d4", "single point"});
    expect_invalid({&cross33(), " D4 ", "single point"});
}

TEST(NotationReject, PointsOffTheBoard) {
    for (const BadMove& bad : std::vector<BadMove>{
             {&cross33(), "b2-b3", "b2 is not a point of the cross33 board"},
             {&cross33(), "d4-b2", "b2 is not a point"},
             {&cross33(), "a1-a2", "a1 is not a point"},
             {&cross33(), "h4-g4", "h4 is not a point"},
             {&cross45(), "b2-b3", "b2 is not a point of the cross45 board"},
             {&cross33(), "j5-j6", "not a point"},
             {&cross45(), "j5-i5", "not a point"},
             {&cross45(), "z9-z8", "not a point"},
             {&cross33(), "a10-a9", "rank"},
             {&cross45(), "e10-e9", "rank"},
             {&cross33(), "d0-d1", "rank"},
             {&cross33(), "d4-d0", "rank"},
             {&cross33(), "d8-d7", "not a point"},
         }) {
        expect_invalid(bad);
    }
}

TEST(NotationReject, LookAlikeSeparatorsAreNamed) {
    expect_invalid({&cross33(), "d4\u2013d5", "en dash (U+2013)"});
    expect_invalid({&cross33(), "d4\u2014d5", "em dash"});
    expect_invalid({&cross33(), "d4\u2212d5", "minus sign"});
    expect_invalid({&cross33(), "d4\u2011d5", "non-breaking hyphen"});
    expect_invalid({&cross33(), "d4\u00d7d6", "multiplication sign"});
    expect_invalid({&cross33(), "d4\u2013d5", "a step as d4-d5"});
}

TEST(NotationReject, MixedSeparators) {
    expect_invalid({&cross33(), "d4xd6-d7", "mixed"});
    expect_invalid({&cross33(), "d4-d5xd6", "mixed"});
    expect_invalid({&cross33(), "e7xc5-c4xa3", "mixed"});
}

TEST(NotationReject, MissingPointAroundASeparator) {
    for (const char* text :
         {"d4-", "d4x", "-d4", "xd4", "d4--d5", "d4xxd6", "d4xd6x", "-", "x", "d4- ", "d4 -d5"}) {
        Result<MovePath> path = parse_move(cross33(), text);
        ASSERT_FALSE(path.ok()) << text;
        EXPECT_EQ(path.error().code, ErrorCode::kInvalidNotation) << text;
        EXPECT_FALSE(path.error().message.empty()) << text;
    }
    expect_invalid({&cross33(), "d4-", "missing"});
    expect_invalid({&cross33(), "d4--d5", "missing"});
}

TEST(NotationReject, StepWithMoreThanTwoPoints) {
    expect_invalid({&cross33(), "d4-d5-d6", "a step goes to one"});
    expect_invalid({&cross33(), "c3-c4-c5-c6", "with x"});
}

TEST(NotationReject, JumpSequenceLongerThanTwentyJumps) {
    std::string text = "d4";
    for (int i = 0; i < 24; ++i)
        text += i % 2 == 0 ? "xd6" : "xd4";  // 25 points
    expect_invalid({&cross33(), text, "at most 20 jumps"});
    std::string just_over = "d4";
    for (int i = 0; i < 21; ++i)
        just_over += i % 2 == 0 ? "xd6" : "xd4";
    expect_invalid({&cross33(), just_over, "at most 20 jumps"});
}

TEST(NotationReject, Garbage) {
    for (const BadMove& bad : std::vector<BadMove>{
             {&cross33(), "hello", "file letter then a rank"},
             {&cross33(), "44-55", "file letter"},
             {&cross33(), "dd-ee", "rank"},
             {&cross33(), "d4 d5", "file letter then a rank"},
             {&cross33(), "d4_d5", "file letter then a rank"},
             {&cross33(), "d4:d5", "file letter then a rank"},
             {&cross33(), "d4-d5 extra", "file letter then a rank"},
             {&cross33(), "d4-d5;", "file letter then a rank"},
             {&cross33(), "!!", "file letter"},
             {&cross33(), "d", "expected a point"},
             {&cross33(), "d4-5", "expected a point"},
             {&cross33(), "4d-5d", "file letter"},
             {&cross33(), "d44-d5", "file letter then a rank"},
             {&cross33(), "d4–d5", "en dash"},
             {&cross33(), "d4×d6", "multiplication sign"},
         }) {
        expect_invalid(bad);
    }
}

TEST(NotationReject, NulAndNonAsciiBytes) {
    for (const BadMove& bad : std::vector<BadMove>{
             {&cross33(), "d4\0-d5"s, "d4?"},
             {&cross33(), "d4-d5\0"s, "d5?"},
             {&cross33(), "\0d4-d5"s, "file letter"},
             {&cross33(), "\0"s, "expected a point"},
             {&cross33(), "d4-\xff\xfe"s, "file letter"},
             {&cross33(), "\xc3\xa9\xc3\xa9-d5"s, "file letter"},
             {&cross33(), "ｄ４-ｄ５", "file letter"},
         }) {
        expect_invalid(bad);
    }
}

TEST(NotationReject, HugeInputIsRefusedByLength) {
    expect_invalid({&cross33(), std::string(10 * 1024, 'x'), "at most 128 characters"});
    expect_invalid({&cross33(), "d4-d5" + std::string(10 * 1024, ' '), "at most 128 characters"});
    expect_invalid({&cross33(), std::string(129, 'd'), "at most 128 characters"});
}

TEST(PointReject, ParsePointRefusesWhatIsNotAPoint) {
    for (const char* text : {"", "d", "d44", "4d", "D0", "b2", "j5", "a10", "-d4", "d4 "}) {
        Result<int> p = parse_point(cross33(), text);
        ASSERT_FALSE(p.ok()) << text;
        EXPECT_EQ(p.error().code, ErrorCode::kInvalidNotation) << text;
        EXPECT_FALSE(p.error().message.empty()) << text;
    }
    EXPECT_EQ(*parse_point(cross33(), "D4"), point(cross33(), "d4"));
}

}  // namespace
}  // namespace foxgeese
