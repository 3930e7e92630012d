// Client bytes quoted back in error bodies (a header value, a path segment,
// a query parameter's name) never make the JSON invalid: bytes that are not
// UTF-8, or a quote cut in the middle of a character, become U+FFFD.
#include <boost/test/unit_test.hpp>

#include <string>

#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_error_echo)

using namespace svc::e2e;

namespace {

const std::string replacement = "\xef\xbf\xbd";

// The body is JSON (Boost.JSON refuses invalid UTF-8) with this error code.
void check_valid_error(const response& r, int status, const std::string& code, const std::string& quoted_in) {
  BOOST_TEST(r.status == status, r.summary());
  auto body = r.json();
  BOOST_TEST(body.is_object(), "not valid JSON: " << r.summary());
  if (!body.is_object())
    return;
  BOOST_TEST(json_str(body, "error.code") == code);
  BOOST_TEST(json_str(body, quoted_in).find(replacement) != std::string::npos, json_str(body, quoted_in));
}

} // namespace

BOOST_FIXTURE_TEST_CASE(echoed_bytes_are_always_valid_utf8, server_fixture) {
  auto t = create_team_with_keys();
  auto c = api();
  BOOST_TEST_CONTEXT("a header value that is not UTF-8") {
    check_valid_error(c.get("/v1/team", with_key(t.read.key, {{"Svc-Version", "2024-\xff\xfe"}})), 400,
                      "invalid_api_version", "error.message");
  }
  BOOST_TEST_CONTEXT("a header quoted up to 64 bytes, cut inside a character") {
    std::string v = "a";
    for (int i = 0; i < 40; ++i)
      v += "\xc3\xa9"; // é
    check_valid_error(c.get("/v1/team", with_key(t.read.key, {{"Svc-Version", v}})), 400, "invalid_api_version",
                      "error.message");
  }
  BOOST_TEST_CONTEXT("a query parameter name") {
    check_valid_error(c.get("/v1/images?%ff%fe=1", with_key(t.read.key)), 400, "unknown_parameter", "error.param");
  }
  BOOST_TEST_CONTEXT("a path segment") {
    check_valid_error(c.get("/v1/images/img_\xc3(", with_key(t.read.key)), 404, "resource_not_found",
                      "error.message");
  }
}

BOOST_AUTO_TEST_SUITE_END()
