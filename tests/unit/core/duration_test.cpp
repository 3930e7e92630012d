#include "core/duration.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <string_view>

BOOST_AUTO_TEST_SUITE(core_duration)

namespace {

using namespace svc::core;
using namespace std::chrono_literals;

} // namespace

BOOST_AUTO_TEST_CASE(every_unit_parses) {
  BOOST_TEST(parse_duration("250ms").value().count() == 250);
  BOOST_TEST(parse_duration("5s").value().count() == 5'000);
  BOOST_TEST(parse_duration("2m").value().count() == 120'000);
  BOOST_TEST(parse_duration("24h").value().count() == 86'400'000);
  BOOST_TEST(parse_duration("30d").value().count() == 30LL * 86'400'000);
  BOOST_TEST(parse_duration("0s").value().count() == 0);
  BOOST_TEST(parse_duration("0ms").value().count() == 0);
  BOOST_TEST(parse_duration("007s").value().count() == 7'000);
}

BOOST_AUTO_TEST_CASE(the_largest_accepted_duration_is_ten_years) {
  BOOST_TEST(parse_duration("3650d").value().count() == 3650LL * 86'400'000);
  BOOST_TEST(!parse_duration("3651d"));
  BOOST_TEST(!parse_duration("87601h"));
  BOOST_TEST(parse_duration("315360000000ms").has_value());
  BOOST_TEST(!parse_duration("315360000001ms"));
}

BOOST_AUTO_TEST_CASE(malformed_durations_are_rejected) {
  for (std::string_view bad : {"", "s", "ms", "5", "-5s", "+5s", "5 s", " 5s", "5s ", "5x", "5sec", "5S",
                               "5M", "1.5s", "5ms5", "5s5", "0x10s", "5,s"}) {
    BOOST_TEST(!parse_duration(bad).has_value(), "'" << bad << "' must be rejected");
  }
}

BOOST_AUTO_TEST_CASE(overflowing_durations_are_rejected) {
  BOOST_TEST(!parse_duration("9223372036854775807ms"));
  BOOST_TEST(!parse_duration("9223372036854775808ms"));
  BOOST_TEST(!parse_duration("99999999999999999999999999s"));
  BOOST_TEST(!parse_duration("106751991167300d")); // overflows int64 milliseconds when scaled
}

BOOST_AUTO_TEST_CASE(lists_parse_in_order) {
  auto list = parse_duration_list("5s,30s,2m,10m");
  BOOST_REQUIRE(list.has_value());
  BOOST_REQUIRE(list->size() == 4u);
  BOOST_TEST((*list)[0].count() == 5'000);
  BOOST_TEST((*list)[1].count() == 30'000);
  BOOST_TEST((*list)[2].count() == 120'000);
  BOOST_TEST((*list)[3].count() == 600'000);
  auto one = parse_duration_list("250ms");
  BOOST_REQUIRE(one.has_value());
  BOOST_TEST(one->size() == 1u);
  BOOST_TEST(one->front().count() == 250);
}

BOOST_AUTO_TEST_CASE(malformed_lists_are_rejected) {
  for (std::string_view bad : {"", ",", "5s,", ",5s", "5s,,30s", "5s, 30s", "5s;30s", "5s,x", "5s,30"}) {
    BOOST_TEST(!parse_duration_list(bad).has_value(), "'" << bad << "' must be rejected");
  }
}

BOOST_AUTO_TEST_CASE(format_picks_the_largest_exact_unit) {
  BOOST_TEST(format_duration(90s) == "90s");
  BOOST_TEST(format_duration(120000ms) == "2m");
  BOOST_TEST(format_duration(1500ms) == "1500ms");
  BOOST_TEST(format_duration(24h) == "1d");
  BOOST_TEST(format_duration(25h) == "25h");
  BOOST_TEST(format_duration(0ms) == "0ms");
}

BOOST_AUTO_TEST_CASE(format_and_parse_round_trip) {
  for (duration d : {duration{0}, duration{1}, duration{999}, duration{1000}, duration{61'000},
                     duration{3'600'000}, duration{86'400'000}, duration{90'061'001}}) {
    auto text = format_duration(d);
    auto back = parse_duration(text);
    BOOST_REQUIRE_MESSAGE(back.has_value(), text);
    BOOST_TEST(back->count() == d.count(), text);
  }
}

BOOST_AUTO_TEST_SUITE_END()
