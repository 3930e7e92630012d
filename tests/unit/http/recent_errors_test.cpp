#include "http/recent_errors.hpp"

#define BOOST_TEST_MODULE http_recent_errors
#include <boost/test/unit_test.hpp>

#include <string>

using svc::http::error_answer;
using svc::http::recent_errors;

namespace {

error_answer answer(int n) {
  error_answer a;
  a.request_id = "req_" + std::to_string(n);
  a.method = "GET";
  a.route = "/v1/images/{id}";
  a.status = 503;
  a.code = "storage_unavailable";
  return a;
}

} // namespace

BOOST_AUTO_TEST_CASE(starts_empty) { BOOST_TEST(recent_errors{4}.newest_first().empty()); }

BOOST_AUTO_TEST_CASE(lists_the_newest_first_before_it_is_full) {
  recent_errors ring{4};
  ring.add(answer(1));
  ring.add(answer(2));
  auto kept = ring.newest_first();
  BOOST_TEST_REQUIRE(kept.size() == 2u);
  BOOST_TEST(kept[0].request_id == "req_2");
  BOOST_TEST(kept[1].request_id == "req_1");
  BOOST_TEST(kept[0].code == "storage_unavailable");
}

BOOST_AUTO_TEST_CASE(keeps_only_the_last_capacity_answers) {
  recent_errors ring{3};
  for (int n = 1; n <= 7; ++n)
    ring.add(answer(n));
  auto kept = ring.newest_first();
  BOOST_TEST_REQUIRE(kept.size() == 3u);
  BOOST_TEST(kept[0].request_id == "req_7");
  BOOST_TEST(kept[1].request_id == "req_6");
  BOOST_TEST(kept[2].request_id == "req_5");
}

BOOST_AUTO_TEST_CASE(a_capacity_of_zero_still_keeps_the_last_answer) {
  recent_errors ring{0};
  ring.add(answer(1));
  ring.add(answer(2));
  auto kept = ring.newest_first();
  BOOST_TEST_REQUIRE(kept.size() == 1u);
  BOOST_TEST(kept[0].request_id == "req_2");
}
