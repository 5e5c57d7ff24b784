#include "service/core/tablebase_answers.h"

#include <algorithm>
#include <array>

#include "engine/rules/zobrist.h"
#include "engine/search/bot_level.h"

namespace foxgeese::service {
namespace {

using tablebase::MoveValue;

// Per level, in percent of its moves in the tablebase's positions: how often
// it throws a win away (a move to a lost position, when it had a win) and
// how often it plays another move of the same result (a slower win, a
// quicker loss). Level 8 never errs, level 7 rarely; level 1 throws a win
// away on almost a third of its moves, so that a beginner can beat it from
// a lost position.
struct TableErrors {
    int throw_percent;
    int slack_percent;
};
constexpr std::array<TableErrors, kMaxBotLevel> kErrors = {{
    {30, 40},
    {22, 35},
    {15, 30},
    {10, 25},
    {6, 20},
    {3, 15},
    {1, 8},
    {0, 0},
}};

}  // namespace

Score exact_score(const tablebase::ExactValue& value) {
    // The longest game of 13 geese is far below the search's horizon, so an
    // exact score never reads as the evaluation's (kMaxSearchPly).
    const int plies = std::min(value.plies, kMaxSearchPly);
    return value.mover_wins ? win_in(plies) : loss_in(plies);
}

std::optional<std::vector<MoveValue>> ranked_moves(const tablebase::MappedTablebase& table,
                                                   const Position& pos) {
    if (!table.answers(pos)) return std::nullopt;
    return tablebase::rank_moves(pos, [&](const Position& p) { return table.value(p); });
}

std::optional<std::vector<AnalysedLine>> tablebase_lines(const tablebase::MappedTablebase& table,
                                                         const Position& pos, int multipv,
                                                         bool whole_lines) {
    const auto ranked = ranked_moves(table, pos);
    if (!ranked) return std::nullopt;
    std::vector<AnalysedLine> lines;
    for (const MoveValue& first : *ranked) {
        if (static_cast<int>(lines.size()) >= std::max(1, multipv)) break;
        AnalysedLine line;
        line.score = exact_score(first.value);
        line.depth = first.value.plies;
        line.pv.push_back(first.move);
        // Perfect play after the move, to the end of the game.
        Position next = pos;
        UndoInfo undo;
        next.make(first.move, undo);
        while (whole_lines && static_cast<int>(line.pv.size()) < kMaxSearchPly) {
            const auto replies = ranked_moves(table, next);
            if (!replies || replies->empty()) break;
            const Move best = replies->front().move;
            line.pv.push_back(best);
            next.make(best, undo);
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

Move tablebase_bot_move(const std::vector<MoveValue>& ranked, int level, const Position& pos,
                        std::uint64_t seed) {
    const TableErrors errors = kErrors[std::clamp(level, kMinBotLevel, kMaxBotLevel) - 1];
    const MoveValue& best = ranked.front();
    // One draw per (seed, position), as the search's levels draw theirs.
    std::uint64_t state = seed ^ pos.hash() ^ static_cast<std::uint64_t>(pos.ply()) << 40;
    const int roll = static_cast<int>(zobrist::splitmix64(state) % 100);
    const bool throwing = roll < errors.throw_percent;
    const bool slacking = !throwing && roll < errors.throw_percent + errors.slack_percent;
    if (!throwing && !slacking) return best.move;
    std::vector<const MoveValue*> pool;
    for (std::size_t i = 1; i < ranked.size(); ++i) {
        const bool same_result = ranked[i].value.mover_wins == best.value.mover_wins;
        if (same_result == slacking) pool.push_back(&ranked[i]);
    }
    if (pool.empty()) return best.move;
    return pool[zobrist::splitmix64(state) % pool.size()]->move;
}

}  // namespace foxgeese::service
