#pragma once
// Linear-ish RGB colour in floats (0..1 per channel) and the few operations
// the renderer's passes share. Inline: they run once or more per pixel.

#include <algorithm>
#include <cmath>

namespace svc::providers {

/// One pixel; channels nominally 0..1, clamped only when encoded.
struct rgb {
  float r = 0, g = 0, b = 0; ///< red, green, blue
};

/// Channel-wise arithmetic.
inline rgb operator+(rgb a, rgb b) { return {a.r + b.r, a.g + b.g, a.b + b.b}; }
inline rgb operator-(rgb a, rgb b) { return {a.r - b.r, a.g - b.g, a.b - b.b}; }
inline rgb operator*(rgb a, float s) { return {a.r * s, a.g * s, a.b * s}; }
inline rgb operator*(rgb a, rgb b) { return {a.r * b.r, a.g * b.g, a.b * b.b}; }

/// `x` limited to 0..1; NaN becomes 0, so no pass can leak one into a cast.
inline float clamp01(float x) { return x > 0.f ? (x < 1.f ? x : 1.f) : 0.f; }

/// Every channel limited to 0..1.
inline rgb clamp01(rgb c) { return {clamp01(c.r), clamp01(c.g), clamp01(c.b)}; }

/// Linear interpolation from `a` (t = 0) to `b` (t = 1).
inline float mix(float a, float b, float t) { return a + (b - a) * t; }

/// Linear interpolation of colours.
inline rgb mix(rgb a, rgb b, float t) { return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t}; }

/// Hermite step from 0 at `e0` to 1 at `e1` (either order). The reciprocal
/// folds to a constant when the edges are literals, saving a division per pixel.
inline float smoothstep(float e0, float e1, float x) {
  float t = clamp01((x - e0) * (1.f / (e1 - e0)));
  return t * t * (3.f - 2.f * t);
}

/// Perceived brightness (Rec. 709 weights).
inline float luma(rgb c) { return 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b; }

/// Scales saturation: 0 is grey, 1 unchanged, above 1 more vivid.
inline rgb saturate(rgb c, float s) {
  float l = luma(c);
  return {l + (c.r - l) * s, l + (c.g - l) * s, l + (c.b - l) * s};
}

/// Screen blend: brightens like overlapping projector light.
inline rgb screen(rgb a, rgb b) {
  return {1.f - (1.f - a.r) * (1.f - b.r), 1.f - (1.f - a.g) * (1.f - b.g), 1.f - (1.f - a.b) * (1.f - b.b)};
}

/// Colour from hue (0..1, wraps), saturation and value.
inline rgb hsv(float h, float s, float v) {
  h = (h - std::floor(h)) * 6.f;
  const int i = std::min(5, static_cast<int>(h));
  const float f = h - static_cast<float>(i);
  const float p = v * (1.f - s), q = v * (1.f - s * f), t = v * (1.f - s * (1.f - f));
  switch (i) {
    case 0: return {v, t, p};
    case 1: return {q, v, p};
    case 2: return {p, v, t};
    case 3: return {p, q, v};
    case 4: return {t, p, v};
    default: return {v, p, q};
  }
}

/// Squared distance between colours, for nearest-palette searches.
inline float distance2(rgb a, rgb b) {
  const float dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
  return 0.30f * dr * dr + 0.59f * dg * dg + 0.11f * db * db;
}

/// A colour from 0xRRGGBB.
constexpr rgb hex_colour(unsigned v) {
  return {static_cast<float>((v >> 16) & 0xff) / 255.f, static_cast<float>((v >> 8) & 0xff) / 255.f,
          static_cast<float>(v & 0xff) / 255.f};
}

} // namespace svc::providers
