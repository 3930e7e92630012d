#pragma once
// Videos for a back end that only makes stills (the remote GPU server): it
// renders one keyframe there, then animates and encodes it here with the
// built-in camera move, so `POST /v1/videos` works with every back end.

#include <memory>

#include "providers/generation_backend.hpp"

namespace svc::providers {

/// Wraps `stills`: image requests pass through unchanged; a video request
/// becomes one still of the keyframe size (rounded up to `size_multiple`,
/// since diffusion servers work in latent blocks of 8 pixels) followed by
/// `animate_still`. Thread-safe when `stills` is.
class keyframe_video_backend final : public generation_backend {
public:
  /// Takes ownership of `stills`; `size_multiple` >= 1.
  explicit keyframe_video_backend(std::unique_ptr<generation_backend> stills, int size_multiple = 8);

  /// See the class comment. Progress: the still's share first (the GPU's
  /// time dominates), then the frames.
  render_outcome render(const render_request& req, const progress_fn& progress,
                        const cancel_token& cancel) override;

  /// The name of the wrapped back end.
  std::string_view name() const override { return stills_->name(); }

  /// The wrapped back end's.
  std::string probe(std::chrono::milliseconds timeout) override { return stills_->probe(timeout); }

private:
  std::unique_ptr<generation_backend> stills_;
  int size_multiple_;
};

} // namespace svc::providers
