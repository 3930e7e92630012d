#pragma once
// The built-in back end: paints a landscape read from the prompt and seed,
// applies the LoRA styles and encodes PNGs. Byte-identical output for equal
// inputs; `render_delay` adds simulated back-end time that honours cancel.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "providers/generation_backend.hpp"
#include "providers/image.hpp"
#include "providers/png_writer.hpp"

namespace svc::providers {

/// Settings of the procedural back end.
struct procedural_options {
  std::chrono::milliseconds render_delay{0}; ///< extra time per generation (`--render-delay`), default none
  png_options png;                           ///< encoder settings
};

/// Largest width or height accepted (the API allows 2048); bounds memory per render.
inline constexpr int max_render_side = 4096;

/// Renders the canvas of one output (`seed` = request seed + output index)
/// without encoding it; nullopt when cancelled. `progress` may be empty.
std::optional<image> render_canvas(const render_request& req, uint32_t seed, const cancel_token& cancel,
                                   const std::function<void(float)>& progress);

/// The built-in generation back end. Thread-safe; holds no per-render state.
class procedural_renderer final : public generation_backend {
public:
  /// A renderer with `opts`.
  explicit procedural_renderer(procedural_options opts = {});

  /// Spends `render_delay` in slices (reporting progress), then renders and
  /// encodes `req.num_outputs` images. `provider_error` for sizes outside
  /// 1..max_render_side or num_outputs outside 1..16.
  render_outcome render(const render_request& req, const progress_fn& progress,
                        const cancel_token& cancel) override;

  /// `procedural`.
  std::string_view name() const override { return "procedural"; }

private:
  procedural_options opts_;
};

} // namespace svc::providers
