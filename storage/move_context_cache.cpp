#include "storage/move_context_cache.h"

#include <utility>

namespace foxgeese::storage {

std::shared_ptr<const MoveContext> MoveContextCache::find(const std::string& game_id,
                                                          std::int64_t now_us) {
    const std::lock_guard lock(mutex_);
    const auto it = entries_.find(game_id);
    if (it == entries_.end()) return nullptr;
    auto& [entry, position] = it->second;
    if (now_us - entry.stored_us > kMaxAgeUs || now_us < entry.stored_us) {
        order_.erase(position);
        entries_.erase(it);
        return nullptr;
    }
    order_.splice(order_.begin(), order_, position);
    return entry.context;
}

void MoveContextCache::store(MoveContext context, std::int64_t now_us) {
    if (capacity_ == 0) return;
    std::string id = context.game.game_id;
    auto shared = std::make_shared<const MoveContext>(std::move(context));
    const std::lock_guard lock(mutex_);
    if (const auto it = entries_.find(id); it != entries_.end()) {
        it->second.first = Entry{std::move(shared), now_us};
        order_.splice(order_.begin(), order_, it->second.second);
        return;
    }
    if (entries_.size() >= capacity_) {
        entries_.erase(order_.back());
        order_.pop_back();
    }
    order_.push_front(id);
    entries_.emplace(std::move(id),
                     std::make_pair(Entry{std::move(shared), now_us}, order_.begin()));
}

void MoveContextCache::forget(const std::string& game_id) {
    const std::lock_guard lock(mutex_);
    const auto it = entries_.find(game_id);
    if (it == entries_.end()) return;
    order_.erase(it->second.second);
    entries_.erase(it);
}

std::size_t MoveContextCache::size() const {
    const std::lock_guard lock(mutex_);
    return entries_.size();
}

}  // namespace foxgeese::storage
