#pragma once
// Checks on downloaded output bytes: their SHA-256 and the size a PNG
// declares in its IHDR chunk.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace svc::e2e {

/// Lowercase hex SHA-256 of `bytes`.
std::string sha256_hex(std::string_view bytes);

/// Width and height of a PNG.
struct png_size {
  std::uint32_t width = 0;  ///< pixels
  std::uint32_t height = 0; ///< pixels
};

/// The IHDR size of `bytes` when they start with the 8-byte PNG signature
/// followed by an IHDR chunk of length 13; nothing otherwise.
std::optional<png_size> png_dimensions(std::string_view bytes);

} // namespace svc::e2e
