#pragma once
// What a generation back end is asked to render, and what it hands back. Plain
// values: validation (sizes, weights, known slugs) happens in schema/ before a
// request reaches a back end.

#include <cstdint>
#include <string>
#include <vector>

#include "schema/correlation.hpp"

namespace svc::providers {

/// One style adapter applied to a render.
struct lora_weight {
  std::string slug;    ///< catalogue slug (`watercolor`); back ends ignore slugs they lack
  double weight = 1.0; ///< -2..2; 0 is no effect, negative pushes away from the style
};

/// Everything a back end needs for one generation.
struct render_request {
  std::string prompt;           ///< what to depict
  std::string negative_prompt;  ///< what to avoid
  int width = 1024;             ///< pixels
  int height = 1024;            ///< pixels
  uint32_t seed = 0;            ///< output i uses seed + i (mod 2^32), as diffusion services do
  int steps = 30;               ///< 1..100; more steps add finer detail
  std::vector<lora_weight> loras; ///< style adapters; duplicates add up
  int num_outputs = 1;          ///< images to produce, 1..4; a video is always one output
  int duration_seconds = 0;     ///< a video of this many seconds when > 0, else images
  int fps = 0;                  ///< frames per second of a video
  std::string init_image;       ///< encoded bytes (PNG, JPEG or WebP) the output derives from; empty: none
  schema::correlation correlation; ///< the request that created the job; remote calls send it on

  /// True when a video is asked for.
  bool is_video() const { return duration_seconds > 0; }
};

/// A finished generation.
struct render_result {
  std::vector<std::string> outputs;       ///< one file (its bytes) per output, in order
  std::string content_type = "image/png"; ///< of every output: `image/png` or `video/mp4`
  int width = 0;                          ///< pixels of every output
  int height = 0;                         ///< pixels of every output
};

} // namespace svc::providers
