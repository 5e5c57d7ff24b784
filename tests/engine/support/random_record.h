// A seeded random game as a game record, for the round trips of the
// engine's format and of the service's ExportGame and ImportGame: legal
// moves chosen through plain modulo (the same game for a seed everywhere),
// a comment on every third move, and the rules' verdict as its result.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "engine/record/game_record.h"
#include "engine/rules/game.h"
#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"

namespace foxgeese::testing {

inline GameRecord random_game_record(const Variant& v, std::uint64_t seed, int max_plies) {
    std::mt19937_64 rng(seed);
    GameRecord record;
    record.variant = &v;
    Game game{Position(v)};
    for (int ply = 0; ply < max_plies && !game.status().over(); ++ply) {
        MoveList legal;
        generate_legal_moves(game.position(), legal);
        const std::string notation = format_move(v.board(), legal[rng() % legal.size()]);
        if (!game.play(notation).ok()) break;  // cannot happen: the move is the engine's
        record.moves.push_back(
            {notation, ply % 3 == 0 ? "ply " + std::to_string(ply + 1) + ": «noted» — ok" : ""});
    }
    record.result = game.status().outcome;
    record.end.rules = game.status().reason;
    return record;
}

}  // namespace foxgeese::testing
