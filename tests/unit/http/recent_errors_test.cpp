#include "http/recent_errors.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

BOOST_AUTO_TEST_SUITE(http_recent_errors)

using svc::http::error_answer;
using svc::http::recent_errors;

namespace {

// Adds answers `req_<from>` .. `req_<to>`.
void add_answers(recent_errors& ring, int from, int to) {
  for (int n = from; n <= to; ++n) {
    error_answer a;
    a.request_id = "req_" + std::to_string(n);
    a.method = "GET";
    a.route = "/v1/images/{id}";
    a.status = 503;
    a.code = "storage_unavailable";
    ring.add(std::move(a));
  }
}

// The request ids kept, newest first.
std::vector<std::string> kept_ids(const recent_errors& ring) {
  std::vector<std::string> out;
  for (auto& a : ring.newest_first())
    out.push_back(a.request_id);
  return out;
}

using ids = std::vector<std::string>;

} // namespace

BOOST_AUTO_TEST_CASE(starts_empty) { BOOST_TEST(recent_errors{4}.newest_first().empty()); }

BOOST_AUTO_TEST_CASE(lists_the_newest_first_before_it_is_full) {
  recent_errors ring{4};
  add_answers(ring, 1, 2);
  BOOST_TEST(kept_ids(ring) == (ids{"req_2", "req_1"}), boost::test_tools::per_element());
  auto newest = ring.newest_first().front();
  BOOST_TEST(newest.code == "storage_unavailable");
  BOOST_TEST(newest.route == "/v1/images/{id}");
  BOOST_TEST(newest.status == 503u);
}

BOOST_AUTO_TEST_CASE(keeps_only_the_last_capacity_answers) {
  recent_errors ring{3};
  add_answers(ring, 1, 7);
  BOOST_TEST(kept_ids(ring) == (ids{"req_7", "req_6", "req_5"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_capacity_of_zero_still_keeps_the_last_answer) {
  recent_errors ring{0};
  add_answers(ring, 1, 2);
  BOOST_TEST(kept_ids(ring) == (ids{"req_2"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
