#include "actors/keyring.hpp"

#include <boost/test/unit_test.hpp>

#include <set>
#include <string>

#include "core/crypto.hpp"
#include "core/shard.hpp"
#include "persistence/shard_keys.hpp"
#include "schema/api_key_format.hpp"
#include "team_directory_fixture.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(actors_keyring)

namespace {

using namespace std::chrono_literals;
using namespace svc::actors;
using svc::core::to_unix_ms;
using namespace svc::schema;

struct keyring_fixture : svc::test::team_directory_fixture {
  keyring_actor keys = spawn_keyring();

  keyring_actor spawn_keyring() {
    auto k = track(sys.spawn(svc::actors::keyring, ctx()));
    sched.run();
    return k;
  }

  issued_key create_key(scope s = scope::write) {
    auto k = ask<issued_key>(keys, create_atom::value, team_id, s);
    BOOST_REQUIRE_MESSAGE(k.value, "key create failed: " << sys.render(k.error));
    return *k.value;
  }

  issued_key rotate(const std::string& key_id, const std::string& team = {}) {
    auto k = ask<issued_key>(keys, rotate_atom::value, key_id, team);
    BOOST_REQUIRE_MESSAGE(k.value, "rotate failed: " << sys.render(k.error));
    return *k.value;
  }

  error_code rotate_error(const std::string& key_id, const std::string& team = {}) {
    auto k = ask<issued_key>(keys, rotate_atom::value, key_id, team);
    BOOST_REQUIRE(k.answered);
    BOOST_REQUIRE(!k.value);
    return svc::actors::to_api_error(k.error).code;
  }

  svc::schema::api_key_record stored(const std::string& key_id) {
    auto r = svc::test::found(tables.api_keys.get(key_id));
    BOOST_REQUIRE_MESSAGE(r, "no stored key " << key_id);
    return *r;
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(keyring_suite, keyring_fixture)

BOOST_AUTO_TEST_CASE(create_stores_the_key_and_its_indexes) {
  auto k = create_key(scope::read);
  BOOST_TEST(k.record.id.rfind("key_", 0) == 0u);
  BOOST_TEST(k.record.team_id == team_id);
  BOOST_TEST(k.previous.id.empty());
  auto secret = svc::schema::api_key_secret(k.plaintext);
  BOOST_REQUIRE(secret);
  BOOST_TEST(k.record.secret_sha256 == svc::core::to_hex(svc::core::sha256(*secret)));
  BOOST_TEST(k.record.last4 == std::string{secret->substr(60)});

  auto r = stored(k.record.id);
  BOOST_TEST((r.key_scope == scope::read));
  BOOST_TEST(r.secret_sha256 == k.record.secret_sha256);
  BOOST_TEST(!r.deactivate_at.has_value());
  BOOST_TEST(!r.deactivated);
  // Under the shard the secret names, which is the team's.
  auto named = svc::core::shard_of_key_secret(*secret);
  BOOST_TEST((named == std::optional<svc::core::shard_id>{svc::core::shard_of_team(team_id)}));
  auto hash_key = svc::persistence::key_hash_key(*named, r.secret_sha256);
  BOOST_TEST((svc::test::found(tables.key_hashes.get(hash_key)) == std::optional<std::string>{r.id}));
  BOOST_TEST((svc::test::found(tables.api_keys_by_team.get(team_id + "/" + r.id)) == std::optional<std::string>{r.id}));
  BOOST_TEST(state_of<keyring_state>(keys).issued == 1u);
}

// A cluster routes a request by its key alone: the secret and the key id of
// every team's new key name that team's shard.
BOOST_AUTO_TEST_CASE(new_keys_name_their_team_shard) {
  std::set<int> shards;
  for (int i = 0; i < 8; ++i) {
    team_id = create_team();
    auto k = create_key();
    auto secret = svc::schema::api_key_secret(k.plaintext);
    BOOST_REQUIRE(secret);
    auto shard = svc::core::shard_of_team(team_id);
    BOOST_TEST((svc::core::shard_of_key_secret(*secret) == shard), team_id << " has shard " << int{shard});
    BOOST_TEST((svc::core::shard_of_id(k.record.id) == shard), k.record.id);
    shards.insert(shard);
  }
  BOOST_TEST(shards.size() > 1u); // eight teams on one shard would hide a constant
}

BOOST_AUTO_TEST_CASE(create_refuses_unknown_team_and_scope_none) {
  auto unknown = ask<issued_key>(keys, create_atom::value, std::string{"team_nope"}, scope::read);
  BOOST_REQUIRE(unknown.answered);
  BOOST_TEST(!unknown.value);
  BOOST_TEST((svc::actors::to_api_error(unknown.error).code == error_code::resource_not_found));
  auto none = ask<issued_key>(keys, create_atom::value, team_id, scope::none);
  BOOST_REQUIRE(none.answered);
  BOOST_TEST((svc::actors::to_api_error(none.error).code == error_code::invalid_parameter));
  BOOST_TEST(env->count(svc::persistence::table::api_keys) == 0u);
}

BOOST_AUTO_TEST_CASE(rotation_grace_ends_with_the_timer) {
  auto old = create_key(scope::full);
  auto rotated = rotate(old.record.id);

  BOOST_TEST(rotated.record.id != old.record.id);
  BOOST_TEST((rotated.record.key_scope == scope::full));
  BOOST_TEST(rotated.record.team_id == team_id);
  BOOST_TEST(rotated.plaintext != old.plaintext);
  BOOST_TEST(rotated.previous.id == old.record.id);
  BOOST_REQUIRE(rotated.previous.deactivate_at);
  BOOST_TEST((*rotated.previous.deactivate_at == rotated.record.created_at + 2s));
  BOOST_TEST(rotated.previous.replaced_by == rotated.record.id);

  auto before = stored(old.record.id);
  BOOST_REQUIRE(before.deactivate_at);
  BOOST_TEST(to_unix_ms(*before.deactivate_at) == to_unix_ms(rotated.record.created_at) + 2000);
  BOOST_TEST(before.replaced_by == rotated.record.id);
  BOOST_TEST(!before.deactivated);
  BOOST_TEST(stored(rotated.record.id).replaced_by.empty());
  BOOST_TEST(state_of<keyring_state>(keys).pending_expiries.count(old.record.id) == 1u);

  BOOST_TEST(advance(1s) == 0u);
  BOOST_TEST(!stored(old.record.id).deactivated);

  BOOST_TEST(advance(1s) == 1u);
  auto after = stored(old.record.id);
  BOOST_TEST(after.deactivated);
  BOOST_TEST(after.replaced_by == rotated.record.id);
  BOOST_TEST(state_of<keyring_state>(keys).pending_expiries.empty());
  BOOST_TEST(!stored(rotated.record.id).deactivated);
}

BOOST_AUTO_TEST_CASE(timer_before_the_wall_clock_deadline_rearms) {
  auto old = create_key();
  rotate(old.record.id);
  // Virtual time passes the grace but the wall clock does not (it was set back).
  BOOST_TEST(sched.advance_time(2s) == 1u);
  sched.run();
  BOOST_TEST(!stored(old.record.id).deactivated);
  BOOST_TEST(state_of<keyring_state>(keys).pending_expiries.count(old.record.id) == 1u);
  // Once the wall clock gets there too, the re-armed timer deactivates it.
  advance(2s);
  BOOST_TEST(stored(old.record.id).deactivated);
}

BOOST_AUTO_TEST_CASE(restart_after_the_deadline_deactivates_at_the_first_timer) {
  auto old = create_key();
  rotate(old.record.id);
  stop(keys);
  clock->advance(3s); // down past the deadline; virtual time stands still
  BOOST_TEST(!stored(old.record.id).deactivated);

  keys = spawn_keyring();
  BOOST_TEST(state_of<keyring_state>(keys).pending_expiries.count(old.record.id) == 1u);
  BOOST_TEST(sched.advance_time(1ms) == 1u); // re-armed with no delay; the old actor's timer is not due
  sched.run();
  BOOST_TEST(stored(old.record.id).deactivated);
  BOOST_TEST(state_of<keyring_state>(keys).pending_expiries.empty());
}

BOOST_AUTO_TEST_CASE(restart_within_the_grace_waits_only_for_the_rest) {
  auto old = create_key();
  rotate(old.record.id);
  stop(keys);
  clock->advance(1500ms); // down for 1.5 s of the 2 s grace
  keys = spawn_keyring();
  BOOST_TEST(advance(400ms) == 0u);
  BOOST_TEST(!stored(old.record.id).deactivated);
  BOOST_TEST(advance(200ms) == 1u);
  BOOST_TEST(stored(old.record.id).deactivated);
}

BOOST_AUTO_TEST_CASE(rotating_a_rotated_key_is_invalid_state) {
  auto old = create_key();
  auto rotated = rotate(old.record.id);
  BOOST_TEST((rotate_error(old.record.id) == error_code::invalid_state));
  advance(2s);
  BOOST_REQUIRE(stored(old.record.id).deactivated);
  BOOST_TEST((rotate_error(old.record.id) == error_code::invalid_state));
  // The replacement itself may be rotated.
  auto next = rotate(rotated.record.id);
  BOOST_TEST(next.previous.id == rotated.record.id);
}

BOOST_AUTO_TEST_CASE(unknown_key_or_foreign_team_is_not_found) {
  BOOST_TEST((rotate_error("key_does_not_exist") == error_code::resource_not_found));
  auto k = create_key();
  BOOST_TEST((rotate_error(k.record.id, "team_someone_else") == error_code::resource_not_found));
  BOOST_TEST(!stored(k.record.id).deactivate_at.has_value());
  // The owning team may rotate it.
  auto rotated = rotate(k.record.id, team_id);
  BOOST_TEST(rotated.previous.id == k.record.id);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
