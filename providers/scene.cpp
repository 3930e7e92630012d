#include "providers/scene.hpp"

#include <algorithm>
#include <cmath>

#include "providers/noise.hpp"
#include "providers/rng.hpp"
#include "providers/skyline.hpp"

namespace svc::providers {

namespace {

// Coordinates: u = x / height, v = y / height, so features keep their shape
// at any aspect ratio; `aspect` = width / height is the largest u.
struct painter {
  const scene_plan& p;
  image& img;
  value_noise noise;
  profiles prof;
  float inv, aspect, sun_u;
  uint32_t star_seed;

  painter(const scene_plan& plan, image& target)
      : p(plan), img(target), noise(plan.noise_seed),
        prof(build_profiles(plan, noise, target.width, target.height)),
        inv(1.f / static_cast<float>(target.height)),
        aspect(static_cast<float>(target.width) / static_cast<float>(target.height)),
        sun_u(plan.sun_x * aspect), star_seed(static_cast<uint32_t>(plan.noise_seed >> 32)) {}

  rgb sky(float u, float v) const {
    const float t = clamp01(v / p.horizon);
    rgb c = mix(p.sky_top, p.sky_horizon, t * std::sqrt(t));
    if (p.land == terrain::space) {
      const float n1 = noise.fbm(u * 1.3f + 40.f, v * 1.3f, p.octaves);
      const float n2 = noise.fbm(u * 2.1f + 80.f, v * 2.1f + 9.f, 3);
      c = c + hsv(p.hue, 0.7f, 1.f) * (smoothstep(0.45f, 0.8f, n1) * 0.45f);
      c = c + hsv(p.hue + 0.15f, 0.6f, 1.f) * (smoothstep(0.55f, 0.85f, n2) * 0.3f);
    }
    // Sun or moon: a soft halo, then the disc.
    const float dx = u - sun_u, dy = v - p.sun_y, d2 = dx * dx + dy * dy, r2 = p.sun_radius * p.sun_radius;
    const float glow = p.time == time_of_day::sunset ? 0.7f : (p.time == time_of_day::day ? 0.35f : 0.2f);
    c = c + p.sun * (glow * r2 / (d2 + r2 * 0.6f) * 0.6f);
    if (d2 < r2 * 1.1f) {
      const float d = std::sqrt(d2);
      rgb disc = p.sun;
      if (p.time == time_of_day::night) disc = disc * (0.78f + 0.22f * noise.fbm(u * 30.f, v * 30.f, 3));
      c = mix(c, disc, smoothstep(p.sun_radius, p.sun_radius * 0.94f, d));
    }
    float cloud = 0.f;
    if (p.cloud_cover > 0.f) {
      const float cx = u * 1.8f + 3.3f, cy = v * 6.5f;
      const float th = 0.64f - p.cloud_cover * 0.26f;
      const float cn = noise.fbm_above(cx, cy, p.octaves, th);
      cloud = smoothstep(th, th + 0.05f, cn) * (1.f - t * t * 0.7f);
      if (cloud > 0.f) {
        // Billows facing the sun are lit: compare with the density a step towards it.
        const float toward = noise.sample(cx + (sun_u - u) * 0.05f, cy + (p.sun_y - v) * 0.6f);
        const float lit = clamp01(0.55f + (noise.sample(cx, cy) - toward) * 4.f - (cn - th) * 1.5f);
        c = mix(c, mix(p.cloud_shade, p.cloud_lit, lit), cloud * 0.95f);
      }
    }
    if (p.star_density > 0.f && t < 0.97f) {
      constexpr float cells = 260.f;
      const float su = u * cells, sv = v * cells;
      const int cx = fast_floor(su), cy = fast_floor(sv);
      if (hash_unit(cx, cy, star_seed) > 1.f - 0.06f * p.star_density) {
        const float ox = hash_unit(cy, cx, star_seed + 1) * 0.6f + 0.2f, oy = hash_unit(cx, cy, star_seed + 2) * 0.6f + 0.2f;
        const float px = (su - static_cast<float>(cx) - ox) / (cells * inv), py = (sv - static_cast<float>(cy) - oy) / (cells * inv);
        const float b = clamp01(1.f - (px * px + py * py) * 0.7f) * (0.35f + 0.65f * hash_unit(cx, cy, star_seed + 3));
        c = c + rgb{1.f, 0.97f, 0.9f} * (b * (1.f - cloud) * (1.f - t));
      }
    }
    return c;
  }

  rgb ridge(int i, int x, float u, float v) const {
    const std::size_t at = static_cast<std::size_t>(i) * img.width + x;
    const float top = prof.ridge_top[at];
    const float below = v - top;
    const float far = p.ridges == 1 ? 0.f : static_cast<float>(p.ridges - 1 - i) / static_cast<float>(p.ridges - 1);
    // Crags: a height field lit from the sun's side, so faces read as 3-D.
    const float fu = u * 9.f + 5.3f * static_cast<float>(i), fv = v * 9.f;
    const float rock = noise.fbm(fu, fv, p.octaves);
    const float toward = std::clamp((sun_u - u) * 3.f, -1.f, 1.f) * 0.08f;
    const float lit = (noise.fbm(fu + toward, fv - 0.04f, p.octaves) - rock) * 9.f;
    rgb c = p.ridge[i] * (0.92f + 0.5f * (rock - 0.5f)) * (1.f + 0.35f * std::clamp(lit, -1.f, 1.f));
    // The silhouette's own slope shades the upper faces: sunward slopes are lighter.
    const int reach = std::max(2, img.width / 60);
    const int xl = std::max(0, x - reach), xr = std::min(img.width - 1, x + reach);
    const float slope = (prof.ridge_top[at - x + xr] - prof.ridge_top[at - x + xl]) / (static_cast<float>(xr - xl) * inv);
    const float side = std::clamp((u - sun_u) * 3.f, -1.f, 1.f);
    c = c * (1.f + 0.2f * std::clamp(slope * side, -1.f, 1.f) / (1.f + below * 40.f));
    if (p.snow_caps && i < p.ridges - 1) {
      const float height = (p.horizon - v) / p.ridge_height;
      // Snow lingers in gullies: streaks that run down the slope.
      const float line = 0.45f + 0.3f * noise.sample(u * 45.f, v * 5.f) + 0.2f * (rock - 0.5f);
      const float cap = smoothstep(line, line + 0.03f, height);
      c = mix(c, mix(rgb{0.95f, 0.96f, 1.f}, p.sky_horizon, 0.25f + 0.3f * far), cap * 0.9f);
    }
    return mix(c, p.sky_horizon, smoothstep(top, p.horizon, v) * 0.3f * (0.3f + far));
  }

  rgb front(int x, float u, float v) const {
    const float top = prof.front_top[x];
    if (p.front == skyline::trees) {
      rgb c = mix(hsv(0.33f, 0.55f, 0.22f), p.ridge[p.ridges - 1], 0.35f);
      if (p.time == time_of_day::night) c = c * 0.35f;
      return c * (0.75f + 0.4f * noise.sample(u * 90.f, v * 60.f)) * (1.f + 0.25f * smoothstep(0.01f, 0.f, v - top));
    }
    const int id = prof.building[x];
    const float shade = 0.8f + 0.4f * hash_unit(id, 7, star_seed);
    rgb c = mix(p.ridge[p.ridges - 1], rgb{0.08f, 0.09f, 0.13f}, 0.6f) * shade;
    const float lu = (u - prof.building_left[id]) / 0.011f, lv = (v - top) / 0.016f;
    const int wx = fast_floor(lu), wy = fast_floor(lv);
    const float fx = lu - static_cast<float>(wx), fy = lv - static_cast<float>(wy);
    if (wx >= 1 && wy >= 1 && fx > 0.25f && fx < 0.75f && fy > 0.3f && fy < 0.75f) {
      const float lit = hash_unit(wx + id * 131, wy, star_seed + 5);
      const bool dark_sky = p.time != time_of_day::day;
      if (lit < (dark_sky ? 0.55f : 0.9f))
        c = dark_sky ? mix(rgb{1.f, 0.85f, 0.5f}, p.accent, 0.3f) * (0.6f + 0.5f * lit) : mix(c, p.sky_horizon, 0.5f);
    }
    return c;
  }

  rgb ground(float u, float v) const {
    // The horizon row starts up to half a pixel above the horizon line.
    const float z = std::max(0.f, (v - p.horizon) / (1.f - p.horizon));
    const float dz = 1.f / (z + 0.06f);
    const float gx = (u - aspect * 0.5f) * dz, gy = dz;
    const float detail = noise.fbm(gx * 2.5f, gy * 5.f, std::min(4, p.octaves));
    const float patch = noise.fbm(gx * 0.12f + 60.f, gy * 0.3f, 2);
    rgb c = mix(p.ground_far, p.ground_near, std::sqrt(z));
    switch (p.land) {
      case terrain::desert: {
        // Dune crests: a lit face and a shadowed face per wave.
        const float wave = std::sin(gy * 1.6f + patch * 14.f + gx * 0.3f);
        c = c * (0.78f + 0.34f * smoothstep(-0.3f, 0.3f, wave)) * (0.9f + 0.2f * detail);
        break;
      }
      case terrain::snow:
        c = mix(c, rgb{0.62f, 0.7f, 0.9f} * c.r, smoothstep(0.45f, 0.65f, patch) * 0.5f) * (0.9f + 0.15f * detail);
        break;
      default: {
        c = mix(c, c * rgb{1.2f, 1.1f, 0.75f}, smoothstep(0.42f, 0.62f, patch) * 0.6f);
        c = c * (0.7f + 0.6f * detail);
        if (p.land == terrain::meadow || p.land == terrain::forest) {
          // Grass blades near the viewer; flowers scattered in the accent colour.
          c = c * (0.85f + 0.3f * noise.sample(gx * 9.f, gy * 0.9f) * smoothstep(0.2f, 0.8f, z));
          const float fx = gx * 4.f, fy = gy * 4.f;
          const int cx = fast_floor(fx), cy = fast_floor(fy);
          if (z > 0.1f && hash_unit(cx, cy, star_seed + 9) > 0.9f) {
            const float dx = fx - static_cast<float>(cx) - 0.5f, dy = fy - static_cast<float>(cy) - 0.5f;
            c = mix(c, p.accent * (p.time == time_of_day::night ? 0.3f : 1.f), smoothstep(0.06f, 0.03f, dx * dx + dy * dy));
          }
        }
      }
    }
    const float far2 = (1.f - z) * (1.f - z), far4 = far2 * far2;
    return mix(c, p.sky_horizon, far4 * far4 * 0.6f);
  }

  rgb water(int x, int y, float u, float v, int horizon_row) const {
    // The horizon row starts up to half a pixel above the horizon line.
    const float z = std::max(0.f, (v - p.horizon) / (1.f - p.horizon));
    const float wy = 1.f / (z + 0.05f);
    const float ripple = noise.sample(u * 2.5f * wy, wy * 9.f) - 0.5f;
    const int my = std::clamp(2 * horizon_row - y - 1 + static_cast<int>(ripple * 6.f * (1.f + z * 4.f)), 0, horizon_row - 1);
    const int mx = x + static_cast<int>(ripple * static_cast<float>(img.height) * 0.012f * z);
    const rgb refl = img.clamped(mx, my);
    rgb c = mix(refl * 0.88f, p.water_colour, 0.15f + 0.5f * z);
    const float crest = noise.sample(u * 1.5f * wy + 50.f, wy * 22.f);
    c = c + p.sky_horizon * (smoothstep(0.7f, 0.9f, crest) * 0.12f);
    const float glint_w = p.sun_radius * (0.8f + 2.5f * z);
    if (std::fabs(u - sun_u) < glint_w && p.land != terrain::space)
      c = c + p.sun * (smoothstep(0.55f, 0.8f, crest) * 0.6f * (1.f - std::fabs(u - sun_u) / glint_w));
    return c;
  }

  rgb pixel(int x, float u, float v) const {
    if (p.front != skyline::none && v >= prof.front_top[x]) return front(x, u, v);
    for (int i = p.ridges - 1; i >= 0; --i)
      if (v >= prof.ridge_top[static_cast<std::size_t>(i) * img.width + x]) return ridge(i, x, u, v);
    return sky(u, v);
  }

  void planets() {
    rng g(core::sha256("planets" + std::to_string(p.layout_seed)));
    for (int k = 0; k < p.planets; ++k) {
      const float r = g.range(0.04f, 0.14f), cu = g.range(0.1f, 0.9f) * aspect, cv = g.range(0.12f, p.horizon - 0.2f);
      const rgb base = hsv(p.hue + g.range(-0.25f, 0.25f), 0.55f, 0.9f);
      const int x0 = std::max(0, static_cast<int>((cu - r) / inv)), x1 = std::min(img.width - 1, static_cast<int>((cu + r) / inv));
      const int y0 = std::max(0, static_cast<int>((cv - r) / inv)), y1 = std::min(img.height - 1, static_cast<int>((cv + r) / inv));
      for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
          const float dx = ((static_cast<float>(x) + 0.5f) * inv - cu) / r, dy = ((static_cast<float>(y) + 0.5f) * inv - cv) / r;
          const float d2 = dx * dx + dy * dy;
          if (d2 >= 1.f) continue;
          const float light = clamp01(std::sqrt(1.f - d2) * 0.7f - dx * 0.5f - dy * 0.3f);
          const float bands = 0.85f + 0.15f * noise.sample(dy * 6.f + static_cast<float>(k) * 20.f, dx * 0.8f);
          rgb& px = img.at(x, y);
          px = mix(px, base * (light * bands + 0.04f), smoothstep(1.f, 0.96f, d2));
        }
    }
  }

  bool run(const cancel_token& cancel, const std::function<void(float)>& progress) {
    const int horizon_row = std::clamp(static_cast<int>(p.horizon * static_cast<float>(img.height)), 1, img.height - 1);
    for (int y = 0; y < img.height; ++y) {
      if ((y & 15) == 0) {
        if (cancel.cancelled()) return false;
        if (progress) progress(static_cast<float>(y) / static_cast<float>(img.height));
      }
      if (y == horizon_row && p.planets > 0) planets();
      const float v = (static_cast<float>(y) + 0.5f) * inv;
      rgb* row = img.row(y);
      for (int x = 0; x < img.width; ++x) {
        const float u = (static_cast<float>(x) + 0.5f) * inv;
        if (y < horizon_row) row[x] = pixel(x, u, v);
        else row[x] = p.water ? water(x, y, u, v, horizon_row) : ground(u, v);
      }
    }
    // A gentle vignette draws the eye to the middle. Applied after all rows:
    // water reflects rows above it and must see them unvignetted.
    for (int y = 0; y < img.height; ++y) {
      const float dy = (static_cast<float>(y) + 0.5f) * inv - 0.5f;
      rgb* row = img.row(y);
      for (int x = 0; x < img.width; ++x) {
        const float dx = ((static_cast<float>(x) + 0.5f) * inv - aspect * 0.5f) / aspect;
        row[x] = row[x] * (1.f - 0.35f * (dx * dx + dy * dy));
      }
    }
    if (progress) progress(1.f);
    return true;
  }
};

} // namespace

bool paint_scene(const scene_plan& plan, image& img, const cancel_token& cancel,
                 const std::function<void(float)>& progress) {
  painter pt(plan, img);
  return pt.run(cancel, progress);
}

} // namespace svc::providers
