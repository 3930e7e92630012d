#include "bench/load/latency_histogram.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

BOOST_AUTO_TEST_SUITE(bench_latency_histogram)

namespace {

using svc::bench::latency_histogram;
using std::chrono::nanoseconds;

// Nearest rank over sorted samples: what the histogram approximates.
uint64_t exact_percentile(const std::vector<uint64_t>& sorted, double p) {
  const auto rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(p * static_cast<double>(sorted.size()))));
  return sorted[rank - 1];
}

// Log-uniform from 1 us to 10 s: latencies across every scale the buckets cover.
std::vector<uint64_t> samples(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> exponent(3, 10);
  std::vector<uint64_t> out(n);
  for (auto& v : out)
    v = static_cast<uint64_t>(std::pow(10.0, exponent(rng)));
  return out;
}

const double percentiles[] = {0.0001, 0.01, 0.25, 0.5, 0.9, 0.99, 0.999, 0.9999, 1.0};

} // namespace

BOOST_AUTO_TEST_CASE(buckets_tile_the_range_without_gaps) {
  BOOST_TEST(latency_histogram::bucket_low(0) == 0U);
  for (std::size_t i = 1; i < latency_histogram::bucket_count; ++i) {
    BOOST_TEST_REQUIRE(latency_histogram::bucket_low(i) == latency_histogram::bucket_high(i - 1) + 1);
    BOOST_TEST_REQUIRE(latency_histogram::bucket_of(latency_histogram::bucket_low(i)) == i);
    BOOST_TEST_REQUIRE(latency_histogram::bucket_of(latency_histogram::bucket_high(i)) == i);
  }
  BOOST_TEST(latency_histogram::bucket_high(latency_histogram::bucket_count - 1) == (uint64_t{1} << 40) - 1);
}

BOOST_AUTO_TEST_CASE(a_bucket_is_at_most_a_128th_of_its_values_wide) {
  for (std::size_t i = 256; i < latency_histogram::bucket_count; ++i) {
    const auto width = static_cast<double>(latency_histogram::bucket_high(i) - latency_histogram::bucket_low(i) + 1);
    BOOST_TEST_REQUIRE(width / static_cast<double>(latency_histogram::bucket_low(i)) <= 1.0 / 128);
  }
}

BOOST_AUTO_TEST_CASE(percentiles_match_a_sorted_array_within_one_percent) {
  for (unsigned seed : {1U, 2U, 3U}) {
    auto values = samples(200'000, seed);
    latency_histogram h;
    for (auto v : values)
      h.record(nanoseconds{v});
    std::sort(values.begin(), values.end());
    BOOST_TEST(h.count() == values.size());
    BOOST_TEST(h.min_ns() == values.front());
    BOOST_TEST(h.max_ns() == values.back());
    for (double p : percentiles) {
      const auto exact = static_cast<double>(exact_percentile(values, p));
      const auto got = static_cast<double>(h.percentile_ns(p));
      BOOST_TEST(std::abs(got - exact) <= 0.01 * exact, "p" << p << ": histogram " << got << " ns, sorted " << exact);
    }
  }
}

BOOST_AUTO_TEST_CASE(small_values_are_exact) {
  latency_histogram h;
  for (int v = 0; v < 256; ++v)
    h.record(nanoseconds{v});
  BOOST_TEST(h.percentile_ns(0.5) == 127U);
  BOOST_TEST(h.percentile_ns(1.0) == 255U);
  BOOST_TEST(h.percentile_ns(0.0) == 0U);
}

BOOST_AUTO_TEST_CASE(an_empty_histogram_says_zero) {
  latency_histogram h;
  BOOST_TEST(h.count() == 0U);
  BOOST_TEST(h.percentile_ns(0.99) == 0U);
  BOOST_TEST(h.min_ns() == 0U);
  BOOST_TEST(h.max_ns() == 0U);
  BOOST_TEST(h.nonzero().empty());
}

BOOST_AUTO_TEST_CASE(merged_histograms_equal_one_that_saw_everything) {
  const auto values = samples(50'000, 7);
  latency_histogram all, a, b;
  for (std::size_t i = 0; i < values.size(); ++i) {
    all.record(nanoseconds{values[i]});
    (i % 3 ? a : b).record(nanoseconds{values[i]});
  }
  a.merge(b);
  BOOST_TEST(a.count() == all.count());
  BOOST_TEST(a.min_ns() == all.min_ns());
  BOOST_TEST(a.max_ns() == all.max_ns());
  BOOST_TEST((a.nonzero() == all.nonzero()));
}

BOOST_AUTO_TEST_CASE(sparse_buckets_rebuild_the_same_percentiles) {
  const auto values = samples(20'000, 9);
  latency_histogram h, rebuilt;
  for (auto v : values)
    h.record(nanoseconds{v});
  for (auto& [index, n] : h.nonzero())
    rebuilt.add(index, n);
  BOOST_TEST(rebuilt.count() == h.count());
  for (double p : percentiles) {
    const auto exact = static_cast<double>(h.percentile_ns(p));
    BOOST_TEST(std::abs(static_cast<double>(rebuilt.percentile_ns(p)) - exact) <= 0.01 * exact);
  }
}

BOOST_AUTO_TEST_CASE(values_past_the_range_land_in_the_last_bucket_and_keep_the_max) {
  latency_histogram h;
  const uint64_t hour = 3'600'000'000'000;
  h.record(nanoseconds{hour});
  h.record(nanoseconds{-5});
  BOOST_TEST(h.nonzero().back().first == latency_histogram::bucket_count - 1);
  BOOST_TEST(h.max_ns() == hour);
  BOOST_TEST(h.min_ns() == 0U);
}

BOOST_AUTO_TEST_SUITE_END()
