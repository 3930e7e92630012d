#pragma once
// Decodes uploaded PNG, JPEG and WebP files (untrusted bytes) into the
// renderer's float canvas, at their own size or cover-fitted to an output
// size. Bounded: dimensions are checked before any pixel buffer is allocated.

#include <cstdint>
#include <string>
#include <string_view>

#include "providers/image.hpp"

namespace svc::providers {

/// What a decode may allocate; anything larger is refused.
struct decode_limits {
  int max_side = 8192;              ///< pixels, width or height of the file
  int64_t max_pixels = 4096 * 4096; ///< width * height of the file (`--max-upload-pixels` sets it for init images)
};

/// Decodes a PNG, JPEG or WebP file (told apart by its first bytes) at its own
/// size into `out`; transparent pixels are composited over white. Returns
/// false with the reason in `error` for another format, truncated or corrupt
/// data, or dimensions over `limits`; never crashes on malformed input.
bool decode_image(std::string_view bytes, image& out, std::string& error, const decode_limits& limits = {});

/// Like `decode_image`, but scales the file so it covers `width` x `height`
/// (1..limits.max_side) and crops the overflow evenly from both sides, in one
/// pass: memory stays proportional to the file and the output, never to an
/// enlarged copy.
bool decode_image_cover(std::string_view bytes, int width, int height, image& out, std::string& error,
                        const decode_limits& limits = {});

} // namespace svc::providers
