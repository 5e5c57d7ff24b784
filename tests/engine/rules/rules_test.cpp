// The move rules, one test per rule, each from a hand-made position code and
// checked against the exact sorted list of legal moves.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"

namespace foxgeese {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using Moves = std::vector<std::string>;

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

Moves moves(const Variant& variant, std::string_view code) {
    const Position pos = position(variant, code);
    Moves out;
    for_each_legal_move(pos, [&](const Move& m) { out.push_back(format_move(pos.board(), m)); });
    std::sort(out.begin(), out.end());
    return out;
}

// The position after playing a generated move given in notation.
Position after(const Variant& variant, std::string_view code, std::string_view notation) {
    Position pos = position(variant, code);
    bool found = false;
    Move chosen;
    for_each_legal_move(pos, [&](const Move& m) {
        if (format_move(pos.board(), m) == notation) {
            chosen = m;
            found = true;
        }
    });
    EXPECT_TRUE(found) << notation << " is not generated in " << code;
    UndoInfo undo;
    if (found) pos.make(chosen, undo);
    return pos;
}

// --- Fox steps -------------------------------------------------------------

TEST(FoxStep, FoxStepsAlongEveryLinkInAllEightDirections) {
    // Fox alone in the middle of cross33: every neighbour is linked, diagonals included.
    EXPECT_THAT(
        moves(standard(), "3/3/7/3F3/7/GGG/GGG f 0 0"),
        ElementsAre("d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-d5", "d4-e3", "d4-e4", "d4-e5"));
}

TEST(FoxStep, FoxStepsOnlyAlongLinksNotAcrossAMissingCorner) {
    // c2-b3 is no link on cross33 because b2 does not exist; c2-d1 and c2-d3 are.
    EXPECT_THAT(moves(standard(), "GGG/G2/7/7/7/F2/3 f 0 0"),
                ElementsAre("c2-c1", "c2-c3", "c2-d1", "c2-d2", "c2-d3"));
}

TEST(FoxStep, FoxStepsOnlyToEmptyPoints) {
    EXPECT_THAT(moves(standard(), "3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0"),
                ElementsAre("d4-c4", "d4-c5", "d4-d5", "d4-e4", "d4-e5"));
}

TEST(FoxStep, Cross45PointWithEvenFileAndRankSumHasNoDiagonals) {
    // e5: 5 + 5 is even, so only the four orthogonal links.
    EXPECT_THAT(moves(big_cross(), "G2/3/3/9/4F4/9/3/3/GGG f 0 0"),
                ElementsAre("e5-d5", "e5-e4", "e5-e6", "e5-f5"));
}

TEST(FoxStep, Cross45PointWithOddFileAndRankSumHasBothDiagonals) {
    // e4: 5 + 4 is odd.
    EXPECT_THAT(
        moves(big_cross(), "G2/3/3/9/9/4F4/3/3/GGG f 0 0"),
        ElementsAre("e4-d3", "e4-d4", "e4-d5", "e4-e3", "e4-e5", "e4-f3", "e4-f4", "e4-f5"));
    // d5: 4 + 5 is odd.
    EXPECT_THAT(
        moves(big_cross(), "G2/3/3/9/3F5/9/3/3/GGG f 0 0"),
        ElementsAre("d5-c4", "d5-c5", "d5-c6", "d5-d4", "d5-d6", "d5-e4", "d5-e5", "d5-e6"));
}

TEST(FoxStep, BigCrossFoxStartsOnE7WithoutDiagonals) {
    EXPECT_THAT(moves(big_cross(), "3/3/1F1/9/9/GGGGGGGGG/GGG/GGG/GGG f 0 0"),
                ElementsAre("e7-d7", "e7-e6", "e7-e8", "e7-f7"));
}

// --- Fox jumps -------------------------------------------------------------

TEST(FoxJump, FoxJumpsOverAnAdjacentGooseToTheEmptyPointBeyond) {
    EXPECT_THAT(
        moves(standard(), "3/3/3G3/3F3/7/3/GGG f 0 0"),
        ElementsAre("d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-e3", "d4-e4", "d4-e5", "d4xd6"));
}

TEST(FoxJump, JumpRemovesTheGooseAndResetsTheQuietPlies) {
    const Position pos = after(standard(), "3/3/3G3/3F3/7/3/GGG f 7 30", "d4xd6");
    EXPECT_EQ(format_position_code(pos), "3/1F1/7/7/7/3/GGG g 0 31");
}

TEST(FoxJump, NoJumpWhenThePointBeyondIsOccupied) {
    // d5 is a goose but d6 is taken too.
    EXPECT_THAT(moves(standard(), "3/1G1/3G3/3F3/7/3/GGG f 0 0"),
                ElementsAre("d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-e3", "d4-e4", "d4-e5"));
}

TEST(FoxJump, NoJumpAlongALineThatIsNotThere) {
    // d1-c2-b3 is no line on cross33: c2-b3 is not a link (b2 does not exist).
    EXPECT_THAT(moves(standard(), "GGG/3/7/7/7/G2/1F1 f 0 0"),
                ElementsAre("d1-c1", "d1-d2", "d1-e1", "d1-e2"));
    // On cross45, e5 has no diagonals, so a goose on f6 cannot be jumped from e5...
    EXPECT_THAT(moves(big_cross(), "G2/3/3/5G3/4F4/9/3/3/GG1 f 0 0"),
                ElementsAre("e5-d5", "e5-e4", "e5-e6", "e5-f5"));
    // ...while e4-f5-g6 is a diagonal line.
    EXPECT_THAT(
        moves(big_cross(), "G2/3/3/9/5G3/4F4/3/3/GG1 f 0 0"),
        ElementsAre("e4-d3", "e4-d4", "e4-d5", "e4-e3", "e4-e5", "e4-f3", "e4-f4", "e4xg6"));
}

TEST(FoxJump, MultiJumpChangesDirectionInOneTurn) {
    // c3 over c4 to c5 (north), then over d5 to e5 (east).
    EXPECT_THAT(
        moves(standard(), "3/3/3G3/2G4/2F4/3/GGG f 0 0"),
        ElementsAre("c3-b3", "c3-b4", "c3-c2", "c3-d2", "c3-d3", "c3-d4", "c3xc5", "c3xc5xe5"));
    EXPECT_EQ(format_position_code(after(standard(), "3/3/3G3/2G4/2F4/3/GGG f 0 0", "c3xc5xe5")),
              "3/3/4F2/7/7/3/GGG g 0 1");
}

// Standard and big_cross: capture is optional, every prefix of a sequence is a
// move of its own, and steps stay legal next to a possible jump.
TEST(OptionalCapture, StandardListsEveryPrefixAndKeepsTheSteps) {
    const Moves list = moves(standard(), "3/3/3G3/2G4/2F4/3/GGG f 0 0");
    EXPECT_NE(std::find(list.begin(), list.end(), "c3xc5"), list.end());
    EXPECT_NE(std::find(list.begin(), list.end(), "c3xc5xe5"), list.end());
    EXPECT_NE(std::find(list.begin(), list.end(), "c3-d4"), list.end());
}

TEST(OptionalCapture, BigCrossListsEveryPrefixAndKeepsTheSteps) {
    EXPECT_THAT(moves(big_cross(), "3/1G1/3/4G4/4F4/9/3/3/GGG f 0 0"),
                ElementsAre("e5-d5", "e5-e4", "e5-f5", "e5xe7", "e5xe7xe9"));
}

TEST(JumpPath, SequenceMayLoopBackToItsOriginAndDifferentPathsAreDifferentMoves) {
    // Four geese around c3-e5: the fox can go round either way, and each way
    // ends back on c3; the two loops capture the same geese but are two moves.
    EXPECT_THAT(
        moves(standard(), "3/3/3G3/2G1G2/2FG3/3/3 f 0 0"),
        ElementsAre("c3-b3", "c3-b4", "c3-c2", "c3-d2", "c3-d4", "c3xc5", "c3xc5xe5", "c3xc5xe5xe3",
                    "c3xc5xe5xe3xc3", "c3xe3", "c3xe3xe5", "c3xe3xe5xc5", "c3xe3xe5xc5xc3"));
}

TEST(JumpPath, LoopBackToTheOriginLeavesTheFoxThereAndRemovesEveryJumpedGoose) {
    const char* code = "3/3/3G3/2G1G2/2FG3/GGG/GGG f 0 0";
    for (const char* loop : {"c3xc5xe5xe3xc3", "c3xe3xe5xc5xc3"}) {
        const Position pos = after(standard(), code, loop);
        EXPECT_EQ(format_position_code(pos), "3/3/7/7/2F4/GGG/GGG g 0 1") << loop;
        EXPECT_EQ(pos.hash(), pos.compute_hash()) << loop;
    }
}

TEST(JumpPath, JumpSequenceMayPassThroughItsOriginAndGoOn) {
    // Geese c4, e4, d5, e5 around the fox on d4: d4xd6xf4xd4 comes back to d4
    // (lifted off at the start) and goes on over c4 to b4. Both ways round are
    // listed, each prefix too, and two paths to the same point are two moves.
    EXPECT_THAT(
        moves(standard(), "3/3/3GG2/2GFG2/7/3/3 f 0 0"),
        ElementsAre("d4-c3", "d4-c5", "d4-d3", "d4-e3", "d4xb4", "d4xd6", "d4xd6xf4", "d4xd6xf4xd4",
                    "d4xd6xf4xd4xb4", "d4xf4", "d4xf4xd6", "d4xf4xd6xd4", "d4xf4xd6xd4xb4"));
}

// --- Compulsory capture (two_foxes) -----------------------------------------

TEST(CompulsoryCapture, WhenAFoxCanJumpOnlyMaximalJumpSequencesAreLegal) {
    // d5 over d4 to d3, then east over e3 to f3. The prefix d5xd3, every step and
    // the other fox's steps are all illegal.
    EXPECT_THAT(moves(two_foxes(), "F2/3/3F3/3G3/G3G2/GGG/GGG f 0 0"), ElementsAre("d5xd3xf3"));
}

TEST(CompulsoryCapture, EitherFoxMayCaptureWhenBothCan) {
    EXPECT_THAT(moves(two_foxes(), "3/3/2F1F2/2G1G2/G6/GGG/GGG f 0 0"),
                ElementsAre("c5xc3", "e5xe3"));
}

TEST(CompulsoryCapture, BothLoopsAreMovesButNoPrefixIs) {
    EXPECT_THAT(moves(two_foxes(), "F2/3/3G3/2G1G2/2FG3/GGG/GGG f 0 0"),
                ElementsAre("c3xc5xe5xe3xc3", "c3xe3xe5xc5xc3"));
}

TEST(CompulsoryCapture, MaximalSequencesOfDifferentLengthsAreAllLegal) {
    // West: d4xb4 goes on over c3 to d2, so only d4xb4xd2; east: d4xf4 cannot
    // go on, so the one-jump sequence is a move. Compulsory capture does not
    // mean the longest capture.
    EXPECT_THAT(moves(two_foxes(), "F2/3/7/2GFG2/2G3G/G1G/GGG f 0 0"),
                ElementsAre("d4xb4xd2", "d4xf4"));
}

TEST(CompulsoryCapture, TheOtherFoxBlocksALandingPoint) {
    // The fox on d5 would jump d4 to d3, but the other fox stands on d3; nobody
    // can jump, so steps are legal.
    EXPECT_THAT(moves(two_foxes(), "3/3/3F3/3G3/G2F2G/GGG/GGG f 0 0"),
                ElementsAre("d3-c3", "d3-c4", "d3-e3", "d3-e4", "d5-c4", "d5-c5", "d5-c6", "d5-d6",
                            "d5-e4", "d5-e5", "d5-e6"));
}

TEST(CompulsoryCapture, FoxesNeverJumpFoxes) {
    // d5 next to the fox on d4 with d3 empty: no jump.
    EXPECT_THAT(moves(two_foxes(), "3/3/3F2G/3F3/G5G/GGG/GGG f 0 0"),
                ElementsAre("d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-e3", "d4-e4", "d4-e5", "d5-c4",
                            "d5-c5", "d5-c6", "d5-d6", "d5-e4", "d5-e5", "d5-e6"));
}

// --- Geese -------------------------------------------------------------------

TEST(GooseStep, GeeseStepForwardAndDiagonallyForwardOnlyWithoutTheOption) {
    // No jumps (d3 over the fox), no backward or sideways steps, no step onto
    // the fox or another goose, no c2-b3 (not a link).
    EXPECT_THAT(moves(standard(), "3/3/7/3F3/3G3/GGG/3 g 0 0"),
                ElementsAre("c2-c3", "d2-c3", "d2-e3", "d3-c4", "d3-e4", "e2-e3"));
}

TEST(GooseStep, StandardSidewaysOptionAddsLeftAndRightSteps) {
    EXPECT_THAT(
        moves(standard(true), "3/3/7/3F3/3G3/GGG/3 g 0 0"),
        ElementsAre("c2-c3", "d2-c3", "d2-e3", "d3-c3", "d3-c4", "d3-e3", "d3-e4", "e2-e3"));
}

TEST(GooseStep, GeeseNeverJumpEvenOverAFoxWithEmptyBeyond) {
    const Moves list = moves(standard(true), "3/3/7/3F3/3G3/GGG/3 g 0 0");
    for (const std::string& m : list)
        EXPECT_EQ(m.find('x'), std::string::npos) << m;
}

TEST(GooseStep, GeeseOnTheTopRankCanOnlyMoveSideways) {
    EXPECT_THAT(moves(standard(), "G1G/3/7/F6/7/3/GGG g 0 0"),
                ElementsAre("c1-c2", "c1-d2", "d1-c2", "d1-d2", "d1-e2", "e1-d2", "e1-e2"));
    EXPECT_THAT(moves(standard(true), "G1G/3/7/F6/7/3/GGG g 0 0"),
                ElementsAre("c1-c2", "c1-d2", "c7-d7", "d1-c2", "d1-d2", "d1-e2", "e1-d2", "e1-e2",
                            "e7-d7"));
}

TEST(GooseStep, TwoFoxesGeeseAlwaysStepSideways) {
    EXPECT_THAT(moves(two_foxes(), "F1F/3/7/7/GGG1GGG/GGG/GGG g 0 0"),
                ElementsAre("a3-a4", "a3-b4", "b3-a4", "b3-b4", "b3-c4", "c2-d3", "c3-b4", "c3-c4",
                            "c3-d3", "c3-d4", "d2-d3", "e2-d3", "e3-d3", "e3-d4", "e3-e4", "e3-f4",
                            "f3-e4", "f3-f4", "f3-g4", "g3-f4", "g3-g4"));
}

TEST(GooseStep, BigCrossGooseOnAPointWithoutDiagonalsStepsStraightOrSideways) {
    EXPECT_THAT(moves(big_cross(), "GGG/3/3/9/F3G4/9/3/3/3 g 0 0"),
                ElementsAre("e5-d5", "e5-e6", "e5-f5"));
}

TEST(GooseStep, BigCrossGooseOnAPointWithDiagonalsAlsoStepsDiagonallyForward) {
    EXPECT_THAT(moves(big_cross(), "GGG/3/3/9/F8/4G4/3/3/3 g 0 0"),
                ElementsAre("e4-d4", "e4-d5", "e4-e5", "e4-f4", "e4-f5"));
}

TEST(GooseStep, ForwardGooseStepResetsQuietPliesAndSidewaysAddsOne) {
    EXPECT_EQ(after(standard(true), "3/3/7/3F3/3G3/GGG/3 g 9 20", "d3-c4").quiet_plies(), 0);
    EXPECT_EQ(after(standard(true), "3/3/7/3F3/3G3/GGG/3 g 9 20", "c2-c3").quiet_plies(), 0);
    EXPECT_EQ(after(standard(true), "3/3/7/3F3/3G3/GGG/3 g 9 20", "d3-c3").quiet_plies(), 10);
}

TEST(NoMoves, AWonPositionHasNoMoves) {
    // Three geese: the fox side has won, so nobody moves.
    EXPECT_THAT(moves(standard(), "3/3/3G3/3F3/7/3/GG1 f 0 0"), IsEmpty());
    EXPECT_THAT(moves(standard(), "3/3/3G3/3F3/7/3/GG1 g 0 0"), IsEmpty());
    // The pen is full: the geese have won.
    EXPECT_THAT(moves(two_foxes(), "GGG/GGG/2GGG2/7/F5F/3/3 f 0 0"), IsEmpty());
}

TEST(NoMoves, TrappedFoxHasNoMoves) {
    EXPECT_THAT(moves(standard(), "3/3/7/7/2G1G2/GG1/FGG f 0 0"), IsEmpty());
}

}  // namespace
}  // namespace foxgeese
