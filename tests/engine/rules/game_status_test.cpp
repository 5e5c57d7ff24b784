// The end of the game: every win and draw condition, both through
// evaluate_status() and by playing the deciding move with Game::play(), the
// order of the checks, repetition counting and the fifty-move counter.
#include "engine/rules/game_status.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/game.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"

namespace foxgeese {
namespace {

using ::testing::HasSubstr;

const Variant& standard(bool sideways = false, std::optional<int> geese = std::nullopt) {
    VariantOptions options;
    options.geese = geese;
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

GameStatus status(const Variant& variant, std::string_view code, int earlier = 0) {
    return evaluate_status(position(variant, code), earlier);
}

constexpr GameStatus kOngoing{};
constexpr GameStatus kFoxBelowThreshold{Outcome::kFoxSideWins, EndReason::kGeeseBelowThreshold};
constexpr GameStatus kFoxGeeseStuck{Outcome::kFoxSideWins, EndReason::kNoLegalMove};
constexpr GameStatus kGeeseFoxTrapped{Outcome::kGeeseWin, EndReason::kNoLegalMove};
constexpr GameStatus kGeesePenFilled{Outcome::kGeeseWin, EndReason::kPenFilled};
constexpr GameStatus kDrawRepetition{Outcome::kDraw, EndReason::kThreefoldRepetition};
constexpr GameStatus kDrawFiftyMoves{Outcome::kDraw, EndReason::kFiftyMoveRule};

std::string describe(const GameStatus& s) {
    return std::string(outcome_name(s.outcome)) + "/" + std::string(end_reason_name(s.reason));
}

// Plays moves that must all be legal; returns the game for further checks.
Game play_all(const Variant& variant, std::string_view code,
              const std::vector<std::string>& moves) {
    Game game(position(variant, code));
    for (const std::string& m : moves) {
        Result<Move> played = game.play(m);
        EXPECT_TRUE(played.ok()) << m << ": " << played.error().message;
    }
    return game;
}

// --- Rule 1: too few geese -------------------------------------------------

TEST(GeeseBelowThreshold, FoxSideWinsWithThreeGeeseInStandardAndBigCross) {
    for (const char* side : {"f", "g"}) {
        const std::string s(side);
        EXPECT_EQ(status(standard(), "3/3/3G3/3F3/7/3/GG1 " + s + " 0 0"), kFoxBelowThreshold);
        EXPECT_EQ(status(standard(), "3/3/3G3/3F3/7/3/GGG " + s + " 0 0"), kOngoing);
        EXPECT_EQ(status(big_cross(), "G2/3/3/9/4F4/9/3/3/GG1 " + s + " 0 0"), kFoxBelowThreshold);
        EXPECT_EQ(status(big_cross(), "G2/3/3/9/4F4/9/3/3/GGG " + s + " 0 0"), kOngoing);
    }
}

TEST(GeeseBelowThreshold, FoxSideWinsWithEightGeeseInTwoFoxes) {
    EXPECT_EQ(status(two_foxes(), "3/3/3F3/3F3/G5G/GGG/GGG f 0 0"), kFoxBelowThreshold);
    EXPECT_EQ(status(two_foxes(), "3/3/3F2G/3F3/G5G/GGG/GGG f 0 0"), kOngoing);
}

TEST(GeeseBelowThreshold, NoGeeseAtAllIsAFoxWin) {
    EXPECT_EQ(status(standard(), "3/3/7/3F3/7/3/3 g 0 0"), kFoxBelowThreshold);
}

TEST(GeeseBelowThreshold, CaptureOfTheFourthGooseWinsTheGame) {
    const Game game = play_all(standard(), "3/3/3G3/3F3/7/3/GGG f 0 0", {"d4xd6"});
    EXPECT_EQ(game.status(), kFoxBelowThreshold) << describe(game.status());
    EXPECT_EQ(game.position().geese_count(), 3);
}

TEST(GeeseBelowThreshold, CaptureOfTheNinthGooseWinsTwoFoxes) {
    Game game(position(two_foxes(), "F2/3/3F3/3G3/G5G/GGG/GGG f 0 0"));
    EXPECT_EQ(game.status(), kOngoing);
    ASSERT_TRUE(game.play("d5xd3").ok());
    EXPECT_EQ(game.status(), kFoxBelowThreshold) << describe(game.status());
}

// --- Rule 2: the pen -------------------------------------------------------

TEST(PenFilled, GeeseWinWhenAllNinePenPointsHoldGeese) {
    EXPECT_EQ(status(two_foxes(), "GGG/GGG/2GGG2/7/F5F/3/3 f 0 0"), kGeesePenFilled);
    EXPECT_EQ(status(two_foxes(), "GGG/GGG/2GGG2/7/F5F/3/3 g 0 0"), kGeesePenFilled);
    // Eight of nine is not enough.
    EXPECT_EQ(status(two_foxes(), "GGG/GGG/2GG3/2G4/F5F/3/3 f 0 0"), kOngoing);
}

TEST(PenFilled, ThePenIsOnlyARuleOfTwoFoxes) {
    // The same geese in standard are just geese; the fox moves on.
    EXPECT_EQ(status(standard(), "GGG/GGG/2GGG2/7/F6/3/3 f 0 0"), kOngoing);
}

TEST(PenFilled, GooseSteppingIntoTheLastPenPointWins) {
    Game game(position(two_foxes(), "GGG/GGG/3GG2/2G4/F5F/3/3 g 0 0"));
    EXPECT_EQ(game.status(), kOngoing);
    ASSERT_TRUE(game.play("c4-c5").ok());
    EXPECT_EQ(game.status(), kGeesePenFilled) << describe(game.status());
}

// --- Rule 3: no legal move ---------------------------------------------------

TEST(NoLegalMove, TrappedFoxLosesOnItsTurn) {
    // c1 surrounded: c2, d1, d2 taken and the points beyond them (c3, e1, e3) too.
    EXPECT_EQ(status(standard(), "3/3/7/7/2G1G2/GG1/FGG f 0 0"), kGeeseFoxTrapped);
    // With the geese to move nothing is decided yet.
    EXPECT_EQ(status(standard(), "3/3/7/7/2G1G2/GG1/FGG g 0 0"), kOngoing);
}

TEST(NoLegalMove, GooseMoveThatTrapsTheFoxWins) {
    Game game(position(standard(), "3/3/7/7/2G4/GGG/FGG g 0 0"));
    ASSERT_TRUE(game.play("e2-e3").ok());
    EXPECT_EQ(game.status(), kGeeseFoxTrapped) << describe(game.status());
}

TEST(NoLegalMove, FoxThatCanOnlyJumpIsNotTrapped) {
    // The fox on c1 cannot step, but it can jump c2 (c3 is empty).
    EXPECT_EQ(status(standard(), "3/3/7/7/4G2/GG1/FGG f 0 0"), kOngoing);
}

TEST(NoLegalMove, TwoFoxesGeeseWinOnlyWhenBothFoxesAreTrapped) {
    EXPECT_EQ(status(two_foxes(), "3/3/GG4G/7/2G1G2/GGG/FGF f 0 0"), kGeeseFoxTrapped);
    // The second fox on g4 instead of e1 (a goose there): c1 is still trapped,
    // but the fox side can move.
    EXPECT_EQ(status(two_foxes(), "3/3/GG4G/6F/2G1G2/GGG/FGG f 0 0"), kOngoing);
}

TEST(NoLegalMove, BigCrossTrappedFoxLoses) {
    // e9: e8, d9 and f9 taken; jumps land on e7, c9 (not a point) and g9 (not a point).
    EXPECT_EQ(status(big_cross(), "GFG/1G1/1G1/9/9/9/3/3/3 f 0 0"), kGeeseFoxTrapped);
}

TEST(NoLegalMove, GeeseThatCannotMoveLoseOnTheirTurn) {
    // Geese on the top rank and on a5/g5 have nothing forward and no sideways option.
    EXPECT_EQ(status(standard(), "GGG/3/G5G/3F3/7/3/3 g 0 0"), kFoxGeeseStuck);
    EXPECT_EQ(status(standard(), "GGG/3/G5G/3F3/7/3/3 f 0 0"), kOngoing);
    // The same geese can shuffle sideways with the option.
    EXPECT_EQ(status(standard(true), "GG1/3/G5G/3F3/7/3/3 g 0 0"), kOngoing);
}

TEST(NoLegalMove, FoxStepThatLeavesTheGeeseNoMoveWins) {
    const Game game = play_all(standard(), "GGG/3/G5G/3F3/7/3/3 f 0 0", {"d4-d3"});
    EXPECT_EQ(game.status(), kFoxGeeseStuck) << describe(game.status());
}

// --- The order of the checks -------------------------------------------------

TEST(CheckOrder, TooFewGeeseComesBeforeTheGeeseHavingNoMove) {
    // After d4xd6 three stuck geese remain: rule 1 decides, not rule 3.
    const Game game = play_all(standard(), "GGG/3/3G3/3F3/7/3/3 f 0 0", {"d4xd6"});
    EXPECT_EQ(game.status(), kFoxBelowThreshold) << describe(game.status());
    EXPECT_EQ(status(standard(), "GGG/1F1/7/7/7/3/3 g 0 1"), kFoxBelowThreshold);
}

TEST(CheckOrder, PenFilledComesBeforeTheFoxesBeingTrapped) {
    const char* code = "GGG/GGG/3GG2/2G4/2G1G2/GGG/FGF g 0 0";
    // Both foxes are trapped after any goose move here...
    EXPECT_EQ(play_all(two_foxes(), code, {"c4-b5"}).status(), kGeeseFoxTrapped);
    // ...and c4-c5 also fills the pen, which is checked first.
    const Game game = play_all(two_foxes(), code, {"c4-c5"});
    EXPECT_EQ(game.status(), kGeesePenFilled) << describe(game.status());
}

TEST(CheckOrder, WinOnTheHundredthQuietPlyBeatsTheFiftyMoveDraw) {
    // A sideways goose step is quiet: it makes the 100th quiet ply and traps the fox.
    const Game geese_win = play_all(standard(true), "3/3/7/7/1G2G2/GG1/FGG g 99 150", {"b3-c3"});
    EXPECT_EQ(geese_win.position().quiet_plies(), 100);
    EXPECT_EQ(geese_win.status(), kGeeseFoxTrapped) << describe(geese_win.status());

    // A fox step is quiet too: the 100th quiet ply leaves the geese without a move.
    const Game fox_win = play_all(standard(), "GGG/3/G5G/3F3/7/3/3 f 99 150", {"d4-d3"});
    EXPECT_EQ(fox_win.position().quiet_plies(), 100);
    EXPECT_EQ(fox_win.status(), kFoxGeeseStuck) << describe(fox_win.status());

    EXPECT_EQ(status(standard(), "3/3/7/7/2G1G2/GG1/FGG f 100 151"), kGeeseFoxTrapped);
}

TEST(CheckOrder, WinBeatsRepetitionToo) {
    // Even as a third occurrence, a position where the fox is trapped is a win.
    EXPECT_EQ(status(standard(), "3/3/7/7/2G1G2/GG1/FGG f 0 0", 2), kGeeseFoxTrapped);
    EXPECT_EQ(status(standard(), "3/3/3G3/3F3/7/3/GG1 f 0 0", 2), kFoxBelowThreshold);
}

TEST(CheckOrder, RepetitionComesBeforeTheFiftyMoveRule) {
    EXPECT_EQ(status(standard(true), "3/1F1/7/7/G6/3/GGG f 100 60", 2), kDrawRepetition);
    // Shuffle from 92 quiet plies: the start position's third occurrence is
    // also the 100th quiet ply.
    const std::vector<std::string> shuffle = {"d6-d5", "a3-b3", "d5-d6", "b3-a3"};
    Game game(position(standard(true), "3/1F1/7/7/G6/3/GGG f 92 40"));
    for (int round = 0; round < 2; ++round) {
        for (const std::string& m : shuffle) {
            ASSERT_FALSE(game.status().over()) << describe(game.status());
            ASSERT_TRUE(game.play(m).ok()) << m;
        }
    }
    EXPECT_EQ(game.position().quiet_plies(), 100);
    EXPECT_EQ(game.occurrences(), 3);
    EXPECT_EQ(game.status(), kDrawRepetition) << describe(game.status());
}

// --- Rule 4: threefold repetition ---------------------------------------------

TEST(Repetition, ThirdOccurrenceDrawsAndSecondDoesNot) {
    const char* code = "3/1F1/7/7/G6/3/GGG f 0 0";
    EXPECT_EQ(status(standard(true), code, 0), kOngoing);
    EXPECT_EQ(status(standard(true), code, 1), kOngoing);
    EXPECT_EQ(status(standard(true), code, 2), kDrawRepetition);
}

TEST(Repetition, StartPositionCountsAsTheFirstOccurrence) {
    // 15 geese with sideways steps: a4-b4 and back is a shuffle from the start.
    const std::vector<std::string> shuffle = {"d4-d5", "a4-b4", "d5-d4", "b4-a4"};
    Game game{Position(standard(true, 15))};
    EXPECT_EQ(game.occurrences(), 1);
    for (const std::string& m : shuffle)
        ASSERT_TRUE(game.play(m).ok()) << m;
    // Back at the start for the second time.
    EXPECT_EQ(format_repetition_key(game.position()),
              format_repetition_key(Position(standard(true, 15))));
    EXPECT_EQ(game.occurrences(), 2);
    EXPECT_EQ(game.status(), kOngoing) << describe(game.status());
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(game.play(shuffle[i]).ok()) << shuffle[i];
        EXPECT_EQ(game.occurrences(), 2);
        EXPECT_EQ(game.status(), kOngoing) << describe(game.status()) << " after " << shuffle[i];
    }
    // The start's third occurrence, at ply 8 (not the first position seen three
    // times without the start, which would be at ply 9).
    ASSERT_TRUE(game.play(shuffle[3]).ok());
    EXPECT_EQ(game.position().ply(), 8);
    EXPECT_EQ(game.occurrences(), 3);
    EXPECT_EQ(game.status(), kDrawRepetition) << describe(game.status());
}

TEST(Repetition, GameFromACodeStartsItsHistoryThereAndKeepsTheCounters) {
    Game game(position(standard(true), "3/1F1/7/7/G6/3/GGG f 17 40"));
    EXPECT_EQ(game.position().quiet_plies(), 17);
    EXPECT_EQ(game.position().ply(), 40);
    EXPECT_EQ(game.occurrences(), 1);
    const std::vector<std::string> shuffle = {"d6-d5", "a3-b3", "d5-d6", "b3-a3"};
    for (int round = 0; round < 2; ++round) {
        for (const std::string& m : shuffle)
            ASSERT_TRUE(game.play(m).ok()) << m;
        EXPECT_EQ(game.occurrences(), round + 2);
    }
    EXPECT_EQ(game.position().ply(), 48);
    EXPECT_EQ(game.position().quiet_plies(), 25);
    EXPECT_EQ(game.status(), kDrawRepetition) << describe(game.status());
}

TEST(Repetition, SamePlacementWithTheOtherSideToMoveIsAnotherPosition) {
    // The fox loses a tempo on the d6-d5-c6 triangle, so the start placement
    // comes back with the geese to move: a new position, not a repetition.
    Game game(position(standard(true), "3/1F1/7/7/G6/3/GGG f 0 0"));
    for (const char* m : {"d6-d5", "a3-b3", "d5-c6", "b3-a3", "c6-d6"})
        ASSERT_TRUE(game.play(m).ok()) << m;
    EXPECT_EQ(game.occurrences(), 1);
    // The placement d6/a3 with the geese to move then repeats twice more: the
    // draw comes at its third occurrence (ply 13), not at ply 9 as it would if
    // the start counted for it.
    const std::vector<std::string> shuffle = {"a3-b3", "d6-d5", "b3-a3", "d5-d6"};
    for (int round = 0; round < 2; ++round) {
        for (const std::string& m : shuffle) {
            ASSERT_FALSE(game.status().over()) << describe(game.status());
            ASSERT_TRUE(game.play(m).ok()) << m;
        }
    }
    EXPECT_EQ(game.position().ply(), 13);
    EXPECT_EQ(game.occurrences(), 3);
    EXPECT_EQ(game.status(), kDrawRepetition) << describe(game.status());
}

TEST(Repetition, CountersAreNotPartOfThePosition) {
    // The same placement and side with other counters is the same position.
    const Position a = position(standard(), "3/1F1/7/7/G6/3/GGG f 0 0");
    const Position b = position(standard(), "3/1F1/7/7/G6/3/GGG f 12 77");
    EXPECT_EQ(a.key(), b.key());
    EXPECT_EQ(a.hash(), b.hash());
    EXPECT_EQ(format_repetition_key(a), format_repetition_key(b));
}

// --- Rule 5: the fifty-move rule ------------------------------------------------

TEST(FiftyMoveCounter, StepsAndSidewaysAddOneCapturesAndForwardStepsReset) {
    Game game(position(standard(true), "3/3/6G/3F3/G6/3/GGG f 10 20"));
    const std::pair<const char*, int> plies[] = {
        {"d4-d5", 11},  // fox step
        {"a3-b3", 12},  // sideways goose step
        {"d5-c4", 13},  // fox step
        {"c1-d2", 0},   // diagonally forward goose step
        {"c4-d4", 1},   // fox step
        {"b3-b4", 0},   // forward goose step
        {"d4-c4", 1},   // fox step
        {"d1-c1", 2},   // sideways goose step
        {"c4xa4", 0},   // capture
    };
    for (const auto& [move, quiet] : plies) {
        ASSERT_TRUE(game.play(move).ok()) << move;
        EXPECT_EQ(game.position().quiet_plies(), quiet) << "after " << move;
        EXPECT_EQ(game.status(), kOngoing) << "after " << move;
    }
    EXPECT_EQ(game.position().ply(), 29);
}

TEST(FiftyMoveRule, DrawComesAtExactlyOneHundredQuietPlies) {
    EXPECT_EQ(status(standard(true), "3/1F1/7/7/G6/3/GGG f 99 40"), kOngoing);
    EXPECT_EQ(status(standard(true), "3/1F1/7/7/G6/3/GGG f 100 40"), kDrawFiftyMoves);
    Game game(position(standard(true), "3/1F1/7/7/G6/3/GGG f 98 40"));
    ASSERT_TRUE(game.play("d6-d5").ok());
    EXPECT_EQ(game.position().quiet_plies(), 99);
    EXPECT_EQ(game.status(), kOngoing) << describe(game.status());
    ASSERT_TRUE(game.play("a3-b3").ok());
    EXPECT_EQ(game.position().quiet_plies(), 100);
    EXPECT_EQ(game.status(), kDrawFiftyMoves) << describe(game.status());
}

TEST(FiftyMoveRule, HundredQuietPliesFromAFreshGameDraw) {
    // Fox steps and sideways goose steps only, always towards the least-seen
    // position so repetition never comes first.
    Game game(position(standard(true), "3/3/7/3F3/G5G/3/G1G f 0 0"));
    std::map<std::string, int> seen{{format_repetition_key(game.position()), 1}};
    for (int ply = 1; ply <= 100; ++ply) {
        ASSERT_FALSE(game.status().over()) << describe(game.status()) << " at ply " << ply;
        Position pos = game.position();
        std::string best;
        int best_seen = 3;
        for_each_legal_move(pos, [&](const Move& m) {
            const bool forward = pos.side_to_move() == Side::kGeese &&
                                 pos.board().rank_of(m.to) > pos.board().rank_of(m.from);
            if (m.is_jump() || forward) return;
            Position next = pos;
            UndoInfo undo;
            next.make(m, undo);
            const auto it = seen.find(format_repetition_key(next));
            const int n = it == seen.end() ? 0 : it->second;
            if (n < best_seen) {
                best_seen = n;
                best = format_move(pos.board(), m);
            }
        });
        ASSERT_LT(best_seen, 2) << "no quiet move avoids a third occurrence at ply " << ply;
        ASSERT_TRUE(game.play(best).ok()) << best;
        ++seen[format_repetition_key(game.position())];
        EXPECT_EQ(game.position().quiet_plies(), ply);
    }
    EXPECT_EQ(game.status(), kDrawFiftyMoves) << describe(game.status());
}

// --- Game::play bookkeeping ---------------------------------------------------

TEST(GamePlay, MoveAfterTheEndIsGameOverAndChangesNothing) {
    Game game = play_all(standard(), "3/3/3G3/3F3/7/3/GGG f 0 0", {"d4xd6"});
    ASSERT_TRUE(game.status().over());
    const std::string before = format_position_code(game.position());
    const GameStatus status_before = game.status();
    // A goose move that would be legal on the board.
    Result<Move> played = game.play("c1-c2");
    ASSERT_FALSE(played.ok());
    EXPECT_EQ(played.error().code, ErrorCode::kGameOver);
    EXPECT_THAT(played.error().message, HasSubstr("over"));
    EXPECT_EQ(format_position_code(game.position()), before);
    EXPECT_EQ(game.status(), status_before);
    EXPECT_EQ(game.occurrences(), 1);
}

TEST(GamePlay, DrawnGameRefusesMovesToo) {
    Game game(position(standard(true), "3/1F1/7/7/G6/3/GGG f 100 40"));
    EXPECT_EQ(game.status(), kDrawFiftyMoves);
    Result<Move> played = game.play("d6-d5");
    ASSERT_FALSE(played.ok());
    EXPECT_EQ(played.error().code, ErrorCode::kGameOver);
    EXPECT_EQ(format_position_code(game.position()), "3/1F1/7/7/G6/3/GGG f 100 40");
}

TEST(GamePlay, GameSetUpFromADecidedPositionIsAlreadyOver) {
    Game game(position(standard(), "3/3/7/7/2G1G2/GG1/FGG f 0 0"));
    EXPECT_EQ(game.status(), kGeeseFoxTrapped);
    EXPECT_EQ(game.play("c1-c2").error().code, ErrorCode::kGameOver);
}

TEST(GamePlay, IllegalOrMalformedMoveChangesNothing) {
    Game game(position(standard(true), "3/1F1/7/7/G6/3/GGG f 5 9"));
    const std::string before = format_position_code(game.position());
    struct Case {
        const char* move;
        ErrorCode code;
    };
    for (const Case& c :
         {Case{"d6-d4", ErrorCode::kIllegalMove}, Case{"a3-a4", ErrorCode::kIllegalMove},
          Case{"d6xd4", ErrorCode::kIllegalMove}, Case{"d6-", ErrorCode::kInvalidNotation},
          Case{"", ErrorCode::kInvalidNotation}}) {
        Result<Move> played = game.play(c.move);
        ASSERT_FALSE(played.ok()) << c.move;
        EXPECT_EQ(played.error().code, c.code) << c.move;
        EXPECT_FALSE(played.error().message.empty()) << c.move;
        EXPECT_EQ(format_position_code(game.position()), before) << c.move;
        EXPECT_EQ(game.status(), kOngoing) << c.move;
        EXPECT_EQ(game.occurrences(), 1) << c.move;
    }
    // The game goes on normally afterwards.
    ASSERT_TRUE(game.play("d6-d5").ok());
    EXPECT_EQ(format_position_code(game.position()), "3/3/3F3/7/G6/3/GGG g 6 10");
}

TEST(GamePlay, PlayReturnsTheMoveItPlayed) {
    Game game{Position(standard())};
    Result<Move> played = game.play("  D4-D5 ");
    ASSERT_TRUE(played.ok());
    EXPECT_EQ(format_move(game.position().board(), *played), "d4-d5");
    EXPECT_EQ(format_position_code(game.position()), "3/3/3F3/7/GGGGGGG/GGG/GGG g 1 1");
}

TEST(StatusNames, OutcomeAndReasonNamesAreTheApiStrings) {
    EXPECT_EQ(outcome_name(Outcome::kOngoing), "ongoing");
    EXPECT_EQ(outcome_name(Outcome::kFoxSideWins), "fox_side_wins");
    EXPECT_EQ(outcome_name(Outcome::kGeeseWin), "geese_win");
    EXPECT_EQ(outcome_name(Outcome::kDraw), "draw");
    EXPECT_EQ(end_reason_name(EndReason::kNone), "");
    EXPECT_EQ(end_reason_name(EndReason::kGeeseBelowThreshold), "geese_below_threshold");
    EXPECT_EQ(end_reason_name(EndReason::kPenFilled), "pen_filled");
    EXPECT_EQ(end_reason_name(EndReason::kNoLegalMove), "no_legal_move");
    EXPECT_EQ(end_reason_name(EndReason::kThreefoldRepetition), "threefold_repetition");
    EXPECT_EQ(end_reason_name(EndReason::kFiftyMoveRule), "fifty_move_rule");
}

}  // namespace
}  // namespace foxgeese
