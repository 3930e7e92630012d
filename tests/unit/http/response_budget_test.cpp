#include "http/response_budget.hpp"

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(http_response_budget)

using svc::http::response_budget;

BOOST_AUTO_TEST_CASE(is_exhausted_from_the_limit_on) {
  response_budget b{100};
  BOOST_TEST(!b.exhausted());
  b.hold(99);
  BOOST_TEST(!b.exhausted());
  b.hold(1);
  BOOST_TEST(b.exhausted());
  b.release(1);
  BOOST_TEST(!b.exhausted());
  BOOST_TEST(b.held() == 99u);
}

BOOST_AUTO_TEST_CASE(waiters_wake_once_when_the_total_drops_under_the_limit) {
  response_budget b{100};
  int woken = 0;
  BOOST_TEST(!b.wait([&] { ++woken; }), "nothing to wait for under the limit");
  b.hold(150);
  BOOST_TEST(b.wait([&] { ++woken; }));
  BOOST_TEST(b.wait([&] { ++woken; }));
  b.release(40); // 110: still over
  BOOST_TEST(woken == 0);
  b.release(10); // 100: at the limit is still exhausted
  BOOST_TEST(woken == 0);
  b.release(1);
  BOOST_TEST(woken == 2);
  b.release(99);
  BOOST_TEST(woken == 2, "each waiter wakes once");
}

BOOST_AUTO_TEST_SUITE_END()
