// Pencil sketch: graphite hatching by tone plus contour lines.
#include <algorithm>
#include <array>
#include <cmath>

#include "providers/image_ops.hpp"
#include "providers/noise.hpp"
#include "providers/styles.hpp"

namespace svc::providers {

namespace {

// Darkness of a hatch line at phase p (one line per unit): 1 on the line, 0 between.
inline float hatch(float p, float width) {
  const float d = std::fabs(p - static_cast<float>(fast_floor(p + 0.5f)));
  return smoothstep(width, width * 0.35f, d);
}

} // namespace

void style_pencil_sketch(const image& src, image& out, const style_context& ctx) {
  const int w = src.width, h = src.height;
  const float sc = std::max(static_cast<float>(h) / 1024.f, 0.5f);
  plane tone = luma_plane(src);
  blur(tone, 2.f * sc);
  const plane edges = edge_plane(tone);
  const value_noise n(ctx.seed);
  // Stretch the tones to the full range (2nd to 98th percentile) so a dark
  // night scene and a bright noon one both get paper highlights and dense shadows.
  std::array<int, 256> histogram{};
  for (float t : tone.v) ++histogram[static_cast<std::size_t>(clamp01(t) * 255.f)];
  const auto percentile = [&](double q) {
    std::size_t seen = 0, want = static_cast<std::size_t>(q * static_cast<double>(tone.v.size()));
    for (std::size_t i = 0; i < histogram.size(); ++i)
      if ((seen += static_cast<std::size_t>(histogram[i])) > want) return static_cast<float>(i) / 255.f;
    return 1.f;
  };
  const float lo = percentile(0.02), hi = std::max(percentile(0.98), lo + 0.05f), range = 1.f / (hi - lo);
  const std::vector<float> grain = grain_tile(n);
  // Heavier weights draw denser, darker hatching.
  const float spacing = 6.5f * sc / (0.7f + 0.3f * std::min(ctx.amount, 2.f));
  const float inv = 1.f / spacing, fs = 1.f / (9.f * sc);
  const plane jitters = coarse_noise(n, w, h, 1.f / (35.f * sc), 1);
  const rgb paper{0.96f, 0.945f, 0.91f}, graphite{0.2f, 0.2f, 0.23f};
  for (int y = 0; y < h; ++y) {
    const float fy = static_cast<float>(y);
    const float* grain_row = &grain[static_cast<std::size_t>(y & (grain_tile_size - 1)) * grain_tile_size];
    for (int x = 0; x < w; ++x) {
      const float fx = static_cast<float>(x);
      // The square root lifts mid-tones: a sketch leaves most of the sheet light.
      const float t = std::sqrt(clamp01((tone.at(x, y) - lo) * range));
      const float g = grain_row[x & (grain_tile_size - 1)];
      const float jitter = (jitters.at(x, y) - 0.5f) * 0.9f;
      float ink = hatch((fx + fy) * inv * 0.7071f + jitter, 0.2f) * smoothstep(0.84f, 0.6f, t);
      ink = std::max(ink, hatch((fx - fy) * inv * 0.7071f - jitter, 0.18f) * smoothstep(0.5f, 0.3f, t));
      ink = std::max(ink, hatch(fy * inv * 1.4f + jitter, 0.2f) * smoothstep(0.26f, 0.08f, t));
      // Strokes fade in and out along their length like a hand-held pencil.
      ink *= 0.55f + 0.45f * n.sample(fx * fs + 40.f, fy * fs);
      ink = std::max(ink, smoothstep(0.015f, 0.07f, edges.at(x, y)) * 0.95f);
      // Graphite catches on the paper's tooth.
      ink *= 0.45f + 0.8f * g;
      const rgb sheet = paper * (0.97f + 0.03f * g);
      out.at(x, y) = mix(sheet, graphite, clamp01(ink * 0.85f)) * (0.9f + 0.1f * t);
    }
  }
}

} // namespace svc::providers
