#pragma once
// Reads the signature and IHDR chunk of a PNG file from its bytes, by hand,
// so tests check the format itself rather than trusting libpng's view of it.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace svc::test {

/// The image header fields of a PNG (RFC 2083, section 4.1.1).
struct png_header {
  uint32_t width = 0;
  uint32_t height = 0;
  int bit_depth = 0;
  int color_type = 0; ///< 2 = truecolour RGB
  int interlace = 0;
};

inline uint32_t read_be32(std::string_view s, std::size_t at) {
  return (static_cast<uint32_t>(static_cast<unsigned char>(s[at])) << 24) |
         (static_cast<uint32_t>(static_cast<unsigned char>(s[at + 1])) << 16) |
         (static_cast<uint32_t>(static_cast<unsigned char>(s[at + 2])) << 8) |
         static_cast<uint32_t>(static_cast<unsigned char>(s[at + 3]));
}

/// The header, or nullopt unless `png` starts with the signature and an IHDR chunk.
inline std::optional<png_header> parse_png_header(std::string_view png) {
  static constexpr std::string_view signature{"\x89PNG\r\n\x1a\n", 8};
  if (png.size() < 33 || png.substr(0, 8) != signature) return std::nullopt;
  if (read_be32(png, 8) != 13 || png.substr(12, 4) != "IHDR") return std::nullopt;
  png_header h;
  h.width = read_be32(png, 16);
  h.height = read_be32(png, 20);
  h.bit_depth = static_cast<unsigned char>(png[24]);
  h.color_type = static_cast<unsigned char>(png[25]);
  h.interlace = static_cast<unsigned char>(png[28]);
  return h;
}

/// True when the file ends with an IEND chunk.
inline bool ends_with_iend(std::string_view png) {
  return png.size() >= 12 && png.substr(png.size() - 8, 4) == "IEND";
}

} // namespace svc::test
