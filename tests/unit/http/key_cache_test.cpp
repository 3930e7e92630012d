#include "http/key_cache.hpp"

#include <boost/test/unit_test.hpp>

#include <memory>
#include <string>

#include "core/clock.hpp"
#include "persistence/store_tables.hpp"
#include "persistence/value_codec.hpp"
#include "tests/support/read_results.hpp"
#include "persistence/shard_keys.hpp"
#include "tests/support/lmdb_fixture.hpp"
#include "tests/support/temp_dir.hpp"

BOOST_AUTO_TEST_SUITE(http_key_cache)

namespace {

using namespace svc;
using persistence::table;
using persistence::write_batch;
using svc::core::from_unix_ms;

const std::string hash_a(64, 'a'), hash_b(64, 'b');

// A real store with one team and its key (secret hash `hash_a`), and a cache
// in front of it. `fail_reads` on the store tells whether a lookup was served
// by the cache (it still answers) or read the store (it fails).
struct store_fixture {
  test::temp_dir dir;
  std::unique_ptr<persistence::environment> env;
  std::unique_ptr<persistence::tables> tables;
  http::key_cache cache;
  schema::team_record team;
  schema::api_key_record key;

  store_fixture() {
    env = test::open_environment(dir.path);
    tables = std::make_unique<persistence::tables>(*env);
    team.id = "team_1";
    team.name = "one";
    team.default_api_version = "2026-09-01";
    key.id = "key_1";
    key.team_id = team.id;
    key.secret_sha256 = hash_a;
    write_batch b;
    tables->teams.put(b, team.id, team);
    put_key(b, key);
    commit(b);
  }

  void put_key(write_batch& b, const schema::api_key_record& k) {
    tables->api_keys.put(b, k.id, k);
    tables->key_hashes.put(b, persistence::key_hash_key(shard(), k.secret_sha256), k.id);
  }

  // The shard the test keys' secrets name: their team's.
  core::shard_id shard() const { return core::shard_of_team(team.id); }

  void commit(const write_batch& b) { BOOST_REQUIRE(env->commit(b).ok()); }

  // The commits job progress, ledgers and deliveries make all the time: no key, no team.
  void commit_unrelated() {
    write_batch b;
    tables->balances.put(b, team.id, schema::balance_record{team.id, 10, 0, {}});
    b.put(table::jobs, "img_1", persistence::encode_text("progress"));
    b.put(table::delivery_tasks, "task_1", persistence::encode_text("due"));
    commit(b);
  }

  std::shared_ptr<const http::key_entry> lookup(const std::string& hash) {
    auto entry = test::found(cache.lookup(*env, *tables, shard(), hash));
    BOOST_REQUIRE(entry);
    return *entry;
  }

  // True when the lookup of `hash` needed the store (it fails while reads fail).
  bool lookup_reads_the_store(const std::string& hash) {
    env->fail_reads(true);
    auto r = cache.lookup(*env, *tables, shard(), hash);
    env->fail_reads(false);
    return r.failed();
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(key_cache, store_fixture)

BOOST_AUTO_TEST_CASE(a_key_is_found_only_by_the_shard_its_secret_names_or_by_its_hash_alone) {
  auto other = static_cast<core::shard_id>(shard() + 1);
  BOOST_TEST(!test::found(cache.lookup(*env, *tables, other, hash_a)));
  BOOST_TEST(!test::found(cache.lookup(*env, *tables, std::nullopt, hash_a)));
  // A key of a store upgraded from format 1 is stored by its hash alone.
  auto legacy = key;
  legacy.id = "key_2";
  legacy.secret_sha256 = std::string(64, 'c');
  write_batch b;
  tables->api_keys.put(b, legacy.id, legacy);
  tables->key_hashes.put(b, legacy.secret_sha256, legacy.id);
  commit(b);
  BOOST_TEST(lookup(legacy.secret_sha256)->key.id == "key_2");
  BOOST_TEST(test::found(cache.lookup(*env, *tables, std::nullopt, legacy.secret_sha256)).has_value());
}

BOOST_AUTO_TEST_CASE(a_second_lookup_is_served_from_the_cache) {
  lookup(hash_a);
  BOOST_TEST(!lookup_reads_the_store(hash_a));
}

BOOST_AUTO_TEST_CASE(commits_to_other_tables_keep_the_entries) {
  lookup(hash_a);
  commit_unrelated();
  commit_unrelated();
  BOOST_TEST(!lookup_reads_the_store(hash_a), "an unrelated commit dropped the entry");
  BOOST_TEST(lookup(hash_a)->key.id == key.id);
}

BOOST_AUTO_TEST_CASE(commits_to_keys_key_hashes_or_teams_drop_the_entries) {
  // Each write is to a record the cached entry is not even made of: the cache
  // cannot tell, so any write to these tables empties it.
  schema::api_key_record other_key = key;
  other_key.id = "key_9";
  schema::team_record other_team = team;
  other_team.id = "team_9";
  for (auto t : {table::api_keys, table::key_hashes, table::teams}) {
    BOOST_TEST_CONTEXT(persistence::table_name(t)) {
      lookup(hash_a);
      write_batch b;
      if (t == table::api_keys)
        tables->api_keys.put(b, other_key.id, other_key);
      else if (t == table::key_hashes)
        b.erase(table::key_hashes, std::string(64, 'f'));
      else
        tables->teams.put(b, other_team.id, other_team);
      commit(b);
      BOOST_TEST(lookup_reads_the_store(hash_a));
    }
  }
}

BOOST_AUTO_TEST_CASE(unknown_hashes_are_looked_up_every_time) {
  BOOST_TEST(!test::found(cache.lookup(*env, *tables, shard(), hash_b)));
  BOOST_TEST(lookup_reads_the_store(hash_b));
}

BOOST_AUTO_TEST_CASE(a_revocation_is_seen_by_the_next_lookup) {
  BOOST_TEST(!lookup(hash_a)->key.revoked_at);
  key.revoked_at = from_unix_ms(1'800'000'000'000);
  write_batch b;
  tables->api_keys.put(b, key.id, key);
  commit(b);
  auto after = lookup(hash_a);
  BOOST_REQUIRE(after->key.revoked_at);
  BOOST_TEST(core::to_unix_ms(*after->key.revoked_at) == 1'800'000'000'000);
}

BOOST_AUTO_TEST_CASE(a_rotation_is_seen_by_the_next_lookup) {
  BOOST_TEST(!lookup(hash_a)->key.deactivate_at);
  BOOST_TEST(!test::found(cache.lookup(*env, *tables, shard(), hash_b)));
  // Rotation in one commit: the old key gets its deadline, the new one is stored.
  schema::api_key_record next = key;
  next.id = "key_2";
  next.secret_sha256 = hash_b;
  key.deactivate_at = from_unix_ms(1'800'000'000'000);
  key.replaced_by = next.id;
  write_batch b;
  put_key(b, key);
  put_key(b, next);
  commit(b);
  auto old = lookup(hash_a);
  BOOST_REQUIRE(old->key.deactivate_at);
  BOOST_TEST(old->key.replaced_by == "key_2");
  BOOST_TEST(lookup(hash_b)->key.id == "key_2");
  // The grace ends: the old key is marked deactivated.
  key.deactivated = true;
  write_batch ended;
  tables->api_keys.put(ended, key.id, key);
  commit(ended);
  BOOST_TEST(lookup(hash_a)->key.deactivated);
}

BOOST_AUTO_TEST_CASE(a_team_disable_and_update_are_seen_by_the_next_lookup) {
  BOOST_TEST(!lookup(hash_a)->team.disabled_at);
  team.disabled_at = from_unix_ms(1'800'000'000'000);
  write_batch b;
  tables->teams.put(b, team.id, team);
  commit(b);
  BOOST_TEST(lookup(hash_a)->team.disabled_at.has_value());

  team.disabled_at.reset();
  team.default_api_version = "2026-01-15";
  team.rate_limit_overrides["reads"] = {50, 60};
  write_batch update;
  tables->teams.put(update, team.id, team);
  commit(update);
  auto after = lookup(hash_a);
  BOOST_TEST(!after->team.disabled_at);
  BOOST_TEST(after->team.default_api_version == "2026-01-15");
  BOOST_TEST(after->team.rate_limit_overrides.count("reads") == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
