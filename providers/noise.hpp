#pragma once
// Smooth value noise over a seeded lattice, and integer hashes: the texture
// source of every renderer pass. A table lookup per corner keeps a sample to
// a few nanoseconds, which the 1024x1024-in-300-ms budget needs.

#include <cstdint>
#include <vector>

#include "providers/image.hpp"

namespace svc::providers {

/// Mixes 32 bits into a well-distributed 32-bit hash (lowbias32).
inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

/// A hash of a lattice point and a seed as a float in [0, 1).
inline float hash_unit(int x, int y, uint32_t seed) {
  const uint32_t h = hash32(static_cast<uint32_t>(x) * 0x9E3779B1U ^ hash32(static_cast<uint32_t>(y) + seed));
  return static_cast<float>(h >> 8) * (1.0f / 16777216.0f);
}

/// floor() for |x| < 2^31, without a libm call.
inline int fast_floor(float x) {
  const int i = static_cast<int>(x);
  return x < static_cast<float>(i) ? i - 1 : i;
}

/// Seeded 2-D value noise, periodic every 256 units.
class value_noise {
public:
  /// Fills the lattice from a generator seeded with `seed`.
  explicit value_noise(uint64_t seed);

  /// Smoothly interpolated noise in [0, 1].
  float sample(float x, float y) const {
    const int xi = fast_floor(x), yi = fast_floor(y);
    float fx = x - static_cast<float>(xi), fy = y - static_cast<float>(yi);
    fx = fx * fx * (3.f - 2.f * fx);
    fy = fy * fy * (3.f - 2.f * fy);
    const int x0 = xi & mask, x1 = (xi + 1) & mask;
    const float* r0 = &table_[static_cast<unsigned>(yi & mask) * size];
    const float* r1 = &table_[static_cast<unsigned>((yi + 1) & mask) * size];
    const float a = r0[x0] + (r0[x1] - r0[x0]) * fx;
    const float b = r1[x0] + (r1[x1] - r1[x0]) * fx;
    return a + (b - a) * fy;
  }

  /// Fractal sum of `octaves` samples (each twice the frequency, half the
  /// amplitude), normalised to [0, 1].
  float fbm(float x, float y, int octaves) const {
    float sum = 0.f, amp = 0.5f, norm = 0.f;
    for (int o = 0; o < octaves; ++o) {
      sum += amp * sample(x, y);
      norm += amp;
      // Offsets and a slightly irrational lacunarity hide the lattice.
      x = x * 2.03f + 17.17f;
      y = y * 2.03f + 31.31f;
      amp *= 0.5f;
    }
    return sum / norm;
  }

  /// `fbm`, but gives up once the result cannot reach `floor`, returning a
  /// value below it: thresholded features (clouds) skip most octaves where absent.
  float fbm_above(float x, float y, int octaves, float floor) const {
    float norm = 0.f;
    for (int o = 0, a = 1; o < octaves; ++o, a *= 2) norm += 0.5f / static_cast<float>(a);
    float sum = 0.f, amp = 0.5f, remaining = norm;
    for (int o = 0; o < octaves; ++o) {
      sum += amp * sample(x, y);
      remaining -= amp;
      if (sum + remaining < floor * norm) return (sum + remaining) / norm;
      x = x * 2.03f + 17.17f;
      y = y * 2.03f + 31.31f;
      amp *= 0.5f;
    }
    return sum / norm;
  }

  /// Lattice period in cells.
  static constexpr int period = 256;

private:
  static constexpr int size = period;
  static constexpr int mask = size - 1;
  std::vector<float> table_;
};

/// Side of a `grain_tile`, in pixels.
inline constexpr int grain_tile_size = value_noise::period;

/// A seamless tile of pixel-scale noise in [0, 1] (paper grain), row-major,
/// read as tile[(y & 255) * 256 + (x & 255)]: one load per pixel instead of a
/// noise evaluation.
std::vector<float> grain_tile(const value_noise& n);

/// `n.fbm(x * freq + ox, y * freq + oy, octaves)` for every pixel of a w x h
/// plane, evaluated every 4 pixels and interpolated: for features tens of
/// pixels wide this looks the same at a fraction of the cost.
plane coarse_noise(const value_noise& n, int w, int h, float freq, int octaves, float ox = 0.f, float oy = 0.f);

} // namespace svc::providers
