// A replica's own copies of the games it moved in last, so that the next move
// in such a game costs one database round trip instead of two: MakeMove judges
// the move on the copy, and its write applies only if the game row still has
// the copy's version (apply_move's compare-and-swap on xmin). A copy made
// stale by another replica or another RPC costs a failed write and a fresh
// read, never a wrong move, so the service stays stateless: any replica can
// serve any move, and losing the copies loses nothing.
//
// Bounded: past `capacity` games the least recently used copy goes, and a
// copy older than kMaxAge is not used (row versions are 32-bit transaction
// ids, which come round again only after billions of transactions; an hour
// is far inside that). Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "storage/game_records.h"

namespace foxgeese::storage {

class MoveContextCache {
  public:
    static constexpr std::int64_t kMaxAgeUs = 3600LL * 1000 * 1000;

    // capacity 0 keeps nothing.
    explicit MoveContextCache(std::size_t capacity) : capacity_(capacity) {}

    // The copy of a game stored at most kMaxAgeUs before now_us, if any.
    std::shared_ptr<const MoveContext> find(const std::string& game_id, std::int64_t now_us);
    // Keeps `context` as the copy of its game (replacing an older one).
    void store(MoveContext context, std::int64_t now_us);
    void forget(const std::string& game_id);

    std::size_t size() const;
    std::size_t capacity() const { return capacity_; }

  private:
    struct Entry {
        std::shared_ptr<const MoveContext> context;
        std::int64_t stored_us = 0;
    };
    using Order = std::list<std::string>;  // game ids, most recently used first

    const std::size_t capacity_;
    mutable std::mutex mutex_;
    Order order_;
    std::unordered_map<std::string, std::pair<Entry, Order::iterator>> entries_;
};

}  // namespace foxgeese::storage
