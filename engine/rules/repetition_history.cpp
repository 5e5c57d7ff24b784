#include "engine/rules/repetition_history.h"

#include <cassert>

namespace foxgeese {

void RepetitionHistory::clear() {
    size_ = 0;
    filter_ = 0;
}

std::size_t RepetitionHistory::find(const PositionKey& key) const {
    if ((filter_ & filter_bit(key.hash)) == 0) return size_;
    std::size_t i = 0;
    while (i < size_ && !(entries_[i].key == key))
        ++i;
    return i;
}

void RepetitionHistory::set(const PositionKey& key, int occurrences) {
    const std::size_t i = find(key);
    if (i < size_) {
        entries_[i].occurrences = occurrences;
        return;
    }
    assert(size_ < entries_.size());
    if (size_ == entries_.size()) return;
    entries_[size_++] = Entry{key, occurrences};
    filter_ |= filter_bit(key.hash);
}

int RepetitionHistory::record(const Position& pos) {
    if (pos.quiet_plies() == 0) clear();
    const PositionKey key = pos.key();
    const int earlier = occurrences(key);
    set(key, earlier + 1);
    return earlier;
}

int RepetitionHistory::occurrences(const PositionKey& key) const {
    const std::size_t i = find(key);
    return i < size_ ? entries_[i].occurrences : 0;
}

}  // namespace foxgeese
