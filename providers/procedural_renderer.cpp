#include "providers/procedural_renderer.hpp"

#include <algorithm>
#include <exception>
#include <optional>
#include <string>
#include <tuple>

#include "providers/image_decoder.hpp"
#include "providers/lora_styles.hpp"
#include "providers/scene.hpp"
#include "providers/scene_plan.hpp"
#include "providers/still_animation.hpp"

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

// Spends `delay` in slices, reporting progress up to `share`; false once cancelled.
bool spend_delay(std::chrono::milliseconds delay, double share, progress_meter& meter, const cancel_token& cancel) {
  const auto start = steady::now(), deadline = start + delay;
  for (auto now = start; now < deadline; now = steady::now()) {
    if (cancel.wait_for(std::min<steady::duration>(deadline - now, delay_slice))) return false;
    meter.report(share * std::chrono::duration<double>(steady::now() - start) / delay);
  }
  return true;
}

// How much of the init image survives the blend: enough that its colours and
// composition dominate, while the painted scene still shows through as light
// and texture (a client sees both the upload and the prompt).
constexpr float init_image_weight = 0.72f;

void blend_init_image(image& canvas, const image& init) {
  for (std::size_t i = 0; i < canvas.px.size(); ++i) canvas.px[i] = mix(canvas.px[i], init.px[i], init_image_weight);
}

// Decodes the request's init image cover-fitted to the canvas size into
// `init`; leaves it empty when the request has none.
std::optional<provider_error> load_init_image(const render_request& req, const decode_limits& limits,
                                             std::optional<image>& init) {
  if (req.init_image.empty()) return std::nullopt;
  std::string error;
  if (!decode_image_cover(req.init_image, req.width, req.height, init.emplace(), error, limits))
    return provider_error::failed("init image: " + error);
  return std::nullopt;
}

const image* pointer_to(const std::optional<image>& img) { return img ? &*img : nullptr; }

render_outcome render_images(const render_request& req, const procedural_options& opts, double start,
                             progress_meter& meter, const cancel_token& cancel) {
  std::optional<image> init;
  if (auto failure = load_init_image(req, opts.init_image_limits, init)) return *failure;
  render_result result;
  result.width = req.width;
  result.height = req.height;
  const double per_output = (1.0 - start) / req.num_outputs;
  for (int i = 0; i < req.num_outputs; ++i) {
    const double base = start + per_output * i;
    // Encoding takes the last tenth of each output's share.
    auto canvas_progress = [&](float f) { meter.report(base + per_output * 0.9 * f); };
    const auto seed = static_cast<uint32_t>(req.seed + static_cast<uint32_t>(i));
    auto canvas = render_canvas(req, seed, pointer_to(init), cancel, canvas_progress);
    if (!canvas) return provider_error::cancelled();
    std::string png, error;
    if (!encode_png(*canvas, opts.png, png, error)) return provider_error::failed("PNG encoding failed: " + error);
    result.outputs.push_back(std::move(png));
    meter.report(base + per_output);
    if (cancel.cancelled()) return provider_error::cancelled();
  }
  return result;
}

// Share of a video's progress for painting the keyframe; measured at the
// default 768x432 without styles it is nearer a tenth, styles raise it.
constexpr double keyframe_share = 0.15;

render_outcome render_video(const render_request& req, const procedural_options& opts, double start,
                            progress_meter& meter, const cancel_token& cancel) {
  const animation_spec spec{req.width, req.height, req.duration_seconds, req.fps, req.seed, opts.mp4};
  if (auto error = animation_spec_error(spec); !error.empty()) return provider_error::failed(std::move(error));
  // The keyframe is larger than a frame so the camera can move over it; the
  // scene plan does not depend on size, so it is the same scene as the image.
  render_request keyframe_req = req;
  std::tie(keyframe_req.width, keyframe_req.height) = keyframe_size(req.width, req.height);
  const double span = 1.0 - start;
  std::optional<image> keyframe;
  {
    std::optional<image> init;
    if (auto failure = load_init_image(keyframe_req, opts.init_image_limits, init)) return *failure;
    keyframe = render_canvas(keyframe_req, req.seed, pointer_to(init), cancel,
                             [&](float f) { meter.report(start + span * keyframe_share * f); });
  }
  if (!keyframe) return provider_error::cancelled();
  return animate_still(
    std::move(*keyframe), spec, cancel, [&](float f) { meter.report(start + span * (keyframe_share + (1.0 - keyframe_share) * f)); },
    req.video_file);
}

} // namespace

std::optional<image> render_canvas(const render_request& req, uint32_t seed, const image* init,
                                   const cancel_token& cancel, const std::function<void(float)>& progress) {
  const scene_plan plan = plan_scene(req, seed);
  const auto styles = resolve_styles(req.loras);
  // Painting dominates; with styles it gets 60% of this canvas's progress.
  const float paint_share = styles.empty() ? 1.f : 0.6f;
  image img(req.width, req.height);
  auto paint_progress = [&](float f) {
    if (progress) progress(f * paint_share);
  };
  if (!paint_scene(plan, img, cancel, paint_progress)) return std::nullopt;
  if (init != nullptr) blend_init_image(img, *init);
  auto style_progress = [&](float f) {
    if (progress) progress(paint_share + f * (1.f - paint_share));
  };
  if (!apply_styles(img, styles, plan.style_seed, cancel, style_progress)) return std::nullopt;
  return img;
}

procedural_renderer::procedural_renderer(procedural_options opts) : opts_(std::move(opts)) {}

render_outcome procedural_renderer::render(const render_request& req, const progress_fn& progress,
                                           const cancel_token& cancel) {
  if (req.width < 1 || req.height < 1 || req.width > max_render_side || req.height > max_render_side)
    return provider_error::failed("image size " + std::to_string(req.width) + "x" + std::to_string(req.height) +
                                  " is outside 1.." + std::to_string(max_render_side));
  const int max_outputs = req.is_video() ? 1 : 16;
  if (req.num_outputs < 1 || req.num_outputs > max_outputs)
    return provider_error::failed("num_outputs " + std::to_string(req.num_outputs) + " is outside 1.." +
                                  std::to_string(max_outputs));
  if (cancel.cancelled()) return provider_error::cancelled();
  progress_meter meter(progress);
  meter.start();
  try {
    const double delay_share = opts_.render_delay.count() > 0 ? 0.7 : 0.0;
    if (!spend_delay(opts_.render_delay, delay_share, meter, cancel)) return provider_error::cancelled();
    auto outcome = req.is_video() ? render_video(req, opts_, delay_share, meter, cancel)
                                  : render_images(req, opts_, delay_share, meter, cancel);
    if (outcome.ok()) meter.finish();
    return outcome;
  } catch (const std::exception& e) {
    return provider_error::failed(std::string("renderer failed: ") + e.what());
  }
}

} // namespace svc::providers
