// Legacy paths: 308 to the new path with Svc-Deprecated, Sunset and
// Deprecation before --legacy-sunset, 410 route_sunset with the same headers
// from that date on; sub-paths map by prefix and the query string is kept.
#include <boost/test/unit_test.hpp>

#include <string>

#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_legacy)

using namespace svc::e2e;

namespace {

struct before_sunset : server_fixture {
  before_sunset() : server_fixture({"--legacy-sunset", "2099-01-01"}) {}
};

// The server's default sunset, 2026-08-04, is in the past of these tests.
struct after_sunset : server_fixture {};

void check_deprecation_headers(const response& r, const std::string& sunset) {
  BOOST_TEST(r.header_or_empty("Svc-Deprecated") == "route", r.summary());
  BOOST_TEST(r.header_or_empty("Sunset") == sunset, r.summary());
  BOOST_TEST(r.header_or_empty("Deprecation").rfind("@", 0) == 0u, r.summary());
  BOOST_TEST(!r.header_or_empty("Svc-Request-Id").empty());
  BOOST_TEST(!r.header_or_empty("X-RateLimit-Limit").empty());
}

} // namespace

BOOST_FIXTURE_TEST_CASE(redirects_before_the_sunset, before_sunset) {
  auto c = api();
  struct {
    std::string method, legacy, expected;
  } cases[] = {
    {"GET", "/v1/generations/img_01ABC?limit=2&x=y", "/v1/images/img_01ABC?limit=2&x=y"},
    {"POST", "/v1/generations", "/v1/images"},
    {"POST", "/v1/generations/img_01ABC/cancel", "/v1/images/img_01ABC/cancel"},
    {"GET", "/v1/video-generations/vid_01ABC", "/v1/videos/vid_01ABC"},
    {"POST", "/v1/video-generations", "/v1/videos"},
  };
  for (auto& k : cases) {
    BOOST_TEST_CONTEXT(k.method << " " << k.legacy) {
      auto r = c.request(k.method, k.legacy);
      BOOST_TEST(r.status == 308, r.summary());
      BOOST_TEST(r.header_or_empty("Location") == k.expected);
      check_deprecation_headers(r, "Thu, 01 Jan 2099 00:00:00 GMT");
    }
  }
}

BOOST_FIXTURE_TEST_CASE(answers_410_from_the_sunset_on, after_sunset) {
  auto c = api();
  for (std::string path : {"/v1/generations", "/v1/generations/img_01ABC", "/v1/video-generations/vid_1"}) {
    BOOST_TEST_CONTEXT(path) {
      auto r = c.get(path);
      BOOST_TEST(r.status == 410, r.summary());
      BOOST_TEST(json_str(r.json(), "error.code") == "route_sunset");
      BOOST_TEST(json_str(r.json(), "error.type") == "invalid_request");
      BOOST_TEST(r.header_or_empty("Location").empty());
      check_deprecation_headers(r, "Tue, 04 Aug 2026 00:00:00 GMT");
    }
  }
}

BOOST_FIXTURE_TEST_CASE(lookalike_paths_are_not_legacy, before_sunset) {
  auto c = api();
  auto r = c.get("/v1/generationsX");
  BOOST_TEST(r.status == 404, r.summary());
  BOOST_TEST(json_str(r.json(), "error.code") == "route_not_found");
  BOOST_TEST(r.header_or_empty("Svc-Deprecated").empty());
}

BOOST_AUTO_TEST_SUITE_END()
