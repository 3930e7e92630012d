#pragma once
// Turns one still (a keyframe) into a video: a slow seeded camera move over
// it (pan and zoom, "Ken Burns") with a gentle change of light, encoded as
// MP4. Any back end that produces stills can make videos with it.

#include <cstdint>
#include <functional>
#include <string>
#include <utility>

#include "providers/cancel_token.hpp"
#include "providers/generation_backend.hpp"
#include "providers/image.hpp"
#include "providers/mp4_encoder.hpp"

namespace svc::providers {

/// The video to make from a still.
struct animation_spec {
  int width = 768;          ///< frame pixels: even, min_video_side..max_video_side
  int height = 432;         ///< frame pixels: even, min_video_side..max_video_side
  int duration_seconds = 4; ///< 1..max_animation_seconds
  int fps = 24;             ///< 1..max_animation_fps
  uint32_t seed = 0;        ///< picks the camera move and the light change
  mp4_options mp4;          ///< encoder settings
};

/// Longest video accepted (the API allows 10 s); bounds time per render.
inline constexpr int max_animation_seconds = 60;
/// Highest frame rate accepted (the API allows 30).
inline constexpr int max_animation_fps = 60;

/// The keyframe size that gives the camera room to move over a width x height
/// video: 1.25 times each side, at most max_video_side. Any other keyframe
/// size works too; the camera frames the largest part with the video's shape.
std::pair<int, int> keyframe_size(int width, int height);

/// Why `spec` cannot be animated (see the bounds above and
/// video_format_error), or empty. Lets a caller refuse before rendering a keyframe.
std::string animation_spec_error(const animation_spec& spec);

/// Renders `spec.duration_seconds * spec.fps` frames from `keyframe` one at a
/// time (memory: the keyframe, one frame and the encoder) and encodes them.
/// Deterministic: equal inputs give byte-identical MP4s. The result has one
/// output, `video/mp4`. Returns `cancelled` within a frame of `cancel` firing,
/// `failed` for an empty keyframe or a spec outside the bounds above.
/// `progress` (may be empty) receives 0..1 as frames are encoded.
render_outcome animate_still(const image& keyframe, const animation_spec& spec, const cancel_token& cancel,
                             const std::function<void(float)>& progress);

} // namespace svc::providers
