// The baseline the engine's strength is measured against, built the way a
// general game system such as Ludii plays a game it knows only by its rules:
// alpha-beta over the legal moves with a material-only evaluation, no
// transposition table, no move ordering beyond trying the previous
// iteration's best root move first, no quiescence search. It knows the
// rules' wins and losses (and prefers the nearer win), not repetition or the
// fifty-move rule: the match judges those.
//
// Ludii's player is fixed-depth; at equal time per move this one deepens
// iteratively until its time is up and plays the best move of the deepest
// completed depth, so that it uses the same time as the engine it faces
// rather than a depth that would be too shallow in one variant and too slow
// in another.
#pragma once

#include <chrono>
#include <cstdint>

#include "engine/rules/move.h"
#include "engine/rules/position.h"
#include "engine/search/score.h"

namespace foxgeese::bench {

class BaselinePlayer {
  public:
    // `seed` shuffles the root moves once per search: ties between moves of
    // equal material go to a random one rather than always the first generated.
    explicit BaselinePlayer(std::uint64_t seed) : rng_state_(seed) {}

    // The move to play in a position with legal moves, searching up to
    // `max_depth` plies or until `time` has passed (0: no time limit).
    Move choose(const Position& pos, int max_depth, std::chrono::nanoseconds time);

    // The depth completed by the last choose().
    int last_depth() const { return last_depth_; }
    std::uint64_t last_nodes() const { return nodes_; }

  private:
    Score alpha_beta(Position& pos, int depth, int ply, Score alpha, Score beta);
    bool out_of_time();

    std::uint64_t rng_state_;
    std::chrono::steady_clock::time_point deadline_;
    bool timed_ = false;
    bool aborted_ = false;
    std::uint64_t nodes_ = 0;
    int last_depth_ = 0;
};

}  // namespace foxgeese::bench
