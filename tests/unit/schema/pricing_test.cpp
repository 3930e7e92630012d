#include "schema/pricing.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <utility>
#include <vector>

BOOST_AUTO_TEST_SUITE(schema_pricing)

namespace {

using namespace svc::schema;
using lines = std::vector<std::pair<std::string, int64_t>>;

// Version 2026-01-15: image 4, image_steps 1, lora 1, video 12.
const price_table& v1() { return pricing_for("2026-01-15"); }
// Version 2026-09-01: image 3, image_steps 1, lora 0, video 10.
const price_table& v2() { return pricing_for("2026-09-01"); }

image_request image(int w, int h, int outputs, int steps) {
  image_request r;
  r.prompt = "x";
  r.width = w;
  r.height = h;
  r.num_outputs = outputs;
  r.steps = steps;
  return r;
}

video_request video(int w, int h, int seconds, int fps = 24) {
  video_request r;
  r.prompt = "x";
  r.width = w;
  r.height = h;
  r.duration_seconds = seconds;
  r.fps = fps;
  return r;
}

lines breakdown(const price_quote& q) {
  lines out;
  int64_t sum = 0;
  for (auto& l : q.breakdown) {
    out.emplace_back(std::string{l.item}, l.credits);
    sum += l.credits;
  }
  BOOST_TEST(sum == q.credits);
  return out;
}

} // namespace

BOOST_AUTO_TEST_CASE(the_tables_this_test_assumes) {
  BOOST_TEST(v1().api_version == "2026-01-15");
  BOOST_TEST(v1().credits("image") == 4);
  BOOST_TEST(v1().credits("image_steps") == 1);
  BOOST_TEST(v1().credits("lora") == 1);
  BOOST_TEST(v1().credits("video") == 12);
  BOOST_TEST(v2().api_version == "2026-09-01");
  BOOST_TEST(v2().credits("image") == 3);
  BOOST_TEST(v2().credits("image_steps") == 1);
  BOOST_TEST(v2().credits("lora") == 0);
  BOOST_TEST(v2().credits("video") == 10);
}

BOOST_AUTO_TEST_CASE(started_megapixels_round_up) {
  BOOST_TEST(started_megapixels(256, 256) == 1);   //    65,536
  BOOST_TEST(started_megapixels(1024, 1024) == 1); // 1,048,576 exactly
  BOOST_TEST(started_megapixels(1024, 1025) == 2); // one pixel more
  BOOST_TEST(started_megapixels(1088, 1024) == 2);
  BOOST_TEST(started_megapixels(768, 1344) == 1);  // 1,032,192
  BOOST_TEST(started_megapixels(768, 432) == 1);   //   331,776
  BOOST_TEST(started_megapixels(1280, 720) == 1);  //   921,600
  BOOST_TEST(started_megapixels(1920, 1088) == 2); // 2,088,960
  BOOST_TEST(started_megapixels(2048, 2047) == 4); // 4,192,256
  BOOST_TEST(started_megapixels(2048, 2048) == 4); // 4,194,304 exactly
}

BOOST_AUTO_TEST_CASE(image_default_request) {
  auto a = price_image(image(1024, 1024, 1, 30), 0, v1());
  BOOST_TEST(a.credits == 4);
  BOOST_TEST((breakdown(a) == lines{{"image", 4}}));
  auto b = price_image(image(1024, 1024, 1, 30), 0, v2());
  BOOST_TEST(b.credits == 3);
  BOOST_TEST((breakdown(b) == lines{{"image", 3}}));
}

BOOST_AUTO_TEST_CASE(image_started_megapixels) {
  // 1088x1024: 2 started megapixels.
  BOOST_TEST(price_image(image(1088, 1024, 1, 30), 0, v1()).credits == 8);
  BOOST_TEST(price_image(image(1088, 1024, 1, 30), 0, v2()).credits == 6);
  // 256x256 still starts one megapixel.
  BOOST_TEST(price_image(image(256, 256, 1, 30), 0, v1()).credits == 4);
}

BOOST_AUTO_TEST_CASE(image_steps_above_30_per_started_10) {
  auto steps_line = [](int steps) {
    auto q = price_image(image(1024, 1024, 1, steps), 0, v1());
    return q.credits - 4;
  };
  BOOST_TEST(steps_line(1) == 0);
  BOOST_TEST(steps_line(30) == 0);
  BOOST_TEST(steps_line(31) == 1);
  BOOST_TEST(steps_line(40) == 1);
  BOOST_TEST(steps_line(41) == 2);
  BOOST_TEST(steps_line(100) == 7);
  // No line for steps at or below 30.
  BOOST_TEST((breakdown(price_image(image(1024, 1024, 1, 1), 0, v1())) == lines{{"image", 4}}));
  BOOST_TEST((breakdown(price_image(image(1024, 1024, 1, 31), 0, v1())) == lines{{"image", 4}, {"image_steps", 1}}));
}

BOOST_AUTO_TEST_CASE(image_everything_times_outputs) {
  // 256x256, 2 outputs, 41 steps: 2 * (4*1 + 1*2) = 12 | 2 * (3*1 + 1*2) = 10.
  auto a = price_image(image(256, 256, 2, 41), 0, v1());
  BOOST_TEST(a.credits == 12);
  BOOST_TEST((breakdown(a) == lines{{"image", 8}, {"image_steps", 4}}));
  BOOST_TEST(price_image(image(256, 256, 2, 41), 0, v2()).credits == 10);

  // 768x1344, 3 outputs, 35 steps, 5 LoRAs: 3 * (4 + 1 + 5) = 30 | 3 * (3 + 1 + 0) = 12.
  auto b = price_image(image(768, 1344, 3, 35), 5, v1());
  BOOST_TEST(b.credits == 30);
  BOOST_TEST((breakdown(b) == lines{{"image", 12}, {"image_steps", 3}, {"lora", 15}}));
  auto b2 = price_image(image(768, 1344, 3, 35), 5, v2());
  BOOST_TEST(b2.credits == 12);
  BOOST_TEST((breakdown(b2) == lines{{"image", 9}, {"image_steps", 3}, {"lora", 0}}));

  // 2048x2048, 4 outputs, 100 steps, 2 LoRAs: 4 * (4*4 + 7 + 2) = 100 | 4 * (3*4 + 7 + 0) = 76.
  auto c = price_image(image(2048, 2048, 4, 100), 2, v1());
  BOOST_TEST(c.credits == 100);
  BOOST_TEST((breakdown(c) == lines{{"image", 64}, {"image_steps", 28}, {"lora", 8}}));
  auto c2 = price_image(image(2048, 2048, 4, 100), 2, v2());
  BOOST_TEST(c2.credits == 76);
  BOOST_TEST((breakdown(c2) == lines{{"image", 48}, {"image_steps", 28}, {"lora", 0}}));

  // 1024x1024, 4 outputs, 30 steps, 1 LoRA: 4 * (4 + 0 + 1) = 20 | 4 * 3 = 12.
  BOOST_TEST(price_image(image(1024, 1024, 4, 30), 1, v1()).credits == 20);
  BOOST_TEST(price_image(image(1024, 1024, 4, 30), 1, v2()).credits == 12);
}

BOOST_AUTO_TEST_CASE(video_per_second_per_started_megapixel) {
  // Default 768x432 for 4 s: 4 * 12 * 1 = 48 | 4 * 10 = 40.
  auto a = price_video(video(768, 432, 4), 0, v1());
  BOOST_TEST(a.credits == 48);
  BOOST_TEST((breakdown(a) == lines{{"video", 48}}));
  BOOST_TEST(price_video(video(768, 432, 4), 0, v2()).credits == 40);
  // 1920x1088 (2 MP) for 10 s with 2 LoRAs: 10*2*12 + 2*1 = 242 | 10*2*10 + 0 = 200.
  auto b = price_video(video(1920, 1088, 10), 2, v1());
  BOOST_TEST(b.credits == 242);
  BOOST_TEST((breakdown(b) == lines{{"video", 240}, {"lora", 2}}));
  auto b2 = price_video(video(1920, 1088, 10), 2, v2());
  BOOST_TEST(b2.credits == 200);
  BOOST_TEST((breakdown(b2) == lines{{"video", 200}, {"lora", 0}}));
  // 2048x2048 (4 MP) for 1 s: 48 | 40.
  BOOST_TEST(price_video(video(2048, 2048, 1), 0, v1()).credits == 48);
  BOOST_TEST(price_video(video(2048, 2048, 1), 0, v2()).credits == 40);
}

BOOST_AUTO_TEST_CASE(video_fps_does_not_change_the_price) {
  BOOST_TEST(price_video(video(1280, 720, 5, 8), 0, v1()).credits == 60);
  BOOST_TEST(price_video(video(1280, 720, 5, 30), 0, v1()).credits == 60);
}

BOOST_AUTO_TEST_CASE(an_unknown_version_prices_as_the_newest) {
  BOOST_TEST(price_image(image(1024, 1024, 1, 30), 0, pricing_for("1999-01-01")).credits == 3);
}

BOOST_AUTO_TEST_SUITE_END()
