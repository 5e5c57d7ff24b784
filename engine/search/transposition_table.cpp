#include "engine/search/transposition_table.h"

#include <algorithm>

namespace foxgeese {

TranspositionTable::TranspositionTable(std::size_t megabytes)
    : clusters_(std::max<std::size_t>(1, megabytes * 1024 * 1024 / sizeof(Cluster))) {}

void TranspositionTable::clear() {
    std::fill(clusters_.begin(), clusters_.end(), Cluster{});
    age_ = 0;
}

std::size_t TranspositionTable::cluster_index(std::uint64_t hash) const {
    // The lower half of the hash scaled to the table: any size works, not only powers of two.
    return static_cast<std::size_t>((hash & 0xFFFFFFFFu) * clusters_.size() >> 32);
}

bool TranspositionTable::probe(std::uint64_t hash, TableEntry& entry) const {
    const auto check = static_cast<std::uint32_t>(hash >> 32);
    for (const Slot& slot : clusters_[cluster_index(hash)].slots) {
        if (slot.check != check || slot.bound() == Bound::kNone) continue;
        entry = TableEntry{MoveKey::from_bits(slot.move), slot.score, slot.depth, slot.bound()};
        return true;
    }
    return false;
}

void TranspositionTable::store(std::uint64_t hash, MoveKey move, Score score, int depth,
                               Bound bound) {
    const auto check = static_cast<std::uint32_t>(hash >> 32);
    Cluster& cluster = clusters_[cluster_index(hash)];
    Slot* target = nullptr;
    for (Slot& slot : cluster.slots) {
        if (slot.check == check && slot.bound() != Bound::kNone) {
            target = &slot;
            break;
        }
    }
    if (target) {
        // A shallower result for the same position does not push out a deeper one
        // of this search, unless it is exact.
        if (depth < target->depth && target->age() == age_ && bound != Bound::kExact) {
            if (!move.none()) target->move = move.bits();
            return;
        }
        if (move.none()) move = MoveKey::from_bits(target->move);
    } else {
        // Otherwise the least valuable slot: empty, then old, then shallow.
        auto value = [&](const Slot& slot) {
            if (slot.bound() == Bound::kNone) return -1000;
            const int age = (age_ - slot.age()) & kAgeMask;
            return slot.depth - 8 * age;
        };
        target = &cluster.slots[0];
        for (Slot& slot : cluster.slots) {
            if (value(slot) < value(*target)) target = &slot;
        }
    }
    target->check = check;
    target->score = static_cast<std::int16_t>(score);
    target->depth = static_cast<std::uint8_t>(std::clamp(depth, 0, 255));
    target->bound_age = static_cast<std::uint8_t>(static_cast<int>(bound) | age_ << 2);
    target->move = move.bits();
}

int TranspositionTable::permille_full() const {
    const std::size_t clusters = std::min<std::size_t>(clusters_.size(), 250);
    int used = 0;
    for (std::size_t i = 0; i < clusters; ++i) {
        for (const Slot& slot : clusters_[i].slots) {
            used += slot.bound() != Bound::kNone && slot.age() == age_;
        }
    }
    return static_cast<int>(used * 1000 / (clusters * kSlotsPerCluster));
}

}  // namespace foxgeese
