#include "match_players.h"

#include <charconv>
#include <memory>

#include "baseline_player.h"
#include "engine/search/bot_level.h"
#include "engine/search/forward_solver.h"
#include "engine/search/search.h"

namespace foxgeese::bench {
namespace {

using Clock = std::chrono::steady_clock;

class EnginePlayer final : public Player {
  public:
    EnginePlayer(int level, const MatchSettings& budget, std::uint64_t seed)
        : Player("level" + std::to_string(level)), level_(bot_level(level)), seed_(seed) {
        if (budget.time.count() > 0) level_.time = budget.time;
        if (budget.nodes > 0) level_.nodes = budget.nodes;
        if (budget.contempt >= 0) level_.contempt = budget.contempt;
        if (budget.exact >= 0) level_.exact = budget.exact != 0;
    }
    Searcher& searcher() { return searcher_; }

    void new_game() override { searcher_.clear(); }

    Move choose_move(const Position& pos, const RepetitionHistory& history) override {
        make_exact_solver_if_needed(solver_, level_, pos.variant(), kSolverMegabytes);
        const auto start = Clock::now();
        const std::optional<Move> move =
            play_bot_move(searcher_, pos, history, level_, seed_, nullptr, solver_.get());
        const SearchResult& result = searcher_.last_result();
        count_move(result.depth, result.nodes, Clock::now() - start);
        return *move;
    }

  private:
    // As the service's bot threads have (BotWorkerOptions::solver_megabytes).
    static constexpr std::size_t kSolverMegabytes = 64;

    BotLevel level_;
    std::uint64_t seed_;
    Searcher searcher_{16};
    std::unique_ptr<ForwardSolver> solver_;  // the exact levels', in the variants it decides
};

class BaselineMatchPlayer final : public Player {
  public:
    BaselineMatchPlayer(std::string name, int depth, std::chrono::milliseconds time,
                        std::uint64_t seed)
        : Player(std::move(name)), depth_(depth), time_(time), baseline_(seed) {}

    Move choose_move(const Position& pos, const RepetitionHistory&) override {
        const auto start = Clock::now();
        const Move move = baseline_.choose(pos, depth_, time_);
        count_move(baseline_.last_depth(), baseline_.last_nodes(), Clock::now() - start);
        return move;
    }

  private:
    int depth_;
    std::chrono::milliseconds time_;
    BaselinePlayer baseline_;
};

std::optional<int> number_after(std::string_view spec, std::string_view prefix) {
    if (!spec.starts_with(prefix)) return std::nullopt;
    int value = 0;
    const char* begin = spec.data() + prefix.size();
    const char* end = spec.data() + spec.size();
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr != end || begin == end) return std::nullopt;
    return value;
}

}  // namespace

void Player::count_move(int depth, std::uint64_t nodes, std::chrono::nanoseconds time) {
    ++totals_.moves;
    totals_.depth += static_cast<std::uint64_t>(depth);
    totals_.nodes += nodes;
    totals_.time += time;
}

std::unique_ptr<Player> make_player(std::string_view spec, const MatchSettings& budget,
                                    std::uint64_t seed, std::string& error,
                                    const std::optional<EvalWeights>& weights, VariantId variant) {
    if (const auto level = number_after(spec, "level")) {
        if (*level < kMinBotLevel || *level > kMaxBotLevel) {
            error = "levels go from 1 to 8, not " + std::to_string(*level);
            return nullptr;
        }
        auto player = std::make_unique<EnginePlayer>(*level, budget, seed);
        if (weights) player->searcher().set_eval_weights(variant, *weights);
        return player;
    }
    if (spec == "baseline") {
        if (budget.time.count() == 0) {
            error = "the baseline deepens within a time per move: give --time-ms";
            return nullptr;
        }
        return std::make_unique<BaselineMatchPlayer>("baseline", SearchLimits::kMaxDepth,
                                                     budget.time, seed);
    }
    if (const auto depth = number_after(spec, "baseline-d"); depth && *depth >= 1) {
        return std::make_unique<BaselineMatchPlayer>(std::string(spec), *depth,
                                                     std::chrono::milliseconds(0), seed);
    }
    error = "unknown player '" + std::string(spec) + "': level1..level8, baseline, baseline-d<N>";
    return nullptr;
}

}  // namespace foxgeese::bench
