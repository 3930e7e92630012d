#include "providers/still_animation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

#include "core/memory_file.hpp"
#include "providers/image_ops.hpp"
#include "providers/rng.hpp"

namespace svc::providers {

namespace {

// Room for the camera: 1.25 keeps the closest view (zoom ~0.8) at about one
// keyframe pixel per video pixel, so zooming in never shows enlarged blur.
constexpr float keyframe_margin = 1.25f;

// Where the camera looks at one moment. Zoom 1 frames the largest part of the
// keyframe that has the video's shape; smaller zooms frame less of it. u and v
// place that view in the room left over: 0 at the left/top edge, 1 at the
// right/bottom edge, so every camera lies inside the keyframe.
struct camera {
  float zoom = 1.f;
  float u = 0.5f;
  float v = 0.5f;
};

// A whole shot: the camera and the light (per-channel gain) at its start and end.
struct shot {
  camera from, to;
  rgb light_from, light_to;
};

shot plan_shot(uint32_t seed) {
  rng r(core::sha256("svc-still-animation/1 " + std::to_string(seed)));
  const float close = r.range(0.74f, 0.84f);
  shot s;
  switch (r.below(3)) {
    case 0: // push in towards a point away from the centre
      s.from = {1.f, 0.5f, 0.5f};
      s.to = {close, r.range(0.15f, 0.85f), r.range(0.2f, 0.8f)};
      break;
    case 1: // pull back from one
      s.from = {close, r.range(0.15f, 0.85f), r.range(0.2f, 0.8f)};
      s.to = {1.f, 0.5f, 0.5f};
      break;
    default: { // drift sideways at a steady distance
      const float zoom = r.range(0.8f, 0.88f);
      const bool rightwards = r.chance(0.5f);
      s.from = {zoom, rightwards ? 0.05f : 0.95f, r.range(0.3f, 0.7f)};
      s.to = {zoom, rightwards ? 0.95f : 0.05f, r.range(0.3f, 0.7f)};
    }
  }
  // Light warms and brightens a little over the shot, or cools and dims.
  const float amount = r.range(0.03f, 0.07f);
  const rgb warm{1.f + amount, 1.f + 0.4f * amount, 1.f - 0.5f * amount};
  const rgb cool{1.f - amount, 1.f - 0.6f * amount, 1.f + 0.3f * amount};
  const bool warming = r.chance(0.5f);
  s.light_from = warming ? cool : warm;
  s.light_to = warming ? warm : cool;
  return s;
}

// Frees `img` with its pages given back to the system at once: allocators
// keep freed pages resident for a while (jemalloc, svcd's, about ten
// seconds), so a float keyframe would still count while the encoder fills
// its own frames. The pages stay mapped (only their contents go), so the
// allocator may hand them out again as zeros.
void release(image& img) {
  const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto first = (reinterpret_cast<uintptr_t>(img.px.data()) + page - 1) & ~(page - 1);
  const auto last = reinterpret_cast<uintptr_t>(img.px.data() + img.px.size()) & ~(page - 1);
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
  img = image{};
}

// Ease half-way between linear and smoothstep: the move starts and ends
// softly without seeming to stand still at either end.
float ease(float t) { return 0.5f * (t + t * t * (3.f - 2.f * t)); }

} // namespace

std::string animation_spec_error(const animation_spec& spec) {
  if (spec.duration_seconds < 1 || spec.duration_seconds > max_animation_seconds)
    return "duration " + std::to_string(spec.duration_seconds) + " s is outside 1.." + std::to_string(max_animation_seconds);
  if (spec.fps < 1 || spec.fps > max_animation_fps)
    return "fps " + std::to_string(spec.fps) + " is outside 1.." + std::to_string(max_animation_fps);
  return video_format_error(spec.width, spec.height, spec.fps);
}

std::pair<int, int> keyframe_size(int width, int height) {
  auto grow = [](int side) {
    return std::min(max_video_side, static_cast<int>(std::ceil(static_cast<float>(side) * keyframe_margin)));
  };
  return {grow(width), grow(height)};
}

render_outcome animate_still(image keyframe, const animation_spec& spec, const cancel_token& cancel,
                             const std::function<void(float)>& progress, core::positional_file* file) {
  if (keyframe.width < 1 || keyframe.height < 1 ||
      keyframe.px.size() != static_cast<std::size_t>(keyframe.width) * static_cast<std::size_t>(keyframe.height))
    return provider_error::failed("the keyframe is empty");
  if (auto error = animation_spec_error(spec); !error.empty()) return provider_error::failed(std::move(error));
  if (cancel.cancelled()) return provider_error::cancelled();

  // Bilinear sampling shrinks by less than 2x without visible aliasing; halve
  // a much larger keyframe (a remote back end's big still) until it fits that.
  const auto [room_w, room_h] = keyframe_size(spec.width, spec.height);
  while (keyframe.width >= 2 * room_w && keyframe.height >= 2 * room_h) keyframe = half_size(keyframe);
  // Packed for the frames, at half the memory; the float one goes before the
  // encoder's own frames arrive.
  const packed_image still(keyframe);
  release(keyframe);

  core::memory_file in_memory;
  mp4_encoder encoder(spec.mp4);
  std::string error;
  if (!encoder.open(spec.width, spec.height, spec.fps, file != nullptr ? *file : in_memory, error))
    return provider_error::failed("MP4 encoding: " + error);
  const auto kw = static_cast<float>(still.width), kh = static_cast<float>(still.height);
  const auto fw = static_cast<float>(spec.width), fh = static_cast<float>(spec.height);
  // The largest view with the video's shape.
  const float base_w = kw * fh > kh * fw ? kh * fw / fh : kw;
  const float base_h = kw * fh > kh * fw ? kh : kw * fh / fw;

  const shot s = plan_shot(spec.seed);
  const int frames = spec.duration_seconds * spec.fps;
  // Each frame goes to the encoder a row at a time, straight from the keyframe.
  region_sampler<packed_image> camera_view(still, spec.width, spec.height);
  for (int i = 0; i < frames; ++i) {
    if (cancel.cancelled()) return provider_error::cancelled();
    const float e = ease(frames > 1 ? static_cast<float>(i) / static_cast<float>(frames - 1) : 0.f);
    const float zoom = mix(s.from.zoom, s.to.zoom, e);
    const float view_w = base_w * zoom, view_h = base_h * zoom;
    camera_view.frame(mix(s.from.u, s.to.u, e) * (kw - view_w), mix(s.from.v, s.to.v, e) * (kh - view_h), view_w, view_h);
    const rgb light = mix(s.light_from, s.light_to, e);
    const auto paint = [&](int y, rgb* row) {
      camera_view.row(y, row);
      for (int x = 0; x < spec.width; ++x) row[x] = row[x] * light;
    };
    if (!encoder.push(paint, error)) return provider_error::failed("MP4 encoding: " + error);
    // The encoder's final flush takes the last few percent.
    if (progress) progress(0.97f * static_cast<float>(i + 1) / static_cast<float>(frames));
  }
  if (!encoder.finish(error)) return provider_error::failed("MP4 encoding: " + error);
  render_result result;
  if (file != nullptr)
    result.in_video_file = true;
  else
    result.outputs.push_back(in_memory.take());
  result.content_type = "video/mp4";
  result.width = spec.width;
  result.height = spec.height;
  if (progress) progress(1.f);
  return result;
}

} // namespace svc::providers
