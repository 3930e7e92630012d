#include "actors/token_bucket.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>

BOOST_AUTO_TEST_SUITE(actors_token_bucket)

namespace {

using svc::actors::token_bucket;
using svc::schema::bucket_limits;

constexpr int64_t t0 = 1'700'000'000'000; // a whole second, Unix ms

} // namespace

BOOST_AUTO_TEST_CASE(new_bucket_is_full) {
  token_bucket b{{5, 60}, t0};
  BOOST_TEST(b.level(t0) == 5.0);
  BOOST_TEST(b.full(t0));
  BOOST_TEST(b.limits().capacity == 5.0);
  BOOST_TEST(b.limits().per_minute == 60.0);
}

BOOST_AUTO_TEST_CASE(burst_of_capacity_then_refused) {
  token_bucket b{{5, 60}, t0};
  for (int64_t i = 0; i < 5; ++i) {
    auto r = b.take(t0);
    BOOST_TEST_CONTEXT("take " << i) {
      BOOST_TEST(r.allowed);
      BOOST_TEST(r.remaining == 4 - i);
      BOOST_TEST(r.retry_after == 0);
    }
  }
  auto refused = b.take(t0);
  BOOST_TEST(!refused.allowed);
  BOOST_TEST(refused.remaining == 0);
  BOOST_TEST(refused.retry_after == 1); // 60/min: one token per second
  // A refusal takes nothing: the level stays at zero, not below.
  BOOST_TEST(b.level(t0) == 0.0);
  BOOST_TEST(!b.full(t0));
}

BOOST_AUTO_TEST_CASE(fractional_refill) {
  token_bucket b{{1, 60}, t0};
  BOOST_TEST(b.take(t0).allowed);
  BOOST_TEST(b.level(t0 + 500) == 0.5, boost::test_tools::tolerance(1e-9));
  auto half = b.take(t0 + 500);
  BOOST_TEST(!half.allowed);
  BOOST_TEST(half.retry_after == 1);
  BOOST_TEST(half.remaining == 0);
  BOOST_TEST(!b.take(t0 + 999).allowed);
  BOOST_TEST(b.take(t0 + 1000).allowed);
  BOOST_TEST(!b.take(t0 + 1000).allowed);
}

BOOST_AUTO_TEST_CASE(refill_stops_at_capacity) {
  token_bucket b{{3, 60}, t0};
  for (int i = 0; i < 3; ++i)
    BOOST_TEST(b.take(t0).allowed);
  BOOST_TEST(b.level(t0 + 3'600'000) == 3.0);
  BOOST_TEST(b.full(t0 + 3'600'000));
  for (int i = 0; i < 3; ++i)
    BOOST_TEST(b.take(t0 + 3'600'000).allowed);
  BOOST_TEST(!b.take(t0 + 3'600'000).allowed);
}

BOOST_AUTO_TEST_CASE(time_going_backwards_neither_refills_nor_drains) {
  token_bucket b{{2, 60}, t0};
  BOOST_TEST(b.take(t0).allowed);
  BOOST_TEST(b.level(t0 - 10'000) == 1.0);
  BOOST_TEST(b.level(t0) == 1.0);
}

BOOST_AUTO_TEST_CASE(retry_after_rounds_up_to_whole_seconds) {
  token_bucket b{{1, 6}, t0}; // one token per 10 s
  BOOST_TEST(b.take(t0).allowed);
  BOOST_TEST(b.take(t0).retry_after == 10);
  BOOST_TEST(b.take(t0 + 2'500).retry_after == 8);  // 7.5 s -> 8
  BOOST_TEST(b.take(t0 + 9'001).retry_after == 1);  // 0.999 s -> 1
  BOOST_TEST(b.take(t0 + 9'999).retry_after == 1);  // 1 ms -> at least 1
  BOOST_TEST(b.take(t0 + 10'000).allowed);
}

BOOST_AUTO_TEST_CASE(retry_after_without_refill_is_a_minute) {
  token_bucket b{{1, 0}, t0};
  BOOST_TEST(b.take(t0).allowed);
  auto r = b.take(t0 + 1'000'000);
  BOOST_TEST(!r.allowed);
  BOOST_TEST(r.retry_after == 60);
}

BOOST_AUTO_TEST_CASE(reset_epoch_is_when_the_bucket_is_full_again) {
  // capacity 10 at 60/min: each missing token takes 1 s.
  token_bucket b{{10, 60}, t0};
  BOOST_TEST(b.take(t0).reset_epoch == t0 / 1000 + 1);
  BOOST_TEST(b.take(t0).reset_epoch == t0 / 1000 + 2);
  BOOST_TEST(b.take(t0).reset_epoch == t0 / 1000 + 3);
  // Mid-second: 7 tokens + 0.25 refilled at +250 ms, take -> 6.25, missing 3.75 -> 3750 ms;
  // (t0 + 250 + 3750) / 1000 = t0/1000 + 4 exactly.
  BOOST_TEST(b.take(t0 + 250).reset_epoch == t0 / 1000 + 4);
}

BOOST_AUTO_TEST_CASE(reset_epoch_rounds_up) {
  token_bucket b{{10, 7}, t0}; // 60000/7 = 8571.43 ms per token
  auto r = b.take(t0);
  BOOST_TEST(r.reset_epoch == t0 / 1000 + 9); // ceil(8.571)
  token_bucket c{{10, 60}, t0 + 1}; // reading 1 ms after a whole second
  BOOST_TEST(c.take(t0 + 1).reset_epoch == t0 / 1000 + 2); // ceil(1.001)
}

BOOST_AUTO_TEST_CASE(the_slowest_biggest_bucket_reports_waits_that_fit_int64) {
  // The bounds an operator may set: refilling 1e12 tokens at 1e-6 a minute takes 6e22 ms.
  token_bucket b{{svc::schema::max_capacity, svc::schema::min_per_minute}, t0};
  BOOST_TEST(b.charge(int64_t{1'000'000'000'000}, t0).allowed);
  auto r = b.take(t0);
  BOOST_TEST(!r.allowed);
  BOOST_TEST(r.retry_after == 60'000'000); // one token: 6e10 ms
  BOOST_TEST(r.reset_epoch == t0 / 1000 + int64_t{1'000'000'000'000}); // the wait is capped at 1e15 ms
}

BOOST_AUTO_TEST_CASE(refused_take_reports_reset_epoch_too) {
  token_bucket b{{2, 60}, t0};
  b.take(t0);
  b.take(t0);
  auto r = b.take(t0);
  BOOST_TEST(!r.allowed);
  BOOST_TEST(r.reset_epoch == t0 / 1000 + 2);
}

BOOST_AUTO_TEST_CASE(restore_keeps_tokens_and_refills_from_reading_time) {
  token_bucket b{{10, 60}, 2.5, t0};
  BOOST_TEST(b.tokens() == 2.5);
  BOOST_TEST(b.at_ms() == t0);
  BOOST_TEST(!b.full(t0));
  BOOST_TEST(b.level(t0 + 2'000) == 4.5, boost::test_tools::tolerance(1e-9));
  auto r = b.take(t0 + 2'000);
  BOOST_TEST(r.allowed);
  BOOST_TEST(r.remaining == 3);
}

BOOST_AUTO_TEST_CASE(restore_clamps_bad_values) {
  bucket_limits l{5, 60};
  BOOST_TEST(token_bucket(l, -3.0, t0).tokens() == -3.0, "a debt survives a restart");
  BOOST_TEST(token_bucket(l, -1e300, t0).tokens() == -svc::actors::max_debt);
  BOOST_TEST(token_bucket(l, std::numeric_limits<double>::quiet_NaN(), t0).tokens() == 0.0);
  BOOST_TEST(token_bucket(l, 99.0, t0).tokens() == 5.0);
  BOOST_TEST(token_bucket(l, 5.0, t0).tokens() == 5.0);
  BOOST_TEST(token_bucket(l, -std::numeric_limits<double>::infinity(), t0).tokens() == 0.0);
  // Not finite: treated as unknown, so no free burst either.
  BOOST_TEST(token_bucket(l, std::numeric_limits<double>::infinity(), t0).tokens() == 0.0);

  token_bucket empty{l, -1.0, t0};
  BOOST_TEST(!empty.take(t0).allowed);
  token_bucket over{l, 1e9, t0};
  for (int i = 0; i < 5; ++i)
    BOOST_TEST(over.take(t0).allowed);
  BOOST_TEST(!over.take(t0).allowed);
}

BOOST_AUTO_TEST_CASE(set_limits_caps_the_level) {
  token_bucket b{{10, 60}, t0};
  b.set_limits({3, 60}, t0);
  BOOST_TEST(b.level(t0) == 3.0);
  BOOST_TEST(b.limits().capacity == 3.0);
  // Raising the capacity again does not hand out the difference.
  b.set_limits({10, 60}, t0);
  BOOST_TEST(b.level(t0) == 3.0);
  BOOST_TEST(!b.full(t0));
  BOOST_TEST(b.take(t0).remaining == 2);
}

BOOST_AUTO_TEST_CASE(set_limits_refills_at_the_old_rate_first) {
  token_bucket b{{10, 60}, t0};
  for (int i = 0; i < 10; ++i)
    b.take(t0);
  // 2 s at 60/min = 2 tokens under the old rate, then 600/min from here.
  b.set_limits({10, 600}, t0 + 2'000);
  BOOST_TEST(b.level(t0 + 2'000) == 2.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(b.level(t0 + 2'100) == 3.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(b.limits().per_minute == 600.0);
}

BOOST_AUTO_TEST_CASE(a_charge_is_paid_in_full_into_debt_and_refused_until_repaid) {
  token_bucket b{{10, 60}, t0}; // one token a second
  auto first = b.charge(25, t0);
  BOOST_TEST(first.allowed, "one token is enough to start");
  BOOST_TEST(b.tokens() == -15.0);
  BOOST_TEST(first.remaining == 0, "a debt shows as nothing left");
  auto refused = b.charge(1, t0);
  BOOST_TEST(!refused.allowed);
  BOOST_TEST(refused.retry_after == 16, "until the debt is repaid and one token is back");
  BOOST_TEST(!b.take(t0 + 15'000).allowed);
  BOOST_TEST(b.take(t0 + 16'000).allowed);
  BOOST_TEST(b.charge(0, t0 + 26'000).allowed, "a charge of nothing still needs a token...");
  BOOST_TEST(b.tokens() == 10.0, "...and takes none");
  BOOST_TEST(b.charge(-5, t0 + 26'000).allowed);
  BOOST_TEST(b.tokens() == 10.0, "a negative charge adds nothing");
  b.charge(std::numeric_limits<int64_t>::max(), t0 + 26'000);
  BOOST_TEST(b.tokens() == -svc::actors::max_debt, "the debt is bounded");
}

BOOST_AUTO_TEST_SUITE_END()
