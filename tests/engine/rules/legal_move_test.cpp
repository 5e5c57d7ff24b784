// find_legal_move(): every way a move can be refused, with a message that
// names the problem, and a property test that it agrees with the generator.
#include "engine/rules/legal_move.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <string_view>

#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"
#include "random_playout.h"

namespace foxgeese {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

const Variant& standard(bool sideways = false) {
    VariantOptions options;
    options.geese_sideways = sideways;
    return **Variant::find("standard", options);
}
const Variant& big_cross() {
    return **Variant::find("big_cross", {});
}
const Variant& two_foxes() {
    return **Variant::find("two_foxes", {});
}

Position position(const Variant& variant, std::string_view code) {
    Result<Position> pos = parse_position_code(variant, code);
    EXPECT_TRUE(pos.ok()) << code << ": " << pos.error().message;
    return *pos;
}

Result<Move> check(const Variant& variant, std::string_view code, std::string_view notation) {
    const Position pos = position(variant, code);
    Result<MovePath> path = parse_move(pos.board(), notation);
    EXPECT_TRUE(path.ok()) << notation;
    if (!path.ok()) return path.error();
    return find_legal_move(pos, *path);
}

// Asserts a refusal with the code and a message containing `word`.
void expect_refused(const Variant& variant, std::string_view code, std::string_view notation,
                    std::string_view word, ErrorCode expected = ErrorCode::kIllegalMove) {
    Result<Move> move = check(variant, code, notation);
    ASSERT_FALSE(move.ok()) << notation << " was accepted in " << code;
    EXPECT_EQ(move.error().code, expected) << notation;
    EXPECT_THAT(move.error().message, HasSubstr(std::string(word))) << notation;
}

// Fox d4, goose d5, three geese on rank 1.
constexpr const char* kFoxNextToGoose = "3/3/3G3/3F3/7/3/GGG f 0 0";
// Geese to move: c2 d2 e2 d3 under the fox on d4.
constexpr const char* kGeeseUnderFox = "3/3/7/3F3/3G3/GGG/3 g 0 0";
// two_foxes: the fox on d5 must capture d5xd3xf3.
constexpr const char* kCompulsory = "F2/3/3F3/3G3/G3G2/GGG/GGG f 0 0";

TEST(FindLegalMove, RefusesAMoveFromAnEmptyPoint) {
    expect_refused(standard(), kFoxNextToGoose, "c4-c5", "no fox on c4");
    expect_refused(standard(), kGeeseUnderFox, "c3-c4", "no goose on c3");
}

TEST(FindLegalMove, RefusesMovingThePieceOfTheOtherSide) {
    expect_refused(standard(), kFoxNextToGoose, "d5-d6", "holds a goose");
    expect_refused(standard(), kGeeseUnderFox, "d4-d5", "holds a fox");
    expect_refused(standard(), kGeeseUnderFox, "d4xd2", "holds a fox");
}

TEST(FindLegalMove, RefusesAStepBetweenPointsThatAreNotLinked) {
    // c2-b3 would cross the missing b2 corner.
    expect_refused(standard(), "GGG/G2/7/7/7/F2/3 f 0 0", "c2-b3", "not joined");
    // e5 on cross45 has no diagonals.
    expect_refused(big_cross(), "G2/3/3/9/4F4/9/3/3/GGG f 0 0", "e5-f6", "not joined");
    expect_refused(standard(), kFoxNextToGoose, "d4-d7", "not joined");
    expect_refused(standard(), kFoxNextToGoose, "d4-d4", "not joined");
}

TEST(FindLegalMove, RefusesAStepOntoAnOccupiedPoint) {
    expect_refused(standard(), kFoxNextToGoose, "d4-d5", "d5 is occupied");
    expect_refused(standard(), kGeeseUnderFox, "d3-d4", "d4 is occupied");
    expect_refused(standard(), kGeeseUnderFox, "c2-d3", "d3 is occupied");
}

TEST(FindLegalMove, RefusesAGooseMovingBackward) {
    expect_refused(standard(), kGeeseUnderFox, "d2-d1", "backward");
    // Diagonally backward along an existing diagonal link.
    expect_refused(standard(), kGeeseUnderFox, "c2-d1", "backward");
    expect_refused(standard(true), kGeeseUnderFox, "e2-d1", "backward");
    expect_refused(two_foxes(), "F1F/3/7/7/GGG1GGG/GGG/3 g 0 0", "c2-c1", "backward");
}

TEST(FindLegalMove, RefusesASidewaysGooseStepWithoutTheOption) {
    expect_refused(standard(), kGeeseUnderFox, "d3-c3", "sideways");
    expect_refused(standard(), kGeeseUnderFox, "d3-e3", "geese_sideways");
    // The same step is legal with the option.
    EXPECT_TRUE(check(standard(true), kGeeseUnderFox, "d3-c3").ok());
}

TEST(FindLegalMove, RefusesAStepWrittenAsAJump) {
    expect_refused(standard(), kFoxNextToGoose, "d4xd5", "not a jump");
    expect_refused(standard(), kFoxNextToGoose, "d4xc3", "not a jump");
}

TEST(FindLegalMove, RefusesAJumpWrittenAsAStepAndShowsTheRightWriting) {
    Result<Move> move = check(standard(), kFoxNextToGoose, "d4-d6");
    ASSERT_FALSE(move.ok());
    EXPECT_EQ(move.error().code, ErrorCode::kIllegalMove);
    EXPECT_THAT(move.error().message, AllOf(HasSubstr("not a step"), HasSubstr("d4xd6")));
}

TEST(FindLegalMove, RefusesAJumpOverAnEmptyPoint) {
    expect_refused(standard(), kFoxNextToGoose, "d4xd2", "no goose on d3");
    expect_refused(standard(), kFoxNextToGoose, "d4xb4", "no goose on c4");
    // The first jump is fine, the second jumps over nothing.
    expect_refused(standard(), "3/3/3G3/2G4/2F4/3/GGG f 0 0", "c3xc5xc7", "no goose on c6");
}

TEST(FindLegalMove, RefusesAJumpOverAFox) {
    expect_refused(two_foxes(), "3/3/3F2G/3F3/G5G/GGG/GGG f 0 0", "d5xd3",
                   "foxes never jump foxes");
}

TEST(FindLegalMove, RefusesJumpingTheSameGooseTwice) {
    expect_refused(standard(), kFoxNextToGoose, "d4xd6xd4", "already captured");
}

TEST(FindLegalMove, RefusesAJumpLandingOnAnOccupiedPoint) {
    expect_refused(standard(), "3/1G1/3G3/3F3/7/3/GGG f 0 0", "d4xd6", "d6 is occupied");
    // Landing on the other fox in two_foxes.
    expect_refused(two_foxes(), "3/3/3F3/3G3/G2F2G/GGG/GGG f 0 0", "d5xd3", "d3 is occupied");
}

TEST(FindLegalMove, RefusesStoppingEarlyUnderCompulsoryCapture) {
    expect_refused(two_foxes(), kCompulsory, "d5xd3", "compulsory");
    expect_refused(two_foxes(), kCompulsory, "d5xd3", "over e3");
    EXPECT_TRUE(check(two_foxes(), kCompulsory, "d5xd3xf3").ok());
}

TEST(FindLegalMove, RefusesStoppingEarlyOnlyUnderCompulsoryCapture) {
    // The same prefix is legal in standard, where capture is optional.
    EXPECT_TRUE(check(standard(), "3/3/3G3/2G4/2F4/3/GGG f 0 0", "c3xc5").ok());
}

TEST(FindLegalMove, RefusesAStepWhenACaptureIsCompulsory) {
    expect_refused(two_foxes(), kCompulsory, "d5-c5", "compulsory");
    // The other fox cannot jump, but it may not step either.
    expect_refused(two_foxes(), kCompulsory, "c7-c6", "compulsory");
}

TEST(FindLegalMove, RefusesAGooseJump) {
    expect_refused(standard(), kGeeseUnderFox, "d3xd5", "geese never jump");
    expect_refused(standard(), kGeeseUnderFox, "c2xc4", "geese never jump");
}

TEST(FindLegalMove, RefusesEveryMoveInAWonPositionWithGameOver) {
    // Three geese left.
    expect_refused(standard(), "3/3/3G3/3F3/7/3/GG1 f 0 0", "d4-c4", "over", ErrorCode::kGameOver);
    expect_refused(standard(), "3/3/3G3/3F3/7/3/GG1 g 0 0", "c1-c2", "over", ErrorCode::kGameOver);
    // The pen is full.
    expect_refused(two_foxes(), "GGG/GGG/2GGG2/7/F5F/3/3 f 0 0", "a3-a4", "over",
                   ErrorCode::kGameOver);
}

TEST(FindLegalMove, AcceptsALoopAndReportsWhatItCaptures) {
    const Position pos = position(standard(), "3/3/3G3/2G1G2/2FG3/3/3 f 0 0");
    Result<MovePath> path = parse_move(pos.board(), "c3xc5xe5xe3xc3");
    ASSERT_TRUE(path.ok());
    Result<Move> move = find_legal_move(pos, *path);
    ASSERT_TRUE(move.ok()) << move.error().message;
    EXPECT_EQ(move->from, move->to);
    EXPECT_EQ(move->jump_count, 4);
    EXPECT_EQ(move->captured, pos.geese());
}

// --- find_legal_move agrees with the generator --------------------------------

// A random path over the board: usually from a piece of the side to move and
// through neighbours or jump landings, sometimes anywhere.
MovePath random_path(const Position& pos, std::mt19937_64& rng) {
    const Board& board = pos.board();
    MovePath path;
    path.jump = rng() % 2 == 0;
    const Bitboard own = pos.side_to_move() == Side::kFox ? pos.foxes() : pos.geese();
    int at;
    if (rng() % 4 != 0) {
        Bitboard pieces = own;
        for (int skip = static_cast<int>(rng() % count(own)); skip > 0; --skip)
            pop_lowest(pieces);
        at = lowest(pieces);
    } else {
        at = static_cast<int>(rng() % board.point_count());
    }
    path.points[path.count++] = static_cast<std::uint8_t>(at);
    const int landings = path.jump ? 1 + static_cast<int>(rng() % 4) : 1;
    for (int i = 0; i < landings; ++i) {
        int next;
        const auto kind = rng() % 8;
        if (kind == 0) {
            next = static_cast<int>(rng() % board.point_count());
        } else if (path.jump && kind != 1) {
            const int lines = static_cast<int>(board.jumps_end(at) - board.jumps_begin(at));
            if (lines == 0) break;
            next = board.jumps_begin(at)[rng() % lines].land;
        } else {
            const int direction = static_cast<int>(rng() % kDirectionCount);
            next = board.neighbour(at, static_cast<Direction>(direction));
            if (next == kNoPoint) next = static_cast<int>(rng() % board.point_count());
        }
        path.points[path.count++] = static_cast<std::uint8_t>(next);
        at = next;
    }
    if (path.count < 2) path.points[path.count++] = static_cast<std::uint8_t>(at);
    return path;
}

TEST(FindLegalMoveProperty, AgreesWithTheGeneratorAlongRandomGames) {
    std::mt19937_64 rng(20240611);
    int positions = 0;
    int accepted = 0;
    int refused = 0;
    int random_accepted = 0;
    for (const Variant* variant : Variant::all()) {
        for (const Position& pos :
             testing::random_playout_positions(*variant, 7 + positions, 250)) {
            ++positions;
            const Board& board = pos.board();
            std::set<std::string> legal;
            for_each_legal_move(pos, [&](const Move& m) {
                const std::string written = format_move(board, m);
                legal.insert(written);
                Result<MovePath> path = parse_move(board, written);
                ASSERT_TRUE(path.ok()) << written;
                Result<Move> found = find_legal_move(pos, *path);
                ASSERT_TRUE(found.ok()) << written << " in " << format_position_code(pos) << ": "
                                        << found.error().message;
                EXPECT_EQ(*found, m) << written;
                EXPECT_EQ(found->captured, m.captured) << written;
                ++accepted;
            });
            for (int i = 0; i < 40; ++i) {
                const MovePath path = random_path(pos, rng);
                const std::string written = format_path(board, path);
                Result<Move> found = find_legal_move(pos, path);
                if (legal.count(written)) {
                    ASSERT_TRUE(found.ok()) << written << " in " << format_position_code(pos);
                    EXPECT_EQ(format_move(board, *found), written);
                    ++random_accepted;
                } else {
                    ASSERT_FALSE(found.ok())
                        << written << " accepted in " << format_position_code(pos);
                    EXPECT_EQ(found.error().code,
                              won_outright(pos) ? ErrorCode::kGameOver : ErrorCode::kIllegalMove)
                        << written;
                    EXPECT_FALSE(found.error().message.empty());
                    ++refused;
                }
            }
            // Every prefix of every listed jump sequence: legal iff listed.
            for (const std::string& written : legal) {
                for (std::size_t cut = written.rfind('x'); cut != std::string::npos && cut > 2;
                     cut = written.rfind('x', cut - 1)) {
                    const std::string prefix = written.substr(0, cut);
                    Result<MovePath> path = parse_move(board, prefix);
                    ASSERT_TRUE(path.ok()) << prefix;
                    EXPECT_EQ(find_legal_move(pos, *path).ok(), legal.count(prefix) == 1)
                        << prefix << " in " << format_position_code(pos);
                }
            }
        }
    }
    EXPECT_EQ(positions, 2000);
    // The random paths must exercise both outcomes to mean anything.
    EXPECT_GT(accepted, 10000);
    EXPECT_GT(refused, 10000);
    EXPECT_GT(random_accepted, 1000);
}

}  // namespace
}  // namespace foxgeese
