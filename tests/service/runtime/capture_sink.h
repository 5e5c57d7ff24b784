// A spdlog sink that keeps every formatted line, for tests that read what a
// logger wrote while servers may still be writing: lines are taken under a
// lock, and a test can wait for the line it expects instead of sleeping.
#pragma once

#include <spdlog/sinks/base_sink.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace foxgeese::test {

class CaptureSink : public spdlog::sinks::base_sink<std::mutex> {
  public:
    std::vector<std::string> lines() const {
        std::lock_guard lock(lines_mutex_);
        return lines_;
    }

    // The first line `match` accepts, waiting up to `timeout` for it.
    std::optional<std::string> wait_for(
        const std::function<bool(const std::string&)>& match,
        std::chrono::milliseconds timeout = std::chrono::seconds(10)) const {
        std::unique_lock lock(lines_mutex_);
        std::optional<std::string> found;
        added_.wait_for(lock, timeout, [&] {
            for (const std::string& line : lines_) {
                if (match(line)) {
                    found = line;
                    return true;
                }
            }
            return false;
        });
        return found;
    }

  protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
        spdlog::memory_buf_t formatted;
        formatter_->format(msg, formatted);
        std::string line(formatted.data(), formatted.size());
        if (!line.empty() && line.back() == '\n') line.pop_back();
        {
            std::lock_guard lock(lines_mutex_);
            lines_.push_back(std::move(line));
        }
        added_.notify_all();
    }
    void flush_() override {}

  private:
    mutable std::mutex lines_mutex_;
    mutable std::condition_variable added_;
    std::vector<std::string> lines_;
};

}  // namespace foxgeese::test
