// Authentication end to end: missing, malformed and unknown keys, the Bearer
// alias, legacy two-letter prefixes, keys refused in the query string, and
// the error envelope with its request id.
#include <boost/test/unit_test.hpp>

#include <set>
#include <string>

#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_auth)

using namespace svc::e2e;

namespace {

const std::string unknown_key = "svc_live_" + std::string(64, 'a');

std::string hex_of(const std::string& key) { return key.substr(key.size() - 64); }

} // namespace

BOOST_FIXTURE_TEST_SUITE(auth, server_fixture)

BOOST_AUTO_TEST_CASE(missing_key_is_401_missing_api_key) {
  auto c = api();
  auto r = c.get("/v1/team");
  BOOST_TEST(is_error(r, 401, "missing_api_key"), r.summary());
  BOOST_TEST(json_str(r.json(), "error.type") == "authentication");
  BOOST_TEST(header_int(r, "X-RateLimit-Limit") == 600, "401 draws from the anonymous bucket");
}

BOOST_AUTO_TEST_CASE(malformed_and_unknown_keys_are_401_invalid_api_key) {
  auto t = create_team_with_keys();
  auto c = api();
  auto hex = hex_of(t.read.key);
  for (std::string key : {std::string{"svc_live_abc"}, std::string{"not-a-key"}, "svc_live_" + std::string(64, 'g'),
                          "svc_live_" + hex + "0", "svc_test_" + hex, unknown_key}) {
    BOOST_TEST_CONTEXT("key " << key) {
      auto r = c.get("/v1/team", with_key(key));
      BOOST_TEST(is_error(r, 401, "invalid_api_key"), r.summary());
      BOOST_TEST(json_str(r.json(), "error.type") == "authentication");
      BOOST_TEST(header_int(r, "X-RateLimit-Limit") == 600);
    }
  }
  auto r = c.get("/v1/team", {{"Authorization", "Bearer " + unknown_key}});
  BOOST_TEST(is_error(r, 401, "invalid_api_key"), r.summary());
}

BOOST_AUTO_TEST_CASE(header_key_bearer_alias_and_legacy_prefix_authenticate) {
  auto t = create_team_with_keys();
  auto c = api();
  auto hex = hex_of(t.read.key);
  std::vector<std::pair<std::string, header_map>> forms{
    {"X-Api-Key", with_key(t.read.key)},
    {"Bearer", {{"Authorization", "Bearer " + t.read.key}}},
    {"legacy sk_", with_key("sk_live_" + hex)},
    {"legacy ab_", with_key("ab_live_" + hex)},
    {"legacy Bearer", {{"Authorization", "Bearer sk_live_" + hex}}},
  };
  for (auto& [name, headers] : forms) {
    BOOST_TEST_CONTEXT("form " << name) {
      auto r = c.get("/v1/team", headers);
      BOOST_TEST(r.status == 200, r.summary());
      BOOST_TEST(json_str(r.json(), "id") == t.id);
    }
  }
}

BOOST_AUTO_TEST_CASE(key_in_query_is_400_and_never_used) {
  auto t = create_team_with_keys();
  auto c = api();
  for (std::string param : {"api_key", "key", "apikey", "access_token"}) {
    for (bool with_header : {true, false}) {
      BOOST_TEST_CONTEXT("?" << param << "= with header " << with_header) {
        auto r = c.get("/v1/team?" + param + "=" + t.read.key, with_header ? with_key(t.read.key) : header_map{});
        BOOST_TEST(is_error(r, 400, "api_key_in_query"), r.summary());
        auto body = r.json();
        BOOST_TEST(json_str(body, "error.type") == "invalid_request");
        BOOST_TEST(json_str(body, "error.message").find(param) != std::string::npos);
        if (json_at(body, "error.param"))
          BOOST_TEST(json_str(body, "error.param") == param, "error.param names the query parameter");
        BOOST_TEST(json_str(body, "error.doc_url") == svcd.api_url() + "/docs/errors#api_key_in_query");
        BOOST_TEST(header_int(r, "X-RateLimit-Limit") == 600, "anonymous bucket");
      }
    }
  }
  // Also among other parameters and on other routes, the docs page included.
  for (std::string target : {"/v1/loras?limit=5&apikey=" + t.read.key, "/v1/balance?access_token=" + unknown_key,
                             "/docs/errors?api_key=" + t.read.key}) {
    BOOST_TEST_CONTEXT(target) {
      auto r = c.get(target, with_key(t.read.key));
      BOOST_TEST(is_error(r, 400, "api_key_in_query"), r.summary());
    }
  }
  // A key-shaped value under any other name, or inside a value, is refused as well.
  for (std::string target : {"/v1/images?token=" + t.read.key, "/v1/images?starting_after=" + unknown_key,
                             "/v1/images?q=Bearer%20" + t.read.key, "/docs/errors?x=ab_live_" + std::string(64, 'f')}) {
    BOOST_TEST_CONTEXT(target) {
      auto r = c.get(target, with_key(t.read.key));
      BOOST_TEST(is_error(r, 400, "api_key_in_query"), r.summary());
    }
  }
  // None of those requests touched the team's bucket: this is its first draw.
  auto r = c.get("/v1/team", with_key(t.read.key));
  BOOST_TEST(r.status == 200, r.summary());
  BOOST_TEST(header_int(r, "X-RateLimit-Limit") == 1200);
  BOOST_TEST(header_int(r, "X-RateLimit-Remaining") == 1199);
  // Near misses are ordinary values.
  auto near = c.get("/v1/images?limit=5&starting_after=img_live_" + std::string(63, 'f'), with_key(t.read.key));
  BOOST_TEST(!is_error(near, 400, "api_key_in_query"), near.summary());
}

BOOST_AUTO_TEST_CASE(error_envelope_carries_request_id_and_doc_url) {
  auto c = api();
  auto r = c.get("/v1/balance");
  BOOST_REQUIRE_MESSAGE(r.status == 401, r.summary());
  auto body = r.json();
  BOOST_TEST(body.is_object());
  BOOST_TEST(json_str(body, "error.type") == "authentication");
  BOOST_TEST(json_str(body, "error.code") == "missing_api_key");
  BOOST_TEST(!json_str(body, "error.message").empty());
  BOOST_TEST(json_str(body, "error.doc_url") == svcd.api_url() + "/docs/errors#missing_api_key");
  BOOST_TEST(json_at(body, "error.param") == nullptr, "param only for errors about one parameter");
  auto header_id = r.header_or_empty("Svc-Request-Id");
  BOOST_TEST(is_request_id(header_id), header_id);
  BOOST_TEST(json_str(body, "error.request_id") == header_id);

  auto r2 = c.get("/v1/team", with_key(unknown_key));
  BOOST_TEST(json_str(r2.json(), "error.request_id") == r2.header_or_empty("Svc-Request-Id"));
  BOOST_TEST(json_str(r2.json(), "error.doc_url") == svcd.api_url() + "/docs/errors#invalid_api_key");
}

BOOST_AUTO_TEST_CASE(request_ids_are_unique_and_present_on_success) {
  auto t = create_team_with_keys();
  auto c = api();
  std::set<std::string> ids;
  for (int i = 0; i < 50; ++i) {
    auto r = c.get(i % 2 ? "/v1/team" : "/v1/nope", with_key(t.read.key));
    auto id = r.header_or_empty("Svc-Request-Id");
    BOOST_TEST(is_request_id(id), id);
    ids.insert(id);
  }
  BOOST_TEST(ids.size() == 50u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
