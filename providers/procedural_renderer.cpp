#include "providers/procedural_renderer.hpp"

#include <algorithm>
#include <exception>
#include <string>

#include "providers/lora_styles.hpp"
#include "providers/scene.hpp"
#include "providers/scene_plan.hpp"

namespace svc::providers {

namespace {

using steady = std::chrono::steady_clock;

// Delay slices short enough for smooth progress; cancel wakes a slice at once.
constexpr std::chrono::milliseconds delay_slice{25};

// Forwards progress to the caller's callback only when it rose by a visible
// step (or a while passed), so a job actor gets tens of messages per render,
// not thousands, yet a long render delay still shows movement.
class progress_meter {
public:
  explicit progress_meter(const progress_fn& fn) : fn_(fn) {}

  // The render has started: progress 0.
  void start() {
    if (fn_) fn_(0.0);
    last_at_ = steady::now();
  }

  void report(double p) {
    p = std::clamp(p, 0.0, 0.999);
    if (!fn_ || p <= last_) return;
    const auto now = steady::now();
    if (p >= last_ + 0.01 || now - last_at_ >= std::chrono::milliseconds{250}) {
      last_ = p;
      last_at_ = now;
      fn_(p);
    }
  }

  void finish() {
    if (fn_) fn_(1.0);
  }

private:
  const progress_fn& fn_;
  double last_ = 0.0;
  steady::time_point last_at_{};
};

} // namespace

std::optional<image> render_canvas(const render_request& req, uint32_t seed, const cancel_token& cancel,
                                   const std::function<void(float)>& progress) {
  const scene_plan plan = plan_scene(req, seed);
  const auto styles = resolve_styles(req.loras);
  // Painting dominates; with styles it gets 60% of this canvas's progress.
  const float paint_share = styles.empty() ? 1.f : 0.6f;
  image img(req.width, req.height);
  auto paint_progress = [&](float f) {
    if (progress) progress(f * paint_share);
  };
  if (!paint_scene(plan, img, cancel, paint_progress)) return std::nullopt;
  auto style_progress = [&](float f) {
    if (progress) progress(paint_share + f * (1.f - paint_share));
  };
  if (!apply_styles(img, styles, plan.style_seed, cancel, style_progress)) return std::nullopt;
  return img;
}

procedural_renderer::procedural_renderer(procedural_options opts) : opts_(opts) {}

render_outcome procedural_renderer::render(const render_request& req, const progress_fn& progress,
                                           const cancel_token& cancel) {
  if (req.width < 1 || req.height < 1 || req.width > max_render_side || req.height > max_render_side)
    return provider_error::failed("image size " + std::to_string(req.width) + "x" + std::to_string(req.height) +
                                  " is outside 1.." + std::to_string(max_render_side));
  if (req.num_outputs < 1 || req.num_outputs > 16)
    return provider_error::failed("num_outputs " + std::to_string(req.num_outputs) + " is outside 1..16");
  if (cancel.cancelled()) return provider_error::cancelled();
  progress_meter meter(progress);
  meter.start();
  try {
    const auto delay = opts_.render_delay;
    const double delay_share = delay.count() > 0 ? 0.7 : 0.0;
    if (delay.count() > 0) {
      const auto start = steady::now(), deadline = start + delay;
      for (auto now = start; now < deadline; now = steady::now()) {
        if (cancel.wait_for(std::min<steady::duration>(deadline - now, delay_slice)))
          return provider_error::cancelled();
        meter.report(delay_share * std::chrono::duration<double>(steady::now() - start) / delay);
      }
    }
    render_result result;
    result.width = req.width;
    result.height = req.height;
    const double per_output = (1.0 - delay_share) / req.num_outputs;
    for (int i = 0; i < req.num_outputs; ++i) {
      const double base = delay_share + per_output * i;
      // Encoding takes the last tenth of each output's share.
      auto canvas_progress = [&](float f) { meter.report(base + per_output * 0.9 * f); };
      const auto seed = static_cast<uint32_t>(req.seed + static_cast<uint32_t>(i));
      auto canvas = render_canvas(req, seed, cancel, canvas_progress);
      if (!canvas) return provider_error::cancelled();
      std::string png, error;
      if (!encode_png(*canvas, opts_.png, png, error)) return provider_error::failed("PNG encoding failed: " + error);
      result.outputs.push_back(std::move(png));
      meter.report(base + per_output);
      if (cancel.cancelled()) return provider_error::cancelled();
    }
    meter.finish();
    return result;
  } catch (const std::exception& e) {
    return provider_error::failed(std::string("renderer failed: ") + e.what());
  }
}

} // namespace svc::providers
