#pragma once
// The per-column profiles of a scene: mountain ridge tops and the tree or
// building skyline in front of them. Computed once per image so the per-pixel
// loop only compares heights.

#include <vector>

#include "providers/noise.hpp"
#include "providers/scene_plan.hpp"

namespace svc::providers {

/// Heights are in fractions of the image height from the top, like `v`.
struct profiles {
  std::vector<float> ridge_top;  ///< ridges * width; layer i at [i * width + x]
  std::vector<float> front_top;  ///< width; the skyline top, >= horizon where there is none
  std::vector<int> building;     ///< width; building number per column, -1 for none
  std::vector<float> building_left; ///< per building: its left edge in `u`
};

/// Builds the profiles of `plan` for an image `width` x `height`.
profiles build_profiles(const scene_plan& plan, const value_noise& noise, int width, int height);

} // namespace svc::providers
