#pragma once
// Content sniffing of uploads: the type and size of an image from its magic
// bytes and header, whatever the client declared. PNG (signature + IHDR),
// JPEG (SOI, then marker segments up to the first SOFn) and WebP (RIFF/WEBP
// with a VP8, VP8L or VP8X first chunk). Pure: reads nothing past the buffer.

#include <optional>
#include <string_view>

namespace svc::schema {

/// What an image's header says.
struct sniffed_image {
  std::string_view content_type; ///< `image/png`, `image/jpeg` or `image/webp` (static text)
  int width = 0;                 ///< pixels, > 0
  int height = 0;                ///< pixels, > 0
};

/// The type and size of a PNG, JPEG or WebP image; nullopt for anything else:
/// another format, a header cut short, a zero size or a malformed header.
std::optional<sniffed_image> sniff_image(std::string_view bytes);

} // namespace svc::schema
