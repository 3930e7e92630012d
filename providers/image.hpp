#pragma once
// The renderer's working canvas: float RGB pixels, row-major, top row first.

#include <cstddef>
#include <vector>

#include "providers/color.hpp"

namespace svc::providers {

/// The size of a grid whose cells lie row-major in one vector, and where
/// each cell lies in it.
struct grid_size {
  int width = 0;  ///< cells
  int height = 0; ///< cells

  /// width * height.
  std::size_t cells() const { return static_cast<std::size_t>(width) * static_cast<std::size_t>(height); }
  /// The cell at column x, row y (unchecked).
  std::size_t index(int x, int y) const { return static_cast<std::size_t>(y) * width + x; }
  /// The cell at column x, row y, each clamped into the grid.
  std::size_t clamped_index(int x, int y) const {
    x = x < 0 ? 0 : (x >= width ? width - 1 : x);
    y = y < 0 ? 0 : (y >= height ? height - 1 : y);
    return index(x, y);
  }
};

/// A width x height grid of colours.
struct image : grid_size {
  std::vector<rgb> px;  ///< width * height pixels, row-major

  image() = default;
  /// A black canvas.
  image(int w, int h) : grid_size{w, h}, px(cells()) {}

  /// The pixel at column x, row y (unchecked).
  rgb& at(int x, int y) { return px[index(x, y)]; }
  /// The pixel at column x, row y (unchecked).
  const rgb& at(int x, int y) const { return px[index(x, y)]; }
  /// The pixel with coordinates clamped into the canvas.
  const rgb& clamped(int x, int y) const { return px[clamped_index(x, y)]; }
  /// The first pixel of row y.
  rgb* row(int y) { return px.data() + index(0, y); }
  /// The first pixel of row y.
  const rgb* row(int y) const { return px.data() + index(0, y); }
};

/// A single-channel float grid (luminance, edge strength, height).
struct plane : grid_size {
  std::vector<float> v;   ///< width * height values, row-major

  plane() = default;
  /// A zero plane.
  plane(int w, int h) : grid_size{w, h}, v(cells()) {}
  /// The value at column x, row y (unchecked).
  float& at(int x, int y) { return v[index(x, y)]; }
  /// The value at column x, row y (unchecked).
  float at(int x, int y) const { return v[index(x, y)]; }
  /// The value with coordinates clamped into the plane.
  float clamped(int x, int y) const { return v[clamped_index(x, y)]; }
};

} // namespace svc::providers
