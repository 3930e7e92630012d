#pragma once
// Encodes the renderer's float canvas as an 8-bit RGB PNG with libpng, tuned
// for speed (one cheap filter, run-length matching) since encoding sits inside the
// 300 ms per-megapixel budget.

#include <string>

#include "providers/image.hpp"

namespace svc::providers {

/// Encoder settings.
struct png_options {
  int compression_level = 1;  ///< zlib level 0..9; with run-length matching higher levels gain little
};

/// Appends the PNG file of `img` (channels clamped to 0..1, rounded to 8 bits)
/// to `out`. Returns false with libpng's reason in `error` on failure.
bool encode_png(const image& img, const png_options& opts, std::string& out, std::string& error);

} // namespace svc::providers
