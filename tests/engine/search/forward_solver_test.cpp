// The exact solver for forward-only geese: it agrees with a plain minimax over
// the rules wherever that finishes, names a winning move that wins, treats a
// position and its mirror image alike, and keeps to its limits.
#include "engine/search/forward_solver.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <vector>

#include "engine/rules/game_status.h"
#include "engine/rules/legal_move.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "random_playout.h"
#include "test_positions.h"

namespace foxgeese {
namespace {

using testing::position_from_code;
using testing::variant_named;

const Variant& forward_only(int geese) {
    return variant_named("standard", VariantOptions{.geese = geese, .geese_sideways = false});
}

// Whether the fox side wins, by minimax over evaluate_status and the legal
// moves with no table and no shortcut; nothing when `budget` runs out.
std::optional<bool> minimax_fox_wins(Position& pos, std::uint64_t& budget) {
    if (budget == 0) return std::nullopt;
    --budget;
    const GameStatus status = evaluate_status(pos, 0);
    if (status.over()) return status.outcome == Outcome::kFoxSideWins;
    const bool fox_to_move = pos.side_to_move() == Side::kFox;
    MoveList moves;
    generate_legal_moves(pos, moves);
    for (std::size_t i = 0; i < moves.size(); ++i) {
        UndoInfo undo;
        pos.make(moves[i], undo);
        const std::optional<bool> fox = minimax_fox_wins(pos, budget);
        pos.unmake(moves[i], undo);
        if (!fox) return std::nullopt;
        if (*fox == fox_to_move) return fox_to_move;  // the mover found a win
    }
    return !fox_to_move;
}

Position mirror_image(const Position& pos) {
    const Board& board = pos.board();
    auto mirror = [&](Bitboard points) {
        Bitboard image = 0;
        for (Bitboard p = points; p;) {
            const int point = pop_lowest(p);
            image |=
                bit(board.point_at(board.files() - 1 - board.file_of(point), board.rank_of(point)));
        }
        return image;
    };
    return Position(pos.variant(), mirror(pos.foxes()), mirror(pos.geese()), pos.side_to_move(),
                    pos.quiet_plies(), pos.ply());
}

TEST(ForwardSolver, HandlesTheStandardConfigurationsWithoutSidewaysSteps) {
    for (int geese : {13, 15, 17}) {
        EXPECT_TRUE(ForwardSolver::handles(forward_only(geese))) << geese;
        EXPECT_FALSE(ForwardSolver::handles(
            variant_named("standard", VariantOptions{.geese = geese, .geese_sideways = true})))
            << geese;
    }
    EXPECT_FALSE(ForwardSolver::handles(variant_named("big_cross")));
    EXPECT_FALSE(ForwardSolver::handles(variant_named("two_foxes")));
}

// The last positions of seeded random games that the geese won: random play
// rarely shuts the fox in, so plain playouts hold few positions the geese win.
std::vector<Position> ends_of_geese_wins(const Variant& variant, std::uint64_t seed, int games,
                                         int last_plies) {
    std::mt19937_64 rng(seed);
    std::vector<Position> found;
    for (int won = 0; won < games;) {
        std::vector<Position> game{Position(variant)};
        while (!evaluate_status(game.back(), 0).over()) {
            MoveList moves;
            generate_legal_moves(game.back(), moves);
            Position next = game.back();
            UndoInfo undo;
            next.make(moves[rng() % moves.size()], undo);
            game.push_back(next);
        }
        if (evaluate_status(game.back(), 0).outcome != Outcome::kGeeseWin) continue;
        ++won;
        const std::size_t from = game.size() > static_cast<std::size_t>(last_plies)
                                     ? game.size() - static_cast<std::size_t>(last_plies)
                                     : 0;
        found.insert(found.end(), game.begin() + static_cast<std::ptrdiff_t>(from), game.end());
    }
    return found;
}

TEST(ForwardSolver, AgreesWithPlainMinimaxOnPositionsFromRandomGames) {
    ForwardSolver solver(16);
    int compared = 0;
    int fox_wins = 0;
    for (int geese : {13, 15, 17}) {
        std::vector<Position> positions =
            testing::random_playout_positions(forward_only(geese), geese, 1500);
        // Random geese shut the fox in most often with 17 of them.
        if (geese == 17) {
            const std::vector<Position> ends = ends_of_geese_wins(forward_only(geese), 1, 40, 16);
            positions.insert(positions.end(), ends.begin(), ends.end());
        }
        for (Position pos : positions) {
            if (evaluate_status(pos, 0).over()) continue;
            std::uint64_t budget = 5'000;
            const std::optional<bool> fox = minimax_fox_wins(pos, budget);
            if (!fox) continue;
            ++compared;
            fox_wins += *fox;
            EXPECT_EQ(solver.solve(pos), *fox ? Side::kFox : Side::kGeese)
                << format_position_code(pos);
        }
    }
    // Enough positions, won by each side, for the agreement to mean something.
    EXPECT_GT(compared, 500);
    EXPECT_GT(fox_wins, 100);
    EXPECT_GT(compared - fox_wins, 20);
}

TEST(ForwardSolver, APositionAndItsMirrorImageHaveOneWinner) {
    int shared = 0;
    int independent = 0;
    for (const Position& pos : testing::random_playout_positions(forward_only(13), 7, 400)) {
        if (evaluate_status(pos, 0).over()) continue;
        ForwardSolver solver(1);
        const std::optional<Side> direct = solver.solve(pos, {.nodes = 10'000});
        if (!direct) continue;
        // One entry serves both: the mirror image costs no search.
        const std::uint64_t nodes = solver.stats().nodes;
        EXPECT_EQ(solver.solve(mirror_image(pos)), direct) << format_position_code(pos);
        EXPECT_EQ(solver.stats().nodes, nodes);
        ++shared;
        // And a solver that never saw the position finds the same on its own.
        ForwardSolver fresh(1);
        const std::optional<Side> mirrored = fresh.solve(mirror_image(pos), {.nodes = 10'000});
        if (!mirrored) continue;
        EXPECT_EQ(mirrored, direct) << format_position_code(pos);
        ++independent;
    }
    EXPECT_GT(shared, 50);
    EXPECT_GT(independent, 50);
}

TEST(ForwardSolver, FindsTheGeeseMoveThatShutsTheFoxIn) {
    // The fox on d7 has only the jump over e6 to f5; f4-f5 closes it.
    const Position pos = position_from_code(forward_only(13), "GFG/GGG/1G1G3/5G1/7/3/3 g 0 20");
    ForwardSolver solver(1);
    EXPECT_EQ(solver.solve(pos), Side::kGeese);
    const std::optional<Move> move = solver.winning_move(pos);
    ASSERT_TRUE(move.has_value());
    // Whichever winning move it names, plain minimax finds the geese win after it.
    Position after = pos;
    UndoInfo undo;
    after.make(*move, undo);
    std::uint64_t budget = 1'000'000;
    EXPECT_EQ(minimax_fox_wins(after, budget), false) << format_move(pos.board(), *move);
    Position shut = pos;
    shut.make(find_legal_move(pos, parse_move(pos.board(), "f4-f5").value()).value(), undo);
    EXPECT_EQ(evaluate_status(shut, 0).outcome, Outcome::kGeeseWin);
    EXPECT_EQ(solver.solve(shut), Side::kGeese);
}

TEST(ForwardSolver, AWinningMoveWinsAndALostSideHasNone) {
    ForwardSolver solver(16);
    int won = 0;
    int lost = 0;
    for (const Position& pos : testing::random_playout_positions(forward_only(15), 3, 800)) {
        if (evaluate_status(pos, 0).over()) continue;
        const std::optional<Side> winner = solver.solve(pos, {.nodes = 20'000});
        if (!winner) continue;
        const std::optional<Move> move = solver.winning_move(pos, {.nodes = 20'000});
        if (*winner != pos.side_to_move()) {
            EXPECT_FALSE(move.has_value()) << format_position_code(pos);
            ++lost;
            continue;
        }
        // Within its limits, or it has given up: then nothing, never a guess.
        if (!move) continue;
        bool legal = false;
        for_each_legal_move(pos, [&](const Move& m) { legal = legal || m == *move; });
        EXPECT_TRUE(legal);
        Position after = pos;
        UndoInfo undo;
        after.make(*move, undo);
        EXPECT_EQ(solver.solve(after, {.nodes = 20'000}), pos.side_to_move())
            << format_position_code(pos);
        ++won;
    }
    EXPECT_GT(won, 50);
    EXPECT_GT(lost, 50);
}

TEST(ForwardSolver, ATableTooSmallForTheSearchGivesUpEntriesAndAnswersAlike) {
    // From an engine game: about 240,000 positions to solve. A table of 1 MB
    // holds 65,536 (8,192 buckets of 8), so it must give entries up, one of
    // 8 MB half a million.
    const Position pos = position_from_code(forward_only(13), "G2/G2/GG5/1GF4/G4GG/2G/G1G f 0 38");
    ForwardSolver roomy(8);
    ASSERT_EQ(roomy.solve(pos), Side::kFox);
    ForwardSolver cramped(1);
    EXPECT_EQ(cramped.solve(pos), Side::kFox);
    EXPECT_GT(cramped.stats().replaced, 0u);
    // What it gave up is searched again: more positions, never another answer.
    EXPECT_GE(cramped.stats().nodes, roomy.stats().nodes);
    EXPECT_LT(roomy.stats().replaced, cramped.stats().replaced);
    EXPECT_EQ(cramped.solve(mirror_image(pos)), Side::kFox);
}

TEST(ForwardSolver, ACrampedTableKeepsTheEntriesThatCostTheMost) {
    // From an engine game, geese to move: about 800,000 positions to solve,
    // a dozen times what a table of 1 MB holds. Giving up the entries whose
    // searches were smallest took 1.8 times the roomy count when this was
    // written (giving up the ones with the fewest geese took 11.7 times).
    const Position pos = position_from_code(forward_only(13), "G2/3/1G4G/1G5/GG1F3/G1G/G1G g 1 29");
    ForwardSolver roomy(64);
    ASSERT_EQ(roomy.solve(pos), Side::kFox);
    ASSERT_EQ(roomy.stats().replaced, 0u);
    ForwardSolver cramped(1);
    EXPECT_EQ(cramped.solve(pos), Side::kFox);
    EXPECT_GT(cramped.stats().replaced, roomy.stats().nodes / 2);
    EXPECT_LT(cramped.stats().nodes, 3 * roomy.stats().nodes);
}

TEST(ForwardSolver, GivesUpAtItsNodeLimitAndKeepsWhatItSolved) {
    // Thirteen geese one move in: far more than a thousand positions to solve.
    const Position start = position_from_code(forward_only(13), "3/3/7/2F4/GGGGGGG/GGG/GGG g 1 1");
    ForwardSolver solver(16);
    EXPECT_EQ(solver.solve(start, {.nodes = 1'000}), std::nullopt);
    EXPECT_LE(solver.stats().nodes, 1'000u);

    // A later position that takes a fresh solver some thousands of nodes:
    // given half of them it gives up, and the next call, with no limit,
    // starts from what the first one proved.
    for (const Position& pos : testing::random_playout_positions(forward_only(13), 11, 2000)) {
        if (evaluate_status(pos, 0).over()) continue;
        ForwardSolver fresh(16);
        const std::optional<Side> expected = fresh.solve(pos, {.nodes = 50'000});
        const std::uint64_t needed = fresh.stats().nodes;
        if (!expected || needed < 2'000) continue;
        ForwardSolver twice(16);
        EXPECT_EQ(twice.solve(pos, {.nodes = needed / 2}), std::nullopt);
        const std::uint64_t spent = twice.stats().nodes;
        EXPECT_EQ(twice.solve(pos), expected);
        EXPECT_LE(twice.stats().nodes - spent, needed);
        return;
    }
    FAIL() << "no position took between 2,000 and 50,000 nodes";
}

TEST(ForwardSolver, StopsWhenToldOrWhenItsTimeIsUp) {
    const Position pos = position_from_code(forward_only(13), "3/3/7/2F4/GGGGGGG/GGG/GGG g 1 1");
    std::atomic<bool> stop = true;
    ForwardSolver stopped(1);
    EXPECT_EQ(stopped.solve(pos, {.stop = &stop}), std::nullopt);

    // A clock that moves a second each time it is read: the first look at it
    // during the search is past a one-millisecond limit.
    std::chrono::nanoseconds now{0};
    ForwardSolver timed(1, [&] { return now += std::chrono::seconds(1); });
    EXPECT_EQ(timed.solve(pos, {.time = std::chrono::milliseconds(1)}), std::nullopt);
    EXPECT_EQ(timed.winning_move(pos, {.time = std::chrono::milliseconds(1)}), std::nullopt);
}

}  // namespace
}  // namespace foxgeese
