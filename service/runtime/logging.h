// Logging: spdlog's default logger on stderr, either as readable text or as
// one JSON object per line for log collectors.
#pragma once

#include <spdlog/formatter.h>

#include <memory>
#include <string>

namespace foxgeese::service {

// level: trace, debug, info, warn, error; format: text or json. Replaces the
// default logger; throws std::invalid_argument on an unknown level or format.
void setup_logging(const std::string& level, const std::string& format);

// The "json" format: {"time":"2024-05-01T12:00:00.123Z","level":"info",
// "logger":"foxgeese","msg":"..."} and a newline; every string escaped, so a
// line is valid JSON (ASCII only) whatever bytes the message holds.
std::unique_ptr<spdlog::formatter> make_json_formatter();

}  // namespace foxgeese::service
