#include "schema/image_sniff.hpp"

#include <cstdint>

namespace svc::schema {
namespace {

// Byte access bounded by the buffer: every read checks `has` first.
struct bytes_view {
  std::string_view b;
  bool has(std::size_t pos, std::size_t n) const { return pos <= b.size() && n <= b.size() - pos; }
  uint32_t u8(std::size_t pos) const { return static_cast<unsigned char>(b[pos]); }
  uint32_t be16(std::size_t pos) const { return u8(pos) << 8 | u8(pos + 1); }
  uint32_t be32(std::size_t pos) const { return be16(pos) << 16 | be16(pos + 2); }
  uint32_t le16(std::size_t pos) const { return u8(pos) | u8(pos + 1) << 8; }
  uint32_t le24(std::size_t pos) const { return le16(pos) | u8(pos + 2) << 16; }
  uint32_t le32(std::size_t pos) const { return le24(pos) | u8(pos + 3) << 24; }
  bool equals(std::size_t pos, std::string_view text) const {
    return has(pos, text.size()) && b.substr(pos, text.size()) == text;
  }
};

std::optional<sniffed_image> sized(std::string_view type, uint64_t width, uint64_t height) {
  constexpr uint64_t max_side = (uint64_t{1} << 31) - 1;
  if (width == 0 || height == 0 || width > max_side || height > max_side)
    return std::nullopt;
  return sniffed_image{type, static_cast<int>(width), static_cast<int>(height)};
}

// The signature, then the IHDR chunk, which must come first: length 13, width, height.
std::optional<sniffed_image> sniff_png(const bytes_view& v) {
  if (!v.equals(0, "\x89PNG\r\n\x1a\n") || !v.has(8, 16) || v.be32(8) != 13 || !v.equals(12, "IHDR"))
    return std::nullopt;
  return sized("image/png", v.be32(16), v.be32(20));
}

// Start-of-frame markers carry the size: C0..CF except DHT (C4), JPG (C8) and DAC (CC).
bool is_start_of_frame(uint32_t marker) {
  return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
}

// SOI, then marker segments (each `FF xx` and a length that counts itself)
// until the first SOFn. A scan (SOS) or the end (EOI) before any SOFn, or a
// segment that does not fit, means this is no image we can size.
std::optional<sniffed_image> sniff_jpeg(const bytes_view& v) {
  if (!v.has(0, 2) || v.u8(0) != 0xFF || v.u8(1) != 0xD8)
    return std::nullopt;
  std::size_t pos = 2;
  while (v.has(pos, 1) && v.u8(pos) == 0xFF) {
    while (v.has(pos, 1) && v.u8(pos) == 0xFF) // fill bytes may precede a marker
      ++pos;
    if (!v.has(pos, 1))
      return std::nullopt;
    auto marker = v.u8(pos++);
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) // TEM, RSTn: no length
      continue;
    if (marker == 0x00 || marker == 0xD8 || marker == 0xD9 || marker == 0xDA || !v.has(pos, 2))
      return std::nullopt;
    auto length = v.be16(pos);
    if (length < 2)
      return std::nullopt;
    if (is_start_of_frame(marker)) {
      // length, precision, height, width
      if (length < 7 || !v.has(pos, 7))
        return std::nullopt;
      return sized("image/jpeg", v.be16(pos + 5), v.be16(pos + 3));
    }
    pos += length;
  }
  return std::nullopt;
}

// RIFF, a size, WEBP, then the first chunk: a lossy key frame (VP8), a
// lossless bitstream (VP8L) or the extended header with the canvas size (VP8X).
std::optional<sniffed_image> sniff_webp(const bytes_view& v) {
  if (!v.equals(0, "RIFF") || !v.equals(8, "WEBP") || !v.has(12, 8))
    return std::nullopt;
  constexpr std::size_t data = 20;
  if (v.equals(12, "VP8 ")) {
    // A 3-byte frame tag (bit 0 clear: a key frame), the start code, then 14-bit sizes.
    if (!v.has(data, 10) || (v.u8(data) & 1) != 0 || !v.equals(data + 3, "\x9d\x01\x2a"))
      return std::nullopt;
    return sized("image/webp", v.le16(data + 6) & 0x3FFF, v.le16(data + 8) & 0x3FFF);
  }
  if (v.equals(12, "VP8L")) {
    // The signature byte, then width-1 and height-1 in 14 bits each and a 3-bit version (0).
    if (!v.has(data, 5) || v.u8(data) != 0x2F)
      return std::nullopt;
    auto bits = v.le32(data + 1);
    if (bits >> 29 != 0)
      return std::nullopt;
    return sized("image/webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1);
  }
  if (v.equals(12, "VP8X")) {
    // Flags and 3 reserved bytes, then canvas width-1 and height-1 in 24 bits each.
    if (v.le32(16) < 10 || !v.has(data, 10))
      return std::nullopt;
    return sized("image/webp", uint64_t{v.le24(data + 4)} + 1, uint64_t{v.le24(data + 7)} + 1);
  }
  return std::nullopt;
}

} // namespace

std::optional<sniffed_image> sniff_image(std::string_view bytes) {
  bytes_view v{bytes};
  if (auto png = sniff_png(v))
    return png;
  if (auto jpeg = sniff_jpeg(v))
    return jpeg;
  return sniff_webp(v);
}

} // namespace svc::schema
