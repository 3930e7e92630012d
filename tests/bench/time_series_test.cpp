#include "bench/load/time_series.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>

BOOST_AUTO_TEST_SUITE(bench_time_series)

namespace {

using svc::bench::time_series_recorder;
using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;

// Within the histogram's half-bucket error.
bool near(double got_ms, double want_ms) { return std::abs(got_ms - want_ms) <= 0.005 * want_ms; }

} // namespace

BOOST_AUTO_TEST_CASE(each_second_has_its_answers_errors_and_percentiles) {
  const auto origin = steady::now();
  time_series_recorder r(origin);
  for (int i = 1; i <= 100; ++i) // second 0: 1..100 ms
    r.record(origin + 10ms, true, std::chrono::milliseconds{i});
  r.record(origin + 900ms, false, 0ms);
  for (int i = 0; i < 10; ++i) // second 2: 10 x 50 ms; second 1 has nothing
    r.record(origin + 2500ms, true, 50ms);
  const auto rows = time_series_recorder::merge({&r}, 4);
  BOOST_TEST_REQUIRE(rows.size() == 4U);
  BOOST_TEST(rows[0].second == 0U);
  BOOST_TEST(rows[0].requests == 101U);
  BOOST_TEST(rows[0].errors == 1U);
  BOOST_TEST(near(rows[0].p50_ms, 50), rows[0].p50_ms);
  BOOST_TEST(near(rows[0].p99_ms, 99), rows[0].p99_ms);
  BOOST_TEST(rows[1].requests == 0U);
  BOOST_TEST(rows[1].p50_ms == 0);
  BOOST_TEST(rows[2].requests == 10U);
  BOOST_TEST(near(rows[2].p99_ms, 50));
  BOOST_TEST(rows[3].requests == 0U);
}

BOOST_AUTO_TEST_CASE(recorders_of_several_threads_merge_by_second) {
  const auto origin = steady::now();
  time_series_recorder a(origin), b(origin);
  for (int i = 0; i < 99; ++i)
    a.record(origin + 1200ms, true, 1ms);
  b.record(origin + 1300ms, true, 400ms);
  b.record(origin + 1400ms, true, 400ms);
  b.record(origin + 3100ms, false, 0ms); // past the run's seconds: the rows grow to hold it
  const auto rows = time_series_recorder::merge({&a, &b}, 2);
  BOOST_TEST_REQUIRE(rows.size() == 4U);
  BOOST_TEST(rows[1].requests == 101U);
  BOOST_TEST(near(rows[1].p50_ms, 1));
  BOOST_TEST(near(rows[1].p99_ms, 400), rows[1].p99_ms);
  BOOST_TEST(rows[3].errors == 1U);
}

BOOST_AUTO_TEST_SUITE_END()
