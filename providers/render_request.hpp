#pragma once
// What a generation back end is asked to render, and what it hands back. Plain
// values (but for the file a video may be written to): validation (sizes,
// weights, known slugs) happens in schema/ before a request reaches a back end.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/positional_file.hpp"
#include "providers/engine_done.hpp"
#include "schema/correlation.hpp"

namespace svc::providers {

/// One style adapter applied to a render.
struct lora_weight {
  std::string slug;    ///< catalogue slug (`watercolor`); back ends ignore slugs they lack
  double weight = 1.0; ///< -2..2; 0 is no effect, negative pushes away from the style
};

/// Everything a back end needs for one generation.
struct render_request {
  std::string job_id;           ///< the job's id; an engine that keys work by it (a Cog prediction) gets it
  std::string model;            ///< the catalogue model's id; a back end serving one model ignores it
  std::string engine;           ///< the engine the scheduler placed it on (`generation_backend::engines`); empty: any
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
  /// Where a back end writes a video as it encodes it, so the MP4 is never
  /// held whole in memory (a blob's temp file). Not owned: it outlives the
  /// render. Null: the video comes back in render_result::outputs.
  core::positional_file* video_file = nullptr;
  /// Fired by the back end, on the rendering thread, when the engine has
  /// done its part and what is left is fetching its outputs: its slot can
  /// take the next render. May be null; a back end that never fires it
  /// frees the slot when `render` returns.
  std::shared_ptr<engine_done_signal> engine_done;

  /// True when a video is asked for.
  bool is_video() const { return duration_seconds > 0; }
};

/// A finished generation.
struct render_result {
  std::vector<std::string> outputs;       ///< one file (its bytes) per output, in order; none when in_video_file
  bool in_video_file = false;             ///< the one output, a video, was written to render_request::video_file
  std::string content_type = "image/png"; ///< of every output: `image/png`, `image/webp`, `video/mp4`, `video/webm`
  int width = 0;                          ///< pixels of every output
  int height = 0;                         ///< pixels of every output
};

} // namespace svc::providers
