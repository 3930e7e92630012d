#include "schema/api_versions.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "core/time_format.hpp"
#include "schema/pricing.hpp"

BOOST_AUTO_TEST_SUITE(schema_api_versions)

BOOST_AUTO_TEST_CASE(the_two_published_versions_oldest_first) {
  auto& versions = svc::schema::api_versions();
  BOOST_TEST((versions == std::vector<std::string>{"2026-01-15", "2026-09-01"}));
  BOOST_TEST(svc::schema::newest_api_version() == "2026-09-01");
  BOOST_TEST(svc::schema::newest_api_version() == versions.back());
}

BOOST_AUTO_TEST_CASE(versions_are_calendar_dates_in_order) {
  auto& versions = svc::schema::api_versions();
  for (std::size_t i = 0; i < versions.size(); ++i) {
    auto day = svc::core::parse_date(versions[i]);
    BOOST_REQUIRE_MESSAGE(day.has_value(), versions[i]);
    if (i > 0)
      BOOST_TEST((*svc::core::parse_date(versions[i - 1]) < *day));
  }
}

BOOST_AUTO_TEST_CASE(is_api_version_accepts_only_published_dates) {
  BOOST_TEST(svc::schema::is_api_version("2026-01-15"));
  BOOST_TEST(svc::schema::is_api_version("2026-09-01"));
  for (std::string_view bad : {"", "2026-01-16", "2026-9-01", "2026-09-01 ", " 2026-09-01", "2026-09-01T00:00:00Z",
                               "20260901", "latest", "2025-01-15"}) {
    BOOST_TEST(!svc::schema::is_api_version(bad), "'" << bad << "'");
  }
}

BOOST_AUTO_TEST_CASE(versions_text_for_error_messages) {
  BOOST_TEST(svc::schema::api_versions_text() == "2026-01-15, 2026-09-01");
}

BOOST_AUTO_TEST_CASE(every_version_has_its_own_price_table) {
  for (auto& v : svc::schema::api_versions()) {
    auto& table = svc::schema::pricing_for(v);
    BOOST_TEST(table.api_version == v);
    BOOST_TEST(!table.items.empty(), v);
  }
  BOOST_TEST(svc::schema::pricing_for("1999-01-01").api_version == svc::schema::newest_api_version());
}

BOOST_AUTO_TEST_SUITE_END()
