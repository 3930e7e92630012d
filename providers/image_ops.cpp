#include "providers/image_ops.hpp"

#include <algorithm>
#include <cmath>

namespace svc::providers {

namespace {

// One box pass along rows then columns; T is rgb or float. The vertical pass
// keeps a row of running sums so memory is read row by row. `scratch` has the
// size of `v` and is swapped with it.
template <class T>
void box_pass(std::vector<T>& v, std::vector<T>& scratch, int w, int h, int r) {
  std::vector<T> tmp(static_cast<std::size_t>(w));
  const float norm = 1.f / static_cast<float>(2 * r + 1);
  for (int y = 0; y < h; ++y) {
    T* row = v.data() + static_cast<std::size_t>(y) * w;
    T sum = row[0] * static_cast<float>(r + 1);
    for (int i = 1; i <= r; ++i) sum = sum + row[std::min(i, w - 1)];
    for (int x = 0; x < w; ++x) {
      tmp[x] = sum * norm;
      sum = sum + row[std::min(x + r + 1, w - 1)] - row[std::max(x - r, 0)];
    }
    std::copy(tmp.begin(), tmp.end(), row);
  }
  std::vector<T> sums(static_cast<std::size_t>(w));
  auto row_at = [&](int y) { return v.data() + static_cast<std::size_t>(std::clamp(y, 0, h - 1)) * w; };
  for (int x = 0; x < w; ++x) sums[x] = row_at(0)[x] * static_cast<float>(r + 1);
  for (int i = 1; i <= r; ++i) {
    const T* add = row_at(i);
    for (int x = 0; x < w; ++x) sums[x] = sums[x] + add[x];
  }
  for (int y = 0; y < h; ++y) {
    T* dst = scratch.data() + static_cast<std::size_t>(y) * w;
    const T* add = row_at(y + r + 1);
    const T* sub = row_at(y - r);
    for (int x = 0; x < w; ++x) {
      dst[x] = sums[x] * norm;
      sums[x] = sums[x] + add[x] - sub[x];
    }
  }
  v.swap(scratch);
}

// Three box passes of radius r approximate a Gaussian of sigma ~ r.
template <class T>
void box_blur(std::vector<T>& v, int w, int h, int r) {
  std::vector<T> scratch(v.size());
  for (int i = 0; i < 3; ++i) box_pass(v, scratch, w, h, r);
}

template <class T>
void blur_values(std::vector<T>& v, int w, int h, float radius) {
  if (radius < 0.5f || w <= 0 || h <= 0) return;
  // Past a couple of pixels a blur has no detail worth full resolution:
  // blur a copy shrunk by f, then interpolate back.
  const int f = radius >= 2.5f ? std::max(2, static_cast<int>(radius / 2.5f)) : 1;
  if (f == 1) {
    box_blur(v, w, h, std::max(1, static_cast<int>(std::lround(radius))));
    return;
  }
  const int sw = (w + f - 1) / f, sh = (h + f - 1) / f;
  std::vector<T> small(static_cast<std::size_t>(sw) * sh);
  for (int y = 0; y < h; ++y) {
    const T* src = v.data() + static_cast<std::size_t>(y) * w;
    T* dst = small.data() + static_cast<std::size_t>(y / f) * sw;
    for (int x = 0; x < w; ++x) dst[x / f] = dst[x / f] + src[x];
  }
  for (int sy = 0; sy < sh; ++sy) {
    const int rows = std::min(h, sy * f + f) - sy * f;
    for (int sx = 0; sx < sw; ++sx) {
      const int cols = std::min(w, sx * f + f) - sx * f;
      T& cell = small[static_cast<std::size_t>(sy) * sw + sx];
      cell = cell * (1.f / static_cast<float>(rows * cols));
    }
  }
  box_blur(small, sw, sh, std::max(1, static_cast<int>(std::lround(radius / static_cast<float>(f)))));
  const float inv = 1.f / static_cast<float>(f);
  std::vector<int> x0s(static_cast<std::size_t>(w)), x1s(static_cast<std::size_t>(w));
  std::vector<float> txs(static_cast<std::size_t>(w));
  for (int x = 0; x < w; ++x) {
    const float fx = std::clamp((static_cast<float>(x) + 0.5f) * inv - 0.5f, 0.f, static_cast<float>(sw - 1));
    x0s[x] = static_cast<int>(fx);
    x1s[x] = std::min(x0s[x] + 1, sw - 1);
    txs[x] = fx - static_cast<float>(x0s[x]);
  }
  for (int y = 0; y < h; ++y) {
    const float fy = std::clamp((static_cast<float>(y) + 0.5f) * inv - 0.5f, 0.f, static_cast<float>(sh - 1));
    const int y0 = static_cast<int>(fy), y1 = std::min(y0 + 1, sh - 1);
    const float ty = fy - static_cast<float>(y0);
    const T* r0 = small.data() + static_cast<std::size_t>(y0) * sw;
    const T* r1 = small.data() + static_cast<std::size_t>(y1) * sw;
    T* dst = v.data() + static_cast<std::size_t>(y) * w;
    for (int x = 0; x < w; ++x) {
      const T a = r0[x0s[x]] + (r0[x1s[x]] - r0[x0s[x]]) * txs[x];
      const T b = r1[x0s[x]] + (r1[x1s[x]] - r1[x0s[x]]) * txs[x];
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

image half_size(const image& img) {
  image out((img.width + 1) / 2, (img.height + 1) / 2);
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x) {
      const int x0 = 2 * x, y0 = 2 * y, x1 = std::min(x0 + 1, img.width - 1), y1 = std::min(y0 + 1, img.height - 1);
      out.at(x, y) = (img.at(x0, y0) + img.at(x1, y0) + img.at(x0, y1) + img.at(x1, y1)) * 0.25f;
    }
  return out;
}

namespace {

// The colour of a pixel, whichever way it is stored (see packed_image.hpp).
rgb to_rgb(rgb c) { return c; }

} // namespace

template <class Pixels>
region_sampler<Pixels>::region_sampler(const Pixels& img, int out_width, int out_height)
  : img_(img), out_width_(out_width), out_height_(out_height), x0s_(static_cast<std::size_t>(out_width)),
    x1s_(static_cast<std::size_t>(out_width)), txs_(static_cast<std::size_t>(out_width)) {}

template <class Pixels>
void region_sampler<Pixels>::frame(float x, float y, float w, float h) {
  const float sx = w / static_cast<float>(out_width_);
  sy_ = h / static_cast<float>(out_height_);
  y_ = y;
  for (int i = 0; i < out_width_; ++i) {
    const float fx = std::clamp(x + (static_cast<float>(i) + 0.5f) * sx - 0.5f, 0.f, static_cast<float>(img_.width - 1));
    x0s_[i] = static_cast<int>(fx);
    x1s_[i] = std::min(x0s_[i] + 1, img_.width - 1);
    txs_[i] = fx - static_cast<float>(x0s_[i]);
  }
}

template <class Pixels>
void region_sampler<Pixels>::row(int j, rgb* dst) const {
  const float fy = std::clamp(y_ + (static_cast<float>(j) + 0.5f) * sy_ - 0.5f, 0.f, static_cast<float>(img_.height - 1));
  const int y0 = static_cast<int>(fy), y1 = std::min(y0 + 1, img_.height - 1);
  const float ty = fy - static_cast<float>(y0);
  const auto* r0 = img_.row(y0);
  const auto* r1 = img_.row(y1);
  for (int i = 0; i < out_width_; ++i) {
    const rgb a = mix(to_rgb(r0[x0s_[i]]), to_rgb(r0[x1s_[i]]), txs_[i]);
    const rgb b = mix(to_rgb(r1[x0s_[i]]), to_rgb(r1[x1s_[i]]), txs_[i]);
    dst[i] = mix(a, b, ty);
  }
}

template class region_sampler<image>;
template class region_sampler<packed_image>;

image resize(const image& img, int w, int h) {
  image out(w, h);
  region_sampler<image> sampler(img, w, h);
  sampler.frame(0.f, 0.f, static_cast<float>(img.width), static_cast<float>(img.height));
  for (int j = 0; j < h; ++j) sampler.row(j, out.row(j));
  return out;
}

} // namespace svc::providers
