#include "service/core/seat_auth.h"

#include "service/core/secrets.h"

namespace foxgeese::service {
namespace {

constexpr std::string_view kScheme = "bearer ";

Bearer parse(const std::string& value) {
    if (value.size() <= kScheme.size() || lowercase(value.substr(0, kScheme.size())) != kScheme)
        return Bearer{"", "the authorization value must be 'Bearer <seat_token>'"};
    const std::string token = value.substr(kScheme.size());
    if (!is_well_formed_token(token)) return Bearer{"", "the seat token is malformed"};
    return Bearer{sha256_hex(token), ""};
}

}  // namespace

std::optional<ServiceError> check_single_authorization(const CallContext& call) {
    if (call.authorization.size() <= 1) return std::nullopt;
    return make_error(StatusCode::kInvalidArgument, "DUPLICATE_HEADER",
                      "the call carries " + std::to_string(call.authorization.size()) +
                          " authorization values; send exactly one "
                          "'authorization: Bearer <seat_token>'",
                      {{"header", "authorization"}});
}

ServiceResult<Bearer> require_bearer(const CallContext& call) {
    if (call.authorization.empty() || call.authorization.front().empty()) {
        return make_error(
            StatusCode::kUnauthenticated, "TOKEN_REQUIRED",
            "this call needs the seat token: send 'authorization: Bearer <seat_token>'");
    }
    return parse(call.authorization.front());
}

std::optional<Bearer> optional_bearer(const CallContext& call) {
    if (call.authorization.empty() || call.authorization.front().empty()) return std::nullopt;
    return parse(call.authorization.front());
}

Held seat_of(const storage::GameRow& g, const Bearer& bearer) {
    if (!bearer.problem.empty()) return Held::kNone;
    const bool fox =
        !g.seats.fox.token_hash.empty() && constant_time_equal(g.seats.fox.token_hash, bearer.hash);
    const bool geese = !g.seats.geese.token_hash.empty() &&
                       constant_time_equal(g.seats.geese.token_hash, bearer.hash);
    if (fox && geese) return Held::kBoth;
    if (fox) return Held::kFox;
    if (geese) return Held::kGeese;
    return Held::kNone;
}

ServiceError token_rejected(const Bearer& bearer) {
    return make_error(
        StatusCode::kUnauthenticated, "TOKEN_INVALID",
        bearer.problem.empty() ? "the seat token holds no seat in this game" : bearer.problem);
}

bool holds_side(Held held, Side side) {
    if (held == Held::kBoth) return true;
    return (held == Held::kFox && side == Side::kFox) ||
           (held == Held::kGeese && side == Side::kGeese);
}

Side acting_side(Held held, Side default_side) {
    if (held == Held::kFox) return Side::kFox;
    if (held == Held::kGeese) return Side::kGeese;
    return default_side;
}

}  // namespace foxgeese::service
