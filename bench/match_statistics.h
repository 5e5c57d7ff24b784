// Wins, draws and losses of a match, and the Elo difference they imply with
// its 95% error margin.
#pragma once

#include <string>

namespace foxgeese::bench {

struct Tally {
    int wins = 0;
    int draws = 0;
    int losses = 0;

    // Adds one game scored 1, 1/2 or 0.
    void add(double score);
    int games() const { return wins + draws + losses; }
    // Points per game, 0 to 1.
    double score() const;
};

struct EloEstimate {
    double difference;  // +-infinity when every game went one way
    double low;         // the 95% interval
    double high;
};

// The Elo difference for the score, and the interval from the score's
// standard error over the games (normal approximation, each game's result
// 1, 1/2 or 0 an independent sample). With every game won (or lost) the
// difference is infinite and only the interval's finite end says something:
// it is taken from the score one half game short of perfect.
EloEstimate elo_estimate(const Tally& tally);

// "W 18  D 1  L 1  score 92.5%  Elo +425 +-118" (or "Elo > +420").
std::string format_tally(const Tally& tally);

}  // namespace foxgeese::bench
