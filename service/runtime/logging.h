// Logging: spdlog's default logger on stderr, either as readable text or as
// one JSON object per line for log collectors.
#pragma once

#include <spdlog/formatter.h>
#include <spdlog/logger.h>

#include <memory>
#include <string>
#include <string_view>

namespace foxgeese::service {

enum class LogFormat { kText, kJson };

// level: trace, debug, info, warn, error; format: text or json. Replaces the
// default logger and the access logger ("access", same level and format);
// throws std::invalid_argument on an unknown level or format.
void setup_logging(const std::string& level, const std::string& format);

// The format and the access logger setup_logging chose; before it is called,
// text on stderr at info.
LogFormat log_format();
std::shared_ptr<spdlog::logger> access_logger();

// What a JSON line carries after "logger": the message as "msg", or the
// message itself as further members (`"a":1,"b":"x"`, already JSON), as the
// access log writes its fields.
enum class JsonPayload { kMessage, kMembers };

// The "json" format: {"time":"2024-05-01T12:00:00.123Z","level":"info",
// "logger":"foxgeese","msg":"..."} and a newline; every string escaped, so a
// line is valid JSON (ASCII only) whatever bytes the message holds.
std::unique_ptr<spdlog::formatter> make_json_formatter(JsonPayload payload = JsonPayload::kMessage);

// A JSON string literal, quotes included, of any bytes: everything outside
// printable ASCII becomes a \u escape.
void append_json_string(std::string& dest, std::string_view text);

}  // namespace foxgeese::service
