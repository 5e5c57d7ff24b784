#include "engine/rules/movegen.h"

namespace foxgeese {

std::uint64_t count_legal_moves(const Position& pos) {
    if (won_outright(pos)) return 0;
    const Board& board = pos.board();
    const Bitboard empty = pos.empty();
    std::uint64_t total = 0;
    if (pos.side_to_move() == Side::kGeese) {
        for (Bitboard g = pos.geese(); g;) {
            total += count(pos.variant().goose_steps(pop_lowest(g)) & empty);
        }
        return total;
    }
    const Bitboard geese = pos.geese();
    if (pos.variant().compulsory_capture() && any_fox_can_jump(pos)) {
        for (Bitboard f = pos.foxes(); f;) {
            const int from = pop_lowest(f);
            total += detail::count_jumps<true>(board, from, geese, empty | bit(from), 0);
        }
        return total;
    }
    for (Bitboard f = pos.foxes(); f;) {
        const int from = pop_lowest(f);
        total += count(board.links_from(from) & empty);
        if (!pos.variant().compulsory_capture()) {
            total += detail::count_jumps<false>(board, from, geese, empty | bit(from), 0);
        }
    }
    return total;
}

std::uint64_t count_legal_moves(const Position& pos, std::uint64_t limit) {
    if (limit == 0) return 0;
    std::uint64_t total = 0;
    for_each_legal_move_until(pos, [&](const Move&) { return ++total == limit; });
    return total;
}

bool has_legal_move(const Position& pos) {
    if (won_outright(pos)) return false;
    const Bitboard empty = pos.empty();
    if (pos.side_to_move() == Side::kGeese) {
        for (Bitboard g = pos.geese(); g;) {
            if (pos.variant().goose_steps(pop_lowest(g)) & empty) return true;
        }
        return false;
    }
    // A fox that cannot step can still move if it can jump.
    for (Bitboard f = pos.foxes(); f;) {
        const int from = pop_lowest(f);
        if ((pos.board().links_from(from) & empty) || fox_can_jump(pos, from)) return true;
    }
    return false;
}

}  // namespace foxgeese
