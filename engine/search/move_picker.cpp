#include "engine/search/move_picker.h"

#include <cstdlib>
#include <utility>

namespace foxgeese {
namespace {

// Order classes, far enough apart that a class never overlaps the next.
constexpr int kTableMoveOrder = 1 << 30;
constexpr int kCaptureOrder = 1 << 28;
constexpr int kKillerOrder = 1 << 26;

}  // namespace

void MoveHistory::update(Side side, MoveKey move, int bonus) {
    int& entry = table_[static_cast<int>(side)][move.from()][move.to()];
    entry += bonus - entry * std::abs(bonus) / kMax;
}

MovePicker::MovePicker(const Position& pos, Buffer& buffer, Kind kind, MoveKey table_move,
                       const Killers* killers, const MoveHistory& history,
                       const std::function<bool()>* interrupt)
    : pos_(pos), buffer_(buffer), kind_(kind), interrupt_(interrupt) {
    const Side side = pos.side_to_move();
    for_each_legal_move_until(pos, [&](const Move& move) {
        if (stop_generating()) return true;
        if (kind == Kind::kCaptures && !move.is_jump()) return false;
        const MoveKey key(move);
        // Different paths to the same position are one move: the first one generated stands.
        if (move.is_jump() && holds(key)) return false;
        int order;
        if (key == table_move) {
            order = kTableMoveOrder;
        } else if (move.is_jump()) {
            order = kCaptureOrder + count(move.captured);
        } else if (killers && key == killers->moves[0]) {
            order = kKillerOrder + 1;
        } else if (killers && key == killers->moves[1]) {
            order = kKillerOrder;
        } else {
            order = history.score(side, key);
        }
        add(move, key, order);
        return false;
    });
}

void MovePicker::add(const Move& move, MoveKey key, int order) {
    if (size_ == kCapacity) {
        overflowed_ = true;
        return;
    }
    buffer_[size_++] = ScoredMove{move, key, order};
}

bool MovePicker::holds(MoveKey key) const {
    for (int i = 0; i < size_; ++i) {
        if (buffer_[i].key == key) return true;
    }
    return false;
}

const ScoredMove* MovePicker::next() {
    if (next_ == size_) return nullptr;
    // Selection, not a sort: a cutoff usually comes after a few moves.
    int best = next_;
    for (int i = next_ + 1; i < size_; ++i) {
        if (buffer_[i].order > buffer_[best].order) best = i;
    }
    std::swap(buffer_[next_], buffer_[best]);
    return &buffer_[next_++];
}

}  // namespace foxgeese
