#pragma once
// Hashing, message authentication and randomness over OpenSSL.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace svc::core {

using digest = std::array<uint8_t, 32>;

/// SHA-256 of `data`.
digest sha256(std::string_view data);

/// SHA-256 of data that arrives in pieces (a file read in chunks).
class sha256_stream {
public:
  sha256_stream();
  ~sha256_stream();
  sha256_stream(const sha256_stream&) = delete;
  sha256_stream& operator=(const sha256_stream&) = delete;
  /// Adds the next piece.
  void add(std::string_view data);
  /// The digest of every piece added; the stream starts over afterwards.
  digest finish();

private:
  void* ctx_; // an EVP_MD_CTX, kept out of this header with OpenSSL's
};

/// HMAC-SHA256 of `data` keyed with `key` (any length).
digest hmac_sha256(std::string_view key, std::string_view data);

/// Lowercase hex of `bytes`.
std::string to_hex(const uint8_t* bytes, std::size_t n);
inline std::string to_hex(const digest& d) { return to_hex(d.data(), d.size()); }

/// Compares two strings in time that depends only on their lengths.
bool constant_time_equal(std::string_view a, std::string_view b);

/// `n` cryptographically random bytes.
std::string random_bytes(std::size_t n);

/// `n` random bytes as lowercase hex (2n characters).
std::string random_hex(std::size_t n);

/// Standard base64 (with padding).
std::string base64_encode(std::string_view data);

/// Decodes standard base64; nullopt on malformed input.
std::optional<std::string> base64_decode(std::string_view text);

} // namespace svc::core
