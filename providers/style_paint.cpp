// Painterly styles: watercolor and oil painting.
#include <algorithm>
#include <array>
#include <cmath>

#include "providers/image_ops.hpp"
#include "providers/noise.hpp"
#include "providers/styles.hpp"

namespace svc::providers {

namespace {

inline int round_int(float x) { return fast_floor(x + 0.5f); }

} // namespace

void style_watercolor(const image& src, image& out, const style_context& ctx) {
  // Washes are soft, so all but the paper grain is computed at half size.
  image wash = half_size(src);
  const int w = wash.width, h = wash.height;
  const float sc = static_cast<float>(h) / 512.f;
  blur(wash, (1.f + 1.f * ctx.amount) * sc);
  image pooled = wash;
  blur(pooled, 4.f * sc);
  const value_noise n(ctx.seed);
  const float warp = 4.5f * sc * ctx.amount, fw = 1.f / (25.f * sc);
  const plane drift_x = coarse_noise(n, w, h, fw, 2), drift_y = coarse_noise(n, w, h, fw, 1, 71.f, 23.f);
  const rgb white{1.f, 1.f, 1.f};
  image styled(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      // Pigment drifts along the wet paper, so colour leaks past shapes.
      const float drift = drift_x.at(x, y);
      rgb c = wash.clamped(x + round_int((drift - 0.5f) * warp), y + round_int((drift_y.at(x, y) - 0.5f) * warp));
      // Flat washes: colour settles into a few levels per channel.
      const rgb flat{static_cast<float>(round_int(c.r * 5.f)) / 5.f, static_cast<float>(round_int(c.g * 5.f)) / 5.f,
                     static_cast<float>(round_int(c.b * 5.f)) / 5.f};
      c = mix(c, flat, 0.45f);
      // Transparent pigment over white paper: light, yet vivid; dark washes
      // are layered, so they stay dark.
      c = clamp01(saturate(white - (white - c) * (0.62f + 0.3f * (1.f - luma(c))), 1.5f));
      // Pigment density (Curtis et al.) darkens c by c - (c - c^2)(d - 1):
      // pooled at wash rims, uneven in blooms.
      const float rim = std::min(0.9f, 4.f * std::fabs(luma(pooled.at(x, y)) - luma(c)));
      const float d = 1.f + (drift - 0.5f) * 0.6f + rim;
      styled.at(x, y) = c - (c - c * c) * (d - 1.f);
    }
  out = resize(styled, src.width, src.height);
  // Pigment granulates in the paper's tooth, at full resolution.
  const std::vector<float> grain = grain_tile(n);
  for (int y = 0; y < out.height; ++y) {
    const float* grain_row = &grain[static_cast<std::size_t>(y & (grain_tile_size - 1)) * grain_tile_size];
    rgb* row = out.row(y);
    for (int x = 0; x < out.width; ++x) {
      const rgb c = row[x];
      const float g = grain_row[x & (grain_tile_size - 1)];
      row[x] = (c - (c - c * c) * ((0.5f - g) * 0.7f)) * rgb{1.f, 0.985f, 0.95f};
    }
  }
}

void style_oil_painting(const image& src, image& out, const style_context& ctx) {
  const int w = src.width, h = src.height;
  const float sc = static_cast<float>(h) / 1024.f;
  // Underpainting, then overlapping strokes laid on a jittered grid.
  out = src;
  blur(out, 3.f * sc);
  plane lum = luma_plane(src);
  blur(lum, 4.f * sc);
  const value_noise n(ctx.seed);
  const uint32_t seed = static_cast<uint32_t>(ctx.seed);
  const float len = std::max(6.f, (13.f + 9.f * ctx.amount) * sc), width = len * 0.38f;
  const float step = width * 1.15f, ff = 1.f / (160.f * sc);
  const int cols = static_cast<int>(static_cast<float>(w) / step) + 2, rows = static_cast<int>(static_cast<float>(h) / step) + 2;
  std::array<float, 16> bristle{};
  for (int j = 0; j < rows; ++j)
    for (int i = 0; i < cols; ++i) {
      const float cx = (static_cast<float>(i) + hash_unit(i, j, seed) - 0.5f) * step;
      const float cy = (static_cast<float>(j) + hash_unit(i, j, seed + 1) - 0.5f) * step;
      const int ix = std::clamp(static_cast<int>(cx), 0, w - 1), iy = std::clamp(static_cast<int>(cy), 0, h - 1);
      // Strokes run along edges (across the brightness gradient), else with a slow field.
      const float gx = lum.clamped(ix + 2, iy) - lum.clamped(ix - 2, iy), gy = lum.clamped(ix, iy + 2) - lum.clamped(ix, iy - 2);
      float angle = (n.sample(cx * ff, cy * ff) - 0.5f) * 3.f;
      if (gx * gx + gy * gy > 0.0004f) angle = std::atan2(gx, -gy);
      const float ca = std::cos(angle), sa = std::sin(angle);
      const float tint = 0.94f + 0.12f * hash_unit(i, j, seed + 2);
      const rgb colour = src.at(ix, iy) * tint;
      for (std::size_t k = 0; k < bristle.size(); ++k) bristle[k] = 0.86f + 0.22f * hash_unit(i * 16 + static_cast<int>(k), j, seed + 3);
      const float half_l = len * 0.5f, half_w = width * 0.5f;
      const float ex = half_l * std::fabs(ca) + half_w * std::fabs(sa), ey = half_l * std::fabs(sa) + half_w * std::fabs(ca);
      const int x0 = std::max(0, static_cast<int>(cx - ex)), x1 = std::min(w - 1, static_cast<int>(cx + ex));
      const int y0 = std::max(0, static_cast<int>(cy - ey)), y1 = std::min(h - 1, static_cast<int>(cy + ey));
      for (int y = y0; y <= y1; ++y) {
        const float dy = static_cast<float>(y) - cy;
        rgb* row = out.row(y);
        for (int x = x0; x <= x1; ++x) {
          const float dx = static_cast<float>(x) - cx;
          const float a = (dx * ca + dy * sa) / half_l, b = (dy * ca - dx * sa) / half_w;
          // A rounded dab that thins toward both ends.
          if (b * b + a * a * a * a >= 1.f) continue;
          const float bristles = bristle[static_cast<std::size_t>(std::clamp((b + 1.f) * 8.f, 0.f, 15.f))];
          // Impasto: the paint ridge is lit on one side and shadowed on the other.
          const float relief = 1.f + 0.22f * b * std::min(ctx.amount, 1.5f);
          row[x] = colour * (bristles * relief);
        }
      }
    }
  for (int y = 0; y < h; ++y) {
    rgb* row = out.row(y);
    for (int x = 0; x < w; ++x) {
      rgb c = saturate((row[x] - rgb{0.5f, 0.5f, 0.5f}) * 1.1f + rgb{0.5f, 0.5f, 0.5f}, 1.2f);
      c = c * rgb{1.08f, 0.98f, 0.8f} + rgb{0.035f, 0.02f, 0.f};
      const bool weave = ((x >> 1) + (y >> 1)) & 1;
      row[x] = c * (weave ? 1.f : 0.97f);
    }
  }
}

} // namespace svc::providers
