#include "schema/estimate_view.hpp"

#include <boost/test/unit_test.hpp>

#include <set>
#include <string>

#include <boost/json.hpp>

#include "schema/generation_request.hpp"

BOOST_AUTO_TEST_SUITE(schema_estimate_view)

namespace {

namespace json = boost::json;
using namespace svc::schema;

std::set<std::string> keys(const json::object& o) {
  std::set<std::string> out;
  for (auto& e : o)
    out.emplace(e.key());
  return out;
}

} // namespace

BOOST_AUTO_TEST_CASE(shape_of_the_estimate) {
  price_quote q{30, {{"image", 12}, {"image_steps", 3}, {"lora", 15}}};
  auto v = estimate_view(q, "2026-01-15", 1000);
  auto& o = v.as_object();
  BOOST_TEST((keys(o) == std::set<std::string>{"object", "credits", "api_version", "breakdown", "available_credits",
                                                 "sufficient"}));
  BOOST_TEST(o.at("object").as_string() == "estimate");
  BOOST_TEST(o.at("credits").as_int64() == 30);
  BOOST_TEST(o.at("api_version").as_string() == "2026-01-15");
  BOOST_TEST(o.at("available_credits").as_int64() == 1000);
  BOOST_TEST(o.at("sufficient").as_bool() == true);
  BOOST_TEST(json::serialize(o.at("breakdown"))
             == R"([{"item":"image","credits":12},{"item":"image_steps","credits":3},{"item":"lora","credits":15}])");
}

BOOST_AUTO_TEST_CASE(sufficient_when_available_covers_the_cost) {
  price_quote q{48, {{"video", 48}}};
  BOOST_TEST(estimate_view(q, "2026-09-01", 48).at("sufficient").as_bool() == true);
  BOOST_TEST(estimate_view(q, "2026-09-01", 47).at("sufficient").as_bool() == false);
  BOOST_TEST(estimate_view(q, "2026-09-01", 0).at("sufficient").as_bool() == false);
  BOOST_TEST(estimate_view(q, "2026-09-01", -5).at("sufficient").as_bool() == false);
  BOOST_TEST(estimate_view(price_quote{}, "2026-09-01", 0).at("sufficient").as_bool() == true);
}

BOOST_AUTO_TEST_CASE(estimate_equals_the_price_a_create_would_hold) {
  auto body = json::parse(R"({"prompt": "a neon city", "width": 2048, "height": 1088, "num_outputs": 2,
                              "steps": 55})").as_object();
  auto r = validate_image_request(body);
  BOOST_REQUIRE(r);
  for (auto version : {"2026-01-15", "2026-09-01"}) {
    auto& table = pricing_for(version);
    auto price = price_image(r.value(), 1, table);
    auto v = estimate_view(price, version, 100);
    BOOST_TEST(v.at("credits").as_int64() == price.credits);
    BOOST_TEST(v.at("api_version").as_string() == version);
    auto& lines = v.at("breakdown").as_array();
    BOOST_REQUIRE(lines.size() == price.breakdown.size());
    int64_t sum = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      BOOST_TEST(lines[i].at("item").as_string() == price.breakdown[i].item);
      BOOST_TEST(lines[i].at("credits").as_int64() == price.breakdown[i].credits);
      sum += lines[i].at("credits").as_int64();
    }
    BOOST_TEST(sum == v.at("credits").as_int64());
  }
  // 2048x1088 = 2,228,224 px: 3 started megapixels; 55 steps: 3 blocks.
  // 2026-01-15: 2 * (4*3 + 3 + 1) = 32. 2026-09-01: 2 * (3*3 + 3 + 0) = 24.
  BOOST_TEST(estimate_view(price_image(r.value(), 1, pricing_for("2026-01-15")), "2026-01-15", 0).at("credits")
               .as_int64() == 32);
  BOOST_TEST(estimate_view(price_image(r.value(), 1, pricing_for("2026-09-01")), "2026-09-01", 0).at("credits")
               .as_int64() == 24);
}

BOOST_AUTO_TEST_SUITE_END()
