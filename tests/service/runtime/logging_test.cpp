#include "service/runtime/logging.h"

#include <google/protobuf/wrappers.pb.h>
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <cstdint>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>

namespace foxgeese::service {
namespace {

// A strict reader for what the formatter emits: one flat object of strings.
class JsonObjectReader {
  public:
    explicit JsonObjectReader(std::string text) : text_(std::move(text)) {}

    std::map<std::string, std::string> read() {
        std::map<std::string, std::string> object;
        expect('{');
        if (peek() != '}') {
            do {
                std::string key = read_string();
                expect(':');
                object[key] = read_string();
            } while (accept(','));
        }
        expect('}');
        if (pos_ != text_.size()) fail("trailing characters");
        return object;
    }

  private:
    [[noreturn]] void fail(const std::string& what) {
        throw std::runtime_error(what + " at offset " + std::to_string(pos_) + " in " + text_);
    }
    char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
    bool accept(char c) {
        if (peek() != c) return false;
        ++pos_;
        return true;
    }
    void expect(char c) {
        if (!accept(c)) fail(std::string("expected '") + c + "'");
    }
    std::uint32_t read_hex4() {
        if (pos_ + 4 > text_.size()) fail("short \\u escape");
        const std::string digits = text_.substr(pos_, 4);
        if (digits.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
            fail("bad \\u escape");
        }
        pos_ += 4;
        return static_cast<std::uint32_t>(std::stoul(digits, nullptr, 16));
    }
    static void put_utf8(std::string& out, std::uint32_t code) {
        if (code < 0x80) {
            out += static_cast<char>(code);
        } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (code >> 18));
            out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        }
    }
    std::string read_string() {
        expect('"');
        std::string out;
        for (;;) {
            if (pos_ >= text_.size()) fail("unterminated string");
            const char c = text_[pos_++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) fail("raw control character");
            if (c != '\\') {
                out += c;
                continue;
            }
            const char e = text_[pos_++];
            switch (e) {
                case '"':
                    out += '"';
                    break;
                case '\\':
                    out += '\\';
                    break;
                case '/':
                    out += '/';
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'n':
                    out += '\n';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'u': {
                    std::uint32_t code = read_hex4();
                    if (code >= 0xD800 && code <= 0xDBFF) {
                        if (!accept('\\') || !accept('u')) fail("lone high surrogate");
                        const std::uint32_t low = read_hex4();
                        if (low < 0xDC00 || low > 0xDFFF) fail("bad low surrogate");
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                    } else if (code >= 0xDC00 && code <= 0xDFFF) {
                        fail("lone low surrogate");
                    }
                    put_utf8(out, code);
                    break;
                }
                default:
                    fail("bad escape");
            }
        }
    }

    std::string text_;
    std::size_t pos_ = 0;
};

std::string json_line(const std::string& message, spdlog::level::level_enum level) {
    std::ostringstream out;
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_st>(out);
    sink->set_formatter(make_json_formatter());
    spdlog::logger logger("games", sink);
    logger.set_level(spdlog::level::trace);
    logger.log(level, message);
    return out.str();
}

TEST(LoggingTest, JsonLineIsOneValidObject) {
    const std::string line = json_line("game 42 created", spdlog::level::info);
    ASSERT_FALSE(line.empty());
    EXPECT_EQ(line.back(), '\n');
    EXPECT_EQ(line.find('\n'), line.size() - 1);
    const auto object = JsonObjectReader(line.substr(0, line.size() - 1)).read();
    EXPECT_EQ(object.size(), 4u);
    EXPECT_EQ(object.at("msg"), "game 42 created");
    EXPECT_EQ(object.at("level"), "info");
    EXPECT_EQ(object.at("logger"), "games");
    EXPECT_TRUE(std::regex_match(object.at("time"),
                                 std::regex(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)")))
        << object.at("time");
}

TEST(LoggingTest, JsonLevelNames) {
    const std::pair<spdlog::level::level_enum, std::string> levels[] = {
        {spdlog::level::trace, "trace"}, {spdlog::level::debug, "debug"},
        {spdlog::level::info, "info"},   {spdlog::level::warn, "warn"},
        {spdlog::level::err, "error"},   {spdlog::level::critical, "critical"},
    };
    for (const auto& [level, name] : levels) {
        const std::string line = json_line("x", level);
        EXPECT_EQ(JsonObjectReader(line.substr(0, line.size() - 1)).read().at("level"), name);
    }
}

TEST(LoggingTest, JsonEscapesEverythingThatCouldBreakTheLine) {
    const std::string message =
        std::string("quote \" backslash \\ slash / newline \n cr \r tab \t ") + "bell \x07 nul " +
        std::string(1, '\0') + " del \x7f end";
    const std::string line = json_line(message, spdlog::level::warn);
    EXPECT_EQ(line.find('\n'), line.size() - 1) << "a raw newline splits the line";
    EXPECT_NE(line.find(R"(quote \" backslash \\ slash)"), std::string::npos) << line;
    EXPECT_NE(line.find(R"(bell \u0007 nul \u0000 del \u007f)"), std::string::npos) << line;
    EXPECT_EQ(JsonObjectReader(line.substr(0, line.size() - 1)).read().at("msg"), message);
}

TEST(LoggingTest, JsonEscapesNonAsciiAndSurvivesInvalidUtf8) {
    // Gåsetavl, a chess knight (3 bytes) and a goose emoji (4 bytes: a surrogate pair).
    const std::string valid = "G\xC3\xA5setavl \xE2\x99\x9E \xF0\x9F\xAA\xBF";
    const std::string line = json_line(valid, spdlog::level::info);
    for (const char c : line)
        EXPECT_LT(static_cast<unsigned char>(c), 0x80) << line;
    EXPECT_NE(line.find(R"(G\u00e5setavl \u265e \ud83e\udebf)"), std::string::npos) << line;
    EXPECT_EQ(JsonObjectReader(line.substr(0, line.size() - 1)).read().at("msg"), valid);

    // A stray continuation byte, a truncated sequence, an overlong '/', a surrogate
    // and a byte that never appears in UTF-8: each becomes U+FFFD.
    const std::string invalid = "a\x80 b\xE2\x99 c\xC0\xAF d\xED\xA0\x80 e\xFF";
    const std::string bad_line = json_line(invalid, spdlog::level::info);
    const std::string decoded =
        JsonObjectReader(bad_line.substr(0, bad_line.size() - 1)).read().at("msg");
    const std::string r = "\xEF\xBF\xBD";
    EXPECT_EQ(decoded, "a" + r + " b" + r + r + " c" + r + r + " d" + r + r + r + " e" + r);
}

TEST(LoggingTest, SetupInstallsTheDefaultLogger) {
    setup_logging("warn", "json");
    EXPECT_EQ(spdlog::default_logger()->level(), spdlog::level::warn);
    EXPECT_EQ(spdlog::default_logger()->name(), "foxgeese");
    setup_logging("debug", "text");  // again: replaces, does not clash
    EXPECT_EQ(spdlog::default_logger()->level(), spdlog::level::debug);
    setup_logging("info", "text");
}

// libprotobuf reports what it refuses through our logger, in our format (and
// at debug: it is about what a client sent), never on its own to stderr.
TEST(LoggingTest, LibprotobufMessagesGoThroughTheServersLogger) {
    setup_logging("debug", "json");
    std::ostringstream out;
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out);
    sink->set_formatter(make_json_formatter());
    spdlog::default_logger()->sinks() = {sink};
    google::protobuf::StringValue value;
    EXPECT_FALSE(value.ParseFromString(std::string("\x0a\x01\xff", 3)));
    const std::string line = out.str();
    ASSERT_FALSE(line.empty()) << "libprotobuf's message did not reach the logger";
    const auto object = JsonObjectReader(line.substr(0, line.find('\n'))).read();
    EXPECT_EQ(object.at("level"), "debug");
    EXPECT_NE(object.at("msg").find("libprotobuf"), std::string::npos) << line;
    EXPECT_NE(object.at("msg").find("UTF-8"), std::string::npos) << line;
    setup_logging("info", "text");
}

TEST(LoggingTest, SetupRejectsUnknownLevelOrFormat) {
    EXPECT_THROW(setup_logging("loud", "text"), std::invalid_argument);
    EXPECT_THROW(setup_logging("info", "xml"), std::invalid_argument);
}

}  // namespace
}  // namespace foxgeese::service
