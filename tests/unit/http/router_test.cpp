#include "http/router.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "http/pipeline.hpp"

BOOST_AUTO_TEST_SUITE(http_router)

namespace {

namespace bh = boost::beast::http;
using namespace svc::http;
using namespace svc::schema;

std::string str(std::string_view s) { return std::string{s.data(), s.size()}; }

std::string describe(const route& r) { return str(bh::to_string(r.method)) + " " + str(r.path); }

// A concrete path for a template: every `{name}` becomes `x_name`.
std::string instantiate(std::string_view tmpl) {
  std::string out;
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] == '{') {
      auto close = tmpl.find('}', i);
      out += "x_" + str(tmpl.substr(i + 1, close - i - 1));
      i = close;
    } else {
      out.push_back(tmpl[i]);
    }
  }
  return out;
}

// Checks what every route of a table must satisfy.
void check_table(const std::vector<route>& routes) {
  BOOST_TEST(!routes.empty());
  std::set<std::pair<bh::verb, std::string>> seen;
  router rt{routes};
  for (auto& r : routes) {
    BOOST_TEST_CONTEXT(describe(r)) {
      BOOST_TEST((r.handler != nullptr));
      BOOST_TEST(!r.summary.empty());
      BOOST_TEST(!r.path.empty());
      BOOST_TEST(r.path.front() == '/');
      BOOST_TEST((r.method != bh::verb::unknown));
      BOOST_TEST(seen.emplace(r.method, str(r.path)).second, "duplicate method + path");
      // Braces are balanced and a capture fills a whole segment.
      BOOST_TEST(std::count(r.path.begin(), r.path.end(), '{') == std::count(r.path.begin(), r.path.end(), '}'));
      // The route is reachable: its own concrete path matches it, not an earlier one.
      auto m = rt.match(r.method, instantiate(r.path));
      BOOST_TEST(m.matched == &rt.routes()[static_cast<std::size_t>(&r - routes.data())]);
    }
  }
}

} // namespace

BOOST_AUTO_TEST_CASE(api_routes_are_well_formed) { check_table(svc::http::api_routes()); }

BOOST_AUTO_TEST_CASE(admin_routes_are_well_formed) { check_table(svc::http::admin_routes()); }

BOOST_AUTO_TEST_CASE(api_routes_draw_from_the_right_bucket) {
  for (auto& r : svc::http::api_routes()) {
    BOOST_TEST_CONTEXT(describe(r)) {
      if (r.needs == scope::none)
        BOOST_TEST((r.bucket == bucket_class::anonymous));
      else
        BOOST_TEST((r.bucket != bucket_class::anonymous));
    }
  }
}

BOOST_AUTO_TEST_CASE(keyless_admin_routes_are_anonymous) {
  for (auto& r : svc::http::admin_routes())
    if (r.needs == scope::none)
      BOOST_TEST((r.bucket == bucket_class::anonymous), describe(r));
}

BOOST_AUTO_TEST_CASE(api_route_table_has_the_contract_routes) {
  router rt{svc::http::api_routes()};
  BOOST_TEST(rt.match(bh::verb::get, "/v1/team").matched);
  BOOST_TEST(rt.match(bh::verb::patch, "/v1/team").matched);
  BOOST_TEST(rt.match(bh::verb::get, "/v1/api_keys").matched);
  BOOST_TEST(rt.match(bh::verb::post, "/v1/api_keys/key_1/rotate").matched);
  BOOST_TEST(rt.match(bh::verb::get, "/docs/errors").matched);
  auto m = rt.match(bh::verb::get, "/docs/errors");
  BOOST_TEST((m.matched->needs == scope::none));
  BOOST_TEST((rt.match(bh::verb::patch, "/v1/team").matched->needs == scope::full));
}

BOOST_AUTO_TEST_CASE(match_captures_id) {
  router rt{svc::http::api_routes()};
  auto m = rt.match(bh::verb::post, "/v1/api_keys/key_01ABC/rotate");
  BOOST_REQUIRE(m.matched);
  BOOST_TEST(m.matched->path == "/v1/api_keys/{id}/rotate");
  BOOST_REQUIRE(m.params.size() == 1u);
  BOOST_TEST(m.params[0].first == "id");
  BOOST_TEST(m.params[0].second == "key_01ABC");
  BOOST_TEST(m.allow.empty());
}

BOOST_AUTO_TEST_CASE(match_captures_in_a_custom_table) {
  auto handler = [](const std::shared_ptr<svc::http::request_context>&) {};
  router rt{{
    {bh::verb::get, "/a/{x}/b/{y}", scope::read, bucket_class::reads, handler, "two"},
    {bh::verb::get, "/a/fixed", scope::read, bucket_class::reads, handler, "fixed"},
    {bh::verb::get, "/a/{x}", scope::read, bucket_class::reads, handler, "one"},
  }};
  auto m = rt.match(bh::verb::get, "/a/1/b/2");
  BOOST_REQUIRE(m.matched);
  BOOST_TEST(m.matched->summary == "two");
  BOOST_REQUIRE(m.params.size() == 2u);
  BOOST_TEST(m.params[0].first == "x");
  BOOST_TEST(m.params[0].second == "1");
  BOOST_TEST(m.params[1].first == "y");
  BOOST_TEST(m.params[1].second == "2");
  // Table order decides between a literal and a capture.
  BOOST_TEST(rt.match(bh::verb::get, "/a/fixed").matched->summary == "fixed");
  auto one = rt.match(bh::verb::get, "/a/other");
  BOOST_REQUIRE(one.matched);
  BOOST_TEST(one.matched->summary == "one");
  BOOST_REQUIRE(one.params.size() == 1u);
  BOOST_TEST(one.params[0].second == "other");
  // A capture never spans segments nor is empty.
  BOOST_TEST(!rt.match(bh::verb::get, "/a//b/2").matched);
  BOOST_TEST(!rt.match(bh::verb::get, "/a/").matched);
  BOOST_TEST(!rt.match(bh::verb::get, "/a/1/b").matched);
  BOOST_TEST(!rt.match(bh::verb::get, "/a/1/b/2/c").matched);
}

BOOST_AUTO_TEST_CASE(other_method_on_a_known_path_gives_allow) {
  router rt{svc::http::api_routes()};
  auto m = rt.match(bh::verb::delete_, "/v1/team");
  BOOST_TEST(!m.matched);
  BOOST_TEST(m.allow == "GET, PATCH");
  auto r = rt.match(bh::verb::get, "/v1/api_keys/key_1/rotate");
  BOOST_TEST(!r.matched);
  BOOST_TEST(r.allow == "POST");
  BOOST_TEST(r.params.empty());
}

BOOST_AUTO_TEST_CASE(unknown_path_gives_neither) {
  router rt{svc::http::api_routes()};
  for (auto path : {"/", "", "/v1", "/v1/teams", "/v1/team/", "v1/team", "/v1/team/extra", "/v1/api_keys//rotate",
                    "/v1/api_keys/key_1", "/V1/TEAM"}) {
    auto m = rt.match(bh::verb::get, path);
    BOOST_TEST_CONTEXT("path '" << path << "'") {
      BOOST_TEST(!m.matched);
      BOOST_TEST(m.allow.empty());
    }
  }
}

BOOST_AUTO_TEST_CASE(split_target_separates_the_query) {
  using svc::http::split_target;
  auto [p1, q1] = split_target("/v1/api_keys?limit=10&after=key_1");
  BOOST_TEST(p1 == "/v1/api_keys");
  BOOST_TEST(q1 == "limit=10&after=key_1");
  auto [p2, q2] = split_target("/v1/team");
  BOOST_TEST(p2 == "/v1/team");
  BOOST_TEST(q2.empty());
  auto [p3, q3] = split_target("/v1/team?");
  BOOST_TEST(p3 == "/v1/team");
  BOOST_TEST(q3.empty());
  auto [p4, q4] = split_target("/a?b=c?d");
  BOOST_TEST(p4 == "/a");
  BOOST_TEST(q4 == "b=c?d");
  auto [p5, q5] = split_target("?x=1");
  BOOST_TEST(p5.empty());
  BOOST_TEST(q5 == "x=1");
}

BOOST_AUTO_TEST_SUITE_END()
