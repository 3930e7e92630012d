#include "providers/keyframe_video_backend.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "heap_noise.hpp"
#include "providers/png_writer.hpp"

BOOST_AUTO_TEST_SUITE(providers_keyframe_video_backend)

using namespace svc::providers;

namespace {

// A still back end that paints a gradient PNG of the asked size and records
// each request, or fails when told to.
class gradient_stills final : public generation_backend {
public:
  std::vector<render_request> seen;
  std::optional<provider_error> fail_with;
  bool return_garbage = false;

  render_outcome render(const render_request& req, const progress_fn& progress, const cancel_token&) override {
    seen.push_back(req);
    if (fail_with)
      return *fail_with;
    if (progress)
      progress(0.5);
    render_result out;
    out.width = req.width;
    out.height = req.height;
    image img(req.width, req.height);
    for (int y = 0; y < req.height; ++y)
      for (int x = 0; x < req.width; ++x)
        img.at(x, y) = rgb{float(x) / req.width, float(y) / req.height, 0.5f};
    std::string png, error;
    BOOST_REQUIRE(encode_png(img, {}, png, error));
    out.outputs.push_back(return_garbage ? std::string{"not a png"} : std::move(png));
    return out;
  }
  std::string_view name() const override { return "gradient"; }
};

render_request video_request() {
  render_request req;
  req.prompt = "a harbour";
  req.width = 272;
  req.height = 160;
  req.seed = 7;
  req.duration_seconds = 1;
  req.fps = 8;
  return req;
}

} // namespace

BOOST_AUTO_TEST_CASE(images_pass_through_unchanged) {
  auto inner = std::make_unique<gradient_stills>();
  auto* stills = inner.get();
  keyframe_video_backend backend(std::move(inner));
  render_request req;
  req.width = 64;
  req.height = 48;
  req.num_outputs = 1;
  auto out = backend.render(req, {}, cancel_token{});
  BOOST_REQUIRE(out.ok());
  BOOST_TEST(out.value().content_type == "image/png");
  BOOST_REQUIRE(stills->seen.size() == 1u);
  BOOST_TEST(stills->seen[0].width == 64);
  BOOST_TEST(backend.name() == "gradient");
}

BOOST_AUTO_TEST_CASE(a_video_is_one_larger_still_animated_into_an_mp4) {
  auto inner = std::make_unique<gradient_stills>();
  auto* stills = inner.get();
  keyframe_video_backend backend(std::move(inner));
  std::vector<double> progress;
  auto out = backend.render(video_request(), [&](double p) { progress.push_back(p); }, cancel_token{});
  BOOST_REQUIRE_MESSAGE(out.ok(), (out.ok() ? std::string{} : out.error().message));
  BOOST_TEST(out.value().content_type == "video/mp4");
  BOOST_REQUIRE(out.value().outputs.size() == 1u);
  BOOST_TEST(out.value().outputs[0].substr(4, 4) == "ftyp");
  BOOST_REQUIRE(stills->seen.size() == 1u);
  auto& still = stills->seen[0];
  BOOST_TEST(!still.is_video(), "the still back end is asked for a still");
  BOOST_TEST(still.num_outputs == 1);
  BOOST_TEST(still.width % 8 == 0);
  BOOST_TEST(still.height % 8 == 0);
  BOOST_TEST(still.width >= 272 * 5 / 4, "room for the camera to move");
  BOOST_TEST(still.height >= 160 * 5 / 4);
  BOOST_TEST(still.seed == 7u);
  BOOST_REQUIRE(!progress.empty());
  BOOST_TEST(std::is_sorted(progress.begin(), progress.end()));
  BOOST_TEST(progress.back() == 1.0);

  svc::test::leave_heap_filled_with(0xa5);
  auto again = keyframe_video_backend(std::make_unique<gradient_stills>()).render(video_request(), {}, cancel_token{});
  BOOST_REQUIRE(again.ok());
  BOOST_TEST((again.value().outputs[0] == out.value().outputs[0]), "equal stills give equal videos");
}

BOOST_AUTO_TEST_CASE(a_failing_still_fails_the_video_with_its_code) {
  auto inner = std::make_unique<gradient_stills>();
  inner->fail_with = provider_error::unavailable("no GPU");
  keyframe_video_backend backend(std::move(inner));
  auto out = backend.render(video_request(), {}, cancel_token{});
  BOOST_REQUIRE(!out.ok());
  BOOST_TEST(out.error().code == "provider_unavailable");
}

BOOST_AUTO_TEST_CASE(an_undecodable_keyframe_is_a_provider_error) {
  auto inner = std::make_unique<gradient_stills>();
  inner->return_garbage = true;
  keyframe_video_backend backend(std::move(inner));
  auto out = backend.render(video_request(), {}, cancel_token{});
  BOOST_REQUIRE(!out.ok());
  BOOST_TEST(out.error().code == "provider_error");
}

BOOST_AUTO_TEST_CASE(a_cancelled_render_stops) {
  keyframe_video_backend backend(std::make_unique<gradient_stills>());
  cancel_token cancel;
  cancel.cancel();
  auto out = backend.render(video_request(), {}, cancel);
  BOOST_REQUIRE(!out.ok());
  BOOST_TEST(out.error().code == "cancelled");
}

BOOST_AUTO_TEST_CASE(specs_outside_the_bounds_are_refused_before_rendering) {
  auto inner = std::make_unique<gradient_stills>();
  auto* stills = inner.get();
  keyframe_video_backend backend(std::move(inner));
  auto req = video_request();
  req.fps = 500;
  auto out = backend.render(req, {}, cancel_token{});
  BOOST_REQUIRE(!out.ok());
  BOOST_TEST(out.error().code == "provider_error");
  BOOST_TEST(stills->seen.empty());
}

BOOST_AUTO_TEST_SUITE_END()
