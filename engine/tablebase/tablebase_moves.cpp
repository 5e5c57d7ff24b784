#include "engine/tablebase/tablebase_moves.h"

#include <algorithm>

#include "engine/rules/movegen.h"

namespace foxgeese::tablebase {

namespace {

// The value after a move, for the side to move then.
std::optional<ExactValue> value_after(const Position& after, const ValueSource& values) {
    if (won_outright(after)) return ExactValue{false, 0};  // the geese have lost
    return values(after);
}

// Better first: wins before losses, quicker wins, slower losses, then fewer
// winning replies.
bool better(const MoveValue& a, const MoveValue& b) {
    if (a.value.mover_wins != b.value.mover_wins) return a.value.mover_wins;
    if (a.value.plies != b.value.plies)
        return a.value.mover_wins ? a.value.plies < b.value.plies : a.value.plies > b.value.plies;
    return a.winning_replies < b.winning_replies;
}

}  // namespace

std::optional<std::vector<MoveValue>> rank_moves(const Position& pos, const ValueSource& values) {
    std::vector<MoveValue> ranked;
    Position scratch = pos;
    bool unknown = false;
    for_each_legal_move(pos, [&](const Move& move) {
        if (unknown) return;
        UndoInfo undo;
        scratch.make(move, undo);
        const auto after = value_after(scratch, values);
        if (!after) {
            unknown = true;
        } else {
            MoveValue mv{move, ExactValue{!after->mover_wins, after->plies + 1}, 0};
            // After a losing move the opponent wins: count its moves that keep
            // the win (those to positions lost for the side moving now).
            if (!mv.value.mover_wins) {
                Position reply = scratch;
                for_each_legal_move(scratch, [&](const Move& r) {
                    UndoInfo u;
                    reply.make(r, u);
                    const auto then = value_after(reply, values);
                    reply.unmake(r, u);
                    if (!then)
                        unknown = true;
                    else if (!then->mover_wins)
                        ++mv.winning_replies;
                });
            }
            ranked.push_back(mv);
        }
        scratch.unmake(move, undo);
    });
    if (unknown) return std::nullopt;
    std::stable_sort(ranked.begin(), ranked.end(), better);
    return ranked;
}

}  // namespace foxgeese::tablebase
