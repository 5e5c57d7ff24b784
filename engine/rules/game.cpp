#include "engine/rules/game.h"

#include "engine/rules/legal_move.h"
#include "engine/rules/notation.h"

namespace foxgeese {

Game::Game(const Position& start) : position_(start) {
    seen_[start.key()] = 1;
    status_ = evaluate_status(position_, 0);
}

int Game::occurrences() const {
    return seen_.at(position_.key());
}

Result<Move> Game::play(std::string_view notation) {
    Result<MovePath> path = parse_move(position_.board(), notation);
    if (!path) return path.error();
    if (status_.over()) {
        return make_error(ErrorCode::kGameOver,
                          "the game is over (" + std::string(outcome_name(status_.outcome)) + ", " +
                              std::string(end_reason_name(status_.reason)) + ")");
    }
    Result<Move> move = find_legal_move(position_, *path);
    if (!move) return move;
    UndoInfo undo;
    position_.make(*move, undo);
    const int earlier = seen_[position_.key()]++;
    status_ = evaluate_status(position_, earlier);
    return move;
}

}  // namespace foxgeese
