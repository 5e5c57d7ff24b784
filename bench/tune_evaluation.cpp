// foxgeese-tune: fits a variant's evaluation weights to the results of
// self-play games (the "Texel" method), in rounds:
//
//   1. The engine plays itself from random openings with the current weights
//      (round 1: those in engine/search/evaluation.cpp), each side at a budget drawn
//      from a quarter, one and four times --nodes: at equal strength one side
//      can win every game (the fox in standard), and results that never vary
//      teach nothing.
//   2. Every quiet position of those games (no fox can jump: the
//      evaluation's job is the positions the quiescence search stops at)
//      becomes a sample: its features and a target for the fox side, the
//      game's result (1, 1/2 or 0) blended with --search-weight of what a
//      deeper search (four times --nodes) makes of the position, as
//      sigmoid(score / kScale). Where one side wins every game (the fox in
//      standard) the result alone says nothing about the positions; the
//      deeper search still sees which formations end in a trap or with the
//      geese out of moves, and the fit learns to see it earlier.
//   3. Logistic regression: the weights minimise the cross-entropy between
//      the targets and sigmoid(evaluation / kScale), by gradient descent on
//      standardised features, with an L2 penalty that pulls each weight
//      towards the round's weights: features the games hardly vary (material
//      in big_cross, where captures are rare) keep what they had instead of
//      drifting to nothing, and features that move together (geese left and
//      their square, advance and tempo) do not trade off wildly.
//   4. The fitted weights play the next round.
//
// After the last round a verification match (tuned against the weights the
// run started from, both sides of each opening) says whether the fit plays
// better. The final weights are printed as the C++ initialiser that
// engine/search/evaluation.cpp records.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/movegen.h"
#include "engine/rules/variant.h"
#include "engine/rules/zobrist.h"
#include "engine/search/evaluation.h"
#include "engine/search/search.h"
#include "eval_weights_file.h"
#include "match_game.h"
#include "match_players.h"
#include "match_statistics.h"

namespace foxgeese::bench {
namespace {

// Score points per unit of logit: an evaluation of +200 means the fox side
// scores sigmoid(1) = 73% from here.
constexpr double kScale = 200.0;

struct Options {
    std::string variant = "standard";
    int games = 200;
    int rounds = 2;
    std::uint64_t nodes = 20'000;
    int opening_plies = 6;
    int max_plies = 400;
    int verify_games = 100;
    std::uint64_t seed = 1;
    double search_weight = 0;   // share of the deeper search's verdict in the target
    int stride = 1;             // keep every stride-th quiet position (they repeat one another)
    std::string start_weights;  // a file; empty for the weights in engine/search/evaluation.cpp
    std::string out;            // a file for the final weights; empty for none
};

struct Sample {
    Position position;
    EvalFeatures features;
    double result;  // the target for the fox side
};

std::vector<Sample> self_play(const Variant& variant, const EvalWeights& weights,
                              const Options& options, std::uint64_t seed) {
    std::string error;
    // Level 7 at a node budget alone: no time cap, no random alternatives.
    auto player_at = [&](std::uint64_t nodes) {
        MatchSettings budget;
        budget.nodes = nodes;
        return make_player("level7", budget, seed, error, weights, variant.id());
    };
    const std::uint64_t budgets[] = {options.nodes / 4, options.nodes, options.nodes * 4};
    std::unique_ptr<Player> foxes[3];
    std::unique_ptr<Player> geese[3];
    for (int i = 0; i < 3; ++i) {
        foxes[i] = player_at(budgets[i]);
        geese[i] = player_at(budgets[i]);
    }
    std::vector<Sample> samples;
    int fox_wins = 0;
    int draws = 0;
    std::uint64_t state = seed;
    for (int game_index = 0; game_index < options.games; ++game_index) {
        const Position opening =
            random_opening(variant, options.opening_plies, seed * 7919 + game_index);
        Player& fox = *foxes[zobrist::splitmix64(state) % 3];
        Player& goose = *geese[zobrist::splitmix64(state) % 3];
        const GameRecord game = play_game(opening, fox, goose, options.max_plies, true);
        const double result = fox_side_score(game);
        fox_wins += result == 1.0;
        draws += result == 0.5;
        int quiet = 0;
        for (const Position& pos : game.positions) {
            if (won_outright(pos) || any_fox_can_jump(pos) || !has_legal_move(pos)) continue;
            if (quiet++ % options.stride == 0)
                samples.push_back(Sample{pos, eval_features(pos), result});
        }
    }
    std::printf("  self-play: %d games, fox side won %d, drew %d, lost %d; %zu quiet positions\n",
                options.games, fox_wins, draws, options.games - fox_wins - draws, samples.size());
    return samples;
}

double sigmoid(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

// Blends each sample's result with a deeper search's verdict on its position.
void blend_search_verdicts(std::vector<Sample>& samples, const Variant& variant,
                           const EvalWeights& weights, const Options& options) {
    if (options.search_weight <= 0) return;
    Searcher searcher(16);
    searcher.set_eval_weights(variant.id(), weights);
    SearchLimits limits;
    limits.nodes = options.nodes * 4;
    for (Sample& sample : samples) {
        RepetitionHistory history;
        history.record(sample.position);
        const SearchResult& result = searcher.search(sample.position, history, limits);
        const Score fox_side =
            sample.position.side_to_move() == Side::kFox ? result.score() : -result.score();
        const double verdict = is_win(fox_side)    ? 1.0
                               : is_loss(fox_side) ? 0.0
                                                   : sigmoid(fox_side / kScale);
        sample.result =
            (1 - options.search_weight) * sample.result + options.search_weight * verdict;
    }
}

double mean_loss(const std::vector<Sample>& samples, const EvalWeights& weights) {
    double loss = 0;
    for (const Sample& s : samples) {
        double eval = 0;
        for (int i = 0; i < kEvalFeatureCount; ++i)
            eval += weights[i] * s.features[i];
        const double p = std::clamp(sigmoid(eval / kScale), 1e-9, 1 - 1e-9);
        loss -= s.result * std::log(p) + (1 - s.result) * std::log(1 - p);
    }
    return loss / static_cast<double>(samples.size());
}

// Logistic regression on standardised features, pulled towards `prior`; the
// constant feature is the intercept.
EvalWeights fit(const std::vector<Sample>& samples, const EvalWeights& prior) {
    constexpr int n = kEvalFeatureCount;
    std::array<double, n> mean{};
    std::array<double, n> spread{};
    const double count = static_cast<double>(samples.size());
    for (const Sample& s : samples) {
        for (int i = 0; i < n; ++i)
            mean[i] += s.features[i] / count;
    }
    for (const Sample& s : samples) {
        for (int i = 0; i < n; ++i)
            spread[i] += (s.features[i] - mean[i]) * (s.features[i] - mean[i]) / count;
    }
    for (int i = 0; i < n; ++i)
        spread[i] = std::sqrt(spread[i]);

    // Weights on standardised features (a feature that never varies keeps its
    // prior); beta[kConstant] is the intercept. The descent starts at the prior.
    std::array<double, n> prior_beta{};
    prior_beta[kConstant] = prior[kConstant] / kScale;
    for (int i = 0; i < n; ++i) {
        if (i == kConstant) continue;
        prior_beta[i] = prior[i] / kScale * spread[i];
        prior_beta[kConstant] += prior[i] / kScale * mean[i];
    }
    std::array<double, n> beta = prior_beta;
    constexpr double kLearningRate = 0.5;
    constexpr double kPrior = 3e-3;
    constexpr int kIterations = 3000;
    for (int iteration = 0; iteration < kIterations; ++iteration) {
        std::array<double, n> gradient{};
        for (const Sample& s : samples) {
            double logit = beta[kConstant];
            for (int i = 0; i < n; ++i) {
                if (i != kConstant && spread[i] > 0)
                    logit += beta[i] * (s.features[i] - mean[i]) / spread[i];
            }
            const double error = sigmoid(logit) - s.result;
            gradient[kConstant] += error / count;
            for (int i = 0; i < n; ++i) {
                if (i != kConstant && spread[i] > 0)
                    gradient[i] += error * (s.features[i] - mean[i]) / spread[i] / count;
            }
        }
        for (int i = 0; i < n; ++i) {
            const double penalty = i == kConstant ? 0 : kPrior * (beta[i] - prior_beta[i]);
            beta[i] -= kLearningRate * (gradient[i] + penalty);
        }
    }
    // Back to raw features and score points.
    EvalWeights weights{};
    double intercept = beta[kConstant];
    for (int i = 0; i < n; ++i) {
        if (i == kConstant) continue;
        if (spread[i] == 0) {
            weights[i] = prior[i];
            intercept -= prior[i] / kScale * mean[i];
            continue;
        }
        const double raw = beta[i] / spread[i];
        intercept -= raw * mean[i];
        weights[i] = static_cast<int>(std::lround(raw * kScale));
    }
    weights[kConstant] = static_cast<int>(std::lround(intercept * kScale));
    return weights;
}

void print_weights(const EvalWeights& weights) {
    for (int i = 0; i < kEvalFeatureCount; ++i) {
        std::printf("    %-20s %6d\n",
                    std::string(eval_feature_name(static_cast<EvalFeature>(i))).c_str(),
                    weights[i]);
    }
    std::printf("  as C++: %s\n", format_eval_weights(weights).c_str());
}

// Tuned against starting weights at the self-play budget, both sides of each opening.
void verify(const Variant& variant, const EvalWeights& tuned, const EvalWeights& start,
            const Options& options) {
    MatchSettings budget;
    budget.nodes = options.nodes;
    std::string error;
    auto a = make_player("level7", budget, options.seed, error, tuned, variant.id());
    auto b = make_player("level7", budget, options.seed, error, start, variant.id());
    Tally tally;
    for (int pair = 0; pair < (options.verify_games + 1) / 2; ++pair) {
        const Position opening =
            random_opening(variant, options.opening_plies, options.seed * 104729 + pair);
        const double fox_a = fox_side_score(play_game(opening, *a, *b, options.max_plies));
        const double fox_b = fox_side_score(play_game(opening, *b, *a, options.max_plies));
        tally.add(fox_a);
        tally.add(1 - fox_b);
    }
    std::printf("verification, tuned vs starting weights at %llu nodes per move: %s\n",
                static_cast<unsigned long long>(options.nodes), format_tally(tally).c_str());
}

template <class T>
bool parse_number(const char* text, T& value) {
    const char* end = text + std::strlen(text);
    const auto [ptr, ec] = std::from_chars(text, end, value);
    return ec == std::errc() && ptr == end && ptr != text;
}

bool parse_options(int argc, char** argv, Options& options) {
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string_view flag = argv[i];
        const char* value = argv[i + 1];
        bool ok = true;
        if (flag == "--variant") {
            options.variant = value;
        } else if (flag == "--games") {
            ok = parse_number(value, options.games);
        } else if (flag == "--rounds") {
            ok = parse_number(value, options.rounds);
        } else if (flag == "--nodes") {
            ok = parse_number(value, options.nodes);
        } else if (flag == "--opening-plies") {
            ok = parse_number(value, options.opening_plies);
        } else if (flag == "--max-plies") {
            ok = parse_number(value, options.max_plies);
        } else if (flag == "--verify-games") {
            ok = parse_number(value, options.verify_games);
        } else if (flag == "--seed") {
            ok = parse_number(value, options.seed);
        } else if (flag == "--search-weight") {
            ok = parse_number(value, options.search_weight) && options.search_weight >= 0 &&
                 options.search_weight <= 1;
        } else if (flag == "--stride") {
            ok = parse_number(value, options.stride) && options.stride > 0;
        } else if (flag == "--weights") {
            options.start_weights = value;
        } else if (flag == "--out") {
            options.out = value;
        } else {
            ok = false;
        }
        if (!ok) return false;
    }
    return argc % 2 == 1;
}

}  // namespace
}  // namespace foxgeese::bench

int main(int argc, char** argv) {
    using namespace foxgeese;
    using namespace foxgeese::bench;
    Options options;
    if (!parse_options(argc, argv, options)) {
        std::fputs(
            "usage: foxgeese-tune [--variant NAME] [--games N] [--rounds R] [--nodes N]\n"
            "                     [--opening-plies P] [--max-plies M] [--verify-games N] [--seed "
            "S]\n",
            stderr);
        return 2;
    }
    const Result<const Variant*> variant = Variant::find(options.variant, {});
    if (!variant) {
        std::fprintf(stderr, "foxgeese-tune: %s\n", variant.error().message.c_str());
        return 2;
    }
    EvalWeights start = default_eval_weights((*variant)->id());
    if (!options.start_weights.empty()) {
        const std::optional<EvalWeights> read = read_eval_weights(options.start_weights);
        if (!read) {
            std::fprintf(stderr, "foxgeese-tune: no weights in %s\n",
                         options.start_weights.c_str());
            return 2;
        }
        start = *read;
    }
    EvalWeights weights = start;
    for (int round = 1; round <= options.rounds; ++round) {
        std::printf("round %d\n", round);
        std::vector<Sample> samples =
            self_play(**variant, weights, options, options.seed + 1000 * round);
        blend_search_verdicts(samples, **variant, weights, options);
        const double before = mean_loss(samples, weights);
        weights = fit(samples, weights);
        std::printf("  cross-entropy %.4f with the round's weights, %.4f fitted\n", before,
                    mean_loss(samples, weights));
        print_weights(weights);
        std::fflush(stdout);
    }
    if (!options.out.empty()) {
        if (std::FILE* out = std::fopen(options.out.c_str(), "w")) {
            std::fprintf(out, "%s\n", format_eval_weights(weights).c_str());
            std::fclose(out);
        }
    }
    if (options.verify_games > 0) verify(**variant, weights, start, options);
    return 0;
}
