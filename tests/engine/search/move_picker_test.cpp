// Move ordering: every distinct move exactly once in a normal position, every
// one at least once when there are more than the buffer holds, and the order
// table move, captures (more geese first), killers, history.
#include "engine/search/move_picker.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "engine/rules/notation.h"
#include "test_positions.h"

namespace foxgeese {
namespace {

using testing::position_from_code;
using testing::variant_named;

std::set<std::uint64_t> distinct_moves(const Position& pos) {
    std::set<std::uint64_t> keys;
    for_each_legal_move(pos, [&](const Move& m) { keys.insert(MoveKey(m).bits()); });
    return keys;
}

// A middle game where the fox has steps, single jumps and jump loops that
// reach the same positions by several paths.
constexpr const char* kMidgame = "3/3/G1G1G1G/2GF1G1/1G1G1G1/1G1/1G1 f 4 26";

class MovePickerTest : public ::testing::Test {
  protected:
    MovePicker picker(const Position& pos, MovePicker::Kind kind = MovePicker::Kind::kAll,
                      MoveKey table_move = {}, const Killers* killers = nullptr) {
        return MovePicker(pos, buffer_, kind, table_move, killers, history_);
    }

    MovePicker::Buffer buffer_;
    MoveHistory history_;
};

std::vector<MoveKey> visit_all(MovePicker& picker) {
    std::vector<MoveKey> visited;
    picker.for_each([&](const Move& move, MoveKey key) {
        EXPECT_EQ(MoveKey(move), key);
        visited.push_back(key);
        return false;
    });
    return visited;
}

TEST_F(MovePickerTest, GivesEveryDistinctMoveOnceAndOtherPathsToTheSamePositionNot) {
    const Position pos = position_from_code(variant_named("standard"), kMidgame);
    MovePicker all = picker(pos);
    const std::vector<MoveKey> visited = visit_all(all);
    std::set<std::uint64_t> unique;
    for (MoveKey key : visited)
        unique.insert(key.bits());
    EXPECT_EQ(unique.size(), visited.size());
    EXPECT_EQ(unique, distinct_moves(pos));
    EXPECT_FALSE(all.overflowed());
}

TEST_F(MovePickerTest, MovesBeyondTheBufferAreStillVisited) {
    // 1,600 jump paths to 375 distinct positions: more than the buffer holds.
    const Position pos =
        position_from_code(variant_named("standard"), "3/GGG/2FG1G1/1GGG2G/1G1G3/GG1/3 f 0 10");
    const std::set<std::uint64_t> all = distinct_moves(pos);
    ASSERT_GT(all.size(), static_cast<std::size_t>(MovePicker::kCapacity));
    MovePicker overflowing = picker(pos);
    EXPECT_TRUE(overflowing.overflowed());
    EXPECT_EQ(overflowing.size(), MovePicker::kCapacity);
    std::set<std::uint64_t> visited;
    for (MoveKey key : visit_all(overflowing))
        visited.insert(key.bits());
    EXPECT_EQ(visited, all);
}

TEST_F(MovePickerTest, StopsWhenTheVisitorCutsOff) {
    const Position start(variant_named("big_cross"));
    int visits = 0;
    picker(start).for_each([&](const Move&, MoveKey) { return ++visits == 2; });
    EXPECT_EQ(visits, 2);
}

TEST_F(MovePickerTest, OrdersTableMoveCapturesByGeeseTakenKillersThenHistory) {
    const Variant& v = variant_named("standard");
    const Position pos = position_from_code(v, kMidgame);
    std::vector<Move> steps;
    for_each_legal_move(pos, [&](const Move& m) {
        if (!m.is_jump()) steps.push_back(m);
    });
    ASSERT_GE(steps.size(), 4u);
    const MoveKey table_move(steps[0]);
    Killers killers;
    killers.add(MoveKey(steps[1]));
    history_.update(Side::kFox, MoveKey(steps[2]), 1000);

    std::vector<Move> order;
    picker(pos, MovePicker::Kind::kAll, table_move, &killers)
        .for_each([&](const Move& move, MoveKey) {
            order.push_back(move);
            return false;
        });
    ASSERT_EQ(order.front(), steps[0]);
    std::size_t i = 1;
    int last_taken = 64;
    while (i < order.size() && order[i].is_jump()) {
        EXPECT_LE(count(order[i].captured), last_taken) << format_move(v.board(), order[i]);
        last_taken = count(order[i].captured);
        ++i;
    }
    EXPECT_GT(i, 1u) << "captures come right after the table move";
    ASSERT_LT(i + 1, order.size());
    EXPECT_EQ(order[i], steps[1]) << "then the killer";
    EXPECT_EQ(order[i + 1], steps[2]) << "then the move with the best history";
}

TEST_F(MovePickerTest, CapturesOnlyLeavesTheStepsOut) {
    const Position pos = position_from_code(variant_named("standard"), kMidgame);
    int captures = 0;
    picker(pos, MovePicker::Kind::kCaptures).for_each([&](const Move& move, MoveKey) {
        EXPECT_TRUE(move.is_jump());
        ++captures;
        return false;
    });
    EXPECT_GT(captures, 0);
}

TEST(MoveHistory, StaysWithinItsBoundsHoweverOftenAMoveIsRewarded) {
    MoveHistory history;
    const MoveKey move(Move::step(3, 10));
    for (int i = 0; i < 10'000; ++i)
        history.update(Side::kGeese, move, 400);
    EXPECT_LE(history.score(Side::kGeese, move), MoveHistory::kMax);
    EXPECT_GT(history.score(Side::kGeese, move), MoveHistory::kMax / 2);
    EXPECT_EQ(history.score(Side::kFox, move), 0);
    for (int i = 0; i < 10'000; ++i)
        history.update(Side::kGeese, move, -400);
    EXPECT_GE(history.score(Side::kGeese, move), -MoveHistory::kMax);
}

}  // namespace
}  // namespace foxgeese
