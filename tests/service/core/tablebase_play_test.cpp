// The tablebase's answers in the service's own terms, without a database:
// a game's analysis marks exactly the plies where the value changed hands,
// and the bot's move from the table: level 8 wins every won position it is
// given, as quickly as the value says against the best defence; the lower
// levels err, level 1 more than level 7. On a tablebase of 4 to 6 geese
// (tests/support/small_tablebase.h).
#include <gtest/gtest.h>

#include <random>

#include "engine/rules/board.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "engine/search/bot_level.h"
#include "service/core/game_analysis.h"
#include "service/core/tablebase_answers.h"
#include "tests/service/core/stored_moves.h"
#include "tests/service/core/tablebase_shared.h"
#include "tests/support/small_tablebase.h"

namespace foxgeese::service {
namespace {

using test::small_tablebase;
using Plies = google::protobuf::RepeatedPtrField<v1::PlyAnalysis>;

const Variant& standard() {
    return *Variant::find("standard", {}).value();
}

using test::legal_move_of;
using test::moves_from;

// A random position of k geese whose game is not over, with the side to move.
Position random_position(std::mt19937_64& random, int k, Side side) {
    for (;;) {
        Bitboard geese = 0;
        while (count(geese) < k)
            geese |= bit(static_cast<int>(random() % Board::cross33().point_count()));
        Bitboard free = Board::cross33().all_points() & ~geese;
        for (int skip = static_cast<int>(random() % count(free)); skip > 0; --skip)
            pop_lowest(free);
        Position pos(standard(), bit(lowest(free)), geese, side, 0, 0);
        if (has_legal_move(pos) && !won_outright(pos)) return pos;
    }
}

// Whether the side that is to move in `start` won the finished game `end`.
bool mover_won(const Position& start, const Position& end) {
    const bool fox_side_won = won_outright(end) || end.side_to_move() == Side::kGeese;
    return fox_side_won == (start.side_to_move() == Side::kFox);
}

TEST(TablebaseGameAnalysis, MarksExactlyThePliesWhereTheValueChangedHands) {
    // The geese throw their win in 1 away (c4-b5), the fox jumps out and
    // plays on as the table does; every ply is judged by the table.
    const auto table = small_tablebase();
    std::vector<std::string> played = {"c4-b5"};
    Position pos = parse_position_code(standard(), test::kGeeseWinOrThrow).value();
    UndoInfo undo;
    pos.make(legal_move_of(pos, "c4-b5"), undo);
    for (auto ranked = ranked_moves(*table, pos); ranked && !ranked->empty();
         ranked = ranked_moves(*table, pos)) {
        played.push_back(format_move(pos.board(), ranked->front().move));
        pos.make(ranked->front().move, undo);
    }
    ASSERT_GE(played.size(), 3u);

    Searcher searcher(1);
    GameAnalysisLimits limits;
    limits.nodes_per_ply = 1000;
    limits.deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
    limits.tablebase = table.get();
    Plies plies;
    ASSERT_EQ(analyse_moves(searcher, standard(), test::kGeeseWinOrThrow,
                            moves_from(test::kGeeseWinOrThrow, played), limits, plies),
              GameAnalysisEnd::kComplete);
    ASSERT_EQ(plies.size(), static_cast<int>(played.size()));
    EXPECT_EQ(plies[0].best_move(), "c4-d5");
    EXPECT_EQ(plies[0].score_before().win_in_plies(), 1);
    EXPECT_TRUE(plies[0].score_after().has_loss_in_plies());
    EXPECT_EQ(plies[0].mark(), v1::MOVE_MARK_WIN_THROWN_AWAY);
    for (const v1::PlyAnalysis& ply : plies) {
        SCOPED_TRACE(ply.ply());
        EXPECT_TRUE(ply.tablebase());
        // After the first the fox plays perfectly and the geese's best:
        // the value stays where it is and counts down.
        if (ply.ply() == plies[0].ply()) continue;
        EXPECT_EQ(ply.mark(), v1::MOVE_MARK_UNSPECIFIED);
        EXPECT_EQ(ply.move(), ply.best_move());
        EXPECT_EQ(ply.score_after().text(), ply.score_before().text());
    }
    EXPECT_EQ(plies[plies.size() - 1].score_before().win_in_plies(), 1);
}

TEST(TablebaseBot, LevelEightWinsEveryWonPositionAsQuicklyAsTheValueSays) {
    const auto table = small_tablebase();
    std::mt19937_64 random(21);
    int games = 0;
    for (int trial = 0; trial < 400; ++trial) {
        const int k = 4 + trial % 3;
        // The geese win few positions: look for them among many.
        const Side side = trial % 4 == 0 ? Side::kGeese : Side::kFox;
        const Position start = random_position(random, k, side);
        const auto value = table->value(start);
        ASSERT_TRUE(value.has_value());
        if (!value->mover_wins) continue;
        // Against the best defence, and against a defender that plays at random.
        for (const bool perfect_defence : {true, false}) {
            Position pos = start;
            int plies = 0;
            while (!won_outright(pos) && has_legal_move(pos)) {
                const auto ranked = ranked_moves(*table, pos);
                ASSERT_TRUE(ranked.has_value());
                ASSERT_FALSE(ranked->empty());
                const bool bots_turn = pos.side_to_move() == start.side_to_move();
                Move move = ranked->front().move;
                if (bots_turn) {
                    move = tablebase_bot_move(*ranked, kMaxBotLevel, pos, 1234 + trial);
                } else if (!perfect_defence) {
                    move = (*ranked)[random() % ranked->size()].move;
                }
                UndoInfo undo;
                pos.make(move, undo);
                ++plies;
                ASSERT_LE(plies, value->plies);
            }
            EXPECT_TRUE(mover_won(start, pos)) << format_position_code(start);
            if (perfect_defence) {
                EXPECT_EQ(plies, value->plies) << format_position_code(start);
            }
        }
        ++games;
    }
    EXPECT_GT(games, 100);
}

TEST(TablebaseBot, LowerLevelsErrAndLevelOneMoreThanLevelSeven) {
    const auto table = small_tablebase();
    std::mt19937_64 random(5);
    std::array<int, kMaxBotLevel + 1> best{};
    std::array<int, kMaxBotLevel + 1> thrown{};
    int positions = 0;
    while (positions < 3000) {
        const Position pos = random_position(random, 5, Side::kFox);
        const auto ranked = ranked_moves(*table, pos);
        // Positions with a choice that matters: a win, and a move that loses
        // it or wins more slowly.
        if (!ranked || ranked->size() < 2 || !ranked->front().value.mover_wins) continue;
        ++positions;
        for (int level = kMinBotLevel; level <= kMaxBotLevel; ++level) {
            const Move move = tablebase_bot_move(*ranked, level, pos, 99);
            // The same seed and position give the same move (a replay).
            EXPECT_EQ(move, tablebase_bot_move(*ranked, level, pos, 99));
            for (const auto& mv : *ranked) {
                if (!(mv.move == move)) continue;
                if (mv.value == ranked->front().value) ++best[level];
                if (!mv.value.mover_wins) ++thrown[level];
            }
        }
    }
    EXPECT_EQ(best[kMaxBotLevel], positions);
    EXPECT_EQ(thrown[kMaxBotLevel], 0);
    EXPECT_LT(best[1], best[4]);
    EXPECT_LT(best[4], best[7]);
    EXPECT_LT(best[7], positions);
}

}  // namespace
}  // namespace foxgeese::service
