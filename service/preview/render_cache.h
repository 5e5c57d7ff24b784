// Rendered files kept in memory, by a key that fixes their content (a
// game's id and ply, the format, the size): a position at a ply never
// changes, so an entry is never stale, only evicted, least recently used
// first, to stay under a byte budget.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace foxgeese::preview {

class RenderCache {
  public:
    explicit RenderCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

    // The file under `key`, or null.
    std::shared_ptr<const std::string> find(const std::string& key);
    // Keeps `file` under `key` (a file larger than a quarter of the budget
    // is not kept: it would push out many others).
    void put(const std::string& key, std::shared_ptr<const std::string> file);

    std::size_t bytes() const;
    std::size_t entries() const;

  private:
    using Entry = std::pair<std::string, std::shared_ptr<const std::string>>;
    const std::size_t max_bytes_;
    mutable std::mutex mutex_;
    std::list<Entry> recent_;  // most recently used first
    std::unordered_map<std::string, std::list<Entry>::iterator> by_key_;
    std::size_t bytes_ = 0;
};

}  // namespace foxgeese::preview
