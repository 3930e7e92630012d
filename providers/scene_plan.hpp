#pragma once
// Reads a prompt and a seed into the parameters of one landscape: time of day,
// terrain, palette and composition. Words pick the kind of scene and colours;
// the seed (through SHA-256 of all inputs) picks the layout.

#include <array>
#include <cstdint>

#include "providers/color.hpp"
#include "providers/render_request.hpp"

namespace svc::providers {

/// Lighting of the scene.
enum class time_of_day : uint8_t { day, sunset, night };

/// What covers the land below the horizon.
enum class terrain : uint8_t { meadow, desert, snow, forest, coast, city, space };

/// What stands on the horizon in front of the mountains.
enum class skyline : uint8_t { none, trees, city };

/// Everything `paint_scene` needs; positions are fractions of the image height
/// (x of the width) so one scene looks alike at any size.
struct scene_plan {
  time_of_day time = time_of_day::day;  ///< lighting and palette
  terrain land = terrain::meadow;       ///< ground below the horizon
  skyline front = skyline::none;        ///< trees or buildings on the horizon
  bool water = false;            ///< a lake or sea below the horizon instead of ground
  float hue = 0.f;               ///< dominant hue 0..1 (colour words, else the prompt's hash)

  rgb sky_top, sky_horizon;      ///< vertical sky gradient
  rgb sun;                       ///< sun or moon disc colour
  float sun_x = 0.5f;            ///< disc centre, fraction of width
  float sun_y = 0.2f;            ///< disc centre, fraction of height
  float sun_radius = 0.05f;      ///< fraction of height
  rgb cloud_lit, cloud_shade;    ///< cloud colours on the lit and shadow side
  float cloud_cover = 0.3f;      ///< 0 clear .. 1 overcast
  float star_density = 0.f;      ///< 0 none .. 1 dense (night, space)

  int ridges = 3;                ///< mountain layers, 1..4, far to near
  std::array<rgb, 4> ridge{};    ///< colour per layer, far first
  float ridge_height = 0.15f;    ///< tallest peak above the horizon, fraction of height
  float roughness = 0.5f;        ///< 0 rolling hills .. 1 jagged peaks
  bool snow_caps = false;        ///< white tops on the upper ridges

  float horizon = 0.62f;         ///< horizon line, fraction of height from the top
  rgb ground_far, ground_near;   ///< ground colour at the horizon and at the bottom edge
  rgb water_colour;              ///< tint of water under the reflection
  rgb accent;                    ///< lit windows, flowers, planets
  int planets = 0;               ///< spheres in the sky (space scenes)

  int octaves = 4;               ///< noise octaves, from `steps`
  uint64_t noise_seed = 0;       ///< lattice seed for textures
  uint64_t layout_seed = 0;      ///< seed for props (buildings, trees, planets)
  uint64_t style_seed = 0;       ///< seed for LoRA style passes (grain, strokes)
};

/// The plan for output `seed` of `req` (the caller passes req.seed + index).
/// Depends on prompt, negative prompt, seed and steps; not on size or LoRAs,
/// so the same scene renders at any size and under any style.
scene_plan plan_scene(const render_request& req, uint32_t seed);

} // namespace svc::providers
