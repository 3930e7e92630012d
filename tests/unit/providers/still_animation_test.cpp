#include "providers/still_animation.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/memory_file.hpp"
#include "media_probe.hpp"

BOOST_AUTO_TEST_SUITE(providers_still_animation)

using namespace svc::providers;

namespace {

// Rings around an off-centre point: any camera move changes what a frame shows.
image rings(int w, int h) {
  image img(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float d = std::hypot(static_cast<float>(x) - 0.4f * w, static_cast<float>(y) - 0.6f * h) / 12.f;
      img.at(x, y) = {0.5f + 0.4f * std::sin(d), 0.5f + 0.4f * std::cos(0.7f * d), static_cast<float>(x) / w};
    }
  return img;
}

animation_spec small_spec(uint32_t seed = 7) {
  animation_spec spec;
  spec.width = 160;
  spec.height = 96;
  spec.duration_seconds = 2;
  spec.fps = 10;
  spec.seed = seed;
  return spec;
}

std::string animate(const image& keyframe, const animation_spec& spec) {
  auto out = animate_still(keyframe, spec, cancel_token{}, {});
  BOOST_REQUIRE_MESSAGE(out.ok(), (out.ok() ? "" : out.error().message));
  BOOST_REQUIRE(out.value().outputs.size() == 1u);
  BOOST_TEST(out.value().content_type == "video/mp4");
  BOOST_TEST(out.value().width == spec.width);
  BOOST_TEST(out.value().height == spec.height);
  return out.value().outputs.front();
}

// Mean absolute difference (0..1) between frames a and b of packed RGB24 video.
double frame_difference(const std::string& raw, std::size_t frame_bytes, std::size_t a, std::size_t b) {
  double sum = 0;
  for (std::size_t i = 0; i < frame_bytes; ++i)
    sum += std::abs(static_cast<unsigned char>(raw[a * frame_bytes + i]) - static_cast<unsigned char>(raw[b * frame_bytes + i]));
  return sum / (255.0 * static_cast<double>(frame_bytes));
}

} // namespace

BOOST_AUTO_TEST_CASE(keyframe_size_leaves_room_and_stays_bounded) {
  BOOST_TEST((keyframe_size(768, 432) == std::pair{960, 540}));
  BOOST_TEST((keyframe_size(4096, 16) == std::pair{max_video_side, 20}));
}

BOOST_AUTO_TEST_CASE(makes_the_asked_for_video) {
  const auto spec = small_spec();
  const auto [kw, kh] = keyframe_size(spec.width, spec.height);
  const std::string mp4 = animate(rings(kw, kh), spec);
  const auto mismatch = svc::test::h264_mp4_mismatch(mp4, 160, 96, 20, 2.0);
  BOOST_TEST(mismatch.empty(), mismatch);
}

BOOST_AUTO_TEST_CASE(the_camera_moves_smoothly_for_every_seed) {
  // First and last frames differ clearly; neighbours differ far less (no jumps).
  const std::size_t frame_bytes = 160u * 96u * 3u;
  for (uint32_t seed = 0; seed < 6; ++seed) {
    std::string error;
    const auto raw = svc::test::decode_frames_rgb24(animate(rings(200, 120), small_spec(seed)), error);
    BOOST_REQUIRE_MESSAGE(raw, error);
    BOOST_REQUIRE(raw->size() == 20u * frame_bytes);
    const double whole = frame_difference(*raw, frame_bytes, 0, 19);
    double largest_step = 0;
    for (std::size_t i = 1; i < 20; ++i) largest_step = std::max(largest_step, frame_difference(*raw, frame_bytes, i - 1, i));
    BOOST_TEST_INFO("seed " << seed << ": first to last " << whole << ", largest step " << largest_step);
    BOOST_TEST(whole > 0.05);
    BOOST_TEST(largest_step < whole / 3);
  }
}

BOOST_AUTO_TEST_CASE(equal_inputs_give_equal_bytes_and_seeds_differ) {
  const image keyframe = rings(200, 120);
  const auto a = animate(keyframe, small_spec(7));
  BOOST_TEST((animate(keyframe, small_spec(7)) == a));
  BOOST_TEST((animate(keyframe, small_spec(8)) != a));
}

// Where the MP4 goes changes nothing in it: written to a file as it is
// muxed, it has the bytes the in-memory render returns, index in front.
BOOST_AUTO_TEST_CASE(a_video_written_to_a_file_is_the_one_returned_in_memory) {
  const image keyframe = rings(200, 120);
  const auto in_memory = animate(keyframe, small_spec(7));
  svc::core::memory_file file;
  const auto out = animate_still(keyframe, small_spec(7), cancel_token{}, {}, &file);
  BOOST_REQUIRE_MESSAGE(out.ok(), (out.ok() ? "" : out.error().message));
  BOOST_TEST(out.value().in_video_file);
  BOOST_TEST(out.value().outputs.empty());
  BOOST_TEST(out.value().content_type == "video/mp4");
  const auto bytes = file.take();
  BOOST_TEST((bytes == in_memory));
  const auto boxes = svc::test::top_level_boxes(bytes);
  const auto moov = std::find(boxes.begin(), boxes.end(), "moov");
  BOOST_TEST((moov < std::find(boxes.begin(), boxes.end(), "mdat")));
}

BOOST_AUTO_TEST_CASE(any_keyframe_size_or_shape_works) {
  for (auto [w, h] : {std::pair{2000, 2000}, std::pair{90, 400}, std::pair{161, 97}, std::pair{40, 30}}) {
    BOOST_TEST_INFO(w << "x" << h);
    std::string error;
    const auto probe = svc::test::probe_video(animate(rings(w, h), small_spec()), error);
    BOOST_REQUIRE_MESSAGE(probe, error);
    BOOST_TEST(probe->width == 160);
    BOOST_TEST(probe->nb_frames == 20);
  }
}

BOOST_AUTO_TEST_CASE(progress_rises_to_one) {
  std::vector<float> seen;
  const auto out = animate_still(rings(200, 120), small_spec(), cancel_token{}, [&](float p) { seen.push_back(p); });
  BOOST_REQUIRE(out.ok());
  BOOST_REQUIRE(seen.size() >= 20u);
  for (std::size_t i = 1; i < seen.size(); ++i) BOOST_TEST(seen[i] >= seen[i - 1]);
  BOOST_TEST(seen.back() == 1.f);
}

BOOST_AUTO_TEST_CASE(cancel_stops_within_a_frame) {
  auto spec = small_spec();
  spec.duration_seconds = 60;
  cancel_token token;
  float last = 0;
  int calls_after_cancel = 0;
  const auto out = animate_still(rings(200, 120), spec, token, [&](float p) {
    last = p;
    if (token.cancelled()) ++calls_after_cancel;
    if (p > 0.02f) token.cancel();
  });
  BOOST_REQUIRE(!out.ok());
  BOOST_TEST(out.error().code == "cancelled");
  BOOST_TEST(calls_after_cancel == 0);
  BOOST_TEST(last < 0.03f);
}

BOOST_AUTO_TEST_CASE(bad_specs_and_keyframes_are_provider_errors) {
  const image keyframe = rings(200, 120);
  auto with = [](auto change) {
    auto spec = small_spec();
    change(spec);
    return spec;
  };
  for (const auto& spec : {with([](animation_spec& s) { s.duration_seconds = 0; }),
                           with([](animation_spec& s) { s.duration_seconds = max_animation_seconds + 1; }),
                           with([](animation_spec& s) { s.fps = 0; }), with([](animation_spec& s) { s.fps = 61; }),
                           with([](animation_spec& s) { s.width = 161; }), with([](animation_spec& s) { s.height = 8; }),
                           with([](animation_spec& s) { s.width = 5000; })}) {
    BOOST_TEST_INFO(spec.width << "x" << spec.height << ", " << spec.duration_seconds << " s at " << spec.fps);
    BOOST_TEST(!animation_spec_error(spec).empty());
    const auto out = animate_still(keyframe, spec, cancel_token{}, {});
    BOOST_REQUIRE(!out.ok());
    BOOST_TEST(out.error().code == "provider_error");
  }
  BOOST_TEST(animation_spec_error(small_spec()).empty());
  const auto empty = animate_still(image{}, small_spec(), cancel_token{}, {});
  BOOST_REQUIRE(!empty.ok());
  BOOST_TEST(empty.error().code == "provider_error");
}

BOOST_AUTO_TEST_SUITE_END()
