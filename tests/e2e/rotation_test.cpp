// API key rotation with a short grace (--key-grace): through the API and
// through svcctl, both keys valid within the grace (also across a restart),
// the old key refused after its deactivate_at, plaintext shown only once.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <string>

#include "support/json_util.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_rotation)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

struct grace_2s : server_fixture {
  grace_2s() : server_fixture({"--key-grace", "2s"}) {}
};

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
    .count();
}

bool works(http_client& c, const std::string& key) { return c.get("/v1/team", with_key(key)).status == 200; }

// The list entry of `id` in GET /v1/api_keys, or null.
boost::json::value key_entry(http_client& c, const std::string& full_key, const std::string& id) {
  auto list = c.get("/v1/api_keys?limit=100", with_key(full_key)).json();
  for (long i = 0; i < json_size(list, "data"); ++i)
    if (json_str(list, "data." + std::to_string(i) + ".id") == id)
      return *json_at(list, "data." + std::to_string(i));
  return nullptr;
}

// Polls until `key` is refused (at most `limit`), then checks the refusal,
// that it did not come before `deactivate_ms`, and that `new_key` works.
void expect_expiry(http_client& c, const std::string& key, const std::string& new_key, std::int64_t deactivate_ms,
                   std::chrono::milliseconds limit) {
  response last;
  bool refused = wait_until(
    [&] {
      last = c.get("/v1/team", with_key(key));
      return last.status != 200;
    },
    limit, 50ms);
  auto refused_at = now_ms();
  BOOST_REQUIRE_MESSAGE(refused, "old key still valid " << limit.count() << " ms later");
  BOOST_TEST(is_error(last, 401, "invalid_api_key"), last.summary());
  BOOST_TEST(refused_at >= deactivate_ms - 300, "refused " << deactivate_ms - refused_at << " ms before deactivate_at");
  BOOST_TEST(refused_at <= deactivate_ms + 2000, "refused " << refused_at - deactivate_ms << " ms after deactivate_at");
  // The legacy-prefix spelling of the old key is refused too.
  auto legacy = c.get("/v1/team", with_key("sk_live_" + key.substr(key.size() - 64)));
  BOOST_TEST(is_error(legacy, 401, "invalid_api_key"), legacy.summary());
  BOOST_TEST(works(c, new_key));
}

} // namespace

BOOST_FIXTURE_TEST_CASE(rotate_through_the_api, grace_2s) {
  auto t = create_team_with_keys();
  auto c = api();
  auto before = now_ms();
  auto r = c.request("POST", "/v1/api_keys/" + t.read.id + "/rotate", with_key(t.full.key));
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  auto body = r.json();
  auto new_key = json_str(body, "key");
  auto new_id = json_str(body, "id");
  BOOST_TEST(is_plaintext_key(new_key), new_key);
  BOOST_TEST(new_key != t.read.key);
  BOOST_TEST(new_id.rfind("key_", 0) == 0);
  BOOST_TEST(new_id != t.read.id);
  BOOST_TEST(json_str(body, "object") == "api_key");
  BOOST_TEST(json_str(body, "scope") == "read", "the new key keeps the scope");
  BOOST_TEST(json_str(body, "team_id") == t.id);
  BOOST_TEST(json_is_null(body, "deactivate_at"));
  BOOST_TEST(json_str(body, "previous_key.id") == t.read.id);
  BOOST_TEST(json_is_null(body, "previous_key.key"), "the old plaintext is never shown");
  auto deactivate_ms = parse_iso8601_ms(json_str(body, "previous_key.deactivate_at"));
  BOOST_TEST(deactivate_ms >= before + 2000 - 1000, json_str(body, "previous_key.deactivate_at"));
  BOOST_TEST(deactivate_ms <= now_ms() + 2000 + 1000, json_str(body, "previous_key.deactivate_at"));

  // Within the grace both validate.
  BOOST_TEST(works(c, t.read.key));
  BOOST_TEST(works(c, new_key));
  BOOST_TEST_REQUIRE(now_ms() < deactivate_ms, "checks above ran inside the grace");

  // The list shows the deadline and no plaintext; the new key appears once.
  auto old_entry = key_entry(c, t.full.key, t.read.id);
  BOOST_TEST(json_str(old_entry, "deactivate_at") == json_str(body, "previous_key.deactivate_at"));
  BOOST_TEST(json_is_null(old_entry, "key"));
  auto new_entry = key_entry(c, t.full.key, new_id);
  BOOST_TEST(json_is_null(new_entry, "key"), "plaintext only in the rotate answer");
  BOOST_TEST(json_is_null(new_entry, "deactivate_at"));

  // Rotating the old key again must not extend its life.
  auto again = c.request("POST", "/v1/api_keys/" + t.read.id + "/rotate", with_key(t.full.key));
  BOOST_TEST_MESSAGE("rotating a rotated key: " << again.summary());
  BOOST_TEST(json_str(key_entry(c, t.full.key, t.read.id), "deactivate_at")
             == json_str(body, "previous_key.deactivate_at"));

  expect_expiry(c, t.read.key, new_key, deactivate_ms, 10s);
}

BOOST_FIXTURE_TEST_CASE(rotate_through_svcctl, grace_2s) {
  auto t = create_team_with_keys();
  auto c = api();
  auto out = ctl_ok({"key", "rotate", "--key", t.write.id});
  auto new_key = json_str(out, "key");
  BOOST_TEST(is_plaintext_key(new_key), new_key);
  BOOST_TEST(json_str(out, "id") != t.write.id);
  BOOST_TEST(json_str(out, "scope") == "write");
  BOOST_TEST(json_str(out, "team_id") == t.id);
  BOOST_TEST(json_str(out, "previous_key.id") == t.write.id);
  auto deactivate_ms = parse_iso8601_ms(json_str(out, "previous_key.deactivate_at"));
  BOOST_TEST(deactivate_ms > 0, out);

  BOOST_TEST(works(c, t.write.key));
  BOOST_TEST(works(c, new_key));
  BOOST_TEST(json_str(key_entry(c, t.full.key, t.write.id), "deactivate_at")
             == json_str(out, "previous_key.deactivate_at"));
  expect_expiry(c, t.write.key, new_key, deactivate_ms, 10s);
}

BOOST_FIXTURE_TEST_CASE(rotation_survives_a_restart_inside_the_grace, grace_2s) {
  auto t = create_team_with_keys();
  auto c = api();
  auto r = c.request("POST", "/v1/api_keys/" + t.read.id + "/rotate", with_key(t.full.key));
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  auto new_key = json_str(r.json(), "key");
  auto deactivate_at = json_str(r.json(), "previous_key.deactivate_at");
  auto deactivate_ms = parse_iso8601_ms(deactivate_at);

  BOOST_TEST(svcd.restart() == 0);
  auto c2 = api();
  BOOST_TEST_REQUIRE(now_ms() < deactivate_ms - 300, "restart finished inside the grace");
  BOOST_TEST(works(c2, t.read.key), "old key still valid after the restart");
  BOOST_TEST(works(c2, new_key), "new key valid after the restart");
  BOOST_TEST(json_str(key_entry(c2, t.full.key, t.read.id), "deactivate_at") == deactivate_at);
  expect_expiry(c2, t.read.key, new_key, deactivate_ms, 15s);
}

BOOST_AUTO_TEST_CASE(default_grace_is_24_hours) {
  server_fixture f;
  auto t = f.create_team_with_keys();
  auto out = f.ctl_ok({"key", "rotate", "--key", t.read.id});
  auto left_ms = parse_iso8601_ms(json_str(out, "previous_key.deactivate_at")) - now_ms();
  BOOST_TEST(left_ms > 24 * 3600 * 1000LL - 60000, "deactivate_at in " << left_ms << " ms");
  BOOST_TEST(left_ms <= 24 * 3600 * 1000LL + 1000, "deactivate_at in " << left_ms << " ms");
  auto c = f.api();
  BOOST_TEST(works(c, t.read.key));
}

// A leaked full key that its owner rotated cannot fight back during the grace:
// it keeps its other powers, but may not list, rotate or revoke keys.
BOOST_AUTO_TEST_CASE(a_key_inside_its_grace_cannot_manage_keys) {
  server_fixture f;
  auto t = f.create_team_with_keys();
  auto c = f.api();
  auto r = c.request("POST", "/v1/api_keys/" + t.full.id + "/rotate", with_key(t.full.key));
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  auto new_id = json_str(r.json(), "id");
  auto new_key = json_str(r.json(), "key");
  BOOST_TEST(works(c, t.full.key), "the old key still reads inside its grace");
  auto list = c.get("/v1/api_keys", with_key(t.full.key));
  BOOST_TEST(is_error(list, 403, "key_rotating"), list.summary());
  BOOST_TEST(json_str(list.json(), "error.type") == "permission");
  auto rotate_new = c.request("POST", "/v1/api_keys/" + new_id + "/rotate", with_key(t.full.key));
  BOOST_TEST(is_error(rotate_new, 403, "key_rotating"), rotate_new.summary());
  auto revoke_new = c.request("POST", "/v1/api_keys/" + new_id + "/revoke", with_key(t.full.key));
  BOOST_TEST(is_error(revoke_new, 403, "key_rotating"), revoke_new.summary());
  BOOST_TEST(works(c, new_key), "the new key is untouched");
  BOOST_TEST(c.get("/v1/api_keys", with_key(new_key)).status == 200);
}

// The owner evicts the old key at once instead of waiting for its grace.
BOOST_AUTO_TEST_CASE(a_revoked_key_is_refused_at_once) {
  server_fixture f;
  auto t = f.create_team_with_keys();
  auto c = f.api();
  auto r = c.request("POST", "/v1/api_keys/" + t.full.id + "/rotate", with_key(t.full.key));
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  auto new_key = json_str(r.json(), "key");
  BOOST_TEST(works(c, t.full.key), "cached as a valid key before the revoke");
  auto revoked = c.request("POST", "/v1/api_keys/" + t.full.id + "/revoke", with_key(new_key));
  BOOST_REQUIRE_MESSAGE(revoked.status == 200, revoked.summary());
  BOOST_TEST(json_str(revoked.json(), "id") == t.full.id);
  BOOST_TEST(parse_iso8601_ms(json_str(revoked.json(), "revoked_at")) > 0, revoked.summary());
  auto refused = c.get("/v1/team", with_key(t.full.key));
  BOOST_TEST(is_error(refused, 401, "api_key_revoked"), refused.summary());
  BOOST_TEST(works(c, new_key));
  BOOST_TEST(parse_iso8601_ms(json_str(key_entry(c, new_key, t.full.id), "revoked_at")) > 0);
  BOOST_TEST(json_is_null(key_entry(c, new_key, t.read.id), "revoked_at"));
  // svcctl revokes through the admin listener; revoking twice changes nothing.
  auto out = f.ctl_ok({"key", "revoke", "--key", t.read.id});
  BOOST_TEST(json_str(out, "id") == t.read.id);
  auto first_revoked_at = json_str(out, "revoked_at");
  BOOST_TEST(is_error(c.get("/v1/team", with_key(t.read.key)), 401, "api_key_revoked"));
  BOOST_TEST(json_str(f.ctl_ok({"key", "revoke", "--key", t.read.id}), "revoked_at") == first_revoked_at);
  // Another team's key is not found through the API.
  auto other = f.create_team_with_keys();
  auto foreign = c.request("POST", "/v1/api_keys/" + other.read.id + "/revoke", with_key(new_key));
  BOOST_TEST(is_error(foreign, 404, "resource_not_found"), foreign.summary());
  BOOST_TEST(works(c, other.read.key));
}

BOOST_AUTO_TEST_SUITE_END()
