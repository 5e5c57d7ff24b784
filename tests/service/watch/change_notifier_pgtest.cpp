// The change notifier: ids announced after their commits, many to a
// notification, each payload within PostgreSQL's limit, and every id heard
// by a listener.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <pqxx/pqxx>
#include <set>
#include <string>
#include <thread>

#include "service/watch/change_notifier.h"
#include "storage/postgres_game_store.h"
#include "tests/support/test_database.h"

namespace foxgeese::test {
namespace {

using service::change_payloads;
using service::ChangeNotifier;
using namespace std::chrono_literals;

// Other test processes notify on the same channel at the same time: each
// process's ids start with its own number, and its listener counts only those.
const std::string& run_tag() {
    static const std::string tag = [] {
        char hex[9];
        std::snprintf(hex, sizeof hex, "%08x", static_cast<unsigned>(getpid()));
        return std::string(hex);
    }();
    return tag;
}

std::string fake_id(int i) {
    char id[37];
    std::snprintf(id, sizeof id, "%s-0000-4000-8000-%012d", run_tag().c_str(), i);
    return id;
}

// Collects the ids of this process announced on the events channel.
class Listener : public pqxx::notification_receiver {
  public:
    explicit Listener(pqxx::connection_base& conn)
        : pqxx::notification_receiver(conn, storage::kEventsChannel) {}
    void operator()(const std::string& payload, int) override {
        const std::string& tag = run_tag();
        bool ours = false;
        std::size_t from = 0;
        while (from <= payload.size()) {
            std::size_t comma = payload.find(',', from);
            if (comma == std::string::npos) comma = payload.size();
            const std::string id = payload.substr(from, comma - from);
            from = comma + 1;
            if (id.compare(0, tag.size(), tag) != 0) continue;
            ours = true;
            const auto [_, fresh] = ids.insert(id);
            if (!fresh) ++repeated;
        }
        if (ours) ++notifications;
    }
    std::set<std::string> ids;
    int notifications = 0;
    int repeated = 0;
};

TEST(ChangePayloads, JoinIdsWithCommasWithinPostgresLimit) {
    std::set<std::string> ids;
    for (int i = 0; i < 1000; ++i)
        ids.insert(fake_id(i));
    const std::vector<std::string> payloads = change_payloads(ids);
    ASSERT_GE(payloads.size(), 5u);  // 37 bytes an id: about 213 to a payload
    std::set<std::string> seen;
    for (const std::string& p : payloads) {
        EXPECT_LT(p.size(), 8000u);
        EXPECT_NE(p.front(), ',');
        EXPECT_NE(p.back(), ',');
        std::size_t from = 0;
        while (from <= p.size()) {
            std::size_t comma = p.find(',', from);
            if (comma == std::string::npos) comma = p.size();
            EXPECT_TRUE(seen.insert(p.substr(from, comma - from)).second);
            from = comma + 1;
        }
    }
    EXPECT_EQ(seen, ids);
    EXPECT_EQ(change_payloads({fake_id(7)}), std::vector<std::string>{fake_id(7)});
    EXPECT_TRUE(change_payloads({}).empty());
}

TEST(ChangeNotifier, AnnouncesEveryChangedGameManyToANotification) {
    pqxx::connection listening(test_database_url());
    Listener listener(listening);
    ChangeNotifier notifier(test_database_url());
    notifier.start();
    constexpr int kGames = 2000;
    std::set<std::string> wanted;
    for (int i = 0; i < kGames; ++i) {
        wanted.insert(fake_id(i));
        notifier.changed(fake_id(i));
        notifier.changed(fake_id(i));  // twice before it went out: announced once
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (listener.ids.size() < wanted.size() && std::chrono::steady_clock::now() < deadline)
        listening.await_notification(0, 100'000);
    EXPECT_EQ(listener.ids, wanted);
    // Coalesced: far fewer notifications than changes (an id to each would
    // be 4,000), and never one per call.
    EXPECT_LT(listener.notifications, 200);
    // The notifier counts a send once it returns, which may be after the
    // listener heard it: compare once it has stopped.
    notifier.stop();
    EXPECT_EQ(static_cast<std::size_t>(listener.notifications), notifier.notifications_sent());
}

TEST(ChangeNotifier, IdsTricklingInGoOutAtMostOneNotificationPerInterval) {
    // One id every millisecond, as moves come in under load: without the
    // interval nearly each would be a notification of its own.
    pqxx::connection listening(test_database_url());
    Listener listener(listening);
    const auto interval = std::chrono::milliseconds(20);
    ChangeNotifier notifier(test_database_url(), interval);
    notifier.start();
    constexpr int kGames = 200;
    const auto began = std::chrono::steady_clock::now();
    for (int i = 0; i < kGames; ++i) {
        notifier.changed(fake_id(i));
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (listener.ids.size() < kGames && std::chrono::steady_clock::now() < deadline)
        listening.await_notification(0, 100'000);
    const auto took = std::chrono::steady_clock::now() - began;
    EXPECT_EQ(listener.ids.size(), static_cast<std::size_t>(kGames));
    // The first at once, then one an interval at the most.
    EXPECT_LE(listener.notifications, 2 + took / interval) << "in " << took / 1ms << " ms";
    EXPECT_GE(listener.notifications, 2);  // not held back to the end
    notifier.stop();
}

TEST(ChangeNotifier, StopSendsWhatIsStillPending) {
    pqxx::connection listening(test_database_url());
    Listener listener(listening);
    {
        ChangeNotifier notifier(test_database_url());
        notifier.start();
        for (int i = 0; i < 300; ++i)
            notifier.changed(fake_id(i));
        notifier.stop();  // at once: what was queued still goes out
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (listener.ids.size() < 300 && std::chrono::steady_clock::now() < deadline)
        listening.await_notification(0, 100'000);
    EXPECT_EQ(listener.ids.size(), 300u);
    EXPECT_EQ(listener.repeated, 0);
}

TEST(ChangeNotifier, ADatabaseThatCannotBeReachedCostsNoCaller) {
    // Nothing listens on this socket: every send fails, and changed() still
    // returns at once; stop() ends within the send bound.
    ChangeNotifier notifier("postgresql:///none?host=/nonexistent&connect_timeout=1");
    notifier.start();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 10'000; ++i)
        notifier.changed(fake_id(i));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
    notifier.stop();
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(8));
    EXPECT_EQ(notifier.notifications_sent(), 0u);
}

}  // namespace
}  // namespace foxgeese::test
