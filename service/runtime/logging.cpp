#include "service/runtime/logging.h"

#include <google/protobuf/stubs/logging.h>
#include <spdlog/details/log_msg.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <ctime>
#include <iterator>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>

#include "service/runtime/text_encoding.h"

namespace foxgeese::service {

namespace {

constexpr std::string_view kTextPattern = "%Y-%m-%d %H:%M:%S.%e [%^%l%$] %v";

spdlog::level::level_enum parse_level(const std::string& level) {
    if (level == "trace") return spdlog::level::trace;
    if (level == "debug") return spdlog::level::debug;
    if (level == "info") return spdlog::level::info;
    if (level == "warn") return spdlog::level::warn;
    if (level == "error") return spdlog::level::err;
    throw std::invalid_argument("unknown log level '" + level +
                                "' (expected trace, debug, info, warn or error)");
}

std::string_view level_name(spdlog::level::level_enum level) {
    switch (level) {
        case spdlog::level::trace:
            return "trace";
        case spdlog::level::debug:
            return "debug";
        case spdlog::level::info:
            return "info";
        case spdlog::level::warn:
            return "warn";
        case spdlog::level::err:
            return "error";
        case spdlog::level::critical:
            return "critical";
        default:
            return "off";
    }
}

// The writers below fill spdlog's buffer for log lines and a std::string for
// the access log's fields alike.
template <class Buffer>
void append(Buffer& dest, std::string_view text) {
    dest.append(text.data(), text.data() + text.size());
}

// A JSON string literal, escaped by nlohmann/json with everything outside
// printable ASCII as a \u escape, so the line survives any transport. Bytes
// that are not UTF-8 become U+FFFD one by one first (coerce_utf8), as
// everywhere in the server; nlohmann's own replacement would merge a cut-off
// sequence into one.
template <class Buffer>
void append_json_literal(Buffer& dest, std::string_view text) {
    const nlohmann::json value(is_valid_utf8(text) ? std::string(text) : coerce_utf8(text));
    append(dest, value.dump(-1, ' ', /*ensure_ascii=*/true));
}

// RFC 3339 in UTC with milliseconds: 2024-05-01T12:00:00.123Z.
void append_time(spdlog::memory_buf_t& dest, spdlog::log_clock::time_point time) {
    using namespace std::chrono;
    const auto since_epoch = duration_cast<milliseconds>(time.time_since_epoch());
    auto seconds = duration_cast<std::chrono::seconds>(since_epoch);
    auto millis = since_epoch - duration_cast<milliseconds>(seconds);
    if (millis.count() < 0) {  // before 1970: keep the fraction positive
        seconds -= std::chrono::seconds(1);
        millis += milliseconds(1000);
    }
    const std::time_t t = static_cast<std::time_t>(seconds.count());
    std::tm tm{};
    gmtime_r(&t, &tm);
    fmt::format_to(std::back_inserter(dest), "\"{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z\"",
                   tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                   millis.count());
}

class JsonFormatter final : public spdlog::formatter {
  public:
    void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
        append(dest, "{\"time\":");
        append_time(dest, msg.time);
        append(dest, ",\"level\":\"");
        append(dest, level_name(msg.level));
        append(dest, "\",\"logger\":");
        append_json_literal(dest, std::string_view(msg.logger_name.data(), msg.logger_name.size()));
        const std::string_view payload(msg.payload.data(), msg.payload.size());
        if (payload_ == JsonPayload::kMembers) {
            if (!payload.empty()) dest.push_back(',');
            append(dest, payload);
        } else {
            append(dest, ",\"msg\":");
            append_json_literal(dest, payload);
        }
        append(dest, "}\n");
    }

    explicit JsonFormatter(JsonPayload payload) : payload_(payload) {}

    std::unique_ptr<spdlog::formatter> clone() const override {
        return std::make_unique<JsonFormatter>(payload_);
    }

  private:
    JsonPayload payload_;
};

}  // namespace

std::unique_ptr<spdlog::formatter> make_json_formatter(JsonPayload payload) {
    return std::make_unique<JsonFormatter>(payload);
}

void append_json_string(std::string& dest, std::string_view text) {
    append_json_literal(dest, text);
}

namespace {

// libprotobuf's own messages, in the server's log format. In a server they
// are about messages clients sent (a string that is not UTF-8, say), which
// the transport already answers with INVALID_ARGUMENT and counts: debug, so
// that no client can flood the log on demand. Its fatal messages stay fatal.
void log_protobuf_message(google::protobuf::LogLevel level, const char* filename, int line,
                          const std::string& message) {
    if (level == google::protobuf::LOGLEVEL_FATAL) {
        spdlog::critical("libprotobuf {}:{}: {}", filename, line, message);
    } else {
        spdlog::debug("libprotobuf: {}", message);
    }
}

}  // namespace

namespace {

// What setup_logging chose, for the access log; guarded because tests set
// logging up again while servers of earlier tests may still be logging.
struct LoggingState {
    std::mutex mutex;
    LogFormat format = LogFormat::kText;
    std::shared_ptr<spdlog::logger> access;
};

LoggingState& logging_state() {
    static LoggingState state;
    return state;
}

spdlog::sink_ptr stderr_sink(LogFormat format, JsonPayload payload) {
    // Both kinds of stderr sink share spdlog's one console mutex, so lines of
    // the two loggers never interleave.
    if (format == LogFormat::kJson) {
        auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
        sink->set_formatter(make_json_formatter(payload));
        return sink;
    }
    // Colours only when stderr is a terminal.
    auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    sink->set_pattern(std::string(kTextPattern));
    return sink;
}

}  // namespace

void setup_logging(const std::string& level, const std::string& format) {
    const spdlog::level::level_enum threshold = parse_level(level);
    LogFormat chosen;
    if (format == "text") {
        chosen = LogFormat::kText;
    } else if (format == "json") {
        chosen = LogFormat::kJson;
    } else {
        throw std::invalid_argument("unknown log format '" + format + "' (expected text or json)");
    }
    auto logger =
        std::make_shared<spdlog::logger>("foxgeese", stderr_sink(chosen, JsonPayload::kMessage));
    logger->set_level(threshold);
    auto access =
        std::make_shared<spdlog::logger>("access", stderr_sink(chosen, JsonPayload::kMembers));
    access->set_level(threshold);
    {
        LoggingState& state = logging_state();
        std::lock_guard lock(state.mutex);
        state.format = chosen;
        state.access = std::move(access);
    }
    spdlog::set_default_logger(std::move(logger));
    google::protobuf::SetLogHandler(&log_protobuf_message);
}

LogFormat log_format() {
    LoggingState& state = logging_state();
    std::lock_guard lock(state.mutex);
    return state.format;
}

std::shared_ptr<spdlog::logger> access_logger() {
    LoggingState& state = logging_state();
    std::lock_guard lock(state.mutex);
    if (!state.access) {
        state.access = std::make_shared<spdlog::logger>(
            "access", stderr_sink(state.format, JsonPayload::kMembers));
    }
    return state.access;
}

}  // namespace foxgeese::service
