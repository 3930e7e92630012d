// Light-driven styles: neon noir and pastel dream.
#include <algorithm>
#include <cmath>
#include <vector>

#include "providers/image_ops.hpp"
#include "providers/noise.hpp"
#include "providers/styles.hpp"

namespace svc::providers {

void style_neon_noir(const image& src, image& out, const style_context& ctx) {
  const int w = src.width, h = src.height;
  const float sc = static_cast<float>(h) / 1024.f;
  plane lum = luma_plane(src);
  blur(lum, 1.5f * sc);
  const plane edges = edge_plane(lum);
  plane glow = edges;
  blur(glow, 9.f * sc);
  const value_noise n(ctx.seed);
  const rgb magenta{1.f, 0.12f, 0.72f}, cyan{0.08f, 0.85f, 1.f};
  const float fh = 1.f / (260.f * sc);
  const int streak_w = std::max(1, static_cast<int>(3.f * sc));
  const float streak_len = 60.f * sc;
  const uint32_t rain = static_cast<uint32_t>(ctx.seed);
  // Rain: short bright streaks in a few columns, each column's phase fixed.
  std::vector<float> phase(static_cast<std::size_t>(w / streak_w + 1));
  for (std::size_t i = 0; i < phase.size(); ++i) phase[i] = hash_unit(static_cast<int>(i), 0, rain) * 1000.f * sc;
  for (int y = 0; y < h; ++y) {
    const float fy = static_cast<float>(y);
    for (int x = 0; x < w; ++x) {
      const float fx = static_cast<float>(x);
      const rgb s = src.at(x, y);
      rgb c = mix(rgb{0.3f, 0.3f, 0.3f} * luma(s), s, 0.45f) * 0.22f + rgb{0.012f, 0.008f, 0.05f};
      const rgb neon = mix(magenta, cyan, smoothstep(0.38f, 0.62f, n.sample(fx * fh, fy * fh)));
      const float e = edges.at(x, y) * (0.7f + 0.6f * ctx.amount);
      const float tube = smoothstep(0.012f, 0.045f, e);
      c = c + neon * (tube * 1.1f + std::min(glow.at(x, y) * 9.f, 0.8f));
      c = c + mix(neon, rgb{1.f, 1.f, 1.f}, 0.3f) * (smoothstep(0.72f, 1.f, lum.at(x, y)) * 0.6f);
      const int col = x / streak_w;
      const int seg = static_cast<int>((fy + phase[static_cast<std::size_t>(col)]) / streak_len);
      if (hash_unit(col, seg, rain + 1) > 0.965f) c = c + rgb{0.18f, 0.2f, 0.28f} * 0.6f;
      out.at(x, y) = c;
    }
  }
}

void style_pastel_dream(const image& src, image& out, const style_context& ctx) {
  const int w = src.width, h = src.height;
  const float sc = static_cast<float>(h) / 1024.f;
  image glow = src;
  blur(glow, 28.f * sc);
  const rgb pink{1.f, 0.78f, 0.88f}, lavender{0.8f, 0.78f, 1.f}, mint{0.76f, 1.f, 0.9f}, white{1.f, 1.f, 1.f};
  const float cell = 56.f * sc;
  const uint32_t sparkle = static_cast<uint32_t>(ctx.seed);
  const float density = 0.9f - 0.05f * std::min(ctx.amount, 2.f);
  for (int y = 0; y < h; ++y) {
    const float fy = static_cast<float>(y), gv = fy / static_cast<float>(h);
    for (int x = 0; x < w; ++x) {
      const float fx = static_cast<float>(x), gu = fx / static_cast<float>(w);
      rgb c = mix(saturate(src.at(x, y), 0.55f), white, 0.36f);
      const rgb wash = mix(mix(pink, lavender, gu), mint, gv * gv * 0.7f);
      c = mix(c, c * wash * 1.25f, 0.6f);
      c = screen(c, mix(saturate(glow.at(x, y), 0.6f), white, 0.2f) * 0.38f);
      const float dx = gu - 0.5f, dy = gv - 0.45f;
      c = c + rgb{0.07f, 0.05f, 0.08f} * std::max(0.f, 1.f - 3.f * (dx * dx + dy * dy));
      // Four-pointed sparkles, one in some grid cells.
      const int cx = static_cast<int>(fx / cell), cy = static_cast<int>(fy / cell);
      if (hash_unit(cx, cy, sparkle) > density) {
        const float sx = (static_cast<float>(cx) + 0.2f + 0.6f * hash_unit(cy, cx, sparkle + 1)) * cell;
        const float sy = (static_cast<float>(cy) + 0.2f + 0.6f * hash_unit(cx, cy, sparkle + 2)) * cell;
        const float r = cell * (0.12f + 0.18f * hash_unit(cx, cy, sparkle + 3));
        const float ax = std::fabs(fx - sx) / r, ay = std::fabs(fy - sy) / r;
        const float star = std::max(0.f, 1.f - ax - 7.f * ay) + std::max(0.f, 1.f - 7.f * ax - ay) +
                           std::max(0.f, 1.f - 4.f * (ax * ax + ay * ay));
        c = c + white * (std::min(star, 1.f) * 0.85f);
      }
      out.at(x, y) = c;
    }
  }
}

} // namespace svc::providers
