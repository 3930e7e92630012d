#include "bench/load/rate_pacer.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <string>

BOOST_AUTO_TEST_SUITE(bench_rate_pacer)

namespace {

using svc::bench::exchange;
using svc::bench::rate_pacer;
using svc::bench::steady;
namespace http = svc::bench::http;

long unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
    .count();
}

// A 200 with svcd's rate-limit headers: `remaining` of `limit`, full again in `to_full` seconds.
exchange answer(int limit, int remaining, long to_full) {
  exchange x;
  x.response.result(http::status::ok);
  x.response.set("X-RateLimit-Limit", std::to_string(limit));
  x.response.set("X-RateLimit-Remaining", std::to_string(remaining));
  x.response.set("X-RateLimit-Reset", std::to_string(unix_now() + to_full));
  x.sent = x.answered = steady::now();
  return x;
}

} // namespace

// A draining bucket (10 tokens, refilled one a minute). Requests A and B go
// out together; svcd takes A's token first (A sees 1 left), then B's (0
// left), but B's answer arrives first. A's answer, older than the estimate,
// must not put back the token B took: no token is left, so nothing may go.
BOOST_AUTO_TEST_CASE(an_answer_overtaken_by_a_later_one_does_not_raise_the_estimate) {
  rate_pacer p;
  p.sent(steady::now());
  p.observe(answer(10, 2, 480)); // learns the bucket: 2 left, 8 to refill in 8 minutes
  BOOST_TEST_REQUIRE((p.not_before() <= steady::now()));
  p.sent(steady::now()); // A
  p.sent(steady::now()); // B
  p.observe(answer(10, 0, 600));
  p.observe(answer(10, 1, 540));
  BOOST_TEST((p.not_before() > steady::now() + std::chrono::seconds{30}));
}

// Far below full the estimate leads; near full (a raised bucket refilling
// within the second) the answers do, or an underestimated refill would
// starve a long run.
BOOST_AUTO_TEST_CASE(a_bucket_that_refills_within_the_second_never_holds_requests_back) {
  rate_pacer p;
  for (int i = 0; i < 5000; ++i) {
    p.sent(steady::now());
    BOOST_TEST_REQUIRE((p.not_before() <= steady::now()), "request " << i);
    p.observe(answer(1000, 999, 0));
  }
}

BOOST_AUTO_TEST_CASE(a_429_holds_requests_until_retry_after) {
  rate_pacer p;
  p.sent(steady::now());
  exchange x;
  x.response.result(http::status::too_many_requests);
  x.response.set("Retry-After", "3");
  x.sent = x.answered = steady::now();
  p.observe(x);
  BOOST_TEST((p.not_before() > steady::now() + std::chrono::seconds{2}));
}

BOOST_AUTO_TEST_SUITE_END()
