// Validation of the adapter, init image and metadata fields of generation requests.
#include "schema/generation_request.hpp"

#include <boost/test/unit_test.hpp>

#include "request_test_support.hpp"

BOOST_AUTO_TEST_SUITE(schema_generation_request_fields)

using namespace svc::schema::testing;

BOOST_AUTO_TEST_SUITE(loras)

BOOST_AUTO_TEST_CASE(lora_id_xor_loras) {
  image_rejects(obj(R"({"prompt": "x", "lora_id": "watercolor", "loras": [{"lora": "pixel-art", "weight": 1}]})"),
                "loras");
  video_rejects(obj(R"({"prompt": "x", "lora_id": "watercolor", "loras": [{"lora": "pixel-art", "weight": 1}]})"),
                "loras");
  // Both present but invalid still reports the conflict.
  image_rejects(obj(R"({"prompt": "x", "lora_id": 5, "loras": 7})"), "loras");
  auto r = image_ok(obj(R"({"prompt": "x", "lora_id": null, "loras": [{"lora": "pixel-art", "weight": 1}]})"));
  BOOST_TEST(r.loras.size() == 1u);
  BOOST_TEST(!r.lora_id.has_value());
  auto s = image_ok(obj(R"({"prompt": "x", "lora_id": "watercolor", "loras": null})"));
  BOOST_TEST(s.lora_id.value() == "watercolor");
  BOOST_TEST(s.loras.empty());
}

BOOST_AUTO_TEST_CASE(lora_id_is_a_non_empty_string) {
  auto id = svc::core::make_id("lora");
  BOOST_TEST(image_ok(with("lora_id", str(id))).lora_id.value() == id);
  BOOST_TEST(video_ok(with("lora_id", "neon-noir")).lora_id.value() == "neon-noir");
  image_rejects(with("lora_id", ""), "lora_id");
  image_rejects(with("lora_id", 5), "lora_id");
  image_rejects(with("lora_id", json::object{}), "lora_id");
  image_rejects(with("lora_id", str(repeat("x", 101))), "lora_id");
}

BOOST_AUTO_TEST_CASE(loras_holds_1_to_5_items) {
  image_rejects(with("loras", json::array{}), "loras");
  image_rejects(with("loras", "watercolor"), "loras");
  image_rejects(with("loras", json::object{{"lora", "watercolor"}}), "loras");
  json::array five, six;
  for (auto slug : {"a", "b", "c", "d", "e"})
    five.push_back({{"lora", slug}, {"weight", 1}});
  six = five;
  six.push_back({{"lora", "f"}, {"weight", 1}});
  BOOST_TEST(image_ok(with("loras", five)).loras.size() == 5u);
  image_rejects(with("loras", six), "loras");
  BOOST_TEST(image_ok(with("loras", json::array{{{"lora", "a"}, {"weight", 1}}})).loras.size() == 1u);
  video_rejects(with("loras", six), "loras");
}

BOOST_AUTO_TEST_CASE(items_are_objects_with_lora_and_weight) {
  image_rejects(with("loras", json::array{"watercolor"}), "loras[0]");
  image_rejects(obj(R"({"prompt": "x", "loras": [{"lora": "a"}, 3]})"), "loras[1]");
  image_rejects(obj(R"({"prompt": "x", "loras": [{"weight": 1}]})"), "loras[0].lora");
  image_rejects(obj(R"({"prompt": "x", "loras": [{"lora": null, "weight": 1}]})"), "loras[0].lora");
  image_rejects(obj(R"({"prompt": "x", "loras": [{"lora": 7, "weight": 1}]})"), "loras[0].lora");
  image_rejects(obj(R"({"prompt": "x", "loras": [{"lora": "", "weight": 1}]})"), "loras[0].lora");
  image_rejects(obj(R"({"prompt": "x", "loras": [{"lora": "a", "weight": 1, "scale": 2}]})"), "loras[0].scale",
                error_code::unknown_parameter);
}

BOOST_AUTO_TEST_CASE(weight_is_minus_2_to_2_and_defaults_to_1) {
  auto weight = [](json::value w) {
    return image_ok(with("loras", json::array{{{"lora", "a"}, {"weight", std::move(w)}}})).loras.at(0).weight;
  };
  BOOST_TEST(weight(-2.0) == -2.0);
  BOOST_TEST(weight(2.0) == 2.0);
  BOOST_TEST(weight(2) == 2.0);
  BOOST_TEST(weight(-2) == -2.0);
  BOOST_TEST(weight(0) == 0.0);
  BOOST_TEST(weight(0.35) == 0.35);
  BOOST_TEST(weight(nullptr) == 1.0);
  BOOST_TEST(image_ok(obj(R"({"prompt": "x", "loras": [{"lora": "a"}]})")).loras.at(0).weight == 1.0);
  auto rejects = [](json::value w) {
    image_rejects(with("loras", json::array{{{"lora", "a"}, {"weight", 1}}, {{"lora", "b"}, {"weight", 1}},
                                            {{"lora", "c"}, {"weight", std::move(w)}}}),
                  "loras[2].weight");
  };
  rejects(-2.01);
  rejects(2.0000001);
  rejects(3);
  rejects(-3);
  rejects("1");
  rejects(true);
  rejects(json::array{1});
  auto r = validate_image_request(with("loras", json::array{{{"lora", "a"}, {"weight", 2.5}}}));
  BOOST_TEST(r.error().message == "Invalid value for 'loras[0].weight': must be a number between -2.0 and 2.0.");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(init_image)

BOOST_AUTO_TEST_CASE(takes_a_file_id_or_nothing) {
  auto file = svc::core::make_id("file");
  BOOST_TEST(image_ok(with("init_image", str(file))).init_image.value() == file);
  BOOST_TEST(video_ok(with("init_image", str(file))).init_image.value() == file);
  BOOST_TEST(!image_ok(with("init_image", nullptr)).init_image.has_value());
  image_rejects(with("init_image", str(svc::core::make_id("img"))), "init_image");
  image_rejects(with("init_image", "file_abc"), "init_image");
  image_rejects(with("init_image", "https://example.com/a.png"), "init_image");
  image_rejects(with("init_image", ""), "init_image");
  image_rejects(with("init_image", 5), "init_image");
  video_rejects(with("init_image", "file_abc"), "init_image");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(metadata)

BOOST_AUTO_TEST_CASE(is_an_object_of_at_most_20_keys) {
  BOOST_TEST(image_ok(with("metadata", json::object{})).metadata.empty());
  json::object twenty;
  for (int i = 0; i < 20; ++i)
    twenty["k" + std::to_string(i)] = "v";
  BOOST_TEST(image_ok(with("metadata", twenty)).metadata.size() == 20u);
  auto twenty_one = twenty;
  twenty_one["k20"] = "v";
  image_rejects(with("metadata", twenty_one), "metadata");
  video_rejects(with("metadata", twenty_one), "metadata");
  image_rejects(with("metadata", json::array{}), "metadata");
  image_rejects(with("metadata", "k=v"), "metadata");
}

BOOST_AUTO_TEST_CASE(keys_are_1_to_40_characters) {
  BOOST_TEST(image_ok(with("metadata", json::object{{repeat("k", 40), "v"}})).metadata.size() == 1u);
  BOOST_TEST(image_ok(with("metadata", json::object{{"k", "v"}})).metadata.at("k") == "v");
  BOOST_TEST(image_ok(with("metadata", json::object{{repeat("\xc3\xa9", 40), "v"}})).metadata.size() == 1u);
  image_rejects(with("metadata", json::object{{repeat("k", 41), "v"}}), "metadata");
  image_rejects(with("metadata", json::object{{repeat("\xc3\xa9", 41), "v"}}), "metadata");
  image_rejects(with("metadata", json::object{{"", "v"}}), "metadata");
}

BOOST_AUTO_TEST_CASE(values_are_strings_of_at_most_500_characters) {
  BOOST_TEST(image_ok(with("metadata", json::object{{"k", repeat("v", 500)}})).metadata.at("k").size() == 500u);
  BOOST_TEST(image_ok(with("metadata", json::object{{"k", repeat("\xe6\x97\xa5", 500)}})).metadata.at("k").size()
             == 1500u);
  image_rejects(with("metadata", json::object{{"a", "ok"}, {"order", repeat("v", 501)}}), "metadata.order");
  image_rejects(with("metadata", json::object{{"order", 42}}), "metadata.order");
  image_rejects(with("metadata", json::object{{"order", nullptr}}), "metadata.order");
  image_rejects(with("metadata", json::object{{"order", true}}), "metadata.order");
  image_rejects(with("metadata", json::object{{"order", json::object{}}}), "metadata.order");
  image_rejects(with("metadata", json::object{{"order", json::string("\xff")}}), "metadata.order");
  video_rejects(with("metadata", json::object{{"order", 42}}), "metadata.order");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
