#include "persistence/store_upgrade.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

#include <lmdb.h>

#include "persistence/shard_keys.hpp"
#include "persistence/shard_rows.hpp"
#include "tests/support/lmdb_fixture.hpp"
#include "tests/support/read_results.hpp"
#include "tests/support/shard_team_rows.hpp"
#include "tests/support/whole_store.hpp"

BOOST_AUTO_TEST_SUITE(persistence_store_upgrade)

namespace {

using namespace svc::persistence;
using svc::core::shard_id;
using svc::core::shard_of_team;
using svc::test::row_map;
using svc::test::team_rows;
using svc::test::whole_store;

/// `rows` as format 1 stored them: no `legacy_shards`, key hashes by the hash alone.
row_map as_format_1(const row_map& rows) {
  row_map out;
  for (auto& [where, value] : rows) {
    if (where.first == table::legacy_shards)
      continue;
    auto key = where.first == table::key_hashes ? where.second.substr(3) : where.second;
    out[{where.first, key}] = value;
  }
  return out;
}

/// Writes `rows` into a format-1 store at `dir` with LMDB itself, as svcd 0.1 did.
void write_format_1(const std::string& dir, const row_map& rows) {
  MDB_env* env = nullptr;
  BOOST_REQUIRE(mdb_env_create(&env) == MDB_SUCCESS);
  mdb_env_set_maxdbs(env, 32);
  BOOST_REQUIRE(mdb_env_open(env, dir.c_str(), 0, 0600) == MDB_SUCCESS);
  MDB_txn* txn = nullptr;
  BOOST_REQUIRE(mdb_txn_begin(env, nullptr, 0, &txn) == MDB_SUCCESS);
  auto put = [&](table t, const std::string& key, const std::string& value) {
    MDB_dbi dbi{};
    BOOST_REQUIRE(mdb_dbi_open(txn, std::string{table_name(t)}.c_str(), MDB_CREATE, &dbi) == MDB_SUCCESS);
    MDB_val k{key.size(), const_cast<char*>(key.data())}, v{value.size(), const_cast<char*>(value.data())};
    BOOST_REQUIRE(mdb_put(txn, dbi, &k, &v, 0) == MDB_SUCCESS);
  };
  put(table::meta, "format_version", "1");
  for (auto& [where, value] : rows)
    put(where.first, where.second, value);
  BOOST_REQUIRE(mdb_txn_commit(txn) == MDB_SUCCESS);
  mdb_env_close(env);
}

row_map shard_rows_of(const tables& t, shard_id shard) {
  row_map out;
  std::string cursor;
  do {
    auto page = read_shard_rows(t, shard, cursor, 1 << 20);
    BOOST_REQUIRE_MESSAGE(!page.failed(), page.why());
    for (auto& r : page->rows)
      out[{r.from, r.key}] = r.value;
    cursor = page->next;
  } while (!cursor.empty());
  return out;
}

/// A team whose ids name its shard and a legacy team whose ids name another,
/// as a format-1 store held them.
struct format_1_store {
  svc::test::temp_dir dir;
  std::string team_id = "team_01KAK3R5N2W9X7Q4V6B8C0D1EA", legacy_id = "team_01KAK3R5N2W9X7Q4V6B8C0D2EB";
  shard_id team_shard = shard_of_team(team_id), legacy_shard = shard_of_team(legacy_id);
  shard_id named_by_legacy_ids = static_cast<shard_id>(legacy_shard + 1);
  row_map team, legacy; // the rows as format 2 holds them

  format_1_store() {
    // The rows are made by the writers' helpers on a scratch store; only their keys and bytes are kept.
    svc::test::temp_dir scratch;
    auto env = svc::test::open_environment(scratch.path);
    tables t{*env};
    team = team_rows{t, team_id, team_shard}.rows();
    legacy = team_rows{t, legacy_id, named_by_legacy_ids}.rows();
    auto both = as_format_1(team);
    both.merge(as_format_1(legacy));
    write_format_1(dir.path, both);
  }
};

} // namespace

BOOST_FIXTURE_TEST_CASE(open_upgrades_a_format_1_store_and_keeps_every_row, format_1_store) {
  BOOST_REQUIRE(team_shard != legacy_shard && team_shard != named_by_legacy_ids);
  auto env = svc::test::open_environment(dir.path);
  tables t{*env};
  BOOST_TEST((svc::test::found(env->get(table::meta, "format_version")) == std::optional<std::string>{"2"}));
  auto store = whole_store(*env);
  store.erase({table::meta, "format_version"});
  // Every row is there with its bytes, under the key format 1 gave it.
  auto expected = as_format_1(team);
  expected.merge(as_format_1(legacy));
  for (auto& [where, value] : expected) {
    auto it = store.find(where);
    BOOST_TEST_CONTEXT(table_name(where.first) << "/" << where.second) {
      BOOST_TEST((it != store.end() && it->second == value));
      BOOST_TEST(svc::test::found(env->get(where.first, where.second)).has_value());
    }
  }
  // What else is there: the map of the ids that name another shard than
  // their team's (the legacy team's), and of every key hash (format 1's name none).
  std::size_t mapped = 0;
  const auto team_hash = svc::core::to_hex(svc::core::sha256(team_id));
  for (auto& [where, value] : store)
    if (where.first == table::legacy_shards) {
      ++mapped;
      auto shard = where.second == team_hash ? team_shard : legacy_shard;
      BOOST_TEST((decode_legacy_shard(value) == std::optional<shard_id>{shard}), where.second);
    }
  BOOST_TEST(store.size() == expected.size() + mapped);
  BOOST_TEST(mapped >= 9u); // the legacy team's keys, jobs, endpoints, events, files and both key hashes
}

BOOST_FIXTURE_TEST_CASE(after_the_upgrade_each_team_is_its_shards_range, format_1_store) {
  auto env = svc::test::open_environment(dir.path);
  tables t{*env};
  auto team_range = shard_rows_of(t, team_shard);
  auto team_rows_1 = as_format_1(team);
  team_rows_1[{table::legacy_shards, svc::core::to_hex(svc::core::sha256(team_id))}] = encode_legacy_shard(team_shard);
  BOOST_TEST((team_range == team_rows_1));
  // The legacy team moves by its team, with the map rows that find its ids.
  auto legacy_range = shard_rows_of(t, legacy_shard);
  auto legacy_rows = as_format_1(legacy);
  std::size_t mapped = 0;
  for (auto& [where, value] : legacy_range)
    if (where.first == table::legacy_shards)
      ++mapped;
    else
      BOOST_TEST((legacy_rows.count(where) == 1u && legacy_rows.at(where) == value));
  BOOST_TEST(legacy_range.size() == legacy_rows.size() + mapped);
  BOOST_TEST(shard_rows_of(t, named_by_legacy_ids).empty()); // the shard its ids name holds none of it
  // A legacy key is found by its hash alone, and a write to a legacy id's row goes to its team's shard.
  auto key_id = svc::test::found(t.key_hashes.get(svc::core::to_hex(svc::core::sha256(legacy_id))));
  BOOST_REQUIRE(key_id);
  write_batch b;
  std::string legacy_job;
  for (auto& [where, value] : legacy_rows)
    if (where.first == table::live_jobs)
      legacy_job = where.second;
  BOOST_REQUIRE(!legacy_job.empty());
  t.live_jobs.erase(b, legacy_job);
  auto st = env->commit(b);
  BOOST_REQUIRE(st.ok());
  BOOST_TEST(!svc::test::found(t.live_jobs.get(legacy_job)));
  BOOST_TEST(shard_rows_of(t, legacy_shard).size() == legacy_range.size() - 1);
}

BOOST_FIXTURE_TEST_CASE(a_second_open_changes_nothing, format_1_store) {
  row_map first;
  {
    auto env = svc::test::open_environment(dir.path);
    first = whole_store(*env);
  }
  auto env = svc::test::open_environment(dir.path);
  BOOST_TEST((whole_store(*env) == first));
}

BOOST_AUTO_TEST_SUITE_END()
