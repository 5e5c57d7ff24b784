// A game held in memory: a position, its status and the occurrence count of
// every position seen, for the command-line tool, tests and search. The
// service does the same with the counts stored in PostgreSQL.
#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "engine/rules/error.h"
#include "engine/rules/game_status.h"
#include "engine/rules/move.h"
#include "engine/rules/position.h"

namespace foxgeese {

class Game {
  public:
    // The start position is the first occurrence in the history.
    explicit Game(const Position& start);

    const Position& position() const { return position_; }
    GameStatus status() const { return status_; }
    // Times the current position has occurred, this time included.
    int occurrences() const;

    // Plays a move in notation: kInvalidNotation, kIllegalMove, or kGameOver
    // when the game has ended; nothing changes on error.
    Result<Move> play(std::string_view notation);

  private:
    struct KeyHash {
        std::size_t operator()(const PositionKey& key) const {
            return static_cast<std::size_t>(key.hash);
        }
    };

    Position position_;
    GameStatus status_;
    std::unordered_map<PositionKey, int, KeyHash> seen_;
};

}  // namespace foxgeese
