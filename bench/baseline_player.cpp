#include "baseline_player.h"

#include <algorithm>
#include <utility>

#include "engine/rules/movegen.h"
#include "engine/rules/zobrist.h"

namespace foxgeese::bench {
namespace {

constexpr Score kGooseValue = 100;

// Material only, for the side to move: each goose is worth the same to both sides.
Score material(const Position& pos) {
    const Score geese = kGooseValue * pos.geese_count();
    return pos.side_to_move() == Side::kGeese ? geese : -geese;
}

// The rules' wins and losses (rules 1-3) for the side to move, if the game is over.
bool game_over(const Position& pos, int ply, Score& score) {
    if (won_outright(pos)) {
        score = outright_score(pos, ply);
        return true;
    }
    if (!has_legal_move(pos)) {
        score = loss_in(ply);
        return true;
    }
    return false;
}

}  // namespace

bool BaselinePlayer::out_of_time() {
    if (!aborted_ && timed_ && (nodes_ & 1023) == 0) {
        aborted_ = std::chrono::steady_clock::now() >= deadline_;
    }
    return aborted_;
}

Score BaselinePlayer::alpha_beta(Position& pos, int depth, int ply, Score alpha, Score beta) {
    ++nodes_;
    if (Score over; game_over(pos, ply, over)) return over;
    if (depth == 0 || ply >= kMaxSearchPly - 1) return material(pos);
    if (out_of_time()) return 0;
    MoveList moves;
    generate_legal_moves(pos, moves);
    Score best = -kInfinity;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        UndoInfo undo;
        pos.make(moves[i], undo);
        const Score score = -alpha_beta(pos, depth - 1, ply + 1, -beta, -alpha);
        pos.unmake(moves[i], undo);
        if (aborted_) return 0;
        best = std::max(best, score);
        alpha = std::max(alpha, score);
        if (alpha >= beta) break;
    }
    return best;
}

Move BaselinePlayer::choose(const Position& root, int max_depth, std::chrono::nanoseconds time) {
    timed_ = time.count() > 0;
    deadline_ = std::chrono::steady_clock::now() + time;
    aborted_ = false;
    nodes_ = 0;
    last_depth_ = 0;
    Position pos = root;
    MoveList generated;
    generate_legal_moves(pos, generated);
    std::vector<Move> moves;
    for (std::size_t i = 0; i < generated.size(); ++i)
        moves.push_back(generated[i]);
    // Fisher-Yates with the seeded generator.
    for (std::size_t i = moves.size(); i > 1; --i) {
        std::swap(moves[i - 1], moves[zobrist::splitmix64(rng_state_) % i]);
    }
    Move best_move = moves.front();
    for (int depth = 1; depth <= max_depth; ++depth) {
        Score alpha = -kInfinity;
        std::size_t best_index = 0;
        for (std::size_t i = 0; i < moves.size(); ++i) {
            UndoInfo undo;
            pos.make(moves[i], undo);
            const Score score = -alpha_beta(pos, depth - 1, 1, -kInfinity, -alpha);
            pos.unmake(moves[i], undo);
            if (aborted_) break;
            if (score > alpha) {
                alpha = score;
                best_index = i;
            }
        }
        if (aborted_) break;
        // The best move of this depth is tried first at the next.
        std::rotate(moves.begin(), moves.begin() + static_cast<std::ptrdiff_t>(best_index),
                    moves.begin() + static_cast<std::ptrdiff_t>(best_index) + 1);
        best_move = moves.front();
        last_depth_ = depth;
        if (is_win(alpha)) break;  // nothing deeper beats a proven win
    }
    return best_move;
}

}  // namespace foxgeese::bench
