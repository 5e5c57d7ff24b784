#include "engine/rules/board.h"

namespace foxgeese {
namespace {

constexpr int kFileStep[kDirectionCount] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr int kRankStep[kDirectionCount] = {1, 1, 0, -1, -1, -1, 0, 1};

// The cross is the grid minus its four corner blocks: the middle three files
// and the middle three ranks.
bool on_cross(BoardId id, int file, int rank) {
    const int size = id == BoardId::kCross33 ? 7 : 9;
    if (file < 0 || rank < 0 || file >= size || rank >= size) return false;
    const int lo = (size - 3) / 2;
    const int hi = lo + 2;
    return (file >= lo && file <= hi) || (rank >= lo && rank <= hi);
}

// Whether the diagonal from (file, rank) one step towards (df, dr) is drawn.
// Only inside a unit square whose four corners exist; cross33 draws both
// diagonals of such a square, cross45 only the one through the corners whose
// file + rank (1-based) is odd.
bool diagonal_drawn(BoardId id, int file, int rank, int df, int dr) {
    const int f2 = file + df;
    const int r2 = rank + dr;
    if (!on_cross(id, file, rank) || !on_cross(id, f2, r2) || !on_cross(id, file, r2) ||
        !on_cross(id, f2, rank)) {
        return false;
    }
    if (id == BoardId::kCross33) return true;
    return ((file + 1) + (rank + 1)) % 2 == 1;
}

}  // namespace

Board::Board(BoardId id) : id_(id) {
    name_ = id == BoardId::kCross33 ? "cross33" : "cross45";
    files_ = ranks_ = id == BoardId::kCross33 ? 7 : 9;
    grid_.fill(kNoPoint);
    for (int rank = 0; rank < ranks_; ++rank) {
        for (int file = 0; file < files_; ++file) {
            if (!on_cross(id, file, rank)) continue;
            const int point = point_count_++;
            grid_[file + rank * files_] = static_cast<std::int8_t>(point);
            file_[point] = static_cast<std::uint8_t>(file);
            rank_[point] = static_cast<std::uint8_t>(rank);
            all_points_ |= bit(point);
        }
    }
    for (int point = 0; point < point_count_; ++point) {
        for (int d = 0; d < kDirectionCount; ++d) {
            const int file = file_[point];
            const int rank = rank_[point];
            const bool diagonal = kFileStep[d] != 0 && kRankStep[d] != 0;
            int target = point_at(file + kFileStep[d], rank + kRankStep[d]);
            if (diagonal && !diagonal_drawn(id, file, rank, kFileStep[d], kRankStep[d])) {
                target = kNoPoint;
            }
            neighbour_[point][d] = static_cast<std::int8_t>(target);
            if (target == kNoPoint) continue;
            links_from_[point] |= bit(target);
            // Each link is seen from both ends; count it once.
            if (target > point) (diagonal ? diagonal_links_ : orthogonal_links_)++;
        }
    }
    for (int point = 0; point < point_count_; ++point) {
        for (int d = 0; d < kDirectionCount; ++d) {
            const int over = neighbour_[point][d];
            if (over == kNoPoint) continue;
            const int land = neighbour_[over][d];
            if (land == kNoPoint) continue;
            jumps_[point][jump_count_[point]++] =
                JumpLine{static_cast<std::uint8_t>(over), static_cast<std::uint8_t>(land)};
        }
    }
}

const Board& Board::cross33() {
    static const Board board(BoardId::kCross33);
    return board;
}

const Board& Board::cross45() {
    static const Board board(BoardId::kCross45);
    return board;
}

const Board& Board::get(BoardId id) {
    return id == BoardId::kCross33 ? cross33() : cross45();
}

int Board::point_at(int file, int rank) const {
    if (file < 0 || rank < 0 || file >= files_ || rank >= ranks_) return kNoPoint;
    return grid_[file + rank * files_];
}

std::string Board::point_name(int point) const {
    std::string name;
    name += static_cast<char>('a' + file_[point]);
    name += static_cast<char>('1' + rank_[point]);
    return name;
}

std::optional<JumpLine> Board::jump_between(int a, int c) const {
    for (const JumpLine* j = jumps_begin(a); j != jumps_end(a); ++j) {
        if (j->land == c) return *j;
    }
    return std::nullopt;
}

}  // namespace foxgeese
