#include "engine/rules/legal_move.h"

#include "engine/rules/movegen.h"

namespace foxgeese {
namespace {

Error illegal(std::string message) {
    return make_error(ErrorCode::kIllegalMove, std::move(message));
}

Result<Move> check_step(const Position& pos, const MovePath& path) {
    const Board& board = pos.board();
    const int from = path.points[0];
    const int to = path.points[1];
    const std::string written = format_path(board, path);
    if (!board.linked(from, to)) {
        if (pos.side_to_move() == Side::kFox && board.jump_between(from, to)) {
            return illegal(written + " is not a step; a capture is written with x, as " +
                           board.point_name(from) + "x" + board.point_name(to));
        }
        return illegal(written + ": " + board.point_name(from) + " and " + board.point_name(to) +
                       " are not joined by a line");
    }
    if (has(pos.occupied(), to))
        return illegal(written + ": " + board.point_name(to) + " is occupied");
    if (pos.side_to_move() == Side::kGeese) {
        if (!has(pos.variant().goose_steps(from), to)) {
            if (board.rank_of(to) < board.rank_of(from)) {
                return illegal(written + ": geese never move backward");
            }
            return illegal(written +
                           ": sideways goose moves are off in this game "
                           "(table option geese_sideways)");
        }
    } else if (pos.variant().compulsory_capture() && any_fox_can_jump(pos)) {
        return illegal(written + ": capture is compulsory and a fox can jump");
    }
    return Move::step(from, to);
}

Result<Move> check_jump(const Position& pos, const MovePath& path) {
    const Board& board = pos.board();
    const std::string written = format_path(board, path);
    if (pos.side_to_move() == Side::kGeese) return illegal(written + ": geese never jump");
    Move move;
    move.from = path.points[0];
    Bitboard geese = pos.geese();
    Bitboard empty = pos.empty() | bit(move.from);
    int at = move.from;
    for (int i = 1; i < path.count; ++i) {
        const int land = path.points[i];
        const std::string hop = board.point_name(at) + "x" + board.point_name(land);
        const auto line = board.jump_between(at, land);
        if (!line) {
            return illegal(written + ": " + hop +
                           " is not a jump; a jump passes over a neighbouring goose along a "
                           "line to the point just beyond it");
        }
        const int over = line->over;
        if (has(move.captured, over)) {
            return illegal(written + ": the goose on " + board.point_name(over) +
                           " was already captured in this move");
        }
        if (!has(geese, over)) {
            if (has(pos.foxes(), over)) return illegal(written + ": foxes never jump foxes");
            return illegal(written + ": there is no goose on " + board.point_name(over) +
                           " to jump over");
        }
        if (!has(empty, land)) {
            return illegal(written + ": " + board.point_name(land) + " is occupied");
        }
        geese &= ~bit(over);
        empty = (empty | bit(over) | bit(at)) & ~bit(land);
        move.captured |= bit(over);
        move.path[move.jump_count++] = static_cast<std::uint8_t>(land);
        at = land;
    }
    move.to = static_cast<std::uint8_t>(at);
    if (pos.variant().compulsory_capture()) {
        for (const JumpLine* j = board.jumps_begin(at); j != board.jumps_end(at); ++j) {
            if (has(geese, j->over) && has(empty, j->land)) {
                return illegal(written + ": capture is compulsory and the fox can jump on from " +
                               board.point_name(at) + " (over " + board.point_name(j->over) + ")");
            }
        }
    }
    return move;
}

}  // namespace

Result<Move> find_legal_move(const Position& pos, const MovePath& path) {
    if (won_outright(pos)) return make_error(ErrorCode::kGameOver, "the game is over");
    const Board& board = pos.board();
    const int from = path.points[0];
    const std::string written = format_path(board, path);
    const bool fox_turn = pos.side_to_move() == Side::kFox;
    if (fox_turn && !has(pos.foxes(), from)) {
        if (has(pos.geese(), from)) {
            return illegal(written + ": " + board.point_name(from) +
                           " holds a goose, but the fox side is to move");
        }
        return illegal(written + ": there is no fox on " + board.point_name(from));
    }
    if (!fox_turn && !has(pos.geese(), from)) {
        if (has(pos.foxes(), from)) {
            return illegal(written + ": " + board.point_name(from) +
                           " holds a fox, but the geese are to move");
        }
        return illegal(written + ": there is no goose on " + board.point_name(from));
    }
    return path.jump ? check_jump(pos, path) : check_step(pos, path);
}

}  // namespace foxgeese
