#include "providers/image_ops.hpp"

#include <algorithm>
#include <cmath>

namespace svc::providers {

namespace {

// One box pass along rows then columns; T is rgb or float. The vertical pass
// keeps a row of running sums so memory is read row by row.
template <class T>
void box_pass(std::vector<T>& v, int w, int h, int r) {
  if (r <= 0) return;
  std::vector<T> tmp(std::max(w, h));
  const float norm = 1.f / static_cast<float>(2 * r + 1);
  for (int y = 0; y < h; ++y) {
    T* row = v.data() + static_cast<std::size_t>(y) * w;
    T sum = row[0] * static_cast<float>(r + 1);
    for (int i = 1; i <= r; ++i) sum = sum + row[std::min(i, w - 1)];
    for (int x = 0; x < w; ++x) {
      tmp[x] = sum * norm;
      sum = sum + row[std::min(x + r + 1, w - 1)] - row[std::max(x - r, 0)];
    }
    std::copy(tmp.begin(), tmp.begin() + w, row);
  }
  std::vector<T> sums(w), out(static_cast<std::size_t>(w) * h);
  auto row_at = [&](int y) { return v.data() + static_cast<std::size_t>(std::clamp(y, 0, h - 1)) * w; };
  for (int x = 0; x < w; ++x) sums[x] = row_at(0)[x] * static_cast<float>(r + 1);
  for (int i = 1; i <= r; ++i) {
    const T* add = row_at(i);
    for (int x = 0; x < w; ++x) sums[x] = sums[x] + add[x];
  }
  for (int y = 0; y < h; ++y) {
    T* dst = out.data() + static_cast<std::size_t>(y) * w;
    const T* add = row_at(y + r + 1);
    const T* sub = row_at(y - r);
    for (int x = 0; x < w; ++x) {
      dst[x] = sums[x] * norm;
      sums[x] = sums[x] + add[x] - sub[x];
    }
  }
  v.swap(out);
}

template <class T>
void blur_values(std::vector<T>& v, int w, int h, float radius) {
  if (radius < 0.5f || w <= 0 || h <= 0) return;
  // Three box passes of radius r approximate a Gaussian of sigma ~ r.
  const int f = radius > 6.f ? std::max(2, static_cast<int>(radius / 3.f)) : 1;
  if (f == 1) {
    const int r = std::max(1, static_cast<int>(std::lround(radius)));
    for (int i = 0; i < 3; ++i) box_pass(v, w, h, r);
    return;
  }
  const int sw = (w + f - 1) / f, sh = (h + f - 1) / f;
  std::vector<T> small(static_cast<std::size_t>(sw) * sh);
  for (int sy = 0; sy < sh; ++sy)
    for (int sx = 0; sx < sw; ++sx) {
      T sum{};
      int n = 0;
      for (int y = sy * f; y < std::min(h, sy * f + f); ++y)
        for (int x = sx * f; x < std::min(w, sx * f + f); ++x, ++n) sum = sum + v[static_cast<std::size_t>(y) * w + x];
      small[static_cast<std::size_t>(sy) * sw + sx] = sum * (1.f / static_cast<float>(n));
    }
  const int r = std::max(1, static_cast<int>(std::lround(radius / static_cast<float>(f))));
  for (int i = 0; i < 3; ++i) box_pass(small, sw, sh, r);
  const float inv = 1.f / static_cast<float>(f);
  for (int y = 0; y < h; ++y) {
    const float fy = std::clamp((static_cast<float>(y) + 0.5f) * inv - 0.5f, 0.f, static_cast<float>(sh - 1));
    const int y0 = static_cast<int>(fy), y1 = std::min(y0 + 1, sh - 1);
    const float ty = fy - static_cast<float>(y0);
    const T* r0 = small.data() + static_cast<std::size_t>(y0) * sw;
    const T* r1 = small.data() + static_cast<std::size_t>(y1) * sw;
    T* dst = v.data() + static_cast<std::size_t>(y) * w;
    for (int x = 0; x < w; ++x) {
      const float fx = std::clamp((static_cast<float>(x) + 0.5f) * inv - 0.5f, 0.f, static_cast<float>(sw - 1));
      const int x0 = static_cast<int>(fx), x1 = std::min(x0 + 1, sw - 1);
      const float tx = fx - static_cast<float>(x0);
      const T a = r0[x0] + (r0[x1] - r0[x0]) * tx;
      const T b = r1[x0] + (r1[x1] - r1[x0]) * tx;
      dst[x] = a + (b - a) * ty;
    }
  }
}

} // namespace

void blur(image& img, float radius) { blur_values(img.px, img.width, img.height, radius); }

void blur(plane& p, float radius) { blur_values(p.v, p.width, p.height, radius); }

plane luma_plane(const image& img) {
  plane out(img.width, img.height);
  for (std::size_t i = 0; i < img.px.size(); ++i) out.v[i] = luma(img.px[i]);
  return out;
}

plane edge_plane(const plane& p) {
  plane out(p.width, p.height);
  for (int y = 0; y < p.height; ++y) {
    const int ya = std::max(0, y - 1), yb = std::min(p.height - 1, y + 1);
    for (int x = 0; x < p.width; ++x) {
      const int xa = std::max(0, x - 1), xb = std::min(p.width - 1, x + 1);
      const float gx = (p.at(xb, ya) + 2.f * p.at(xb, y) + p.at(xb, yb)) - (p.at(xa, ya) + 2.f * p.at(xa, y) + p.at(xa, yb));
      const float gy = (p.at(xa, yb) + 2.f * p.at(x, yb) + p.at(xb, yb)) - (p.at(xa, ya) + 2.f * p.at(x, ya) + p.at(xb, ya));
      out.at(x, y) = std::sqrt(gx * gx + gy * gy) * 0.25f;
    }
  }
  return out;
}

rgb sample(const image& img, float x, float y) {
  x = std::clamp(x - 0.5f, 0.f, static_cast<float>(img.width - 1));
  y = std::clamp(y - 0.5f, 0.f, static_cast<float>(img.height - 1));
  const int x0 = static_cast<int>(x), y0 = static_cast<int>(y);
  const int x1 = std::min(x0 + 1, img.width - 1), y1 = std::min(y0 + 1, img.height - 1);
  const float tx = x - static_cast<float>(x0), ty = y - static_cast<float>(y0);
  return mix(mix(img.at(x0, y0), img.at(x1, y0), tx), mix(img.at(x0, y1), img.at(x1, y1), tx), ty);
}

} // namespace svc::providers
