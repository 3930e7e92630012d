// POST /v1/images/estimate: the price of the equivalent create under each
// Svc-Version (breakdown by the published price table), equal to the cost the
// create holds and then charges; it validates like a create and creates,
// holds and charges nothing.
#include <boost/test/unit_test.hpp>

#include <boost/json/serialize.hpp>

#include <map>
#include <string>
#include <vector>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_images_estimate)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

constexpr std::int64_t megapixel = 1 << 20;

response estimate(http_client& c, const std::string& key, const boost::json::value& body, header_map more = {}) {
  return c.request("POST", "/v1/images/estimate", with_key(key, std::move(more)), boost::json::serialize(body));
}

// item -> credits of GET /v1/pricing under `version`.
std::map<std::string, std::int64_t> price_table(http_client& c, const std::string& key, const std::string& version) {
  auto p = c.get("/v1/pricing", with_key(key, {{"Svc-Version", version}})).json();
  std::map<std::string, std::int64_t> out;
  for (long i = 0; i < json_size(p, "items"); ++i) {
    auto at = "items." + std::to_string(i);
    out[json_str(p, at + ".item")] = json_int(p, at + ".credits").value_or(-1);
  }
  return out;
}

struct shape {
  std::string name;
  boost::json::object body;
  std::int64_t outputs, megapixels, step_blocks, loras;
};

// The breakdown the price rules give: per output and started megapixel, per
// started 10 steps above 30, per LoRA (chosen or auto-selected).
std::vector<std::pair<std::string, std::int64_t>> expected_breakdown(const shape& s,
                                                                     std::map<std::string, std::int64_t>& prices) {
  std::vector<std::pair<std::string, std::int64_t>> lines{{"image", s.outputs * s.megapixels * prices["image"]}};
  if (s.step_blocks > 0)
    lines.emplace_back("image_steps", s.outputs * s.step_blocks * prices["image_steps"]);
  if (s.loras > 0)
    lines.emplace_back("lora", s.outputs * s.loras * prices["lora"]);
  return lines;
}

std::vector<std::pair<std::string, std::int64_t>> breakdown_of(const boost::json::value& estimate) {
  std::vector<std::pair<std::string, std::int64_t>> lines;
  for (long i = 0; i < json_size(estimate, "breakdown"); ++i) {
    auto at = "breakdown." + std::to_string(i);
    lines.emplace_back(json_str(estimate, at + ".item"), json_int(estimate, at + ".credits").value_or(-1));
  }
  return lines;
}

std::vector<shape> shapes() {
  auto big = image_body("a plain grey box", 1280, 1024);
  big["num_outputs"] = 2;
  big["steps"] = 45;
  auto stacked = image_body("a plain grey box", 256, 256);
  stacked["num_outputs"] = 3;
  stacked["loras"] = boost::json::array{boost::json::object{{"lora", "watercolor"}, {"weight", 0.5}},
                                        boost::json::object{{"lora", "pixel-art"}}};
  return {
    {"defaults (1024x1024, one output, 30 steps)", {{"prompt", "a plain grey box"}}, 1, 1, 0, 0},
    {"two outputs of two megapixels at 45 steps", big, 2, 1280 * 1024 / megapixel + 1, 2, 0},
    {"three outputs with two LoRAs", stacked, 3, 1, 0, 2},
    {"an auto-selected LoRA", image_body("a neon city at night", 512, 512), 1, 1, 0, 1},
  };
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(images_estimate, server_fixture)

BOOST_AUTO_TEST_CASE(estimate_equals_the_held_and_charged_cost) {
  auto t = create_team_with_keys(100000);
  auto c = api();
  std::int64_t charged = 0;
  for (std::string version : {"2026-01-15", "2026-09-01"}) {
    auto prices = price_table(c, t.read.key, version);
    BOOST_REQUIRE_MESSAGE(prices.count("image") == 1, "no image price for " << version);
    for (auto& s : shapes()) {
      BOOST_TEST_CONTEXT(version << ", " << s.name) {
        auto available = get_balance(c, t.read.key).available;
        auto e = estimate(c, t.write.key, s.body, {{"Svc-Version", version}});
        BOOST_REQUIRE_MESSAGE(e.status == 200, e.summary());
        auto est = e.json();
        BOOST_TEST(json_str(est, "object") == "estimate");
        BOOST_TEST(json_str(est, "api_version") == version);
        BOOST_TEST(e.header_or_empty("Svc-Version") == version);
        auto credits = json_int(est, "credits").value_or(-1);
        auto want = expected_breakdown(s, prices);
        std::int64_t sum = 0;
        for (auto& [item, n] : want)
          sum += n;
        BOOST_TEST(breakdown_of(est) == want, boost::json::serialize(est));
        BOOST_TEST(credits == sum);
        BOOST_TEST(json_int(est, "available_credits") == available);
        BOOST_TEST(json_bool(est, "sufficient") == true);

        auto created = create_image_ok(c, t.write.key, s.body, {{"Svc-Version", version}});
        BOOST_TEST(json_int(created, "cost.credits") == credits);
        BOOST_TEST(json_str(created, "cost.status") == "held");
        BOOST_TEST(json_str(created, "api_version") == version);
        auto done = wait_terminal(c, t.read.key, json_str(created, "id"));
        BOOST_TEST(json_str(done, "status") == "succeeded", done);
        BOOST_TEST(json_str(done, "cost.status") == "charged");
        BOOST_TEST(json_int(done, "cost.credits") == credits);
        BOOST_TEST(get_balance(c, t.read.key).available == available - credits, "the charge is the estimate");
        charged += credits;
      }
    }
  }
  auto b = get_balance(c, t.read.key);
  BOOST_TEST(b.available == 100000 - charged);
  BOOST_TEST(b.held == 0);
  auto usage = c.get("/v1/usage", with_key(t.read.key)).json();
  BOOST_TEST(json_int(usage, "total.credits_charged") == charged);
}

BOOST_AUTO_TEST_CASE(estimate_creates_holds_and_charges_nothing) {
  auto t = create_team_with_keys(500);
  auto c = api();
  auto existing = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, existing), "status") == "succeeded");
  auto before = get_balance(c, t.read.key);
  auto list_before = list_image_ids(c, t.read.key);
  auto usage_before = c.get("/v1/usage", with_key(t.read.key)).json();

  for (int i = 0; i < 5; ++i) {
    auto e = estimate(c, t.write.key, image_body("estimate " + std::to_string(i)), {{"Idempotency-Key", "k"}});
    BOOST_TEST(e.status == 200, e.summary());
    BOOST_TEST(e.header_or_empty("Location").empty());
    BOOST_TEST(e.header_or_empty("Idempotent-Replayed").empty());
  }
  auto after = get_balance(c, t.read.key);
  BOOST_TEST(after.available == before.available);
  BOOST_TEST(after.held == 0);
  BOOST_TEST(list_image_ids(c, t.read.key) == list_before);
  BOOST_TEST(c.get("/v1/usage", with_key(t.read.key)).json() == usage_before);
  // The idempotency key was not recorded for the create route either.
  auto r = create_image(c, t.write.key, image_body("a different body"), {{"Idempotency-Key", "k"}});
  BOOST_TEST(r.status == 201, r.summary());
  BOOST_TEST(r.header_or_empty("Idempotent-Replayed").empty());
}

BOOST_AUTO_TEST_CASE(estimate_says_when_credits_do_not_suffice) {
  auto t = create_team_with_keys(2);
  auto c = api();
  auto e = estimate(c, t.write.key, image_body());
  BOOST_REQUIRE_MESSAGE(e.status == 200, e.summary());
  BOOST_TEST(json_int(e.json(), "credits") == 3);
  BOOST_TEST(json_int(e.json(), "available_credits") == 2);
  BOOST_TEST(json_bool(e.json(), "sufficient") == false);
  auto create = create_image(c, t.write.key, image_body());
  BOOST_TEST(is_error(create, 402, "insufficient_credits"), create.summary());
}

BOOST_AUTO_TEST_CASE(estimate_validates_like_create) {
  auto t = create_team_with_keys();
  auto c = api();
  auto unknown = estimate(c, t.write.key, boost::json::object{{"prompt", "x"}, {"colour", "red"}});
  BOOST_TEST(is_error(unknown, 400, "unknown_parameter"), unknown.summary());
  BOOST_TEST(json_str(unknown.json(), "error.param") == "colour");
  auto width = estimate(c, t.write.key, image_body("x", 100, 256));
  BOOST_TEST(is_error(width, 400, "invalid_parameter"), width.summary());
  BOOST_TEST(json_str(width.json(), "error.param") == "width");
  auto lora = estimate(c, t.write.key, boost::json::object{{"prompt", "x"}, {"lora_id", "no-such-style"}});
  BOOST_TEST(is_error(lora, 400, "invalid_parameter"), lora.summary());
  BOOST_TEST(json_str(lora.json(), "error.param") == "lora_id");
  auto garbage = c.request("POST", "/v1/images/estimate", with_key(t.write.key), "{not json");
  BOOST_TEST(is_error(garbage, 400, "invalid_body"), garbage.summary());
  auto read_only = estimate(c, t.read.key, image_body());
  BOOST_TEST(is_error(read_only, 403, "missing_scope"), read_only.summary());
  BOOST_TEST(list_image_ids(c, t.read.key).empty());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
