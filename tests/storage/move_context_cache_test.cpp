// The replica's copies of games (storage/move_context_cache.h): bounded,
// least recently used out first, too old means absent.
#include "storage/move_context_cache.h"

#include <gtest/gtest.h>

#include <string>

namespace foxgeese::storage {
namespace {

MoveContext context(const std::string& game_id, int ply, std::int64_t version) {
    MoveContext c;
    c.game.game_id = game_id;
    c.game.ply = ply;
    c.version = version;
    c.window_occurrences["3/3/7/3F3/GGGGGGG/GGG/GGG f"] = Occurrence{1, 0};
    return c;
}

constexpr std::int64_t kNow = 1'800'000'000'000'000;

TEST(MoveContextCache, GivesBackWhatWasStored) {
    MoveContextCache cache(4);
    cache.store(context("a", 3, 77), kNow);
    const auto found = cache.find("a", kNow + 1);
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(found->game.ply, 3);
    EXPECT_EQ(found->version, 77);
    EXPECT_EQ(found->window_occurrences.at("3/3/7/3F3/GGGGGGG/GGG/GGG f").count, 1);
    EXPECT_EQ(cache.find("b", kNow), nullptr);
}

TEST(MoveContextCache, AStoreReplacesTheGamesEarlierCopy) {
    MoveContextCache cache(4);
    cache.store(context("a", 3, 77), kNow);
    cache.store(context("a", 4, 78), kNow);
    EXPECT_EQ(cache.size(), 1u);
    const auto found = cache.find("a", kNow);
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(found->game.ply, 4);
    EXPECT_EQ(found->version, 78);
}

TEST(MoveContextCache, PastCapacityTheLeastRecentlyUsedGoes) {
    MoveContextCache cache(2);
    cache.store(context("a", 1, 1), kNow);
    cache.store(context("b", 1, 2), kNow);
    ASSERT_NE(cache.find("a", kNow), nullptr);  // now "b" is the least recently used
    cache.store(context("c", 1, 3), kNow);
    EXPECT_EQ(cache.size(), 2u);
    EXPECT_NE(cache.find("a", kNow), nullptr);
    EXPECT_EQ(cache.find("b", kNow), nullptr);
    EXPECT_NE(cache.find("c", kNow), nullptr);
}

TEST(MoveContextCache, ACopyOlderThanTheMaximumAgeIsNotUsedAndGoes) {
    MoveContextCache cache(4);
    cache.store(context("a", 1, 1), kNow);
    EXPECT_NE(cache.find("a", kNow + MoveContextCache::kMaxAgeUs), nullptr);
    EXPECT_EQ(cache.find("a", kNow + MoveContextCache::kMaxAgeUs + 1), nullptr);
    EXPECT_EQ(cache.size(), 0u);
}

TEST(MoveContextCache, ACopyFromTheFutureIsNotUsed) {
    // A clock set back must not make a copy live longer than its age.
    MoveContextCache cache(4);
    cache.store(context("a", 1, 1), kNow);
    EXPECT_EQ(cache.find("a", kNow - 1), nullptr);
}

TEST(MoveContextCache, ForgetRemovesTheCopy) {
    MoveContextCache cache(4);
    cache.store(context("a", 1, 1), kNow);
    cache.forget("a");
    cache.forget("never stored");
    EXPECT_EQ(cache.find("a", kNow), nullptr);
    EXPECT_EQ(cache.size(), 0u);
}

TEST(MoveContextCache, CapacityZeroKeepsNothing) {
    MoveContextCache cache(0);
    cache.store(context("a", 1, 1), kNow);
    EXPECT_EQ(cache.find("a", kNow), nullptr);
    EXPECT_EQ(cache.size(), 0u);
}

TEST(MoveContextCache, ACopyHandedOutStaysValidWhenReplaced) {
    MoveContextCache cache(1);
    cache.store(context("a", 1, 1), kNow);
    const auto held = cache.find("a", kNow);
    cache.store(context("a", 2, 2), kNow);
    cache.store(context("b", 1, 3), kNow);  // evicts "a"
    EXPECT_EQ(held->game.ply, 1);
    EXPECT_EQ(held->version, 1);
}

}  // namespace
}  // namespace foxgeese::storage
