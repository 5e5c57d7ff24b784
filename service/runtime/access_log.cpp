#include "service/runtime/access_log.h"

#include <fmt/format.h>

#include <boost/uuid/random_generator.hpp>
#include <boost/uuid/uuid_io.hpp>

namespace foxgeese::service {
namespace {

double milliseconds_of(std::chrono::nanoseconds duration) {
    return std::chrono::duration<double, std::milli>(duration).count();
}

// Every field of an entry in its order, each once, for both renderings:
// `field(key, value, is_number)`. Empty strings are left out.
template <class Field>
void for_each_field(const AccessEntry& e, Field field) {
    const auto text = [&](std::string_view key, std::string_view value) {
        if (!value.empty()) field(key, value, false);
    };
    const auto count = [&](std::string_view key, std::uint64_t value) {
        field(key, std::to_string(value), true);
    };
    text("transport", e.transport);
    text("method", e.method);
    text("rpc", e.rpc);
    if (e.http_status) count("status", static_cast<std::uint64_t>(e.http_status));
    text("code", e.code);
    text("reason", e.reason);
    field("duration_ms", fmt::format("{:.3f}", milliseconds_of(e.duration)), true);
    text("game_id", e.game_id);
    text("request_id", e.request_id);
    text("peer", e.peer);
    count("bytes_in", e.bytes_in);
    count("bytes_out", e.bytes_out);
    if (e.events) count("events", *e.events);
}

// logfmt: key=value, a value quoted when it holds a space. Every value here
// is either ours or checked to be plain (ids, addresses, reasons), except
// the HTTP route template, which comes from the proto.
std::string render_text(const AccessEntry& entry) {
    std::string line = "access";
    for_each_field(entry, [&](std::string_view key, std::string_view value, bool) {
        line += ' ';
        line += key;
        line += '=';
        const bool quote = value.find(' ') != std::string_view::npos;
        if (quote) line += '"';
        line += value;
        if (quote) line += '"';
    });
    return line;
}

// The members after "logger" of the JSON line (see JsonPayload::kMembers).
std::string render_json(const AccessEntry& entry) {
    std::string out = "\"kind\":\"access\"";
    for_each_field(entry, [&](std::string_view key, std::string_view value, bool is_number) {
        out += ',';
        append_json_string(out, key);
        out += ':';
        if (is_number) {
            out += value;
        } else {
            append_json_string(out, value);
        }
    });
    return out;
}

bool is_plain_id_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == ':' || c == '-';
}

}  // namespace

AccessLog::AccessLog(bool enabled, std::shared_ptr<spdlog::logger> logger,
                     std::optional<LogFormat> format)
    : enabled_(enabled),
      logger_(logger ? std::move(logger) : access_logger()),
      format_(format.value_or(log_format())) {}

void AccessLog::write(const AccessEntry& entry) const {
    if (!enabled_) return;
    const auto level = entry.routine ? spdlog::level::debug : spdlog::level::info;
    if (!logger_->should_log(level)) return;
    const std::string payload =
        format_ == LogFormat::kJson ? render_json(entry) : render_text(entry);
    logger_->log(level, payload);
}

std::string request_id_for(std::string_view sent) {
    if (!sent.empty() && sent.size() <= 64) {
        bool plain = true;
        for (const char c : sent)
            plain = plain && is_plain_id_char(c);
        if (plain) return std::string(sent);
    }
    // Not a secret, only unique: a random UUID from Boost's generator, one
    // per thread (it is not thread-safe and costly to seed).
    thread_local boost::uuids::random_generator generate;
    return boost::uuids::to_string(generate());
}

}  // namespace foxgeese::service
