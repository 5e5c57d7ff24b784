#include "match_statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace foxgeese::bench {
namespace {

constexpr double kZ95 = 1.959964;

double elo_of(double score) {
    if (score <= 0) return -std::numeric_limits<double>::infinity();
    if (score >= 1) return std::numeric_limits<double>::infinity();
    // + 0.0 turns an even score's -0 into 0, which prints without a sign.
    return -400.0 * std::log10(1.0 / score - 1.0) + 0.0;
}

}  // namespace

void Tally::add(double score) {
    if (score > 0.75) {
        ++wins;
    } else if (score < 0.25) {
        ++losses;
    } else {
        ++draws;
    }
}

double Tally::score() const {
    return games() == 0 ? 0.5 : (wins + 0.5 * draws) / games();
}

EloEstimate elo_estimate(const Tally& tally) {
    const int n = tally.games();
    if (n == 0) return {0, 0, 0};
    const double s = tally.score();
    // A perfect score has no spread: measure it as if one game were half lost.
    const double half_game = 0.5 / n;
    const double m = std::clamp(s, half_game, 1.0 - half_game);
    const double variance = (tally.wins * (1 - m) * (1 - m) + tally.draws * (0.5 - m) * (0.5 - m) +
                             tally.losses * m * m) /
                            n;
    const double error = std::sqrt(variance / n);
    return {elo_of(s), elo_of(m - kZ95 * error), elo_of(m + kZ95 * error)};
}

std::string format_tally(const Tally& tally) {
    const EloEstimate elo = elo_estimate(tally);
    char text[200];
    int used = std::snprintf(text, sizeof text, "W %d  D %d  L %d  score %.1f%%  ", tally.wins,
                             tally.draws, tally.losses, 100 * tally.score());
    const auto rest = sizeof text - static_cast<std::size_t>(used);
    if (std::isinf(elo.difference)) {
        const bool won = elo.difference > 0;
        std::snprintf(text + used, rest, "Elo %sinf (95%%: %s %+.0f)", won ? "+" : "-",
                      won ? "above" : "below", won ? elo.low : elo.high);
    } else if (std::isfinite(elo.low) && std::isfinite(elo.high)) {
        std::snprintf(text + used, rest, "Elo %+.0f +-%.0f", elo.difference,
                      (elo.high - elo.low) / 2);
    } else if (std::isfinite(elo.low)) {
        std::snprintf(text + used, rest, "Elo %+.0f (95%%: above %+.0f)", elo.difference, elo.low);
    } else {
        std::snprintf(text + used, rest, "Elo %+.0f (95%%: below %+.0f)", elo.difference, elo.high);
    }
    return text;
}

}  // namespace foxgeese::bench
