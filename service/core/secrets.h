// Seat tokens, invite codes and game ids: random values from the system's
// CSPRNG, stored only as SHA-256 digests and compared in constant time.
#pragma once

#include <string>
#include <string_view>

namespace foxgeese::service {

// A new seat token: "fgs_" + 256 random bits in URL-safe base64 (47 characters).
std::string new_seat_token();
// A new invite code: 96 random bits in URL-safe base64 (16 characters).
std::string new_invite_code();
// A new random UUIDv4 in canonical lowercase form.
std::string new_game_id();

// Lowercase hex SHA-256 of the input.
std::string sha256_hex(std::string_view input);

// Equality that takes the same time wherever the inputs differ (same lengths).
bool constant_time_equal(std::string_view a, std::string_view b);

// Whether text is a UUID in 8-4-4-4-12 hex form (either case).
bool is_uuid(std::string_view text);
// Whether text is a random (version 4, RFC 4122 variant) UUID: not the nil
// UUID, not a time-based one whose bits a stranger can guess.
bool is_random_uuid(std::string_view text);
std::string lowercase(std::string_view text);

// Whether a bearer token is well-formed: only URL-safe base64 characters and
// underscores, at most 128 characters.
bool is_well_formed_token(std::string_view token);

}  // namespace foxgeese::service
