#include "http/handlers/handlers.hpp"

#include <boost/test/unit_test.hpp>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "services_fixture.hpp"

BOOST_AUTO_TEST_SUITE(http_api_keys)

// The key handlers (http/handlers/api_keys.cpp) against a keyring actor of
// the test's own, which answers the typed interface from actors/messages.hpp
// and records what it was asked.

namespace {

using namespace svc::http;
using namespace svc::actors;
using svc::schema::error_code;
namespace bhttp = boost::beast::http;

constexpr const char* known_key = "key_01HZZZZZZZZZZZZZZZZZZZZZZZ";

// What the fake keyring was asked: (message, key id, team id).
struct asked_log {
  std::mutex mutex;
  std::vector<std::string> asks;
  void add(std::string what) {
    std::lock_guard lock(mutex);
    asks.push_back(std::move(what));
  }
  std::vector<std::string> get() {
    std::lock_guard lock(mutex);
    return asks;
  }
};

svc::schema::api_key_record record_of(const std::string& id, const std::string& team) {
  svc::schema::api_key_record k;
  k.id = id;
  k.team_id = team;
  k.key_scope = svc::schema::scope::write;
  k.last4 = "beef";
  return k;
}

// Knows one key, `known_key`, of team `team_a`; anything else is not found,
// as the real keyring answers a key of another team. `silent` answers nothing.
keyring_actor::behavior_type fake_keyring(keyring_actor::pointer self, std::shared_ptr<asked_log> log, bool silent) {
  auto not_found = [](const std::string& id) {
    return make_domain_error(error_code::resource_not_found, "id", {{"kind", "api_key"}, {"id", id}});
  };
  return {
    [](describe_atom) { return actor_status{"fake keyring", 0}; },
    [](fault_atom) {},
    [](create_atom, const std::string&, svc::schema::scope) -> caf::result<issued_key> {
      return make_domain_error(error_code::internal_error);
    },
    [=](rotate_atom, const std::string& id, const std::string& team) -> caf::result<issued_key> {
      log->add("rotate " + id + " " + team);
      if (silent)
        return self->make_response_promise<issued_key>();
      if (id != known_key || team != "team_a")
        return not_found(id);
      issued_key k;
      k.record = record_of("key_01HNEWNEWNEWNEWNEWNEWNEWNE", team);
      k.plaintext = "svc_live_" + std::string(64, 'a');
      k.previous = record_of(id, team);
      k.previous.deactivate_at = svc::core::from_unix_ms(1'800'000'000'000);
      return k;
    },
    [=](revoke_atom, const std::string& id, const std::string& team) -> caf::result<svc::schema::api_key_record> {
      log->add("revoke " + id + " " + team);
      if (id != known_key || team != "team_a")
        return not_found(id);
      auto k = record_of(id, team);
      k.revoked_at = svc::core::from_unix_ms(1'790'000'000'000);
      return k;
    },
    [](deactivate_atom, const std::string&) {},
    [](adopt_atom, svc::core::shard_id) -> int64_t { return 0; },
  };
}

struct keys_fixture : svc::http::testing::services_fixture {
  std::shared_ptr<asked_log> log = std::make_shared<asked_log>();

  keys_fixture() {
    cfg.request_deadline = std::chrono::milliseconds{300};
    svc->handles.keyring = sys->spawn(fake_keyring, log, false);
  }

  // A request of team_a's full-scope key to `/v1/api_keys/{id}/action`.
  context_ptr key_request(const std::string& id, const std::string& action) {
    auto ctx = request(bhttp::verb::post, "/v1/api_keys/" + id + "/" + action);
    ctx->match.params = {{"id", id}};
    auto team = std::make_shared<svc::schema::team_record>();
    team->id = "team_a";
    ctx->team = team;
    auto key = std::make_shared<svc::schema::api_key_record>(record_of("key_01HCA11ERCA11ERCA11ERCA1", "team_a"));
    key->key_scope = svc::schema::scope::full;
    ctx->key = key;
    return ctx;
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(api_key_handlers, keys_fixture)

BOOST_AUTO_TEST_CASE(revoke_answers_the_keyrings_record_without_a_secret) {
  revoke_api_key(key_request(known_key, "revoke"));
  BOOST_REQUIRE(answered());
  auto text = answer();
  BOOST_TEST(text.rfind("HTTP/1.1 200", 0) == 0u, text);
  BOOST_TEST(text.find(known_key) != std::string::npos, text);
  BOOST_TEST(text.find("\"revoked_at\":\"20") != std::string::npos, text);
  BOOST_TEST(text.find("\"key\":null") != std::string::npos, "a revoked key's view shows no secret");
  BOOST_TEST(log->get() == std::vector<std::string>{std::string("revoke ") + known_key + " team_a"});
}

BOOST_AUTO_TEST_CASE(the_keyring_is_asked_within_the_callers_team) {
  auto ctx = key_request(known_key, "revoke");
  auto other = std::make_shared<svc::schema::team_record>();
  other->id = "team_b";
  ctx->team = other;
  revoke_api_key(ctx);
  BOOST_REQUIRE(answered());
  BOOST_TEST(log->get() == std::vector<std::string>{std::string("revoke ") + known_key + " team_b"});
  BOOST_TEST(answer().rfind("HTTP/1.1 404", 0) == 0u, answer());
  BOOST_TEST(answer().find("\"resource_not_found\"") != std::string::npos, answer());
}

BOOST_AUTO_TEST_CASE(rotate_shows_the_new_secret_once_and_the_previous_keys_grace) {
  rotate_api_key(key_request(known_key, "rotate"));
  BOOST_REQUIRE(answered());
  auto text = answer();
  BOOST_TEST(text.rfind("HTTP/1.1 200", 0) == 0u, text);
  BOOST_TEST(text.find("svc_live_" + std::string(64, 'a')) != std::string::npos, text);
  BOOST_TEST(text.find("\"previous_key\"") != std::string::npos, text);
  BOOST_TEST(text.find("\"deactivate_at\":\"20") != std::string::npos, text);
}

BOOST_AUTO_TEST_CASE(an_id_not_shaped_like_a_key_is_404_without_asking) {
  revoke_api_key(key_request("team_a", "revoke"));
  BOOST_REQUIRE(answered());
  BOOST_TEST(answer().rfind("HTTP/1.1 404", 0) == 0u, answer());
  BOOST_TEST(log->get().empty());
}

BOOST_AUTO_TEST_CASE(a_key_in_its_rotation_grace_may_not_manage_keys) {
  auto ctx = key_request(known_key, "rotate");
  auto rotating = std::make_shared<svc::schema::api_key_record>(*ctx->key);
  rotating->deactivate_at = clock->now() + std::chrono::hours{1};
  ctx->key = rotating;
  rotate_api_key(ctx);
  BOOST_REQUIRE(answered());
  BOOST_TEST(answer().find("\"key_rotating\"") != std::string::npos, answer());
  BOOST_TEST(log->get().empty());
}

BOOST_AUTO_TEST_CASE(a_keyring_that_does_not_answer_is_503_after_the_request_deadline) {
  svc->handles.keyring = sys->spawn(fake_keyring, log, true);
  rotate_api_key(key_request(known_key, "rotate"));
  BOOST_REQUIRE(answered());
  BOOST_TEST(answer().rfind("HTTP/1.1 503", 0) == 0u, answer());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
