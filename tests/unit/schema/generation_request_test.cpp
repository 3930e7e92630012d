#include "schema/generation_request.hpp"

#include <boost/test/unit_test.hpp>

#include "request_test_support.hpp"

BOOST_AUTO_TEST_SUITE(schema_generation_request)

using namespace svc::schema::testing;

BOOST_AUTO_TEST_SUITE(defaults)

BOOST_AUTO_TEST_CASE(image_with_only_a_prompt) {
  auto r = image_ok(obj(R"({"prompt": "a red fox"})"));
  BOOST_TEST(r.prompt == "a red fox");
  BOOST_TEST(r.negative_prompt == "");
  BOOST_TEST(r.width == 1024);
  BOOST_TEST(r.height == 1024);
  BOOST_TEST(r.num_outputs == 1);
  BOOST_TEST(r.steps == 30);
  BOOST_TEST(!r.seed_given);
  BOOST_TEST(!r.lora_id.has_value());
  BOOST_TEST(r.loras.empty());
  BOOST_TEST(!r.init_image.has_value());
  BOOST_TEST(r.metadata.empty());
}

BOOST_AUTO_TEST_CASE(video_with_only_a_prompt) {
  auto r = video_ok(obj(R"({"prompt": "waves at dusk"})"));
  BOOST_TEST(r.width == 768);
  BOOST_TEST(r.height == 432);
  BOOST_TEST(r.duration_seconds == 4);
  BOOST_TEST(r.fps == 24);
  BOOST_TEST(!r.seed_given);
  BOOST_TEST(r.negative_prompt == "");
}

BOOST_AUTO_TEST_CASE(null_means_absent_for_optional_fields) {
  auto r = image_ok(obj(R"({"prompt": "x", "negative_prompt": null, "width": null, "height": null,
    "num_outputs": null, "steps": null, "seed": null, "lora_id": null, "loras": null, "init_image": null,
    "metadata": null})"));
  BOOST_TEST(r.width == 1024);
  BOOST_TEST(r.steps == 30);
  BOOST_TEST(!r.seed_given);
  BOOST_TEST(!r.init_image.has_value());
  auto v = video_ok(obj(R"({"prompt": "x", "duration_seconds": null, "fps": null})"));
  BOOST_TEST(v.duration_seconds == 4);
  BOOST_TEST(v.fps == 24);
}

BOOST_AUTO_TEST_CASE(every_field_given_is_kept) {
  auto file = svc::core::make_id("file");
  json::object body = obj(R"({"prompt": "p", "negative_prompt": "blurry", "width": 512, "height": 768,
    "num_outputs": 3, "steps": 50, "seed": 123, "loras": [{"lora": "watercolor", "weight": 0.5},
    {"lora": "pixel-art", "weight": -1.25}], "metadata": {"order": "42", "user": ""}})");
  body["init_image"] = file;
  auto r = image_ok(body);
  BOOST_TEST(r.negative_prompt == "blurry");
  BOOST_TEST(r.width == 512);
  BOOST_TEST(r.height == 768);
  BOOST_TEST(r.num_outputs == 3);
  BOOST_TEST(r.steps == 50);
  BOOST_TEST(r.seed_given);
  BOOST_TEST(r.seed == 123u);
  BOOST_REQUIRE(r.loras.size() == 2u);
  BOOST_TEST(r.loras[0].lora == "watercolor");
  BOOST_TEST(r.loras[0].weight == 0.5);
  BOOST_TEST(r.loras[1].lora == "pixel-art");
  BOOST_TEST(r.loras[1].weight == -1.25);
  BOOST_TEST(r.init_image.value() == file);
  BOOST_TEST(r.metadata.size() == 2u);
  BOOST_TEST(r.metadata.at("order") == "42");
  BOOST_TEST(r.metadata.at("user") == "");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(prompt)

BOOST_AUTO_TEST_CASE(is_required_and_a_string) {
  image_rejects(obj(R"({})"), "prompt");
  image_rejects(obj(R"({"width": 512})"), "prompt");
  image_rejects(obj(R"({"prompt": null})"), "prompt");
  image_rejects(obj(R"({"prompt": 5})"), "prompt");
  image_rejects(obj(R"({"prompt": ["a"]})"), "prompt");
  image_rejects(obj(R"({"prompt": true})"), "prompt");
  video_rejects(obj(R"({})"), "prompt");
  auto r = validate_image_request(obj(R"({})"));
  BOOST_TEST(r.error().message == "Invalid value for 'prompt': is required.");
}

BOOST_AUTO_TEST_CASE(length_boundaries_in_ascii) {
  image_rejects(with("prompt", ""), "prompt");
  BOOST_TEST(image_ok(with("prompt", "a")).prompt == "a");
  BOOST_TEST(image_ok(with("prompt", str(repeat("a", 4000)))).prompt.size() == 4000u);
  image_rejects(with("prompt", str(repeat("a", 4001))), "prompt");
  video_rejects(with("prompt", str(repeat("a", 4001))), "prompt");
  BOOST_TEST(video_ok(with("prompt", str(repeat("a", 4000)))).prompt.size() == 4000u);
}

BOOST_AUTO_TEST_CASE(length_counts_code_points_of_multibyte_text) {
  for (std::string_view unit : {"\xc3\xa9", "\xe6\x97\xa5", "\xf0\x9f\x98\x80"}) {
    BOOST_TEST_CONTEXT("unit of " << unit.size() << " bytes") {
      BOOST_TEST(image_ok(with("prompt", str(repeat(unit, 1)))).prompt == std::string{unit});
      BOOST_TEST(image_ok(with("prompt", str(repeat(unit, 4000)))).prompt.size() == 4000u * unit.size());
      image_rejects(with("prompt", str(repeat(unit, 4001))), "prompt");
    }
  }
  // 3999 ASCII + one 4-byte character is 4000 characters.
  BOOST_TEST(image_ok(with("prompt", str(repeat("a", 3999) + "\xf0\x9f\x98\x80"))).prompt.size() == 4003u);
}

BOOST_AUTO_TEST_CASE(invalid_utf8_is_an_invalid_parameter) {
  for (std::string bad : {"a\xff", "\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "ok \x80"}) {
    image_rejects(with("prompt", json::string(bad)), "prompt");
    video_rejects(with("prompt", json::string(bad)), "prompt");
  }
  auto r = validate_image_request(with("prompt", json::string("a\xff")));
  BOOST_TEST(r.error().message == "Invalid value for 'prompt': must be valid UTF-8.");
}

BOOST_AUTO_TEST_CASE(negative_prompt_is_0_to_4000_characters) {
  BOOST_TEST(image_ok(with("negative_prompt", "")).negative_prompt == "");
  BOOST_TEST(image_ok(with("negative_prompt", str(repeat("\xc3\xa9", 4000)))).negative_prompt.size() == 8000u);
  image_rejects(with("negative_prompt", str(repeat("n", 4001))), "negative_prompt");
  image_rejects(with("negative_prompt", 3), "negative_prompt");
  image_rejects(with("negative_prompt", json::string("\xff")), "negative_prompt");
  video_rejects(with("negative_prompt", str(repeat("n", 4001))), "negative_prompt");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(size)

BOOST_AUTO_TEST_CASE(image_sides_are_multiples_of_64_from_256_to_2048) {
  for (std::string_view side : {"width", "height"}) {
    BOOST_TEST_CONTEXT(side) {
      image_rejects(with(side, 192), side);
      image_rejects(with(side, 255), side);
      image_rejects(with(side, 0), side);
      image_rejects(with(side, -256), side);
      image_rejects(with(side, 300), side);
      image_rejects(with(side, 2047), side);
      image_rejects(with(side, 2112), side);
      image_rejects(with(side, 4096), side);
      image_rejects(with(side, 1024.5), side);
      image_rejects(with(side, "1024"), side);
      image_rejects(with(side, true), side);
      image_rejects(with(side, 1e20), side);
      image_rejects(with(side, UINT64_MAX), side);
      image_rejects(with(side, json::array{1024}), side);
    }
  }
  auto w = [](json::value v) { return image_ok(with("width", std::move(v))).width; };
  BOOST_TEST(w(256) == 256);
  BOOST_TEST(w(320) == 320);
  BOOST_TEST(w(2048) == 2048);
  BOOST_TEST(w(1024.0) == 1024);
  BOOST_TEST(w(uint64_t{640}) == 640);
  BOOST_TEST(image_ok(with("height", 2048)).height == 2048);
  BOOST_TEST(image_ok(with("height", 256)).height == 256);
  auto r = validate_image_request(with("width", 300));
  BOOST_TEST(r.error().message == "Invalid value for 'width': must be a multiple of 64 between 256 and 2048.");
}

BOOST_AUTO_TEST_CASE(video_sides_are_multiples_of_16_from_256_to_2048) {
  for (std::string_view side : {"width", "height"}) {
    BOOST_TEST_CONTEXT(side) {
      video_rejects(with(side, 240), side);
      video_rejects(with(side, 250), side);
      video_rejects(with(side, 300), side);
      video_rejects(with(side, 2064), side);
      video_rejects(with(side, 2056), side);
      video_rejects(with(side, 720.5), side);
      video_rejects(with(side, false), side);
    }
  }
  BOOST_TEST(video_ok(with("width", 256)).width == 256);
  BOOST_TEST(video_ok(with("width", 2048)).width == 2048);
  BOOST_TEST(video_ok(with("height", 432)).height == 432);
  auto hd = video_ok(obj(R"({"prompt": "x", "width": 1280, "height": 720.0})"));
  BOOST_TEST(hd.width == 1280);
  BOOST_TEST(hd.height == 720);
  // 432 is the video default, but no multiple of 64: the image rule refuses it.
  image_rejects(with("height", 432), "height");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(counts)

BOOST_AUTO_TEST_CASE(num_outputs_is_1_to_4) {
  image_rejects(with("num_outputs", 0), "num_outputs");
  BOOST_TEST(image_ok(with("num_outputs", 1)).num_outputs == 1);
  BOOST_TEST(image_ok(with("num_outputs", 4)).num_outputs == 4);
  BOOST_TEST(image_ok(with("num_outputs", 2.0)).num_outputs == 2);
  image_rejects(with("num_outputs", 5), "num_outputs");
  image_rejects(with("num_outputs", -1), "num_outputs");
  image_rejects(with("num_outputs", 2.5), "num_outputs");
  image_rejects(with("num_outputs", false), "num_outputs");
  image_rejects(with("num_outputs", "2"), "num_outputs");
  auto r = validate_image_request(with("num_outputs", 5));
  BOOST_TEST(r.error().message == "Invalid value for 'num_outputs': must be an integer between 1 and 4.");
}

BOOST_AUTO_TEST_CASE(steps_is_1_to_100) {
  image_rejects(with("steps", 0), "steps");
  BOOST_TEST(image_ok(with("steps", 1)).steps == 1);
  BOOST_TEST(image_ok(with("steps", 100)).steps == 100);
  image_rejects(with("steps", 101), "steps");
  image_rejects(with("steps", 30.1), "steps");
  image_rejects(with("steps", true), "steps");
}

BOOST_AUTO_TEST_CASE(seed_is_0_to_2_pow_32_minus_1) {
  image_rejects(with("seed", -1), "seed");
  auto zero = image_ok(with("seed", 0));
  BOOST_TEST(zero.seed_given);
  BOOST_TEST(zero.seed == 0u);
  auto top = image_ok(with("seed", 4294967295));
  BOOST_TEST(top.seed_given);
  BOOST_TEST(top.seed == 4294967295u);
  BOOST_TEST(image_ok(with("seed", 42.0)).seed == 42u);
  image_rejects(with("seed", 4294967296), "seed");
  image_rejects(with("seed", 1.5), "seed");
  image_rejects(with("seed", "42"), "seed");
  image_rejects(with("seed", true), "seed");
  auto v = video_ok(with("seed", 4294967295));
  BOOST_TEST(v.seed_given);
  BOOST_TEST(v.seed == 4294967295u);
  video_rejects(with("seed", 4294967296), "seed");
}

BOOST_AUTO_TEST_CASE(video_duration_is_1_to_10_and_fps_8_to_30) {
  video_rejects(with("duration_seconds", 0), "duration_seconds");
  BOOST_TEST(video_ok(with("duration_seconds", 1)).duration_seconds == 1);
  BOOST_TEST(video_ok(with("duration_seconds", 10)).duration_seconds == 10);
  video_rejects(with("duration_seconds", 11), "duration_seconds");
  video_rejects(with("duration_seconds", 2.5), "duration_seconds");
  video_rejects(with("fps", 7), "fps");
  BOOST_TEST(video_ok(with("fps", 8)).fps == 8);
  BOOST_TEST(video_ok(with("fps", 30)).fps == 30);
  video_rejects(with("fps", 31), "fps");
  video_rejects(with("fps", "24"), "fps");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(unknown_fields)

BOOST_AUTO_TEST_CASE(unknown_top_level_fields_are_named) {
  image_rejects(with("foo", 1), "foo", error_code::unknown_parameter);
  image_rejects(with("Prompt", "x"), "Prompt", error_code::unknown_parameter);
  video_rejects(with("foo", 1), "foo", error_code::unknown_parameter);
  auto r = validate_image_request(with("foo", 1));
  BOOST_TEST(r.error().message == "Unknown parameter 'foo'.");
}

BOOST_AUTO_TEST_CASE(fields_of_the_other_kind_are_unknown) {
  video_rejects(with("num_outputs", 1), "num_outputs", error_code::unknown_parameter);
  video_rejects(with("steps", 30), "steps", error_code::unknown_parameter);
  image_rejects(with("duration_seconds", 4), "duration_seconds", error_code::unknown_parameter);
  image_rejects(with("fps", 24), "fps", error_code::unknown_parameter);
}

BOOST_AUTO_TEST_CASE(unknown_fields_are_reported_before_invalid_ones) {
  image_rejects(obj(R"({"width": 3, "zzz": 1})"), "zzz", error_code::unknown_parameter);
  image_rejects(obj(R"({"prompt": "x", "b_unknown": 1, "a_unknown": 2})"), "b_unknown",
                error_code::unknown_parameter);
}

BOOST_AUTO_TEST_CASE(the_first_invalid_field_in_documented_order_is_named) {
  image_rejects(obj(R"({"width": 3})"), "prompt");
  image_rejects(obj(R"({"prompt": "x", "seed": -1, "width": 3})"), "width");
  image_rejects(obj(R"({"prompt": "x", "metadata": 1, "steps": 0})"), "steps");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
