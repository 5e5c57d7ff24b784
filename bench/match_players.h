// The players a match pits against each other: the engine at one of its bot
// levels, or the Ludii-style baseline.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/rules/move.h"
#include "engine/rules/position.h"
#include "engine/rules/repetition_history.h"
#include "engine/search/evaluation.h"

namespace foxgeese::bench {

class Player {
  public:
    // What a player's moves cost, summed over the moves it chose.
    struct Totals {
        std::uint64_t moves = 0;
        std::uint64_t depth = 0;
        std::uint64_t nodes = 0;
        std::chrono::nanoseconds time{0};
    };

    virtual ~Player() = default;
    const std::string& name() const { return name_; }
    // A new game begins: nothing learnt in the last one carries over, so each
    // game is independent of the order the match plays them in.
    virtual void new_game() {}
    // The move to play in an undecided position.
    virtual Move choose_move(const Position& pos, const RepetitionHistory& history) = 0;
    const Totals& totals() const { return totals_; }

  protected:
    explicit Player(std::string name) : name_(std::move(name)) {}
    void count_move(int depth, std::uint64_t nodes, std::chrono::nanoseconds time);

  private:
    std::string name_;
    Totals totals_;
};

// What a match imposes on its players, overriding the levels' own settings.
struct MatchSettings {
    std::chrono::milliseconds time{0};  // per move; 0 keeps each level's own
    std::uint64_t nodes = 0;            // per move, engine levels only; 0 keeps each level's own
    int contempt = -1;                  // engine levels only; -1 keeps each level's own
    int exact = -1;  // engine levels only: 0 or 1 for BotLevel::exact; -1 keeps it
};

// A player from its name on the command line: "level1" to "level8" (the bot
// levels of engine/search/bot_level.h), "baseline" (iterative deepening within the
// budget's time) or "baseline-d<N>" (fixed depth N, as Ludii plays). Null
// with a message in `error` for anything else. `weights` replace an engine
// player's evaluation weights for the variant.
std::unique_ptr<Player> make_player(std::string_view spec, const MatchSettings& budget,
                                    std::uint64_t seed, std::string& error,
                                    const std::optional<EvalWeights>& weights = std::nullopt,
                                    VariantId variant = VariantId::kStandard);

}  // namespace foxgeese::bench
