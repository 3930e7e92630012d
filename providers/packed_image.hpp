#pragma once
// A still kept for many resamplings in half the memory of an `image`: 16 bits
// a channel, fixed point over -0.5 .. 1.5 in steps of 1/32768, far finer than
// the 8 bits a video frame ends in. A video's keyframe lives in one while its
// frames are made from it.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "providers/color.hpp"
#include "providers/image.hpp"

namespace svc::providers {

/// One packed pixel.
struct rgb16 {
  uint16_t r = 0, g = 0, b = 0; ///< (channel + 0.5) * 32768, rounded
};

/// The colour a packed pixel stands for.
inline rgb to_rgb(rgb16 p) {
  constexpr float step = 1.f / 32768.f;
  return {static_cast<float>(p.r) * step - 0.5f, static_cast<float>(p.g) * step - 0.5f,
          static_cast<float>(p.b) * step - 0.5f};
}

/// A width x height grid of packed pixels, row-major, top row first.
struct packed_image {
  int width = 0;           ///< pixels
  int height = 0;          ///< pixels
  std::vector<rgb16> px;   ///< width * height pixels

  packed_image() = default;
  /// `img` packed; channels outside -0.5 .. 1.5 are clamped, NaN becomes -0.5.
  explicit packed_image(const image& img);
  /// The first pixel of row y.
  const rgb16* row(int y) const { return px.data() + static_cast<std::size_t>(y) * width; }
};

} // namespace svc::providers
