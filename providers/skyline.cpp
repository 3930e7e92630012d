#include "providers/skyline.hpp"

#include <algorithm>
#include <cmath>

#include "providers/rng.hpp"

namespace svc::providers {

namespace {

void build_ridges(const scene_plan& p, const value_noise& noise, int width, float inv, profiles& out) {
  out.ridge_top.assign(static_cast<std::size_t>(p.ridges) * width, p.horizon);
  for (int i = 0; i < p.ridges; ++i) {
    const float far = p.ridges == 1 ? 0.f : static_cast<float>(p.ridges - 1 - i) / static_cast<float>(p.ridges - 1);
    const float base = p.horizon - 0.004f - 0.02f * far;
    const float amp = p.ridge_height * (0.35f + 0.65f * far);
    const float freq = 1.4f + 1.3f * static_cast<float>(i);
    for (int x = 0; x < width; ++x) {
      const float u = (static_cast<float>(x) + 0.5f) * inv;
      float n = noise.fbm(u * freq + 13.7f * static_cast<float>(i), 7.1f * static_cast<float>(i) + 0.37f, p.octaves + 2);
      n = clamp01((n - 0.5f) * 1.9f + 0.5f);
      const float ridged = 1.f - std::fabs(2.f * n - 1.f);
      const float shape = mix(n, ridged * 0.6f + n * 0.4f, p.roughness);
      out.ridge_top[static_cast<std::size_t>(i) * width + x] = base - amp * shape;
    }
  }
}

void build_trees(const scene_plan& p, const value_noise& noise, rng& g, int width, float inv, profiles& out) {
  const float aspect = static_cast<float>(width) * inv;
  float u = -0.02f;
  while (u < aspect + 0.02f) {
    const float clump = noise.sample(u * 6.f + 91.f, 3.3f);
    const float h = (0.035f + 0.08f * clump) * g.range(0.7f, 1.15f);
    const float half = h * g.range(0.22f, 0.32f);
    const int x0 = std::max(0, static_cast<int>((u - half) / inv));
    const int x1 = std::min(width - 1, static_cast<int>((u + half) / inv) + 1);
    for (int x = x0; x <= x1; ++x) {
      const float d = std::fabs((static_cast<float>(x) + 0.5f) * inv - u) / half;
      if (d >= 1.f) continue;
      // Conifer silhouette: a cone with a few notches of branches.
      const float notch = 0.06f * std::fabs(std::sin(d * 9.f + u * 50.f));
      const float top = p.horizon + 0.002f - h * (1.f - d) * (1.f - notch);
      float& cur = out.front_top[x];
      cur = std::min(cur, top);
    }
    u += half * g.range(0.7f, 1.5f);
  }
}

void build_city(const scene_plan& p, const value_noise& noise, rng& g, int width, float inv, profiles& out) {
  const float aspect = static_cast<float>(width) * inv;
  float u = g.range(-0.03f, 0.f);
  int id = 0;
  while (u < aspect) {
    const float w = g.range(0.035f, 0.09f);
    const float centre = 1.f - 2.f * std::fabs(u / aspect - 0.5f); // taller downtown
    const float h = (0.05f + 0.2f * centre * noise.sample(u * 9.f, 5.5f)) * g.range(0.6f, 1.3f);
    const int x0 = std::max(0, static_cast<int>(u / inv));
    const int x1 = std::min(width, static_cast<int>((u + w) / inv));
    for (int x = x0; x < x1; ++x) {
      out.front_top[x] = p.horizon + 0.002f - h;
      out.building[x] = id;
    }
    out.building_left.push_back(u);
    ++id;
    u += w + (g.chance(0.3f) ? g.range(0.003f, 0.015f) : 0.f);
  }
}

} // namespace

profiles build_profiles(const scene_plan& p, const value_noise& noise, int width, int height) {
  const float inv = 1.f / static_cast<float>(height);
  profiles out;
  build_ridges(p, noise, width, inv, out);
  out.front_top.assign(width, 2.f);
  out.building.assign(width, -1);
  rng g(core::sha256(std::to_string(p.layout_seed)));
  if (p.front == skyline::trees) build_trees(p, noise, g, width, inv, out);
  if (p.front == skyline::city) build_city(p, noise, g, width, inv, out);
  return out;
}

} // namespace svc::providers
