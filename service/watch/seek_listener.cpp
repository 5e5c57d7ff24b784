#include "service/watch/seek_listener.h"

#include <spdlog/spdlog.h>

#include <pqxx/pqxx>

#include "storage/postgres_game_store.h"

namespace foxgeese::service {
namespace {

class SeekReceiver : public pqxx::notification_receiver {
  public:
    SeekReceiver(pqxx::connection_base& conn, const std::function<void(const std::string&)>& paired)
        : pqxx::notification_receiver(conn, storage::kSeeksChannel), paired_(paired) {}
    void operator()(const std::string& payload, int) override { paired_(payload); }

  private:
    const std::function<void(const std::string&)>& paired_;
};

}  // namespace

SeekListener::SeekListener(std::string database_url, std::function<void(const std::string&)> paired,
                           std::function<void()> tick, std::chrono::milliseconds interval)
    : database_url_(std::move(database_url)),
      paired_(std::move(paired)),
      tick_(std::move(tick)),
      interval_(interval) {}

SeekListener::~SeekListener() {
    stop();
}

void SeekListener::start() {
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
}

void SeekListener::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void SeekListener::tick_for(std::chrono::milliseconds time) {
    const auto until = std::chrono::steady_clock::now() + time;
    std::unique_lock lock(mutex_);
    while (!stopping_ && std::chrono::steady_clock::now() < until) {
        lock.unlock();
        tick_();
        lock.lock();
        wake_.wait_for(lock, interval_, [&] { return stopping_.load(); });
    }
}

void SeekListener::run() {
    bool failing = false;
    const long interval_us =
        std::chrono::duration_cast<std::chrono::microseconds>(interval_).count();
    while (!stopping_) {
        try {
            pqxx::connection conn(database_url_);
            SeekReceiver receiver(conn, paired_);
            if (failing) spdlog::info("seek listener: hearing pairings again");
            failing = false;
            while (!stopping_) {
                conn.await_notification(0, interval_us);
                tick_();
            }
        } catch (const std::exception& e) {
            if (stopping_) break;
            // Once per outage, not every second.
            if (!failing) {
                spdlog::warn("seek listener: lost the database ({}); reconnecting", e.what());
            }
            failing = true;
            tick_for(std::chrono::seconds(1));
        }
    }
}

}  // namespace foxgeese::service
