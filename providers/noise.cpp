#include "providers/noise.hpp"

namespace svc::providers {

value_noise::value_noise(uint64_t seed) : table_(static_cast<std::size_t>(size) * size) {
  // splitmix64: cheap, and the lattice needs uniformity, not secrecy.
  uint64_t z = seed;
  for (float& v : table_) {
    z += 0x9E3779B97F4A7C15ULL;
    uint64_t x = z;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    x ^= x >> 31;
    v = static_cast<float>(x >> 40) * (1.0f / 16777216.0f);
  }
}

std::vector<float> grain_tile(const value_noise& n) {
  // One lattice cell per pixel over one period makes the tile repeat
  // seamlessly; the second octave (two cells per pixel) does too.
  constexpr int size = grain_tile_size;
  std::vector<float> tile(static_cast<std::size_t>(size) * size);
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x) {
      const float fx = static_cast<float>(x), fy = static_cast<float>(y);
      tile[static_cast<std::size_t>(y) * size + x] = 0.65f * n.sample(fx, fy) + 0.35f * n.sample(2.f * fx + 100.f, 2.f * fy + 50.f);
    }
  return tile;
}

plane coarse_noise(const value_noise& n, int w, int h, float freq, int octaves, float ox, float oy) {
  constexpr int step = 4;
  const int gw = w / step + 2, gh = h / step + 2;
  std::vector<float> grid(static_cast<std::size_t>(gw) * gh);
  for (int j = 0; j < gh; ++j)
    for (int i = 0; i < gw; ++i)
      grid[static_cast<std::size_t>(j) * gw + i] =
          n.fbm(static_cast<float>(i * step) * freq + ox, static_cast<float>(j * step) * freq + oy, octaves);
  plane out(w, h);
  constexpr float inv = 1.f / step;
  for (int y = 0; y < h; ++y) {
    const int j = y / step;
    const float ty = static_cast<float>(y % step) * inv;
    const float* r0 = &grid[static_cast<std::size_t>(j) * gw];
    const float* r1 = r0 + gw;
    float* dst = &out.v[static_cast<std::size_t>(y) * w];
    for (int x = 0; x < w; ++x) {
      const int i = x / step;
      const float tx = static_cast<float>(x % step) * inv;
      const float a = r0[i] + (r0[i + 1] - r0[i]) * tx, b = r1[i] + (r1[i + 1] - r1[i]) * tx;
      dst[x] = a + (b - a) * ty;
    }
  }
  return out;
}

} // namespace svc::providers
