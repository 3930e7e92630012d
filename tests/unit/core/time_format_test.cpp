#include "core/time_format.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string_view>

BOOST_AUTO_TEST_SUITE(core_time_format)

namespace {

using namespace svc::core;

constexpr int64_t sunset_ms = 1785801600000; // 2026-08-04T00:00:00Z

} // namespace

BOOST_AUTO_TEST_CASE(iso8601_has_milliseconds_and_z) {
  BOOST_TEST(format_iso8601(from_unix_ms(0)) == "1970-01-01T00:00:00.000Z");
  BOOST_TEST(format_iso8601(from_unix_ms(sunset_ms)) == "2026-08-04T00:00:00.000Z");
  BOOST_TEST(format_iso8601(from_unix_ms(sunset_ms + 37'230'123)) == "2026-08-04T10:20:30.123Z");
  BOOST_TEST(format_iso8601(from_unix_ms(1835481599999)) == "2028-02-29T23:59:59.999Z");
}

BOOST_AUTO_TEST_CASE(iso8601_agrees_with_gmtime_across_the_calendar) {
  // Leap days, century years and every month, before 1970 and long after; a
  // step of 23 h 1 min 1.001 s brings every hour, minute and second.
  for (int64_t ms = -2'208'988'800'000; ms < 7'258'118'400'000; ms += 82'861'001) {
    auto secs = static_cast<std::time_t>(ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000));
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char expected[40];
    std::snprintf(expected, sizeof expected, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(((ms % 1000) + 1000) % 1000));
    BOOST_TEST(format_iso8601(from_unix_ms(ms)) == expected, ms);
  }
}

BOOST_AUTO_TEST_CASE(iso8601_round_trips) {
  for (int64_t ms : {int64_t{0}, int64_t{1}, int64_t{999}, sunset_ms, sunset_ms + 86'399'999,
                     int64_t{1835481599999}, int64_t{1763720130123}, int64_t{4102444800000}}) {
    auto text = format_iso8601(from_unix_ms(ms));
    auto back = parse_iso8601(text);
    BOOST_REQUIRE_MESSAGE(back.has_value(), text);
    BOOST_TEST(to_unix_ms(*back) == ms, text);
  }
}

BOOST_AUTO_TEST_CASE(iso8601_accepts_other_precisions_and_utc_offset) {
  BOOST_TEST(to_unix_ms(parse_iso8601("2026-08-04T00:00:00Z").value()) == sunset_ms);
  BOOST_TEST(to_unix_ms(parse_iso8601("2026-08-04T00:00:00+00:00").value()) == sunset_ms);
  BOOST_TEST(to_unix_ms(parse_iso8601("2026-08-04T00:00:00.5Z").value()) == sunset_ms + 500);
  BOOST_TEST(to_unix_ms(parse_iso8601("2026-08-04T00:00:00.05Z").value()) == sunset_ms + 50);
  BOOST_TEST(to_unix_ms(parse_iso8601("2026-08-04T00:00:00.123456Z").value()) == sunset_ms + 123);
  BOOST_TEST(to_unix_ms(parse_iso8601("2026-08-04T00:00:01.123456789Z").value()) == sunset_ms + 1123);
}

BOOST_AUTO_TEST_CASE(iso8601_rejects_malformed_text) {
  for (std::string_view bad :
       {"", "2026-08-04", "2026-08-04T00:00:00", "2026-08-04 00:00:00Z", "2026-08-04t00:00:00Z",
        "2026-08-04T00:00:00z", "2026-08-04T00:00:00+01:00", "2026-08-04T00:00:00-00:00", "2026-08-04T00:00Z",
        "2026-08-04T0:00:00Z", "2026-08-04T24:00:00Z", "2026-08-04T00:60:00Z", "2026-08-04T00:00:61Z",
        "2026-13-04T00:00:00Z", "2026-00-04T00:00:00Z", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z",
        "2026-08-04T00:00:00.Z", "2026-08-04T00:00:00.1234567890Z", "2026-08-04T00:00:00.12aZ",
        "2026-08-04T00:00:00.000Zjunk", "x026-08-04T00:00:00Z", "1969-12-31T23:59:59Z", "1785801600"}) {
    BOOST_TEST(!parse_iso8601(bad).has_value(), "'" << bad << "' must be rejected");
  }
}

BOOST_AUTO_TEST_CASE(dates_parse_as_utc_midnight) {
  BOOST_TEST(to_unix_ms(parse_date("2026-08-04").value()) == sunset_ms);
  BOOST_TEST(to_unix_ms(parse_date("1970-01-01").value()) == 0);
  BOOST_TEST(parse_date("2028-02-29").has_value());
  BOOST_TEST(parse_date("2000-02-29").has_value());
  for (std::string_view bad : {"", "2026-8-04", "2026-08-4", "2026/08/04", "2026-08-04T00:00:00Z", "2026-08-04 ",
                               "2026-02-29", "1900-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00",
                               "1969-12-31", "2262-04-12", "9999-12-31", "20260804"}) {
    BOOST_TEST(!parse_date(bad).has_value(), "'" << bad << "' must be rejected");
  }
}

BOOST_AUTO_TEST_CASE(http_date_of_the_legacy_sunset) {
  BOOST_TEST(format_http_date(from_unix_ms(sunset_ms)) == "Tue, 04 Aug 2026 00:00:00 GMT");
  BOOST_TEST(format_http_date(parse_date("2026-08-04").value()) == "Tue, 04 Aug 2026 00:00:00 GMT");
  BOOST_TEST(format_http_date(from_unix_ms(sunset_ms + 86'399'999)) == "Tue, 04 Aug 2026 23:59:59 GMT");
  BOOST_TEST(format_http_date(from_unix_ms(0)) == "Thu, 01 Jan 1970 00:00:00 GMT");
}

BOOST_AUTO_TEST_CASE(unix_seconds_round_down) {
  BOOST_TEST(svc::core::to_unix_seconds(from_unix_ms(sunset_ms + 999)) == sunset_ms / 1000);
  BOOST_TEST(svc::core::to_unix_seconds(from_unix_ms(0)) == 0);
  BOOST_TEST(svc::core::to_unix_seconds(from_unix_ms(-1)) == -1);
}

BOOST_AUTO_TEST_SUITE_END()
