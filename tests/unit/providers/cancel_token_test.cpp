#include "providers/cancel_token.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <future>

BOOST_AUTO_TEST_SUITE(providers_cancel_token)

using svc::providers::cancel_token;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_CASE(fresh_token_is_not_cancelled) {
  cancel_token t;
  BOOST_TEST(!t.cancelled());
}

BOOST_AUTO_TEST_CASE(copies_share_the_flag) {
  cancel_token a;
  const cancel_token b = a;
  b.cancel();
  BOOST_TEST(a.cancelled());
  BOOST_TEST(b.cancelled());
  BOOST_TEST(!cancel_token{}.cancelled()); // a new token has its own flag
}

BOOST_AUTO_TEST_CASE(cancel_is_idempotent) {
  cancel_token t;
  t.cancel();
  t.cancel();
  BOOST_TEST(t.cancelled());
}

BOOST_AUTO_TEST_CASE(wait_for_times_out_when_not_cancelled) {
  cancel_token t;
  BOOST_TEST(!t.wait_for(1ms));
}

BOOST_AUTO_TEST_CASE(wait_for_returns_at_once_when_already_cancelled) {
  cancel_token t;
  t.cancel();
  // A wait of a minute back within 30 s returned without waiting it out.
  auto waiter = std::async(std::launch::async, [t] { return t.wait_for(60s); });
  BOOST_REQUIRE(waiter.wait_for(30s) == std::future_status::ready);
  BOOST_TEST(waiter.get());
}

BOOST_AUTO_TEST_CASE(cancel_wakes_a_waiter_from_another_thread) {
  cancel_token t;
  auto waiter = std::async(std::launch::async, [t] { return t.wait_for(60s); });
  t.cancel();
  // A wait of a minute back within 30 s was woken, not timed out.
  BOOST_REQUIRE(waiter.wait_for(30s) == std::future_status::ready);
  BOOST_TEST(waiter.get());
}

BOOST_AUTO_TEST_SUITE_END()
