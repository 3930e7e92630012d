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

/// Renders `spec.duration_seconds * spec.fps` frames from `keyframe` a row at
/// a time and encodes them into `file` as they are made. Memory: the keyframe
/// (taken, and kept packed in half its size) and the encoder's; a caller
/// that keeps its own copy keeps that too. Without a `file`, the MP4 is collected in memory and
/// returned as the result's one output; with one, the result says
/// `in_video_file`. Either way the result is `video/mp4`, and equal inputs
/// give byte-identical MP4s. Returns `cancelled` within a frame of `cancel`
/// firing, `failed` for an empty keyframe, a spec outside the bounds above or
/// a write `file` refused (`MP4 encoding: writing the MP4: ...`); `file` then
/// holds a partial MP4 its owner discards. `progress` (may be empty) receives
/// 0..1 as frames are encoded.
render_outcome animate_still(image keyframe, const animation_spec& spec, const cancel_token& cancel,
                             const std::function<void(float)>& progress, core::positional_file* file = nullptr);

} // namespace svc::providers
