// Positions met along seeded random games, for the property tests. The
// generator is used through plain modulo so every standard library picks the
// same moves for a seed.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "engine/rules/game_status.h"
#include "engine/rules/movegen.h"
#include "engine/rules/position.h"
#include "engine/rules/variant.h"

namespace foxgeese::testing {

// `count` positions of the variant: the start of each game, every position
// after a move, and each game's final (decided) position. A game ends when
// it is decided (repetition ignored) or after `max_plies`.
inline std::vector<Position> random_playout_positions(const Variant& variant, std::uint64_t seed,
                                                      std::size_t count, int max_plies = 300) {
    std::mt19937_64 rng(seed);
    std::vector<Position> positions;
    positions.reserve(count);
    while (positions.size() < count) {
        Position pos(variant);
        positions.push_back(pos);
        for (int ply = 0; ply < max_plies && positions.size() < count; ++ply) {
            if (evaluate_status(pos, 0).over()) break;
            MoveList moves;
            generate_legal_moves(pos, moves);
            if (moves.empty()) break;
            UndoInfo undo;
            pos.make(moves[rng() % moves.size()], undo);
            positions.push_back(pos);
        }
    }
    return positions;
}

}  // namespace foxgeese::testing
