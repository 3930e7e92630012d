#include "support/output_bytes.hpp"

#include <openssl/sha.h>

namespace svc::e2e {
namespace {

std::uint32_t be32(std::string_view b, std::size_t at) {
  auto u = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + i])); };
  return u(0) << 24 | u(1) << 16 | u(2) << 8 | u(3);
}

} // namespace

std::string sha256_hex(std::string_view bytes) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char d : digest) {
    out += hex[d >> 4];
    out += hex[d & 15];
  }
  return out;
}

std::optional<png_size> png_dimensions(std::string_view bytes) {
  static constexpr std::string_view signature{"\x89PNG\r\n\x1a\n", 8};
  // signature, chunk length, "IHDR", width, height
  if (bytes.size() < 8 + 4 + 4 + 8 || bytes.substr(0, 8) != signature)
    return std::nullopt;
  if (be32(bytes, 8) != 13 || bytes.substr(12, 4) != "IHDR")
    return std::nullopt;
  return png_size{be32(bytes, 16), be32(bytes, 20)};
}

} // namespace svc::e2e
