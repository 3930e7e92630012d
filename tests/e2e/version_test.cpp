// Svc-Version: pinning a published version (echoed, and its frozen pricing
// table applies), the team default when absent, and invalid values.
#include <boost/test/unit_test.hpp>

#include <map>
#include <string>

#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_version)

using namespace svc::e2e;

namespace {

// Pricing is frozen per version, so these tables never change.
const std::map<std::string, std::map<std::string, std::int64_t>> frozen_prices{
  {"2026-01-15", {{"image", 4}, {"image_steps", 1}, {"lora", 1}, {"video", 12}}},
  {"2026-09-01", {{"image", 3}, {"image_steps", 1}, {"lora", 0}, {"video", 10}}},
};

std::map<std::string, std::int64_t> prices_of(const boost::json::value& pricing) {
  std::map<std::string, std::int64_t> out;
  for (long i = 0; i < json_size(pricing, "items"); ++i) {
    auto prefix = "items." + std::to_string(i);
    out[json_str(pricing, prefix + ".item")] = json_int(pricing, prefix + ".credits").value_or(-1);
  }
  return out;
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(version, server_fixture)

BOOST_AUTO_TEST_CASE(pinned_version_is_echoed_and_prices_its_table) {
  auto t = create_team_with_keys();
  auto c = api();
  for (auto& [version, prices] : frozen_prices) {
    BOOST_TEST_CONTEXT("Svc-Version " << version) {
      auto r = c.get("/v1/pricing", with_key(t.read.key, {{"Svc-Version", version}}));
      BOOST_TEST(r.status == 200, r.summary());
      BOOST_TEST(r.header_or_empty("Svc-Version") == version);
      auto body = r.json();
      BOOST_TEST(json_str(body, "api_version") == version);
      BOOST_TEST((prices_of(body) == prices), r.body);
      auto team = c.get("/v1/team", with_key(t.read.key, {{"Svc-Version", version}}));
      BOOST_TEST(team.header_or_empty("Svc-Version") == version);
    }
  }
}

BOOST_AUTO_TEST_CASE(absent_version_applies_the_team_default) {
  auto t = create_team_with_keys();
  auto c = api();
  auto team = c.get("/v1/team", with_key(t.read.key));
  BOOST_TEST(json_str(team.json(), "default_api_version") == "2026-09-01", "new teams get the newest");
  BOOST_TEST(team.header_or_empty("Svc-Version") == "2026-09-01");
  auto r = c.get("/v1/pricing", with_key(t.read.key));
  BOOST_TEST(r.header_or_empty("Svc-Version") == "2026-09-01");
  BOOST_TEST(json_str(r.json(), "api_version") == "2026-09-01");
  BOOST_TEST((prices_of(r.json()) == frozen_prices.at("2026-09-01")), r.body);
}

BOOST_AUTO_TEST_CASE(invalid_versions_are_400) {
  auto t = create_team_with_keys();
  auto c = api();
  for (std::string bad : {"2025-01-01", "garbage", "2026-09-02", "2026-9-1", " 2026-09-01x"}) {
    BOOST_TEST_CONTEXT("Svc-Version '" << bad << "'") {
      auto r = c.get("/v1/pricing", with_key(t.read.key, {{"Svc-Version", bad}}));
      BOOST_TEST(is_error(r, 400, "invalid_api_version"), r.summary());
      auto body = r.json();
      BOOST_TEST(json_str(body, "error.type") == "invalid_request");
      BOOST_TEST(json_str(body, "error.message").find("2026-09-01") != std::string::npos, "lists the valid ones");
      BOOST_TEST(json_str(body, "error.doc_url") == svcd.api_url() + "/docs/errors#invalid_api_version");
      auto applied = r.header_or_empty("Svc-Version");
      BOOST_TEST((applied == "2026-01-15" || applied == "2026-09-01"), "applied '" << applied << "'");
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
