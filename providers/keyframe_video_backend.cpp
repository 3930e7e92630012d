#include "providers/keyframe_video_backend.hpp"

#include <algorithm>

#include "providers/image_decoder.hpp"
#include "providers/still_animation.hpp"

namespace svc::providers {
namespace {

// The keyframe usually takes a GPU several seconds; encoding a few seconds of
// video here takes about as long on a small machine.
constexpr double still_share = 0.6;

int rounded_up(int v, int multiple) { return (v + multiple - 1) / multiple * multiple; }

} // namespace

keyframe_video_backend::keyframe_video_backend(std::unique_ptr<generation_backend> stills, int size_multiple)
  : stills_(std::move(stills)), size_multiple_(std::max(1, size_multiple)) {}

render_outcome keyframe_video_backend::render(const render_request& req, const progress_fn& progress,
                                              const cancel_token& cancel) {
  if (!req.is_video())
    return stills_->render(req, progress, cancel);
  const animation_spec spec{req.width, req.height, req.duration_seconds, req.fps, req.seed, mp4_options{}};
  if (auto why = animation_spec_error(spec); !why.empty())
    return provider_error::failed(why);

  render_request still = req;
  still.duration_seconds = 0;
  still.fps = 0;
  still.num_outputs = 1;
  still.video_file = nullptr; // the still comes back as bytes
  auto [w, h] = keyframe_size(req.width, req.height);
  still.width = rounded_up(w, size_multiple_);
  still.height = rounded_up(h, size_multiple_);
  double last = 0;
  auto report = [&](double p) {
    if (progress && p > last) {
      last = p;
      progress(std::min(p, 0.999));
    }
  };
  image keyframe;
  { // the still's encoded bytes go before the frames are made
    auto rendered = stills_->render(still, [&](double p) { report(p * still_share); }, cancel);
    if (!rendered.ok())
      return rendered;
    if (rendered.value().outputs.empty())
      return provider_error::failed("the back end returned no keyframe");
    std::string error;
    if (!decode_image(rendered.value().outputs.front(), keyframe, error))
      return provider_error::failed("the keyframe could not be decoded: " + error);
  }
  auto video = animate_still(
    std::move(keyframe), spec, cancel, [&](float f) { report(still_share + (1.0 - still_share) * f); }, req.video_file);
  if (video.ok() && progress)
    progress(1.0);
  return video;
}

} // namespace svc::providers
