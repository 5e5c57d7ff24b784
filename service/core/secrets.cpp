#include "service/core/secrets.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <boost/algorithm/hex.hpp>
#include <boost/uuid/random_generator.hpp>
#include <boost/uuid/uuid_io.hpp>
#include <iterator>
#include <stdexcept>

namespace foxgeese::service {
namespace {

template <std::size_t N>
std::array<unsigned char, N> random_bytes() {
    std::array<unsigned char, N> bytes{};
    if (RAND_bytes(bytes.data(), static_cast<int>(N)) != 1) {
        throw std::runtime_error("the system random generator failed");
    }
    return bytes;
}

// RFC 4648 base64url without padding: OpenSSL's base64 with the two URL-safe
// letters swapped in.
template <std::size_t N>
std::string base64url(const std::array<unsigned char, N>& data) {
    std::string out(4 * ((N + 2) / 3) + 1, '\0');
    const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data.data(),
                                        static_cast<int>(N));
    out.resize(static_cast<std::size_t>(written));
    while (!out.empty() && out.back() == '=')
        out.pop_back();
    std::replace(out.begin(), out.end(), '+', '-');
    std::replace(out.begin(), out.end(), '/', '_');
    return out;
}

bool is_hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

}  // namespace

std::string new_seat_token() {
    return "fgs_" + base64url(random_bytes<32>());
}

std::string new_invite_code() {
    return base64url(random_bytes<12>());
}

std::string new_game_id() {
    // Boost's generator draws from the operating system's CSPRNG (getrandom).
    thread_local boost::uuids::random_generator generate;
    return boost::uuids::to_string(generate());
}

std::string sha256_hex(std::string_view input) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(input.data(), input.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
        throw std::runtime_error("SHA-256 failed");
    }
    std::string out;
    boost::algorithm::hex_lower(digest, digest + length, std::back_inserter(out));
    return out;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

bool is_uuid(std::string_view text) {
    if (text.size() != 36) return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? text[i] != '-' : !is_hex(text[i])) return false;
    }
    return true;
}

bool is_random_uuid(std::string_view text) {
    // xxxxxxxx-xxxx-4xxx-Yxxx-xxxxxxxxxxxx with Y one of 8, 9, a, b.
    if (!is_uuid(text) || text[14] != '4') return false;
    const char variant = static_cast<char>(text[19] | 0x20);
    return variant == '8' || variant == '9' || variant == 'a' || variant == 'b';
}

std::string lowercase(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

bool is_well_formed_token(std::string_view token) {
    if (token.empty() || token.size() > 128) return false;
    for (char c : token) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '-' || c == '_';
        if (!ok) return false;
    }
    return true;
}

}  // namespace foxgeese::service
