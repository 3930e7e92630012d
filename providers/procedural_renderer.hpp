#pragma once
// The built-in back end: paints a landscape read from the prompt and seed,
// blends in the init image if there is one, applies the LoRA styles and
// encodes PNGs, or animates that canvas into an MP4 for a video request.
// Byte-identical output for equal inputs; `render_delay` adds simulated
// back-end time that honours cancel.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "providers/generation_backend.hpp"
#include "providers/image.hpp"
#include "providers/image_decoder.hpp"
#include "providers/mp4_encoder.hpp"
#include "providers/png_writer.hpp"

namespace svc::providers {

/// Settings of the procedural back end.
struct procedural_options {
  std::chrono::milliseconds render_delay{0}; ///< extra time per generation (`--render-delay`), default none
  png_options png;                           ///< image encoder settings
  mp4_options mp4;                           ///< video encoder settings
  decode_limits init_image_limits;           ///< an init image larger is refused (matches `--max-upload-pixels`)
};

/// Largest width or height accepted (the API allows 2048); bounds memory per render.
inline constexpr int max_render_side = 4096;

/// Renders the req.width x req.height canvas of one output (`seed` = request
/// seed + output index) without encoding it; nullopt when cancelled. `init`,
/// when not null, is the decoded init image at the canvas size: it dominates
/// the painted scene before the styles apply. `progress` may be empty.
std::optional<image> render_canvas(const render_request& req, uint32_t seed, const image* init,
                                   const cancel_token& cancel, const std::function<void(float)>& progress);

/// The built-in generation back end. Thread-safe; holds no per-render state.
class procedural_renderer final : public generation_backend {
public:
  /// A renderer with `opts`.
  explicit procedural_renderer(procedural_options opts = {});

  /// Spends `render_delay` in slices (reporting progress), then renders and
  /// encodes `req.num_outputs` images, or for `req.is_video()` one MP4 (a
  /// keyframe animated by `animate_still`). `provider_error` for sizes outside
  /// 1..max_render_side (videos: even, min_video_side..max_video_side),
  /// num_outputs outside 1..16 (videos: 1), an init image that does not
  /// decode (`init image: ...`) or an encoder failure.
  render_outcome render(const render_request& req, const progress_fn& progress,
                        const cancel_token& cancel) override;

  /// `procedural`.
  std::string_view name() const override { return "procedural"; }

private:
  procedural_options opts_;
};

} // namespace svc::providers
