// The API's enums as the store keeps them, and back: the numbers are the
// same (storage/game_records.h), the types are not, so that a stored code
// is never mistaken for another.
#pragma once

#include "engine/rules/position.h"
#include "foxgeese/v1/game.pb.h"
#include "storage/game_records.h"

namespace foxgeese::service {

inline storage::GameState stored(v1::GameState state) {
    return static_cast<storage::GameState>(state);
}
inline storage::Side stored(v1::Side side) {
    return static_cast<storage::Side>(side);
}
inline storage::Visibility stored(v1::Visibility visibility) {
    return static_cast<storage::Visibility>(visibility);
}
inline storage::ResultCode stored(v1::GameResult result) {
    return static_cast<storage::ResultCode>(result);
}
inline storage::EndReasonCode stored(v1::EndReason reason) {
    return static_cast<storage::EndReasonCode>(reason);
}
inline storage::Side stored(Side side) {
    return side == Side::kFox ? storage::Side::kFox : storage::Side::kGeese;
}

inline v1::GameState api(storage::GameState state) {
    return static_cast<v1::GameState>(state);
}
inline v1::Side api(storage::Side side) {
    return static_cast<v1::Side>(side);
}
inline v1::Visibility api(storage::Visibility visibility) {
    return static_cast<v1::Visibility>(visibility);
}
inline v1::GameResult api(storage::ResultCode result) {
    return static_cast<v1::GameResult>(result);
}
inline v1::EndReason api(storage::EndReasonCode reason) {
    return static_cast<v1::EndReason>(reason);
}

// The engine's side of a stored side (kNone reads as the fox side's).
inline Side engine_side(storage::Side side) {
    return side == storage::Side::kGeese ? Side::kGeese : Side::kFox;
}
// The other side of a stored side.
inline storage::Side other(storage::Side side) {
    return side == storage::Side::kFox ? storage::Side::kGeese : storage::Side::kFox;
}

}  // namespace foxgeese::service
