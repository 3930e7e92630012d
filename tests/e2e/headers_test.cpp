// Every kind of response carries Svc-Request-Id, Svc-Version and the three
// X-RateLimit-* headers: 200, 400, 401, 403, 404, 405, 413, 429 and the
// error documentation page.
#include <boost/test/unit_test.hpp>

#include <optional>
#include <string>

#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_headers)

using namespace svc::e2e;

namespace {

// The headers every response carries; `limit` is the expected bucket capacity.
void check_common_headers(const response& r, std::optional<std::int64_t> limit) {
  auto id = r.header_or_empty("Svc-Request-Id");
  BOOST_TEST(is_request_id(id), "Svc-Request-Id '" << id << "'");
  auto version = r.header_or_empty("Svc-Version");
  BOOST_TEST((version == "2026-01-15" || version == "2026-09-01"), "Svc-Version '" << version << "'");
  auto lim = header_int(r, "X-RateLimit-Limit");
  auto remaining = header_int(r, "X-RateLimit-Remaining");
  auto reset = header_int(r, "X-RateLimit-Reset");
  BOOST_TEST(lim.has_value(), "X-RateLimit-Limit '" << r.header_or_empty("X-RateLimit-Limit") << "'");
  BOOST_TEST(remaining.has_value(), "X-RateLimit-Remaining '" << r.header_or_empty("X-RateLimit-Remaining") << "'");
  BOOST_TEST(reset.has_value(), "X-RateLimit-Reset '" << r.header_or_empty("X-RateLimit-Reset") << "'");
  if (limit)
    BOOST_TEST(lim == limit);
  if (lim && remaining)
    BOOST_TEST(*remaining <= *lim);
  if (reset) {
    auto now = unix_now();
    BOOST_TEST(*reset >= now - 2, "reset " << *reset << " now " << now);
    BOOST_TEST(*reset <= now + 24 * 3600, "reset " << *reset << " now " << now);
  }
  auto body = r.json();
  if (json_at(body, "error"))
    BOOST_TEST(json_str(body, "error.request_id") == id);
}

const char* all_codes[] = {
  "invalid_body",       "invalid_parameter",  "unknown_parameter",     "api_key_in_query",
  "invalid_api_version", "malformed_request", "missing_api_key",       "invalid_api_key",
  "insufficient_credits", "missing_scope",    "invalid_signature",     "resource_not_found",
  "route_not_found",    "method_not_allowed", "idempotency_key_in_use", "invalid_state",
  "url_expired",        "route_sunset",       "body_too_large",        "unsupported_media_type",
  "headers_too_large",  "idempotency_key_reused", "too_many_requests", "internal_error",
  "unavailable"};

} // namespace

BOOST_FIXTURE_TEST_SUITE(headers, server_fixture)

BOOST_AUTO_TEST_CASE(ok_200) {
  auto t = create_team_with_keys();
  auto c = api();
  auto r = c.get("/v1/team", with_key(t.read.key));
  BOOST_TEST(r.status == 200, r.summary());
  check_common_headers(r, 1200);
  BOOST_TEST(header_int(r, "X-RateLimit-Remaining") == 1199);
  BOOST_TEST(r.header_or_empty("Svc-Version") == "2026-09-01");
}

BOOST_AUTO_TEST_CASE(bad_request_400) {
  auto t = create_team_with_keys();
  auto c = api();
  auto r = c.get("/v1/team", with_key(t.read.key, {{"Svc-Version", "garbage"}}));
  BOOST_TEST(is_error(r, 400, "invalid_api_version"), r.summary());
  check_common_headers(r, std::nullopt);
}

BOOST_AUTO_TEST_CASE(unauthenticated_401_uses_the_anonymous_bucket) {
  auto c = api();
  auto r = c.get("/v1/team");
  BOOST_TEST(is_error(r, 401, "missing_api_key"), r.summary());
  check_common_headers(r, 600);
  BOOST_TEST(r.header_or_empty("Svc-Version") == "2026-09-01", "no team known: the newest version");
  auto invalid = c.get("/v1/team", with_key("svc_live_" + std::string(64, '0')));
  BOOST_TEST(is_error(invalid, 401, "invalid_api_key"), invalid.summary());
  check_common_headers(invalid, 600);
  BOOST_TEST(header_int(invalid, "X-RateLimit-Remaining") < header_int(r, "X-RateLimit-Remaining"),
             "both draw from one anonymous bucket");
}

BOOST_AUTO_TEST_CASE(forbidden_403) {
  auto t = create_team_with_keys();
  auto c = api();
  auto r = c.request("PATCH", "/v1/team", with_key(t.read.key), R"({"balance_low_threshold": 1})");
  BOOST_TEST(is_error(r, 403, "missing_scope"), r.summary());
  check_common_headers(r, 1200);
}

BOOST_AUTO_TEST_CASE(unknown_route_404) {
  auto t = create_team_with_keys();
  auto c = api();
  for (bool with_header : {false, true}) {
    BOOST_TEST_CONTEXT("with key " << with_header) {
      auto r = c.get("/v1/no_such_thing", with_header ? with_key(t.read.key) : header_map{});
      BOOST_TEST(is_error(r, 404, "route_not_found"), r.summary());
      check_common_headers(r, 600);
    }
  }
}

BOOST_AUTO_TEST_CASE(wrong_method_405_lists_allow) {
  auto c = api();
  auto r = c.request("DELETE", "/v1/team");
  BOOST_TEST(is_error(r, 405, "method_not_allowed"), r.summary());
  check_common_headers(r, 600);
  auto allow = r.header_or_empty("Allow");
  BOOST_TEST(allow.find("GET") != std::string::npos, "Allow: " << allow);
  BOOST_TEST(allow.find("PATCH") != std::string::npos, "Allow: " << allow);
  BOOST_TEST(allow.find("DELETE") == std::string::npos, "Allow: " << allow);

  auto post = c.request("POST", "/v1/balance", {}, "{}");
  BOOST_TEST(is_error(post, 405, "method_not_allowed"), post.summary());
  BOOST_TEST(post.header_or_empty("Allow").find("GET") != std::string::npos);
  BOOST_TEST(post.header_or_empty("Allow").find("POST") == std::string::npos);
  check_common_headers(post, 600);
}

BOOST_AUTO_TEST_CASE(body_too_large_413) {
  auto t = create_team_with_keys();
  auto c = api();
  std::string body = R"({"balance_low_threshold": 1, "pad": ")" + std::string(1024 * 1024, 'x') + "\"}";
  auto r = c.request("PATCH", "/v1/team", with_key(t.full.key), body);
  BOOST_TEST(is_error(r, 413, "body_too_large"), r.summary());
  check_common_headers(r, std::nullopt);
  // The server keeps answering, also on a new connection.
  BOOST_TEST(c.get("/v1/team", with_key(t.read.key)).status == 200);
}

BOOST_AUTO_TEST_CASE(too_many_requests_429) {
  auto t = create_team_with_keys();
  ctl_ok({"team", "limits", "--team", t.id, "--bucket", "reads", "--capacity", "3", "--per-minute", "1"});
  auto c = api();
  for (int i = 0; i < 3; ++i) {
    auto r = c.get("/v1/team", with_key(t.read.key));
    BOOST_TEST(r.status == 200, r.summary());
    check_common_headers(r, 3);
    BOOST_TEST(header_int(r, "X-RateLimit-Remaining") == 2 - i);
  }
  auto r = c.get("/v1/team", with_key(t.read.key));
  BOOST_TEST(is_error(r, 429, "too_many_requests"), r.summary());
  check_common_headers(r, 3);
  BOOST_TEST(header_int(r, "X-RateLimit-Remaining") == 0);
  auto retry = header_int(r, "Retry-After");
  BOOST_TEST(retry.has_value(), "Retry-After '" << r.header_or_empty("Retry-After") << "'");
  // One token per minute: the next one in about 60 s, the bucket full in ~180 s.
  BOOST_TEST(retry >= 55);
  BOOST_TEST(retry <= 61);
  auto reset = header_int(r, "X-RateLimit-Reset").value_or(0) - unix_now();
  BOOST_TEST(reset >= 170, "reset in " << reset << " s");
  BOOST_TEST(reset <= 182, "reset in " << reset << " s");
}

BOOST_AUTO_TEST_CASE(docs_errors_page) {
  auto c = api();
  auto r = c.get("/docs/errors");
  BOOST_TEST(r.status == 200, r.summary());
  check_common_headers(r, 600);
  BOOST_TEST(r.header_or_empty("Content-Type").find("text/html") == 0, r.header_or_empty("Content-Type"));
  for (auto* code : all_codes)
    BOOST_TEST(r.body.find("id=\"" + std::string{code} + "\"") != std::string::npos, "anchor for " << code);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
