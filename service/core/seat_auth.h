// Who a call acts for: the bearer seat token it carries, matched in constant
// time against a game's stored token digests. The one copy used by every RPC
// and by watch streams.
#pragma once

#include <optional>
#include <string>

#include "engine/rules/position.h"
#include "service/core/call_context.h"
#include "service/core/service_error.h"
#include "storage/game_records.h"

namespace foxgeese::service {

// Which seat(s) a token holds in a game.
enum class Held { kNone, kFox, kGeese, kBoth };

// The bearer token of a call: its SHA-256, or why it is malformed. A missing
// token fails at once (TOKEN_REQUIRED); a malformed one only after the game
// is found, so the documented order of errors holds (GAME_NOT_FOUND first).
struct Bearer {
    std::string hash;
    std::string problem;  // non-empty: malformed
};

// The call's token; TOKEN_REQUIRED when it carries none.
ServiceResult<Bearer> require_bearer(const CallContext& call);
// The call's token if it carries one (watching needs none).
std::optional<Bearer> optional_bearer(const CallContext& call);

// DUPLICATE_HEADER when the call carries more than one authorization value.
std::optional<ServiceError> check_single_authorization(const CallContext& call);

// The seat(s) a token holds in a game (kNone for a malformed token). Both
// digests are always compared, each in constant time.
Held seat_of(const storage::GameRow& game, const Bearer& bearer);
// TOKEN_INVALID, saying what is wrong with the token.
ServiceError token_rejected(const Bearer& bearer);

// Whether a holder acts for a side (a both-seats token acts for either).
bool holds_side(Held held, Side side);
// The side a seat acts for; a both-seats token acts for `default_side`.
Side acting_side(Held held, Side default_side);

}  // namespace foxgeese::service
