// The engine against the independent reference implementation on thousands of
// positions: those reached by seeded random playouts (uniform, capture-hungry
// for end games, and goose-advancing for pen fills) and random placements,
// which are jump-heavy. At each position both must agree on the legal moves,
// the position after each move and the status; the engine must also keep its
// own invariants (unmake inverts make, the incremental hash is right, codes
// round-trip).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "engine/rules/game_status.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "reference_rules.h"
#include "variant_configs.h"

namespace foxgeese {
namespace {

using testing::config_name;
using testing::reference_config;

enum class Policy { kUniform, kCaptureHungry, kGeeseAdvance };

std::string status_string(const Position& pos) {
    const GameStatus status = evaluate_status(pos, 0);
    if (!status.over()) return "ongoing";
    return std::string(outcome_name(status.outcome)) + ":" +
           std::string(end_reason_name(status.reason));
}

struct Stats {
    int positions = 0;
    int with_multi_jump = 0;
    int decided = 0;
};

// Compares everything at one position; returns false after the first failure
// so a broken engine does not print thousands of lines.
bool compare_at(const Position& start, Stats& stats) {
    const Variant& variant = start.variant();
    const reference::Config config = reference_config(variant);
    const std::string code = format_position_code(start);
    Position pos = start;

    std::vector<std::string> engine_moves;
    std::vector<Move> moves;
    for_each_legal_move(pos, [&](const Move& m) {
        engine_moves.push_back(format_move(pos.board(), m));
        moves.push_back(m);
        if (m.jump_count >= 2) ++stats.with_multi_jump;
    });
    std::sort(engine_moves.begin(), engine_moves.end());
    const std::vector<std::string> expected = reference::legal_moves(config, code);
    EXPECT_EQ(engine_moves, expected) << config_name(variant) << " at " << code;
    EXPECT_EQ(count_legal_moves(pos), engine_moves.size()) << code;
    EXPECT_EQ(status_string(pos), reference::status(config, code)) << code;

    Result<Position> reparsed = parse_position_code(variant, code);
    EXPECT_TRUE(reparsed && *reparsed == pos) << "round trip of " << code;
    EXPECT_EQ(pos.hash(), pos.compute_hash()) << code;

    // Every move of small lists, a sample of large ones. A position the
    // fifty-move rule has drawn is not played on in a game.
    if (pos.quiet_plies() >= kFiftyMoveQuietPlies) moves.clear();
    const std::size_t step = std::max<std::size_t>(1, moves.size() / 12);
    for (std::size_t i = 0; i < moves.size(); i += step) {
        const Move& m = moves[i];
        const std::string notation = format_move(pos.board(), m);
        UndoInfo undo;
        pos.make(m, undo);
        EXPECT_EQ(format_position_code(pos), reference::play(config, code, notation))
            << code << " then " << notation;
        EXPECT_EQ(pos.hash(), pos.compute_hash()) << code << " then " << notation;
        pos.unmake(m, undo);
        EXPECT_TRUE(pos == start) << "unmake of " << notation << " at " << code;
        EXPECT_EQ(pos.hash(), start.hash());
    }
    ++stats.positions;
    if (evaluate_status(pos, 0).over()) ++stats.decided;
    return !::testing::Test::HasFailure();
}

Move pick(const std::vector<Move>& moves, const Position& pos, Policy policy,
          std::mt19937_64& rng) {
    std::vector<const Move*> preferred;
    for (const Move& m : moves) {
        const bool wanted =
            (policy == Policy::kCaptureHungry && m.is_jump()) ||
            (policy == Policy::kGeeseAdvance && pos.side_to_move() == Side::kGeese &&
             pos.board().rank_of(m.to) > pos.board().rank_of(m.from));
        if (wanted) preferred.push_back(&m);
    }
    if (!preferred.empty() && rng() % 4 != 0) {
        return *preferred[rng() % preferred.size()];
    }
    return moves[rng() % moves.size()];
}

class EngineVsReference : public ::testing::TestWithParam<const Variant*> {};

TEST_P(EngineVsReference, AgreesAlongSeededRandomPlayouts) {
    const Variant& variant = *GetParam();
    std::mt19937_64 rng(20261129 + static_cast<unsigned>(config_name(variant).size()));
    Stats stats;
    for (Policy policy : {Policy::kUniform, Policy::kCaptureHungry, Policy::kGeeseAdvance}) {
        for (int game = 0; game < 25; ++game) {
            Position pos(variant);
            for (int ply = 0; ply < 240; ++ply) {
                if (!compare_at(pos, stats)) return;
                if (evaluate_status(pos, 0).over()) break;
                std::vector<Move> moves;
                for_each_legal_move(pos, [&](const Move& m) { moves.push_back(m); });
                UndoInfo undo;
                pos.make(pick(moves, pos, policy, rng), undo);
            }
        }
    }
    RecordProperty("positions", stats.positions);
    EXPECT_GE(stats.positions, 1500) << "too few positions compared";
    EXPECT_GT(stats.with_multi_jump, 0) << "no multi-jump reached";
    EXPECT_GT(stats.decided, 10) << "too few finished games reached";
}

// Random placements put geese where playouts rarely do: between empty points,
// which is where long and branching jump sequences live.
TEST_P(EngineVsReference, AgreesOnRandomJumpHeavyPlacements) {
    const Variant& variant = *GetParam();
    const Board& board = variant.board();
    std::mt19937_64 rng(77 + static_cast<unsigned>(config_name(variant).size()));
    Stats stats;
    for (int i = 0; i < 600; ++i) {
        std::vector<int> points(board.point_count());
        for (int p = 0; p < board.point_count(); ++p)
            points[p] = p;
        std::shuffle(points.begin(), points.end(), rng);
        Bitboard foxes = 0;
        Bitboard geese = 0;
        int next = 0;
        for (int f = 0; f < variant.fox_count(); ++f)
            foxes |= bit(points[next++]);
        const int geese_count = variant.fox_side_wins_below() - 1 +
                                static_cast<int>(rng() % (variant.start_geese_count() -
                                                          variant.fox_side_wins_below() + 2));
        for (int g = 0; g < geese_count; ++g)
            geese |= bit(points[next++]);
        const Side side = rng() % 3 == 0 ? Side::kGeese : Side::kFox;
        const int quiet = static_cast<int>(rng() % 101);
        const Position pos(variant, foxes, geese, side, quiet,
                           quiet + static_cast<int>(rng() % 50));
        if (!compare_at(pos, stats)) return;
    }
    EXPECT_GT(stats.with_multi_jump, 100) << "placements were not jump-heavy";
}

INSTANTIATE_TEST_SUITE_P(AllStarts, EngineVsReference, ::testing::ValuesIn(Variant::all()),
                         [](const auto& p) { return config_name(*p.param); });

}  // namespace
}  // namespace foxgeese
