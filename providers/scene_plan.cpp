#include "providers/scene_plan.hpp"

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "core/crypto.hpp"
#include "providers/rng.hpp"
#include "providers/words.hpp"

namespace svc::providers {

namespace {

// Bumped whenever a change alters output, so a cache of old renders is never
// mistaken for a new one.
constexpr std::string_view render_version = "svc-procedural/1";

struct word_hue {
  std::string_view word;
  float hue;
};

constexpr word_hue colour_words[] = {
  {"red", 0.0f},     {"crimson", 0.97f}, {"scarlet", 0.99f}, {"ruby", 0.96f},   {"orange", 0.07f},
  {"amber", 0.09f},  {"gold", 0.12f},    {"golden", 0.12f},  {"yellow", 0.15f}, {"lime", 0.22f},
  {"green", 0.33f},  {"emerald", 0.4f},  {"jade", 0.42f},    {"teal", 0.47f},   {"cyan", 0.5f},
  {"turquoise", 0.49f}, {"azure", 0.56f}, {"blue", 0.6f},    {"sapphire", 0.62f}, {"indigo", 0.68f},
  {"violet", 0.76f}, {"purple", 0.77f},  {"lavender", 0.74f}, {"magenta", 0.86f}, {"pink", 0.92f},
  {"rose", 0.95f},
};

using word_list = std::vector<std::string_view>;

const word_list night_words{"night", "midnight", "moon", "moonlit", "moonlight", "starry", "stars",
                            "dark", "noir", "cyberpunk", "neon", "nocturnal"};
const word_list sunset_words{"sunset", "sunrise", "dusk", "dawn", "golden", "evening", "twilight", "sundown"};
const word_list day_words{"day", "noon", "sunny", "daylight", "bright", "morning", "afternoon"};
const word_list desert_words{"desert", "dune", "dunes", "sand", "sandy", "canyon", "mars", "arid", "sahara"};
const word_list snow_words{"snow", "snowy", "winter", "ice", "icy", "arctic", "frozen", "glacier", "polar"};
const word_list forest_words{"forest", "woods", "woodland", "jungle", "tree", "trees", "pine", "pines", "taiga"};
const word_list water_words{"ocean", "sea", "lake", "beach", "coast", "shore", "river", "water", "waves",
                            "wave", "harbor", "harbour", "island", "bay", "lagoon", "reflection"};
const word_list city_words{"city", "street", "town", "skyline", "building", "buildings", "tower", "towers",
                           "tokyo", "metropolis", "downtown", "urban", "cyberpunk"};
const word_list space_words{"space", "galaxy", "planet", "planets", "cosmic", "nebula", "cosmos", "universe",
                            "astronaut", "orbit"};
const word_list meadow_words{"meadow", "meadows", "field", "fields", "grass", "grassy", "hills", "valley",
                             "flowers", "countryside", "prairie", "garden"};
const word_list mountain_words{"mountain", "mountains", "peak", "peaks", "alps", "alpine", "cliff", "cliffs",
                               "volcano", "himalaya", "summit"};

bool any_of(const std::vector<std::string>& words, const word_list& list) {
  for (const auto& w : words)
    for (auto k : list)
      if (w == k) return true;
  return false;
}

// Circular mean of the hues of the colour words, if there are any.
bool colour_hue(const std::vector<std::string>& words, float& hue) {
  float x = 0.f, y = 0.f;
  int n = 0;
  for (const auto& w : words)
    for (const auto& c : colour_words)
      if (w == c.word) {
        x += std::cos(c.hue * 6.2831853f);
        y += std::sin(c.hue * 6.2831853f);
        ++n;
      }
  if (n == 0) return false;
  hue = std::atan2(y, x) / 6.2831853f;
  if (hue < 0.f) hue += 1.f;
  return true;
}

// Interpolates hues the short way round the colour wheel: from orange
// towards violet passes red, not green.
float hue_mix(float a, float b, float t) {
  float d = b - a;
  if (d > 0.5f) d -= 1.f;
  if (d < -0.5f) d += 1.f;
  const float h = a + d * t;
  return h < 0.f ? h + 1.f : (h >= 1.f ? h - 1.f : h);
}

float hue_distance(float a, float b) {
  const float d = std::fabs(a - b);
  return d > 0.5f ? 1.f - d : d;
}

// Keyword classes present in the prompt and absent from the negative prompt.
struct reading {
  std::vector<std::string> words, negative;
  bool has(const word_list& list) const { return any_of(words, list) && !any_of(negative, list); }
  bool avoids(const word_list& list) const { return any_of(negative, list); }
};

time_of_day pick_time(const reading& r, rng& g) {
  if (r.has(night_words)) return time_of_day::night;
  if (r.has(sunset_words)) return time_of_day::sunset;
  if (r.has(day_words)) return time_of_day::day;
  for (;;) {
    const float roll = g.uniform();
    const auto t = roll < 0.55f ? time_of_day::day : (roll < 0.85f ? time_of_day::sunset : time_of_day::night);
    if (t == time_of_day::night && r.avoids(night_words)) continue;
    if (t == time_of_day::sunset && r.avoids(sunset_words)) continue;
    if (t == time_of_day::day && r.avoids(day_words)) continue;
    return t;
  }
}

terrain pick_terrain(const reading& r, rng& g) {
  if (r.has(space_words)) return terrain::space;
  if (r.has(city_words)) return terrain::city;
  if (r.has(water_words)) return terrain::coast;
  if (r.has(desert_words)) return terrain::desert;
  if (r.has(snow_words)) return terrain::snow;
  if (r.has(forest_words)) return terrain::forest;
  if (r.has(meadow_words)) return terrain::meadow;
  constexpr terrain pool[] = {terrain::meadow, terrain::meadow, terrain::forest, terrain::coast,
                              terrain::coast, terrain::desert, terrain::snow};
  return pool[g.below(static_cast<int>(std::size(pool)))];
}

void paint_sky(scene_plan& p, rng& g) {
  const float h = p.hue;
  switch (p.time) {
    case time_of_day::day:
      p.sky_top = hsv(hue_mix(0.6f, h, 0.12f), 0.62f, 0.8f);
      p.sky_horizon = hsv(hue_mix(0.56f, h, 0.1f), 0.2f, 0.97f);
      p.sun = {1.f, 0.97f, 0.86f};
      p.cloud_lit = {1.f, 1.f, 0.98f};
      p.cloud_shade = hsv(0.6f, 0.14f, 0.76f);
      p.sun_y = g.range(0.1f, 0.28f);
      p.sun_radius = g.range(0.035f, 0.05f);
      p.cloud_cover = g.range(0.2f, 0.6f);
      break;
    case time_of_day::sunset:
      p.sky_top = hsv(hue_mix(0.72f, h, 0.3f), 0.55f, 0.4f);
      p.sky_horizon = hsv(hue_mix(g.range(0.02f, 0.1f), h, 0.15f), 0.72f, 1.f);
      p.sun = {1.f, 0.88f, 0.6f};
      p.cloud_lit = {1.f, 0.62f, 0.42f};
      p.cloud_shade = hsv(0.8f, 0.35f, 0.42f);
      p.sun_radius = g.range(0.06f, 0.09f);
      p.cloud_cover = g.range(0.25f, 0.55f);
      break;
    case time_of_day::night:
      p.sky_top = hsv(0.66f, 0.75f, 0.06f);
      p.sky_horizon = hsv(hue_mix(0.62f, h, 0.35f), 0.55f, 0.26f);
      p.sun = {0.95f, 0.95f, 0.86f};
      p.cloud_lit = {0.42f, 0.45f, 0.58f};
      p.cloud_shade = {0.1f, 0.11f, 0.18f};
      p.sun_y = g.range(0.08f, 0.3f);
      p.sun_radius = g.range(0.03f, 0.045f);
      p.cloud_cover = g.range(0.1f, 0.35f);
      p.star_density = g.range(0.4f, 1.f);
      break;
  }
  if (p.land == terrain::space) {
    p.sky_top = hsv(0.68f, 0.8f, 0.03f);
    p.sky_horizon = hsv(h, 0.6f, 0.2f);
    p.cloud_cover = 0.f;
    p.star_density = 1.f;
  }
}

// The ground's colours in daylight, near and far, of each terrain (`h`: the scene's hue).
struct ground_colours {
  rgb near, far;
};
ground_colours ground_by_day(terrain land, float h) {
  switch (land) {
    case terrain::meadow: return {hsv(0.26f + (h - 0.5f) * 0.06f, 0.6f, 0.5f), hsv(0.2f, 0.45f, 0.72f)};
    case terrain::desert: return {hsv(0.075f, 0.6f, 0.75f), hsv(0.1f, 0.45f, 0.9f)};
    case terrain::snow: return {{0.9f, 0.94f, 1.f}, {0.78f, 0.84f, 0.95f}};
    case terrain::forest: return {hsv(0.3f, 0.65f, 0.28f), hsv(0.28f, 0.5f, 0.42f)};
    case terrain::coast: return {hsv(0.11f, 0.35f, 0.85f), hsv(0.12f, 0.3f, 0.9f)};
    case terrain::city: return {hsv(0.62f, 0.12f, 0.28f), hsv(0.6f, 0.1f, 0.45f)};
    case terrain::space: return {hsv(h + 0.05f, 0.12f, 0.32f), hsv(h, 0.1f, 0.5f)};
  }
  return {};
}

void paint_land(scene_plan& p, rng& g, bool mountains) {
  const float h = p.hue;
  rgb ridge_base;
  switch (p.time) {
    case time_of_day::day: ridge_base = hsv(hue_mix(0.6f, h, 0.3f), 0.35f, 0.45f); break;
    case time_of_day::sunset: ridge_base = hsv(0.78f, 0.45f, 0.32f); break;
    case time_of_day::night: ridge_base = hsv(0.65f, 0.5f, 0.1f); break;
  }
  if (p.land == terrain::space) ridge_base = hsv(h, 0.15f, 0.22f);
  for (int i = 0; i < p.ridges; ++i) {
    const float t = static_cast<float>(i + 1) / static_cast<float>(p.ridges);
    p.ridge[i] = mix(p.sky_horizon, ridge_base * (1.f - 0.45f * t), 0.35f + 0.6f * t);
  }
  p.ridge_height = mountains ? g.range(0.26f, 0.36f) : g.range(0.1f, 0.2f);
  p.roughness = mountains ? g.range(0.7f, 1.f) : g.range(0.15f, 0.85f);
  p.snow_caps = p.land == terrain::snow || (mountains && p.land != terrain::desert && p.land != terrain::space);

  const auto ground = ground_by_day(p.land, h);
  p.ground_near = ground.near;
  p.ground_far = ground.far;
  if (p.time == time_of_day::sunset) {
    p.ground_near = p.ground_near * rgb{0.85f, 0.62f, 0.6f};
    p.ground_far = p.ground_far * rgb{0.95f, 0.72f, 0.65f};
  } else if (p.time == time_of_day::night) {
    p.ground_near = mix(p.ground_near * 0.18f, rgb{0.02f, 0.03f, 0.08f}, 0.4f);
    p.ground_far = mix(p.ground_far * 0.25f, rgb{0.04f, 0.05f, 0.12f}, 0.4f);
  }
  switch (p.time) {
    case time_of_day::day: p.water_colour = hsv(0.55f + (h - 0.5f) * 0.1f, 0.6f, 0.42f); break;
    case time_of_day::sunset: p.water_colour = {0.3f, 0.18f, 0.32f}; break;
    case time_of_day::night: p.water_colour = {0.02f, 0.04f, 0.1f}; break;
  }
  p.accent = hsv(h, 0.75f, 0.98f);
}

} // namespace

scene_plan plan_scene(const render_request& req, uint32_t seed) {
  std::string key{render_version};
  key += '\n' + std::to_string(seed) + '\n' + std::to_string(req.steps) + '\n';
  key += std::to_string(req.prompt.size()) + ':' + req.prompt + '\n' + req.negative_prompt;
  const core::digest d = core::sha256(key);
  rng g(d);

  reading r{split_words(req.prompt), split_words(req.negative_prompt)};
  scene_plan p;
  p.noise_seed = g.next();
  p.layout_seed = g.next();
  p.style_seed = g.next();
  if (!colour_hue(r.words, p.hue)) p.hue = g.uniform();
  float avoided = 0.f;
  if (colour_hue(r.negative, avoided) && hue_distance(p.hue, avoided) < 0.12f) p.hue = std::fmod(p.hue + 0.35f, 1.f);

  p.time = pick_time(r, g);
  p.land = pick_terrain(r, g);
  const bool mountains = r.has(mountain_words);
  const float lake = p.land == terrain::city ? 0.5f : (r.has(meadow_words) ? 0.f : 0.25f);
  p.water = p.land == terrain::coast || (p.land != terrain::desert && p.land != terrain::space && g.chance(lake));
  if (p.land == terrain::city) p.front = skyline::city;
  else if (p.land == terrain::forest || r.has(forest_words) || (p.land == terrain::meadow && g.chance(0.4f)))
    p.front = skyline::trees;

  p.horizon = p.land == terrain::space ? g.range(0.7f, 0.8f)
            : p.water ? g.range(0.5f, 0.6f) : g.range(0.56f, 0.68f);
  p.sun_x = g.range(0.15f, 0.85f);
  paint_sky(p, g);
  p.ridges = mountains ? 3 + g.below(2) : 2 + g.below(3);
  paint_land(p, g, mountains);
  // A low sun sits just above (or half behind) the tallest ridge, not hidden by it.
  if (p.time == time_of_day::sunset) p.sun_y = p.horizon - p.ridge_height * g.range(0.7f, 1.2f);
  if (p.land == terrain::space) p.planets = 1 + g.below(3);

  const int steps = req.steps < 1 ? 1 : (req.steps > 100 ? 100 : req.steps);
  p.octaves = 4 + steps / 25;
  return p;
}

} // namespace svc::providers
