// Low poly: the image rebuilt from flat-shaded triangles of a jittered grid.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "providers/noise.hpp"
#include "providers/styles.hpp"

namespace svc::providers {

namespace {

// Vertices in 1/16 pixel fixed point: edge functions are then exact integers,
// so triangles sharing an edge meet without gaps or double-counted seams.
struct vertex {
  int64_t x, y;
};

constexpr int64_t sub = 16;

rgb at_vertex(const image& src, vertex v) {
  return src.clamped(static_cast<int>(v.x / sub), static_cast<int>(v.y / sub));
}

void fill_triangle(const image& src, image& out, vertex a, vertex b, vertex c, float jitter) {
  int64_t area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  if (area == 0) return;
  if (area < 0) std::swap(b, c);
  const vertex mid{(a.x + b.x + c.x) / 3, (a.y + b.y + c.y) / 3};
  const rgb ca = at_vertex(src, a), cb = at_vertex(src, b), cc = at_vertex(src, c), cm = at_vertex(src, mid);
  rgb colour = (ca + cb + cc + cm * 3.f) * (1.f / 6.f);
  // Treat brightness as height: facets tilted towards the top-left light are lighter.
  const float ax = static_cast<float>(b.x - a.x) / sub, ay = static_cast<float>(b.y - a.y) / sub;
  const float bx = static_cast<float>(c.x - a.x) / sub, by = static_cast<float>(c.y - a.y) / sub;
  const float relief = 90.f;
  const float az = (luma(cb) - luma(ca)) * relief, bz = (luma(cc) - luma(ca)) * relief;
  float nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
  const float len = std::sqrt(nx * nx + ny * ny + nz * nz);
  nx /= len, ny /= len, nz /= len;
  if (nz < 0.f) nx = -nx, ny = -ny, nz = -nz;
  const float light = -0.45f * nx - 0.55f * ny + 0.7f * nz;
  colour = colour * (0.72f + 0.38f * light + jitter);

  const int x0 = static_cast<int>(std::max<int64_t>(0, std::min({a.x, b.x, c.x}) / sub));
  const int x1 = static_cast<int>(std::min<int64_t>(out.width - 1, std::max({a.x, b.x, c.x}) / sub));
  const int y0 = static_cast<int>(std::max<int64_t>(0, std::min({a.y, b.y, c.y}) / sub));
  const int y1 = static_cast<int>(std::min<int64_t>(out.height - 1, std::max({a.y, b.y, c.y}) / sub));
  auto edge = [](vertex p, vertex q, int64_t x, int64_t y) { return (q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x); };
  for (int y = y0; y <= y1; ++y) {
    const int64_t py = y * sub + sub / 2;
    rgb* row = out.row(y);
    for (int x = x0; x <= x1; ++x) {
      const int64_t px = x * sub + sub / 2;
      if (edge(a, b, px, py) >= 0 && edge(b, c, px, py) >= 0 && edge(c, a, px, py) >= 0) row[x] = colour;
    }
  }
}

} // namespace

void style_low_poly(const image& src, image& out, const style_context& ctx) {
  const int w = src.width, h = src.height;
  const float sc = static_cast<float>(h) / 1024.f;
  const float cell = std::max(8.f, (26.f + 26.f * std::min(ctx.amount, 2.f)) * sc);
  const int gw = static_cast<int>(std::ceil(static_cast<float>(w) / cell)) + 1;
  const int gh = static_cast<int>(std::ceil(static_cast<float>(h) / cell)) + 1;
  const uint32_t seed = static_cast<uint32_t>(ctx.seed);
  std::vector<vertex> grid(static_cast<std::size_t>(gw) * gh);
  for (int j = 0; j < gh; ++j)
    for (int i = 0; i < gw; ++i) {
      float x = static_cast<float>(i) * cell, y = static_cast<float>(j) * cell;
      // Border vertices stay on the border so the triangles cover every pixel.
      if (i > 0 && i < gw - 1) x += (hash_unit(i, j, seed) - 0.5f) * cell * 0.8f;
      if (j > 0 && j < gh - 1) y += (hash_unit(i, j, seed + 1) - 0.5f) * cell * 0.8f;
      if (i == gw - 1) x = static_cast<float>(w);
      if (j == gh - 1) y = static_cast<float>(h);
      grid[static_cast<std::size_t>(j) * gw + i] = {static_cast<int64_t>(x * sub), static_cast<int64_t>(y * sub)};
    }
  out = src; // any pixel a rounding corner misses keeps its colour
  for (int j = 0; j + 1 < gh; ++j)
    for (int i = 0; i + 1 < gw; ++i) {
      const vertex v00 = grid[static_cast<std::size_t>(j) * gw + i], v10 = grid[static_cast<std::size_t>(j) * gw + i + 1];
      const vertex v01 = grid[static_cast<std::size_t>(j + 1) * gw + i], v11 = grid[static_cast<std::size_t>(j + 1) * gw + i + 1];
      const float j1 = (hash_unit(i, j, seed + 2) - 0.5f) * 0.08f, j2 = (hash_unit(i, j, seed + 3) - 0.5f) * 0.08f;
      if (hash_unit(i, j, seed + 4) < 0.5f) {
        fill_triangle(src, out, v00, v10, v11, j1);
        fill_triangle(src, out, v00, v11, v01, j2);
      } else {
        fill_triangle(src, out, v00, v10, v01, j1);
        fill_triangle(src, out, v10, v11, v01, j2);
      }
    }
}

} // namespace svc::providers
