#pragma once
// The renderer's working canvas: float RGB pixels, row-major, top row first.

#include <cstddef>
#include <vector>

#include "providers/color.hpp"

namespace svc::providers {

/// A width x height grid of colours.
struct image {
  int width = 0;        ///< pixels
  int height = 0;       ///< pixels
  std::vector<rgb> px;  ///< width * height pixels, row-major

  image() = default;
  /// A black canvas.
  image(int w, int h) : width(w), height(h), px(static_cast<std::size_t>(w) * static_cast<std::size_t>(h)) {}

  /// The pixel at column x, row y (unchecked).
  rgb& at(int x, int y) { return px[static_cast<std::size_t>(y) * width + x]; }
  /// The pixel at column x, row y (unchecked).
  const rgb& at(int x, int y) const { return px[static_cast<std::size_t>(y) * width + x]; }
  /// The pixel with coordinates clamped into the canvas.
  const rgb& clamped(int x, int y) const {
    x = x < 0 ? 0 : (x >= width ? width - 1 : x);
    y = y < 0 ? 0 : (y >= height ? height - 1 : y);
    return at(x, y);
  }
  /// The first pixel of row y.
  rgb* row(int y) { return px.data() + static_cast<std::size_t>(y) * width; }
  /// The first pixel of row y.
  const rgb* row(int y) const { return px.data() + static_cast<std::size_t>(y) * width; }
};

/// A single-channel float grid (luminance, edge strength, height).
struct plane {
  int width = 0;          ///< cells
  int height = 0;         ///< cells
  std::vector<float> v;   ///< width * height values, row-major

  plane() = default;
  /// A zero plane.
  plane(int w, int h) : width(w), height(h), v(static_cast<std::size_t>(w) * static_cast<std::size_t>(h)) {}
  /// The value at column x, row y (unchecked).
  float& at(int x, int y) { return v[static_cast<std::size_t>(y) * width + x]; }
  /// The value at column x, row y (unchecked).
  float at(int x, int y) const { return v[static_cast<std::size_t>(y) * width + x]; }
  /// The value with coordinates clamped into the plane.
  float clamped(int x, int y) const {
    x = x < 0 ? 0 : (x >= width ? width - 1 : x);
    y = y < 0 ? 0 : (y >= height ? height - 1 : y);
    return at(x, y);
  }
};

} // namespace svc::providers
