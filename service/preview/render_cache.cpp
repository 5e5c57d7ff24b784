#include "service/preview/render_cache.h"

namespace foxgeese::preview {

std::shared_ptr<const std::string> RenderCache::find(const std::string& key) {
    std::lock_guard lock(mutex_);
    const auto it = by_key_.find(key);
    if (it == by_key_.end()) return nullptr;
    recent_.splice(recent_.begin(), recent_, it->second);
    return it->second->second;
}

void RenderCache::put(const std::string& key, std::shared_ptr<const std::string> file) {
    const std::size_t size = file->size() + key.size();
    if (size > max_bytes_ / 4) return;
    std::lock_guard lock(mutex_);
    if (by_key_.count(key)) return;  // the same content, drawn twice at once
    recent_.emplace_front(key, std::move(file));
    by_key_.emplace(key, recent_.begin());
    bytes_ += size;
    while (bytes_ > max_bytes_) {
        const Entry& oldest = recent_.back();
        bytes_ -= oldest.second->size() + oldest.first.size();
        by_key_.erase(oldest.first);
        recent_.pop_back();
    }
}

std::size_t RenderCache::bytes() const {
    std::lock_guard lock(mutex_);
    return bytes_;
}

std::size_t RenderCache::entries() const {
    std::lock_guard lock(mutex_);
    return by_key_.size();
}

}  // namespace foxgeese::preview
