// Graphic print styles: pixel art and ukiyo-e woodblock.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "providers/image_ops.hpp"
#include "providers/noise.hpp"
#include "providers/styles.hpp"

namespace svc::providers {

namespace {

// PICO-8's 16 colours and its 16 extra ones: a well-known retro set.
constexpr rgb retro_palette[] = {
  hex_colour(0x000000), hex_colour(0x1D2B53), hex_colour(0x7E2553), hex_colour(0x008751),
  hex_colour(0xAB5236), hex_colour(0x5F574F), hex_colour(0xC2C3C7), hex_colour(0xFFF1E8),
  hex_colour(0xFF004D), hex_colour(0xFFA300), hex_colour(0xFFEC27), hex_colour(0x00E436),
  hex_colour(0x29ADFF), hex_colour(0x83769C), hex_colour(0xFF77A8), hex_colour(0xFFCCAA),
  hex_colour(0x291814), hex_colour(0x111D35), hex_colour(0x422136), hex_colour(0x125359),
  hex_colour(0x742F29), hex_colour(0x49333B), hex_colour(0xA28879), hex_colour(0xF3EF7D),
  hex_colour(0xBE1250), hex_colour(0xFF6C24), hex_colour(0xA8E72E), hex_colour(0x00B543),
  hex_colour(0x065AB5), hex_colour(0x754665), hex_colour(0xFF6E59), hex_colour(0xFF9D81),
};

// Pigments of Edo-period prints: Prussian blue, indigo, vermilion, ochre,
// greens, plum, and the cream of the paper.
enum ink : uint8_t {
  prussian, indigo, pale_blue, cream, straw, vermilion, ochre, sage, pine, pink, charcoal, stone,
  plum, slate, deep_red, umber, lavender, ink_count
};
constexpr rgb woodblock_palette[ink_count] = {
  hex_colour(0x1F3A5F), hex_colour(0x14213D), hex_colour(0x9DBCC8), hex_colour(0xF0E3C8),
  hex_colour(0xE2CFA6), hex_colour(0xC8452B), hex_colour(0xD39B4A), hex_colour(0x8A9A6A),
  hex_colour(0x35513B), hex_colour(0xE3A59A), hex_colour(0x1C1A1A), hex_colour(0x8C8A80),
  hex_colour(0x5B4A6B), hex_colour(0x4F7391), hex_colour(0x8E2A22), hex_colour(0x6B4A2B),
  hex_colour(0xA89BB0),
};

// A printer mixes few inks: pick one by hue family and brightness rather
// than by nearest colour, which turns every mid-tone into a muddy grey.
ink woodblock_ink(rgb c) {
  const float hi = std::max({c.r, c.g, c.b}), lo = std::min({c.r, c.g, c.b});
  const float v = hi, s = hi > 0.f ? (hi - lo) / hi : 0.f;
  if (v < 0.14f) return charcoal;
  if (s < 0.16f) return v < 0.35f ? indigo : (v < 0.6f ? slate : (v < 0.82f ? stone : cream));
  float h = 0.f;
  const float d = hi - lo;
  if (hi == c.r) h = (c.g - c.b) / d / 6.f;
  else if (hi == c.g) h = ((c.b - c.r) / d + 2.f) / 6.f;
  else h = ((c.r - c.g) / d + 4.f) / 6.f;
  if (h < 0.f) h += 1.f;
  if (h < 0.05f || h >= 0.93f) return v < 0.5f ? deep_red : (s < 0.45f ? pink : vermilion);
  if (h < 0.17f) return v < 0.5f ? umber : (s < 0.4f ? straw : ochre);
  if (h < 0.45f) return v < 0.45f ? pine : sage;
  if (h < 0.72f) return v < 0.35f ? indigo : (v < 0.6f ? prussian : (v < 0.8f ? slate : pale_blue));
  return v < 0.45f ? plum : (s < 0.35f ? lavender : pink);
}

// The ink of every colour at 5 bits per channel, built once per process.
const std::vector<uint8_t>& ink_table() {
  static const std::vector<uint8_t> table = [] {
    std::vector<uint8_t> t(32 * 32 * 32);
    for (int r = 0; r < 32; ++r)
      for (int g = 0; g < 32; ++g)
        for (int b = 0; b < 32; ++b)
          t[(r << 10) | (g << 5) | b] = woodblock_ink({(static_cast<float>(r) + 0.5f) / 32.f,
                                                        (static_cast<float>(g) + 0.5f) / 32.f,
                                                        (static_cast<float>(b) + 0.5f) / 32.f});
    return t;
  }();
  return table;
}

inline int channel5(float x) { return static_cast<int>(clamp01(x) * 31.99f); }

template <std::size_t N>
int nearest(const rgb (&palette)[N], rgb c) {
  int best = 0;
  float best_d = distance2(c, palette[0]);
  for (std::size_t i = 1; i < N; ++i) {
    const float d = distance2(c, palette[i]);
    if (d < best_d) {
      best_d = d;
      best = static_cast<int>(i);
    }
  }
  return best;
}

constexpr float bayer4[16] = {0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5};

} // namespace

void style_pixel_art(const image& src, image& out, const style_context& ctx) {
  const int w = src.width, h = src.height;
  const float sc = static_cast<float>(h) / 1024.f;
  const int block = std::max(2, static_cast<int>(std::lround(sc * (3.f + 5.f * ctx.amount))));
  for (int by = 0; by < h; by += block)
    for (int bx = 0; bx < w; bx += block) {
      const int x1 = std::min(w, bx + block), y1 = std::min(h, by + block);
      rgb sum{};
      for (int y = by; y < y1; ++y)
        for (int x = bx; x < x1; ++x) sum = sum + src.at(x, y);
      rgb c = sum * (1.f / static_cast<float>((x1 - bx) * (y1 - by)));
      c = saturate((c - rgb{0.5f, 0.5f, 0.5f}) * 1.1f + rgb{0.5f, 0.5f, 0.5f}, 1.3f);
      // Ordered dithering on the block grid turns gradients into the
      // checkerboard ramps of 8-bit art instead of flat bands.
      const float d = (bayer4[((by / block) & 3) * 4 + ((bx / block) & 3)] / 16.f - 0.47f) * 0.14f;
      const rgb q = retro_palette[nearest(retro_palette, c + rgb{d, d, d})];
      for (int y = by; y < y1; ++y)
        for (int x = bx; x < x1; ++x) out.at(x, y) = q;
    }
}

void style_ukiyo_e(const image& src, image& out, const style_context& ctx) {
  const int w = src.width, h = src.height;
  const float sc = static_cast<float>(h) / 1024.f;
  image simple = src;
  blur(simple, 3.f * sc);
  const auto& table = ink_table();
  std::vector<uint8_t> index(static_cast<std::size_t>(w) * h);
  for (std::size_t i = 0; i < index.size(); ++i) {
    const rgb c = saturate(simple.px[i], 1.3f);
    index[i] = table[(channel5(c.r) << 10) | (channel5(c.g) << 5) | channel5(c.b)];
  }
  const value_noise n(ctx.seed);
  const std::vector<float> grain = grain_tile(n);
  const int line = std::max(1, static_cast<int>(std::lround(1.5f * sc * std::max(ctx.amount, 0.6f))));
  const float scale = 34.f * sc, ring = 4.f / scale;
  auto idx = [&](int x, int y) { return index[static_cast<std::size_t>(y) * w + x]; };
  for (int y = 0; y < h; ++y) {
    const float v = static_cast<float>(y) / static_cast<float>(h);
    // Bokashi: the printer's graded band of blue across the top of the sky.
    const float band = smoothstep(0.2f, 0.f, v) * 0.8f;
    const float* grain_row = &grain[static_cast<std::size_t>(y & (grain_tile_size - 1)) * grain_tile_size];
    for (int x = 0; x < w; ++x) {
      const int k = idx(x, y);
      rgb c = woodblock_palette[k];
      // Seigaiha: overlapping wave scales on blue areas (water) in the lower half.
      if (v > 0.5f && (k == prussian || k == indigo || k == pale_blue || k == slate)) {
        const int r = static_cast<int>(static_cast<float>(y) / (scale * 0.25f));
        for (int rr = r + 2; rr >= r; --rr) {
          const float off = (rr & 1) ? scale * 0.5f : 0.f;
          const float cx = static_cast<float>(fast_floor((static_cast<float>(x) - off) / scale + 0.5f)) * scale + off;
          const float cy = static_cast<float>(rr + 1) * scale * 0.25f;
          const float dx = static_cast<float>(x) - cx, dy = static_cast<float>(y) - cy;
          const float d = std::sqrt(dx * dx + dy * dy);
          if (d >= scale * 0.5f) continue;
          const float f = d * ring - static_cast<float>(fast_floor(d * ring));
          if (f < 0.28f) c = mix(c, woodblock_palette[k == pale_blue ? cream : pale_blue], 0.8f);
          break;
        }
      }
      // Outlines where two clearly different inks meet.
      const int kr = idx(std::min(w - 1, x + line), y), kd = idx(x, std::min(h - 1, y + line));
      if ((kr != k && distance2(woodblock_palette[kr], woodblock_palette[k]) > 0.02f) ||
          (kd != k && distance2(woodblock_palette[kd], woodblock_palette[k]) > 0.02f))
        c = woodblock_palette[charcoal];
      c = mix(c, woodblock_palette[prussian], band);
      out.at(x, y) = mix(c, woodblock_palette[cream], 0.06f) * (0.93f + 0.08f * grain_row[x & (grain_tile_size - 1)]);
    }
  }
}

} // namespace svc::providers
