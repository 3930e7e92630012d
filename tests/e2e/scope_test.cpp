// The scope matrix: every public route against read, write and full keys.
// A scope that does not permit the route answers 403 missing_scope (drawing
// from the team's bucket); otherwise the route answers normally.
#include <boost/test/unit_test.hpp>

#include <functional>
#include <string>
#include <vector>

#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_scope)

using namespace svc::e2e;

namespace {

int rank(const std::string& scope) { return scope == "read" ? 0 : scope == "write" ? 1 : 2; }

struct route_case {
  std::string method;
  std::string required;  // least scope that may call it
  std::string object;    // `object` of a successful answer
  std::string body;
  // The path; may create what the call consumes (a key to rotate).
  std::function<std::string(server_fixture&, const team_keys&)> path;
};

std::vector<route_case> routes() {
  auto fixed = [](std::string p) { return [p](server_fixture&, const team_keys&) { return p; }; };
  return {
    {"GET", "read", "team", "", fixed("/v1/team")},
    {"PATCH", "full", "team", R"({"balance_low_threshold": 25})", fixed("/v1/team")},
    {"GET", "read", "balance", "", fixed("/v1/balance")},
    {"GET", "read", "pricing", "", fixed("/v1/pricing")},
    {"GET", "read", "list", "", fixed("/v1/loras")},
    {"GET", "full", "list", "", fixed("/v1/api_keys")},
    {"POST", "full", "api_key", "",
     [](server_fixture& f, const team_keys& t) {
       return "/v1/api_keys/" + f.create_key(t.id, "read").id + "/rotate";
     }},
  };
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(scope, server_fixture)

BOOST_AUTO_TEST_CASE(scope_matrix_over_public_routes) {
  auto t = create_team_with_keys();
  auto c = api();
  for (auto& route : routes()) {
    for (auto* key : {&t.read, &t.write, &t.full}) {
      auto path = route.path(*this, t);
      BOOST_TEST_CONTEXT(route.method << " " << path << " with a " << key->scope << " key") {
        auto r = c.request(route.method, path, with_key(key->key), route.body);
        if (rank(key->scope) >= rank(route.required)) {
          BOOST_TEST(r.status == 200, r.summary());
          BOOST_TEST(json_str(r.json(), "object") == route.object, r.summary());
        } else {
          BOOST_TEST(is_error(r, 403, "missing_scope"), r.summary());
          BOOST_TEST(json_str(r.json(), "error.type") == "permission");
          BOOST_TEST(json_str(r.json(), "error.request_id") == r.header_or_empty("Svc-Request-Id"));
          BOOST_TEST(header_int(r, "X-RateLimit-Limit") == 1200, "403 draws from the team's reads bucket");
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(refused_rotation_leaves_the_key_alone) {
  auto t = create_team_with_keys();
  auto victim = create_key(t.id, "read");
  auto c = api();
  for (auto* key : {&t.read, &t.write}) {
    auto r = c.request("POST", "/v1/api_keys/" + victim.id + "/rotate", with_key(key->key));
    BOOST_TEST(is_error(r, 403, "missing_scope"), r.summary());
  }
  auto r = c.get("/v1/team", with_key(victim.key));
  BOOST_TEST(r.status == 200, r.summary());
  auto list = c.get("/v1/api_keys?limit=100", with_key(t.full.key)).json();
  bool found = false;
  for (long i = 0; i < json_size(list, "data"); ++i) {
    auto prefix = "data." + std::to_string(i);
    if (json_str(list, prefix + ".id") == victim.id) {
      found = true;
      BOOST_TEST(json_is_null(list, prefix + ".deactivate_at"));
    }
  }
  BOOST_TEST(found);
}

BOOST_AUTO_TEST_CASE(keys_of_another_team_are_not_found) {
  auto a = create_team_with_keys();
  auto b = create_team_with_keys();
  auto c = api();
  auto r = c.request("POST", "/v1/api_keys/" + b.read.id + "/rotate", with_key(a.full.key));
  BOOST_TEST(is_error(r, 404, "resource_not_found"), r.summary());
  BOOST_TEST(c.get("/v1/team", with_key(b.read.key)).status == 200, "b's key was not rotated away");
  auto unknown = c.request("POST", "/v1/api_keys/key_01J" + std::string(23, '0') + "/rotate", with_key(a.full.key));
  BOOST_TEST(is_error(unknown, 404, "resource_not_found"), unknown.summary());
  auto list = c.get("/v1/api_keys?limit=100", with_key(a.full.key)).json();
  for (long i = 0; i < json_size(list, "data"); ++i)
    BOOST_TEST(json_str(list, "data." + std::to_string(i) + ".team_id") == a.id);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
