// Board topology: the points of a cross-shaped board, the links (lines) between
// them and the jump geometry derived from them. Built once per board, read-only after.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/rules/bitboard.h"

namespace foxgeese {

enum class BoardId : std::uint8_t { kCross33, kCross45 };

// The eight directions of a link, clockwise from north (towards higher ranks).
enum Direction : std::uint8_t {
    kNorth,
    kNorthEast,
    kEast,
    kSouthEast,
    kSouth,
    kSouthWest,
    kWest,
    kNorthWest,
};
constexpr int kDirectionCount = 8;

constexpr int kMaxPoints = 64;
constexpr int kNoPoint = -1;

// One jump a fox may make from a point: over the neighbour `over` to `land`,
// both links in the same direction.
struct JumpLine {
    std::uint8_t over;
    std::uint8_t land;
};

class Board {
  public:
    static const Board& cross33();
    static const Board& cross45();
    static const Board& get(BoardId id);

    BoardId id() const { return id_; }
    std::string_view name() const { return name_; }
    int files() const { return files_; }
    int ranks() const { return ranks_; }
    int point_count() const { return point_count_; }
    Bitboard all_points() const { return all_points_; }

    // Points are numbered rank by rank from the lowest, left to right in a rank.
    int file_of(int point) const { return file_[point]; }  // 0 = file a
    int rank_of(int point) const { return rank_[point]; }  // 0 = rank 1
    // The point at a grid square, or kNoPoint where the cross has no point.
    int point_at(int file, int rank) const;
    // Name such as "d4"; the point must exist.
    std::string point_name(int point) const;

    // The neighbour linked in a direction, or kNoPoint.
    int neighbour(int point, Direction direction) const { return neighbour_[point][direction]; }
    bool linked(int a, int b) const { return has(links_from_[a], b); }
    Bitboard links_from(int point) const { return links_from_[point]; }

    // Every jump line from a point (at most one per direction).
    const JumpLine* jumps_begin(int point) const { return jumps_[point].data(); }
    const JumpLine* jumps_end(int point) const { return jumps_[point].data() + jump_count_[point]; }
    // The jump from a to c if a straight jump joins them.
    std::optional<JumpLine> jump_between(int a, int c) const;

    int orthogonal_link_count() const { return orthogonal_links_; }
    int diagonal_link_count() const { return diagonal_links_; }

  private:
    Board(BoardId id);

    BoardId id_;
    std::string_view name_;
    int files_ = 0;
    int ranks_ = 0;
    int point_count_ = 0;
    Bitboard all_points_ = 0;
    int orthogonal_links_ = 0;
    int diagonal_links_ = 0;
    std::array<std::int8_t, 81> grid_{};  // file + rank * files -> point or kNoPoint
    std::array<std::uint8_t, kMaxPoints> file_{};
    std::array<std::uint8_t, kMaxPoints> rank_{};
    std::array<std::array<std::int8_t, kDirectionCount>, kMaxPoints> neighbour_{};
    std::array<Bitboard, kMaxPoints> links_from_{};
    std::array<std::array<JumpLine, kDirectionCount>, kMaxPoints> jumps_{};
    std::array<std::uint8_t, kMaxPoints> jump_count_{};
};

}  // namespace foxgeese
