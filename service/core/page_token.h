// ListGames page tokens. A token names where the next page of one listing
// (filter and variant) starts: the sort key and game id of the last row
// sent. Tokens are opaque to clients and checked strictly: anything that is
// not exactly what this server would have produced is refused, so a forged
// token can neither reach the database with values it cannot take nor be
// replayed against another listing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace foxgeese::service {

// (sort key in microseconds since the epoch, game id).
using PageCursor = std::pair<std::int64_t, std::string>;

std::string encode_page_token(int filter, const std::string& variant, const PageCursor& cursor);

// The cursor of a token for this listing; nullopt for anything else.
std::optional<PageCursor> decode_page_token(std::string_view token, int filter,
                                            const std::string& variant);

}  // namespace foxgeese::service
