#include "providers/procedural_renderer.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <vector>

#include "core/crypto.hpp"
#include "heap_noise.hpp"
#include "media_probe.hpp"
#include "png_header.hpp"
#include "providers/image_decoder.hpp"
#include "schema/builtin_loras.hpp"

BOOST_AUTO_TEST_SUITE(providers_procedural_renderer)

using namespace svc::providers;
using namespace std::chrono_literals;

namespace {

render_request small(std::string prompt = "a quiet mountain lake at sunset, pine trees", uint32_t seed = 42) {
  render_request r;
  r.prompt = std::move(prompt);
  r.seed = seed;
  r.width = 192;
  r.height = 128;
  return r;
}

std::string render_one(const render_request& req, procedural_options opts = {}) {
  procedural_renderer renderer(opts);
  auto out = renderer.render(req, {}, cancel_token{});
  BOOST_REQUIRE_MESSAGE(out.ok(), (out.ok() ? "" : out.error().message));
  BOOST_REQUIRE(out.value().outputs.size() == 1u);
  return out.value().outputs.front();
}

render_request small_video(uint32_t seed = 42) {
  auto r = small("a quiet mountain lake at sunset, pine trees", seed);
  r.width = 256;
  r.height = 144;
  r.duration_seconds = 2;
  r.fps = 12;
  return r;
}

// Stripes of colours no landscape has, to tell how much of a render came from it.
std::string init_png(int w = 120, int h = 90) {
  image img(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) img.at(x, y) = (x / 20 + y / 30) % 2 ? rgb{1.f, 0.f, 0.9f} : rgb{0.f, 0.9f, 0.2f};
  std::string png, error;
  BOOST_REQUIRE(encode_png(img, {}, png, error));
  return png;
}

double mean_abs_difference(const image& a, const image& b) {
  BOOST_REQUIRE(a.px.size() == b.px.size());
  double sum = 0;
  for (std::size_t i = 0; i < a.px.size(); ++i)
    sum += std::abs(a.px[i].r - b.px[i].r) + std::abs(a.px[i].g - b.px[i].g) + std::abs(a.px[i].b - b.px[i].b);
  return sum / (3.0 * static_cast<double>(a.px.size()));
}

std::string with_loras(std::vector<lora_weight> loras) {
  auto req = small();
  req.loras = std::move(loras);
  return render_one(req);
}

} // namespace

BOOST_AUTO_TEST_CASE(same_inputs_give_byte_identical_pngs) {
  auto req = small();
  req.loras = {{"watercolor", 0.7}, {"pixel-art", 0.4}};
  const auto a = render_one(req);
  const auto b = render_one(req);
  BOOST_TEST(a.size() > 1000u);
  BOOST_TEST((a == b));
}

BOOST_AUTO_TEST_CASE(output_is_pinned_across_runs_and_builds) {
  // Byte-identical output across processes and releases is the contract (a
  // client re-running a seed gets the same image). If a change to the
  // renderer is intended, bump render_version in scene_plan.cpp and update
  // this digest.
  auto req = small();
  req.width = 64;
  req.height = 48;
  req.loras = {{"ukiyo-e", 1.0}};
  const auto png = render_one(req);
  BOOST_TEST(svc::core::to_hex(svc::core::sha256(png)) == "1e6ef3f33af5b75e12187269e2dd89d5f9149bb8ecde921a0e1d7541872ce8d8");
}

BOOST_AUTO_TEST_CASE(concurrent_renders_match_a_lone_one) {
  const auto req = small();
  const auto alone = render_one(req);
  procedural_renderer renderer;
  std::vector<std::future<std::string>> runs;
  for (int i = 0; i < 3; ++i)
    runs.push_back(std::async(std::launch::async, [&] {
      auto out = renderer.render(req, {}, cancel_token{});
      return out.ok() ? out.value().outputs.front() : std::string{};
    }));
  for (auto& r : runs) BOOST_TEST((r.get() == alone));
}

BOOST_AUTO_TEST_CASE(different_prompts_and_seeds_give_different_images) {
  const auto base = render_one(small());
  BOOST_TEST((render_one(small("a quiet mountain lake at sunset, pine trees", 43)) != base));
  BOOST_TEST((render_one(small("a quiet mountain lake at dawn, pine trees", 42)) != base));
  auto negative = small();
  negative.negative_prompt = "fog";
  BOOST_TEST((render_one(negative) != base));
  auto steps = small();
  steps.steps = 80;
  BOOST_TEST((render_one(steps) != base));
}

BOOST_AUTO_TEST_CASE(png_header_matches_the_requested_size) {
  procedural_renderer renderer;
  for (auto [w, h] : {std::pair{256, 256}, std::pair{1024, 576}, std::pair{2048, 512}}) {
    auto req = small();
    req.width = w;
    req.height = h;
    auto out = renderer.render(req, {}, cancel_token{});
    BOOST_REQUIRE(out.ok());
    BOOST_TEST(out.value().width == w);
    BOOST_TEST(out.value().height == h);
    const auto header = svc::test::parse_png_header(out.value().outputs.front());
    BOOST_TEST_INFO("size " << w << "x" << h);
    BOOST_REQUIRE(header);
    BOOST_TEST(header->width == static_cast<uint32_t>(w));
    BOOST_TEST(header->height == static_cast<uint32_t>(h));
    BOOST_TEST(header->bit_depth == 8);
    BOOST_TEST(header->color_type == 2); // RGB
    BOOST_TEST(svc::test::ends_with_iend(out.value().outputs.front()));
  }
}

BOOST_AUTO_TEST_CASE(each_output_uses_the_next_seed) {
  auto req = small();
  req.num_outputs = 3;
  procedural_renderer renderer;
  auto out = renderer.render(req, {}, cancel_token{});
  BOOST_REQUIRE(out.ok());
  const auto& images = out.value().outputs;
  BOOST_REQUIRE(images.size() == 3u);
  BOOST_TEST((images[0] != images[1]));
  BOOST_TEST((images[1] != images[2]));
  BOOST_TEST((images[0] == render_one(small("a quiet mountain lake at sunset, pine trees", 42))));
  BOOST_TEST((images[2] == render_one(small("a quiet mountain lake at sunset, pine trees", 44))));
}

BOOST_AUTO_TEST_CASE(each_lora_changes_the_output_and_differs_from_every_other) {
  const auto none = with_loras({});
  std::vector<std::string> styled;
  for (const auto& lora : svc::schema::builtin_loras()) {
    styled.push_back(with_loras({{std::string(lora.slug), 1.0}}));
    BOOST_TEST_INFO("slug " << lora.slug);
    BOOST_TEST((styled.back() != none));
  }
  for (std::size_t i = 0; i < styled.size(); ++i)
    for (std::size_t j = i + 1; j < styled.size(); ++j) {
      BOOST_TEST_INFO("styles " << i << " and " << j);
      BOOST_TEST((styled[i] != styled[j]));
    }
}

BOOST_AUTO_TEST_CASE(weight_changes_the_output) {
  const auto full = with_loras({{"oil-painting", 1.0}});
  BOOST_TEST((with_loras({{"oil-painting", 0.5}}) != full));
  BOOST_TEST((with_loras({{"oil-painting", 2.0}}) != full));
  BOOST_TEST((with_loras({{"oil-painting", -1.0}}) != full));
  BOOST_TEST((with_loras({{"oil-painting", -1.0}}) != with_loras({})));
}

BOOST_AUTO_TEST_CASE(weight_zero_equals_no_lora) {
  const auto none = with_loras({});
  BOOST_TEST((with_loras({{"neon-noir", 0.0}}) == none));
  BOOST_TEST((with_loras({{"neon-noir", 0.6}, {"neon-noir", -0.6}}) == none));
}

BOOST_AUTO_TEST_CASE(unknown_slugs_are_ignored) {
  BOOST_TEST((with_loras({{"vaporwave", 1.0}}) == with_loras({})));
  BOOST_TEST((with_loras({{"vaporwave", 1.0}, {"watercolor", 1.0}}) == with_loras({{"watercolor", 1.0}})));
}

BOOST_AUTO_TEST_CASE(request_order_of_loras_does_not_matter) {
  BOOST_TEST((with_loras({{"watercolor", 0.5}, {"pixel-art", 1.0}}) == with_loras({{"pixel-art", 1.0}, {"watercolor", 0.5}})));
}

BOOST_AUTO_TEST_CASE(progress_is_monotonic_and_ends_at_one) {
  auto req = small();
  req.num_outputs = 2;
  req.loras = {{"watercolor", 1.0}};
  procedural_renderer renderer({std::chrono::milliseconds{60}, {}, {}});
  std::vector<double> seen;
  auto out = renderer.render(req, [&](double p) { seen.push_back(p); }, cancel_token{});
  BOOST_REQUIRE(out.ok());
  BOOST_REQUIRE(seen.size() >= 5u);
  for (std::size_t i = 1; i < seen.size(); ++i) BOOST_TEST(seen[i] >= seen[i - 1]);
  BOOST_TEST(seen.front() >= 0.0);
  BOOST_TEST(seen.back() == 1.0);
  for (std::size_t i = 0; i + 1 < seen.size(); ++i) BOOST_TEST(seen[i] < 1.0); // 1 only at the end
}

BOOST_AUTO_TEST_CASE(render_delay_reports_progress_while_waiting) {
  procedural_renderer renderer({std::chrono::milliseconds{120}, {}, {}});
  std::vector<double> seen;
  const auto start = std::chrono::steady_clock::now();
  auto out = renderer.render(small(), [&](double p) { seen.push_back(p); }, cancel_token{});
  BOOST_REQUIRE(out.ok());
  BOOST_TEST((std::chrono::steady_clock::now() - start >= 120ms));
  std::size_t during_delay = 0;
  for (double p : seen) during_delay += p > 0.0 && p < 0.7;
  BOOST_TEST(during_delay >= 2u);
}

BOOST_AUTO_TEST_CASE(cancel_stops_a_long_render_delay_promptly) {
  procedural_renderer renderer({std::chrono::minutes{10}, {}, {}});
  cancel_token token;
  std::mutex m;
  std::condition_variable cv;
  bool started = false;
  auto run = std::async(std::launch::async, [&] {
    return renderer.render(small(), [&](double) {
      std::lock_guard<std::mutex> lock(m);
      started = true;
      cv.notify_all();
    }, token);
  });
  {
    std::unique_lock<std::mutex> lock(m);
    BOOST_REQUIRE(cv.wait_for(lock, 30s, [&] { return started; }));
  }
  token.cancel();
  // The delay is ten minutes: ready within 30 s means the cancel cut it short.
  BOOST_REQUIRE(run.wait_for(30s) == std::future_status::ready);
  const auto out = run.get();
  BOOST_REQUIRE(!out.ok());
  BOOST_TEST(out.error().code == "cancelled");
}

BOOST_AUTO_TEST_CASE(cancel_stops_work_already_rendering) {
  // Cancel from inside the render, once painting is under way: the painter
  // must notice between rows rather than finish the image.
  auto req = small();
  req.width = 2048;
  req.height = 2048;
  req.num_outputs = 4;
  procedural_renderer renderer;
  cancel_token token;
  double last = 0;
  const auto out = renderer.render(req, [&](double p) {
    last = p;
    if (p > 0.05) token.cancel();
  }, token);
  BOOST_REQUIRE(!out.ok());
  BOOST_TEST(out.error().code == "cancelled");
  BOOST_TEST(last < 0.25); // stopped within the first output
}

BOOST_AUTO_TEST_CASE(a_token_cancelled_before_the_start_renders_nothing) {
  procedural_renderer renderer;
  cancel_token token;
  token.cancel();
  bool progressed = false;
  const auto out = renderer.render(small(), [&](double) { progressed = true; }, token);
  BOOST_REQUIRE(!out.ok());
  BOOST_TEST(out.error().code == "cancelled");
  BOOST_TEST(!progressed);
}

BOOST_AUTO_TEST_CASE(bad_sizes_and_counts_are_provider_errors) {
  procedural_renderer renderer;
  for (auto [w, h, n] : {std::tuple{0, 64, 1}, std::tuple{64, -1, 1}, std::tuple{9000, 64, 1}, std::tuple{64, 64, 0},
                         std::tuple{64, 64, 17}}) {
    auto req = small();
    req.width = w;
    req.height = h;
    req.num_outputs = n;
    const auto out = renderer.render(req, {}, cancel_token{});
    BOOST_TEST_INFO(w << "x" << h << " n=" << n);
    BOOST_REQUIRE(!out.ok());
    BOOST_TEST(out.error().code == "provider_error");
    BOOST_TEST(!out.error().message.empty());
  }
}

BOOST_AUTO_TEST_CASE(tiny_and_odd_sizes_render) {
  for (auto [w, h] : {std::pair{1, 1}, std::pair{3, 200}, std::pair{333, 7}}) {
    auto req = small();
    req.width = w;
    req.height = h;
    req.loras = {{"low-poly", 1.0}, {"oil-painting", 1.0}, {"ukiyo-e", 1.0}, {"pixel-art", 2.0}};
    const auto header = svc::test::parse_png_header(render_one(req));
    BOOST_REQUIRE(header);
    BOOST_TEST(header->width == static_cast<uint32_t>(w));
    BOOST_TEST(header->height == static_cast<uint32_t>(h));
  }
}

BOOST_AUTO_TEST_CASE(name_is_procedural) {
  BOOST_TEST(procedural_renderer{}.name() == "procedural");
}

BOOST_AUTO_TEST_CASE(a_video_request_gives_one_h264_mp4) {
  procedural_renderer renderer;
  const auto req = small_video();
  auto out = renderer.render(req, {}, cancel_token{});
  BOOST_REQUIRE_MESSAGE(out.ok(), (out.ok() ? "" : out.error().message));
  BOOST_REQUIRE(out.value().outputs.size() == 1u);
  BOOST_TEST(out.value().content_type == "video/mp4");
  BOOST_TEST(out.value().width == 256);
  BOOST_TEST(out.value().height == 144);
  const auto mismatch = svc::test::h264_mp4_mismatch(out.value().outputs.front(), 256, 144, 24, 2.0);
  BOOST_TEST(mismatch.empty(), mismatch);
}

BOOST_AUTO_TEST_CASE(videos_are_byte_identical_for_equal_requests_and_differ_by_seed) {
  auto req = small_video();
  req.loras = {{"watercolor", 0.8}};
  const auto a = render_one(req);
  BOOST_TEST((render_one(req) == a));
  BOOST_TEST((render_one(small_video(43)) != render_one(small_video(42))));
}

// What ran before in the process (other sizes, stills, videos, init images)
// must not reach the bytes: a width that is not a multiple of 64 once made
// x264 depend on the heap's earlier contents.
BOOST_AUTO_TEST_CASE(a_video_is_the_same_after_other_renders_of_other_kinds) {
  auto req = small_video();
  req.width = 272;
  req.height = 160;
  const auto first = render_one(req);
  svc::test::leave_heap_filled_with(0x55);
  auto other_still = small("a harbour in fog", 9);
  other_still.width = 320;
  other_still.height = 208;
  render_one(other_still);
  auto other_video = small_video(5);
  other_video.width = 208;
  other_video.height = 176;
  other_video.init_image = init_png();
  render_one(other_video);
  auto from_upload = small("a harbour in fog", 9);
  from_upload.init_image = init_png(300, 200);
  render_one(from_upload);
  svc::test::leave_heap_filled_with(0xff);
  BOOST_TEST((render_one(req) == first));
}

BOOST_AUTO_TEST_CASE(video_progress_is_monotonic_and_ends_at_one) {
  procedural_renderer renderer({std::chrono::milliseconds{30}, {}, {}});
  std::vector<double> seen;
  auto out = renderer.render(small_video(), [&](double p) { seen.push_back(p); }, cancel_token{});
  BOOST_REQUIRE(out.ok());
  BOOST_REQUIRE(seen.size() >= 10u);
  for (std::size_t i = 1; i < seen.size(); ++i) BOOST_TEST(seen[i] >= seen[i - 1]);
  BOOST_TEST(seen.back() == 1.0);
  for (std::size_t i = 0; i + 1 < seen.size(); ++i) BOOST_TEST(seen[i] < 1.0);
}

BOOST_AUTO_TEST_CASE(cancel_stops_a_video_mid_frames) {
  // 10 s at 30 fps, the API's longest: cancelled once a tenth of the frames are out.
  auto req = small_video();
  req.width = 768;
  req.height = 432;
  req.duration_seconds = 10;
  req.fps = 30;
  procedural_renderer renderer;
  cancel_token token;
  double last = 0;
  int calls_after_cancel = 0;
  const auto out = renderer.render(req, [&](double p) {
    last = p;
    if (token.cancelled()) ++calls_after_cancel;
    if (p > 0.25) token.cancel();
  }, token);
  BOOST_REQUIRE(!out.ok());
  BOOST_TEST(out.error().code == "cancelled");
  // Measured in frames, not time: the next frame sees the cancel.
  BOOST_TEST(calls_after_cancel == 0);
  BOOST_TEST(last < 0.3);
}

BOOST_AUTO_TEST_CASE(bad_video_requests_are_provider_errors) {
  procedural_renderer renderer;
  for (auto change : std::vector<std::function<void(render_request&)>>{
           [](render_request& r) { r.width = 251; }, [](render_request& r) { r.height = 8; },
           [](render_request& r) { r.fps = 0; }, [](render_request& r) { r.duration_seconds = 61; },
           [](render_request& r) { r.num_outputs = 2; }}) {
    auto req = small_video();
    change(req);
    const auto out = renderer.render(req, {}, cancel_token{});
    BOOST_REQUIRE(!out.ok());
    BOOST_TEST(out.error().code == "provider_error");
  }
}

BOOST_AUTO_TEST_CASE(an_init_image_dominates_the_output) {
  const std::string init = init_png();
  auto req = small();
  req.loras = {{"oil-painting", 0.6}};
  image fitted, plain, derived;
  std::string error;
  BOOST_REQUIRE(decode_image_cover(init, req.width, req.height, fitted, error));
  BOOST_REQUIRE(decode_image(render_one(req), plain, error));
  req.init_image = init;
  const auto with_init = render_one(req);
  BOOST_REQUIRE(decode_image(with_init, derived, error));
  const double without = mean_abs_difference(plain, fitted), with = mean_abs_difference(derived, fitted);
  BOOST_TEST_MESSAGE("mean abs difference to the init image: " << without << " without it, " << with << " with it");
  BOOST_TEST(with < 0.5 * without);
  BOOST_TEST((render_one(req) == with_init)); // still deterministic
}

BOOST_AUTO_TEST_CASE(an_init_image_shapes_every_video_frame) {
  auto req = small_video();
  const auto plain_mp4 = render_one(req);
  req.init_image = init_png(320, 180);
  const auto derived_mp4 = render_one(req);
  BOOST_TEST((derived_mp4 != plain_mp4));
  std::string error;
  const auto plain = svc::test::decode_frames_rgb24(plain_mp4, error);
  const auto derived = svc::test::decode_frames_rgb24(derived_mp4, error);
  BOOST_REQUIRE_MESSAGE((plain && derived), error);
  BOOST_REQUIRE(plain->size() == derived->size());
  // The stripes' magenta: red and blue high, green low, which no landscape
  // here has in quantity. Counted over all frames.
  auto magenta_share = [](const std::string& rgb24) {
    std::size_t n = 0;
    for (std::size_t i = 0; i + 2 < rgb24.size(); i += 3)
      n += static_cast<unsigned char>(rgb24[i]) > 160 && static_cast<unsigned char>(rgb24[i + 1]) < 110 &&
           static_cast<unsigned char>(rgb24[i + 2]) > 140;
    return static_cast<double>(n) / static_cast<double>(rgb24.size() / 3);
  };
  BOOST_TEST_MESSAGE("magenta share: " << magenta_share(*plain) << " without, " << magenta_share(*derived) << " with");
  BOOST_TEST(magenta_share(*derived) > 0.2);
  BOOST_TEST(magenta_share(*plain) < 0.02);
}

BOOST_AUTO_TEST_CASE(an_undecodable_init_image_is_a_provider_error) {
  procedural_renderer renderer;
  for (auto req : {small(), small_video()}) {
    req.init_image = init_png().substr(0, 60);
    const auto out = renderer.render(req, {}, cancel_token{});
    BOOST_REQUIRE(!out.ok());
    BOOST_TEST(out.error().code == "provider_error");
    BOOST_TEST(out.error().message.rfind("init image: ", 0) == 0u);
  }
}

BOOST_AUTO_TEST_SUITE_END()
