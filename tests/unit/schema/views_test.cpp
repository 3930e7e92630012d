#include "schema/views.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include <boost/json.hpp>

#include "core/time_format.hpp"
#include "tests/support/json_identical.hpp"

BOOST_AUTO_TEST_SUITE(schema_views)

namespace {

namespace json = boost::json;
using namespace svc::schema;

// The team view before the direct writer existed (a json::value tree, then
// serialize), kept as the oracle the text must equal byte for byte.
json::value reference_team_view(const team_record& t) {
  json::object overrides;
  for (auto& [name, l] : t.rate_limit_overrides)
    overrides[name] = {{"capacity", json_number(l.capacity)}, {"per_minute", json_number(l.per_minute)}};
  return {{"id", t.id},
          {"object", "team"},
          {"name", t.name},
          {"owner_email", t.owner_email},
          {"default_api_version", t.default_api_version},
          {"balance_low_threshold", t.balance_low_threshold},
          {"rate_limit_overrides", std::move(overrides)},
          {"created_at", svc::core::format_iso8601(t.created_at)}};
}

std::vector<team_record> teams() {
  team_record plain;
  plain.id = "team_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  plain.name = "Acme";
  plain.owner_email = "ops@acme.test";
  plain.default_api_version = "2026-09-01";
  plain.created_at = svc::core::from_unix_ms(1763720130123);
  auto limited = plain;
  limited.balance_low_threshold = -7;
  limited.rate_limit_overrides = {{"reads", {100000000, 6000000000}}, {"images_post", {2.5, 0.1}},
                                  {"files_post", {1e20, 1.0 / 3.0}}};
  auto awkward = plain;
  awkward.name = std::string{"\"quoted\" \\ \n\t\x01\x7f é \xff"};
  awkward.owner_email = "";
  awkward.disabled_at = svc::core::from_unix_ms(1763720139000); // not part of the team's own view
  auto escaped = plain;
  escaped.name = std::string{"\"quoted\" \\ / \n\t\r\b\f "} + '\0' + " \x01\x1f\x7f é 水 🌊 </script>";
  escaped.owner_email = "o'brien+\"x\"@example.test";
  escaped.balance_low_threshold = int64_t{1} << 50;
  escaped.rate_limit_overrides = {{"", {0, 0}}, {"we\"ird\n", {-0.0, 5e-324}}, {"big", {1.7976931348623157e308, 9e15}}};
  escaped.created_at = svc::core::from_unix_ms(0);
  return {plain, limited, awkward, escaped};
}

} // namespace

BOOST_AUTO_TEST_CASE(the_team_text_equals_the_tree_rendering_byte_for_byte) {
  for (auto& t : teams()) {
    auto expected = json::serialize(reference_team_view(t));
    std::string text = "{";
    write_team_view(text, t);
    BOOST_TEST(text.substr(1) == expected);
    BOOST_TEST(svc::test::json_identical(team_view(t), reference_team_view(t)));
    if (t.name.find('\xff') != std::string::npos)
      continue; // not UTF-8: written as it is, as before, but not JSON that reads back
    json::error_code ec;
    auto back = json::parse(text.substr(1), ec);
    BOOST_REQUIRE_MESSAGE(!ec, ec.message());
    BOOST_TEST(svc::test::json_reads_back(back, reference_team_view(t)));
    BOOST_TEST(back.as_object().at("name").as_string() == t.name);
  }
}

BOOST_AUTO_TEST_CASE(whole_numbers_show_as_integers) {
  BOOST_TEST(json_number(50).is_int64());
  BOOST_TEST(json_number(-3).as_int64() == -3);
  BOOST_TEST(json_number(0.5).is_double());
  BOOST_TEST(json_number(2.2e85).is_double()); // whole, but past int64
  BOOST_TEST(json_number(-1e300).is_double());
}

BOOST_AUTO_TEST_SUITE_END()
