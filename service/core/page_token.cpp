#include "service/core/page_token.h"

#include <boost/algorithm/hex.hpp>
#include <charconv>
#include <iterator>

#include "service/core/secrets.h"

namespace foxgeese::service {
namespace {

// Sort keys are timestamps the server wrote: from the epoch to the end of
// year 9999, which PostgreSQL's timestamptz holds and converts exactly.
constexpr std::int64_t kLatestKeyUs = 253'402'300'799'999'999;

std::string payload(int filter, const std::string& variant, const PageCursor& cursor) {
    return "v1|" + std::to_string(filter) + "|" + variant + "|" + std::to_string(cursor.first) +
           "|" + cursor.second;
}

}  // namespace

std::string encode_page_token(int filter, const std::string& variant, const PageCursor& cursor) {
    const std::string text = payload(filter, variant, cursor);
    std::string out;
    boost::algorithm::hex_lower(text.begin(), text.end(), std::back_inserter(out));
    return out;
}

std::optional<PageCursor> decode_page_token(std::string_view token, int filter,
                                            const std::string& variant) {
    if (token.size() > 512 || token.size() % 2 != 0) return std::nullopt;
    std::string text;
    try {
        boost::algorithm::unhex(token.begin(), token.end(), std::back_inserter(text));
    } catch (const boost::algorithm::hex_decode_error&) {
        return std::nullopt;
    }
    const std::string scope = "v1|" + std::to_string(filter) + "|" + variant + "|";
    if (text.compare(0, scope.size(), scope) != 0) return std::nullopt;
    const std::string_view rest = std::string_view(text).substr(scope.size());
    const std::size_t bar = rest.find('|');
    if (bar == std::string_view::npos) return std::nullopt;
    std::int64_t key = 0;
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + bar, key);
    if (ec != std::errc() || end != rest.data() + bar || key < 0 || key > kLatestKeyUs)
        return std::nullopt;
    const std::string id(rest.substr(bar + 1));
    if (!is_uuid(id) || lowercase(id) != id) return std::nullopt;
    PageCursor cursor{key, id};
    // Only the exact bytes this server writes (lowercase hex, no leading
    // zeros or signs, a lowercase id) pass.
    if (encode_page_token(filter, variant, cursor) != token) return std::nullopt;
    return cursor;
}

}  // namespace foxgeese::service
