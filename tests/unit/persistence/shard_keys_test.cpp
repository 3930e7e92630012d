#include "persistence/shard_keys.hpp"

#include <boost/test/unit_test.hpp>

#include <set>
#include <string>
#include <vector>

#include "core/ids.hpp"
#include "persistence/job_rows.hpp"
#include "persistence/webhook_rows.hpp"
#include "tests/support/lmdb_fixture.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(persistence_shard_keys)

namespace {

using namespace svc::persistence;
using svc::core::shard_id;
using svc::core::shard_of_team;
using strings = std::vector<std::string>;

shard_id shard_of(table t, const std::string& key) { return named_shard(subject_of_key(t, key)); }

/// The keys of `t` a scan of `range` visits, in its order.
strings keys_of(const environment& env, table t, const scan_range& range) {
  strings out;
  svc::test::require_ok(env.scan(t, range, [&](std::string_view k, std::string_view) {
    out.emplace_back(k);
    return true;
  }));
  return out;
}

scan_range in_shard(shard_id shard) {
  scan_range r;
  r.shard = shard;
  return r;
}

} // namespace

BOOST_AUTO_TEST_CASE(every_key_of_a_team_names_the_teams_shard) {
  const std::string team = "team_01KAK3R5N2W9X7Q4V6B8C0D1EA";
  const auto shard = shard_of_team(team);
  auto id = [&](const char* prefix) { return svc::core::make_id(prefix, shard); };
  const auto job = id("img"), endpoint = id("we"), event = id("evt"), file = id("file"), key = id("key");
  for (auto t : {table::teams, table::balances, table::buckets})
    BOOST_TEST(shard_of(t, team) == shard);
  for (auto t : {table::api_keys_by_team, table::holds, table::jobs_by_team, table::idempotency, table::usage,
                 table::endpoints_by_team, table::events_by_team, table::files_by_team, table::credit_entries})
    BOOST_TEST(shard_of(t, owned_key(team, "anything/else")) == shard);
  BOOST_TEST(shard_of(table::jobs, job) == shard);
  BOOST_TEST(shard_of(table::live_jobs, job) == shard);
  BOOST_TEST(shard_of(table::api_keys, key) == shard);
  BOOST_TEST(shard_of(table::webhook_endpoints, endpoint) == shard);
  BOOST_TEST(shard_of(table::events, event) == shard);
  BOOST_TEST(shard_of(table::pending_events, event) == shard);
  BOOST_TEST(shard_of(table::files, file) == shard);
  for (auto t : {table::delivery_tasks, table::deliveries, table::delivered_events})
    BOOST_TEST(shard_of(t, owned_key(endpoint, id("dlv"))) == shard);
  BOOST_TEST(shard_of(table::key_hashes, key_hash_key(shard, std::string(64, 'a'))) == shard);
  const auto at = svc::core::from_unix_ms(1763720130123);
  BOOST_TEST(shard_of(table::expiries, expiry_key(at, expiry_kind::outputs, job)) == shard);
  BOOST_TEST(shard_of(table::expiries, expiry_key(at, expiry_kind::idempotency, team + "/images/k1")) == shard);
  BOOST_TEST(shard_of(table::expiries, expiry_key(at, expiry_kind::event, event)) == shard);
  BOOST_TEST(shard_of(table::expiries, expiry_key(at, expiry_kind::delivery, owned_key(endpoint, id("dlv")))) == shard);
  BOOST_TEST(shard_of(table::expiries, expiry_key(at, expiry_kind::file, file)) == shard);
  // A prefix pins a scan to one shard only where every key under it shares the subject.
  BOOST_TEST(subject_of_prefix(table::jobs_by_team, team + "/img_").has_value());
  BOOST_TEST(subject_of_prefix(table::deliveries, endpoint + "/").has_value());
  BOOST_TEST(!subject_of_prefix(table::jobs_by_team, "team_01").has_value());
  BOOST_TEST(!subject_of_prefix(table::jobs, "img_").has_value());
  BOOST_TEST(!subject_of_prefix(table::loras, "a/").has_value());
}

BOOST_AUTO_TEST_CASE(keys_of_no_known_shape_always_name_the_same_shard) {
  BOOST_TEST(shard_of(table::jobs, "img_1") == shard_of_team("img_1")); // mix64 mod 256 of the key
  BOOST_TEST(shard_of(table::key_hashes, std::string(64, 'b')) == shard_of_team(std::string(64, 'b')));
  BOOST_TEST((decode_legacy_shard(encode_legacy_shard(255)) == std::optional<shard_id>{255}));
  BOOST_TEST(!decode_legacy_shard(encode_text("256")));
  BOOST_TEST(!decode_legacy_shard(encode_text("1x")));
  BOOST_TEST(!decode_legacy_shard("7"));
}

BOOST_FIXTURE_TEST_CASE(a_shard_is_one_range_and_whole_scans_keep_key_order, svc::test::lmdb_fixture) {
  // Teams in many shards, each with a few listing rows.
  std::set<std::string> all;
  std::set<shard_id> shards;
  write_batch b;
  for (int i = 0; i < 40; ++i) {
    auto team = "team_" + std::to_string(1000 + i);
    shards.insert(shard_of_team(team));
    for (auto job : {"img_a", "img_b"}) {
      all.insert(owned_key(team, job));
      t.jobs_by_team.put(b, owned_key(team, job), job);
    }
  }
  commit(b);
  BOOST_REQUIRE(shards.size() > 20u);
  // Whole scans merge every shard's range into key order, both ways and from a cursor.
  BOOST_TEST(keys_of(*env, table::jobs_by_team, {}) == strings(all.begin(), all.end()));
  BOOST_TEST(keys_of(*env, table::jobs_by_team, {"", "", true}) == strings(all.rbegin(), all.rend()));
  const auto middle = *std::next(all.begin(), 31);
  BOOST_TEST(keys_of(*env, table::jobs_by_team, {"", middle, false}) == strings(std::next(all.begin(), 32), all.end()));
  BOOST_TEST(keys_of(*env, table::jobs_by_team, {"team_102", "", false}).size() == 20u);
  // One shard's scan holds exactly its teams' rows.
  std::size_t seen = 0;
  for (auto shard : shards) {
    for (auto& key : keys_of(*env, table::jobs_by_team, in_shard(shard)))
      BOOST_TEST(shard_of_team(key.substr(0, key.find('/'))) == shard);
    seen += keys_of(*env, table::jobs_by_team, in_shard(shard)).size();
  }
  BOOST_TEST(seen == all.size());
  // A team prefix reads its shard alone, as a paged listing does.
  BOOST_TEST(keys_of(*env, table::jobs_by_team, {"team_1007/", "team_1007/img_a", false}) == strings{"team_1007/img_b"});
}

BOOST_FIXTURE_TEST_CASE(an_id_in_the_legacy_map_is_stored_and_found_in_its_teams_shard, svc::test::lmdb_fixture) {
  const std::string team = "team_01KAK3R5N2W9X7Q4V6B8C0D1EA";
  const auto team_shard = shard_of_team(team);
  const auto named = static_cast<shard_id>(team_shard + 1);
  const auto job = svc::core::make_id("img", named); // minted before sharding: names another shard
  write_batch map;
  map.put(table::legacy_shards, job, encode_legacy_shard(team_shard));
  commit(map);
  write_batch b;
  t.live_jobs.put(b, job, job);
  commit(b);
  BOOST_TEST((svc::test::found(t.live_jobs.get(job)) == std::optional<std::string>{job}));
  BOOST_TEST(keys_of(*env, table::live_jobs, in_shard(team_shard)) == strings{job});
  BOOST_TEST(keys_of(*env, table::live_jobs, in_shard(named)).empty());
  // Delete goes where the put went.
  write_batch gone;
  t.live_jobs.erase(gone, job);
  commit(gone);
  BOOST_TEST(!svc::test::found(t.live_jobs.get(job)));
  BOOST_TEST(env->count(table::live_jobs) == 0u);
  // Without the map the same id lives where it names.
  const auto fresh = svc::core::make_id("img", named);
  write_batch c;
  t.live_jobs.put(c, fresh, fresh);
  commit(c);
  BOOST_TEST(keys_of(*env, table::live_jobs, in_shard(named)) == strings{fresh});
}

BOOST_FIXTURE_TEST_CASE(a_moved_row_goes_to_the_shard_its_op_names, svc::test::lmdb_fixture) {
  write_batch b;
  b.put_in_shard(table::teams, 7, "team_x", encode_text("x"));
  commit(b);
  BOOST_TEST(keys_of(*env, table::teams, in_shard(7)) == strings{"team_x"});
  write_batch gone;
  gone.erase_in_shard(table::teams, 7, "team_x");
  commit(gone);
  BOOST_TEST(env->count(table::teams) == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
