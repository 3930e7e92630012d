#include "core/clock.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <limits>

BOOST_AUTO_TEST_SUITE(core_clock)

using namespace svc::core;

BOOST_AUTO_TEST_CASE(unix_ms_round_trips) {
  for (int64_t ms : {int64_t{0}, int64_t{1785801600000}, int64_t{-86400000}})
    BOOST_TEST(to_unix_ms(from_unix_ms(ms)) == ms);
}

// Found by fuzz_stored_records: a damaged record's `created_at` of
// 9715552890903 ms overflowed the clock's nanoseconds (undefined behaviour,
// and a time before 1970 in practice). It now lands on the last moment the
// clock can show, and so does everything larger.
BOOST_AUTO_TEST_CASE(timestamps_past_the_clock_clamp_instead_of_overflowing) {
  const auto last = to_unix_ms(time_point::max());
  BOOST_TEST(last > int64_t{9'000'000'000'000});
  for (int64_t ms : {int64_t{9715552890903}, last + 1, std::numeric_limits<int64_t>::max()})
    BOOST_TEST(to_unix_ms(from_unix_ms(ms)) == last, ms);
  const auto first = to_unix_ms(time_point::min());
  for (int64_t ms : {first - 1, std::numeric_limits<int64_t>::min()})
    BOOST_TEST(to_unix_ms(from_unix_ms(ms)) == first, ms);
}

// --clock-start: the clock shows the given time at once and then runs on.
BOOST_AUTO_TEST_CASE(a_clock_starting_at_a_time_runs_on_from_it) {
  const int64_t start = 1798761600000; // 2027-01-01
  auto c = make_clock_starting_at(from_unix_ms(start));
  auto first = to_unix_ms(c->now());
  BOOST_TEST(first >= start);
  BOOST_TEST(first < start + 1000);
  BOOST_TEST(to_unix_ms(c->now()) >= first);
}

BOOST_AUTO_TEST_SUITE_END()
