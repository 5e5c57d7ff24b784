#include "match_game.h"

#include <stdexcept>

#include "engine/rules/movegen.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "engine/rules/repetition_history.h"
#include "engine/rules/zobrist.h"

namespace foxgeese::bench {

Position random_opening(const Variant& variant, int plies, std::uint64_t seed) {
    std::uint64_t state = seed;
    while (true) {
        Position pos(variant);
        MoveList moves;
        for (int ply = 0; ply < plies; ++ply) {
            generate_legal_moves(pos, moves);
            if (moves.empty()) break;
            UndoInfo undo;
            pos.make(moves[zobrist::splitmix64(state) % moves.size()], undo);
        }
        if (!evaluate_status(pos, 0).over()) return pos;
    }
}

GameRecord play_game(const Position& start, Player& fox, Player& geese, int max_plies,
                     bool keep_positions) {
    GameRecord game{.status = {},
                    .plies = 0,
                    .geese_left = 0,
                    .positions = {},
                    .moves = {},
                    .final_position = start};
    Position pos = start;
    RepetitionHistory history;
    history.record(pos);
    game.status = evaluate_status(pos, 0);
    if (keep_positions) game.positions.push_back(pos);
    fox.new_game();
    geese.new_game();
    while (!game.status.over() && game.plies < max_plies) {
        Player& mover = pos.side_to_move() == Side::kFox ? fox : geese;
        const Move move = mover.choose_move(pos, history);
        bool legal = false;
        for_each_legal_move(pos, [&](const Move& m) { legal = legal || m == move; });
        if (!legal) {
            throw std::logic_error(mover.name() + " played the illegal move " +
                                   format_move(pos.board(), move) + " in " +
                                   format_position_code(pos));
        }
        UndoInfo undo;
        pos.make(move, undo);
        game.moves.push_back(move);
        ++game.plies;
        game.status = evaluate_status(pos, history.record(pos));
        if (keep_positions) game.positions.push_back(pos);
    }
    game.geese_left = pos.geese_count();
    game.final_position = pos;
    return game;
}

double fox_side_score(const GameRecord& game) {
    switch (game.status.outcome) {
        case Outcome::kFoxSideWins:
            return 1.0;
        case Outcome::kGeeseWin:
            return 0.0;
        case Outcome::kDraw:
        case Outcome::kOngoing:
            return 0.5;
    }
    return 0.5;
}

}  // namespace foxgeese::bench
