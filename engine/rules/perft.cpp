#include "engine/rules/perft.h"

#include "engine/rules/movegen.h"

namespace foxgeese {

std::uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return count_legal_moves(pos);
    std::uint64_t nodes = 0;
    for_each_legal_move(pos, [&](const Move& move) {
        UndoInfo undo;
        pos.make(move, undo);
        nodes += perft(pos, depth - 1);
        pos.unmake(move, undo);
    });
    return nodes;
}

std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth) {
    std::vector<std::pair<Move, std::uint64_t>> result;
    if (depth <= 0) return result;
    for_each_legal_move(pos, [&](const Move& move) {
        UndoInfo undo;
        pos.make(move, undo);
        result.emplace_back(move, perft(pos, depth - 1));
        pos.unmake(move, undo);
    });
    return result;
}

}  // namespace foxgeese
