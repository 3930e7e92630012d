#include "persistence/environment.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "persistence/store_tables.hpp"
#include "persistence/table_views.hpp"
#include "persistence/value_codec.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(persistence_environment)

namespace {

namespace fs = std::filesystem;
using namespace svc::persistence;
using svc::test::temp_dir;
using svc::schema::balance_record;
using svc::schema::team_record;


std::unique_ptr<environment> open_env(const std::string& dir) {
  std::string error;
  auto env = environment::open(dir, error);
  BOOST_REQUIRE_MESSAGE(env, "open failed: " << error);
  BOOST_TEST(error.empty());
  return env;
}

struct env_fixture {
  temp_dir dir;
  std::unique_ptr<environment> env = open_env(dir.path);

  void commit(const write_batch& b) {
    auto st = env->commit(b);
    BOOST_REQUIRE_MESSAGE(st.ok(), st.message);
  }

  // Every key of `range` in visiting order.
  std::vector<std::string> keys(table t, const scan_range& range) const {
    std::vector<std::string> out;
    svc::test::require_ok(env->scan(t, range, [&](std::string_view k, std::string_view) {
      out.emplace_back(k);
      return true;
    }));
    return out;
  }

  // Fills api_keys_by_team with keys of two teams whose ids share a prefix.
  void fill_index() {
    write_batch b;
    for (auto k : {"team_a/k2", "team_b/k1", "team_a/k1", "team_ab/k9", "team_a/k3", "alpha", "zulu"})
      b.put(table::api_keys_by_team, k, encode_text("v"));
    commit(b);
  }
};

team_record team(const std::string& id, const std::string& name) {
  team_record t;
  t.id = id;
  t.name = name;
  t.owner_email = "ops@example.com";
  t.default_api_version = "2025-01-01";
  t.created_at = svc::core::from_unix_ms(1700000000000);
  return t;
}

using strings = std::vector<std::string>;

} // namespace

BOOST_FIXTURE_TEST_SUITE(environment_suite, env_fixture)

BOOST_AUTO_TEST_CASE(empty_environment_reads_nothing) {
  BOOST_TEST(!svc::test::found(env->get(table::teams, "team_x")));
  BOOST_TEST(!svc::test::found(env->get(table::teams, "")));
  BOOST_TEST(env->count(table::teams) == 0u);
  BOOST_TEST(keys(table::teams, {}).empty());
  BOOST_TEST(keys(table::teams, {"", "", true}).empty());
}

BOOST_AUTO_TEST_CASE(batch_with_puts_and_deletes_across_tables) {
  tables t{*env};
  write_batch first;
  t.teams.put(first, "team_1", team("team_1", "One"));
  t.teams.put(first, "team_2", team("team_2", "Two"));
  t.balances.put(first, "team_1", balance_record{"team_1", 500, 20, {}});
  t.key_hashes.put(first, "abcd", "key_1");
  commit(first);

  BOOST_TEST(env->count(table::teams) == 2u);
  BOOST_TEST(env->count(table::balances) == 1u);
  auto one = svc::test::found(t.teams.get("team_1"));
  BOOST_REQUIRE(one);
  BOOST_TEST(one->name == "One");
  BOOST_TEST(svc::core::to_unix_ms(one->created_at) == 1700000000000);
  auto bal = svc::test::found(t.balances.get("team_1"));
  BOOST_REQUIRE(bal);
  BOOST_TEST(bal->available == 500);
  BOOST_TEST(bal->held == 20);
  BOOST_TEST((svc::test::found(t.key_hashes.get("abcd")) == std::optional<std::string>{"key_1"}));

  // Deletes and puts of several tables in one batch; deleting an absent key is fine.
  write_batch second;
  second.erase(table::teams, "team_2");
  second.erase(table::teams, "team_never");
  t.teams.put(second, "team_1", team("team_1", "One renamed"));
  second.erase(table::key_hashes, "abcd");
  t.balances.put(second, "team_3", balance_record{"team_3", 1, 0, {}});
  commit(second);

  BOOST_TEST(!svc::test::found(t.teams.get("team_2")));
  BOOST_TEST(svc::test::found(t.teams.get("team_1"))->name == "One renamed");
  BOOST_TEST(!svc::test::found(t.key_hashes.get("abcd")));
  BOOST_TEST(svc::test::found(t.balances.get("team_3"))->available == 1);
  BOOST_TEST(env->count(table::teams) == 1u);
  BOOST_TEST(env->count(table::balances) == 2u);
  // Tables are separate namespaces: the same key in another table is untouched.
  BOOST_TEST(svc::test::found(t.balances.get("team_1"))->available == 500);
}

BOOST_AUTO_TEST_CASE(later_op_in_a_batch_wins) {
  write_batch b;
  b.put(table::meta, "k", encode_text("first"));
  b.put(table::meta, "k", encode_text("second"));
  b.erase(table::meta, "gone");
  b.put(table::meta, "gone", encode_text("x"));
  b.erase(table::meta, "gone");
  commit(b);
  BOOST_TEST((decode_text(*svc::test::found(env->get(table::meta, "k"))) == std::optional<std::string>{"second"}));
  BOOST_TEST(!svc::test::found(env->get(table::meta, "gone")));
}

BOOST_AUTO_TEST_CASE(writes_to_counts_the_commits_that_wrote_each_table) {
  BOOST_TEST(env->writes_to(table::teams) == 0u);
  write_batch b;
  b.put(table::teams, "t1", encode_text("a"));
  b.put(table::teams, "t2", encode_text("b"));
  b.erase(table::api_keys, "absent"); // a delete writes too, found or not
  commit(b);
  BOOST_TEST(env->writes_to(table::teams) == 1u, "one commit, however many records");
  BOOST_TEST(env->writes_to(table::api_keys) == 1u);
  BOOST_TEST(env->writes_to(table::jobs) == 0u);
  write_batch jobs;
  jobs.put(table::jobs, "j", encode_text("c"));
  commit(jobs);
  commit(jobs);
  BOOST_TEST(env->writes_to(table::teams) == 1u);
  BOOST_TEST(env->writes_to(table::jobs) == 2u);
  // A refused batch is no write, not even of the tables before its bad op.
  write_batch bad;
  bad.put(table::teams, "t3", encode_text("c"));
  bad.put(table::teams, std::string(600, 'k'), encode_text("too long a key")); // over LMDB's 511
  BOOST_TEST(!env->commit(bad).ok());
  BOOST_TEST(env->writes_to(table::teams) == 1u);
  // An empty batch writes nothing.
  commit(write_batch{});
  BOOST_TEST(env->writes_to(table::teams) == 1u);
  BOOST_TEST(env->writes_to(table::jobs) == 2u);
  BOOST_TEST(env->writes_to(table::meta) == 0u);
}

BOOST_AUTO_TEST_CASE(failed_batch_changes_nothing) {
  write_batch b;
  b.put(table::meta, "ok", encode_text("1"));
  b.put(table::meta, std::string(600, 'k'), encode_text("too long a key")); // over LMDB's 511
  auto st = env->commit(b);
  BOOST_TEST(!st.ok());
  BOOST_TEST(!svc::test::found(env->get(table::meta, "ok")));
  BOOST_TEST(env->count(table::meta) == 1u); // only format_version
}

BOOST_AUTO_TEST_CASE(forward_scan_with_prefix_and_start_after) {
  fill_index();
  BOOST_TEST(keys(table::api_keys_by_team, {}) ==
             (strings{"alpha", "team_a/k1", "team_a/k2", "team_a/k3", "team_ab/k9", "team_b/k1", "zulu"}));
  BOOST_TEST(keys(table::api_keys_by_team, {"team_a/", "", false}) == (strings{"team_a/k1", "team_a/k2", "team_a/k3"}));
  BOOST_TEST(keys(table::api_keys_by_team, {"team_a", "", false}) ==
             (strings{"team_a/k1", "team_a/k2", "team_a/k3", "team_ab/k9"}));
  BOOST_TEST(keys(table::api_keys_by_team, {"team_a/", "team_a/k1", false}) == (strings{"team_a/k2", "team_a/k3"}));
  BOOST_TEST(keys(table::api_keys_by_team, {"team_a/", "team_a/k3", false}).empty());
  // A cursor that no longer exists resumes at the next larger key.
  BOOST_TEST(keys(table::api_keys_by_team, {"team_a/", "team_a/k15", false}) == (strings{"team_a/k2", "team_a/k3"}));
  BOOST_TEST(keys(table::api_keys_by_team, {"", "team_b/k1", false}) == (strings{"zulu"}));
  BOOST_TEST(keys(table::api_keys_by_team, {"nothing/", "", false}).empty());
}

BOOST_AUTO_TEST_CASE(reverse_scan_with_prefix_and_start_after) {
  fill_index();
  BOOST_TEST(keys(table::api_keys_by_team, {"", "", true}) ==
             (strings{"zulu", "team_b/k1", "team_ab/k9", "team_a/k3", "team_a/k2", "team_a/k1", "alpha"}));
  BOOST_TEST(keys(table::api_keys_by_team, {"team_a/", "", true}) == (strings{"team_a/k3", "team_a/k2", "team_a/k1"}));
  BOOST_TEST(keys(table::api_keys_by_team, {"team_a/", "team_a/k3", true}) == (strings{"team_a/k2", "team_a/k1"}));
  BOOST_TEST(keys(table::api_keys_by_team, {"team_a/", "team_a/k1", true}).empty());
  BOOST_TEST(keys(table::api_keys_by_team, {"team_a/", "team_a/k25", true}) == (strings{"team_a/k2", "team_a/k1"}));
  // The last prefix of the table: no key follows the prefix range.
  BOOST_TEST(keys(table::api_keys_by_team, {"zulu", "", true}) == (strings{"zulu"}));
  BOOST_TEST(keys(table::api_keys_by_team, {"", "alpha", true}).empty());
  BOOST_TEST(keys(table::api_keys_by_team, {"", "zz", true}).front() == "zulu");
  BOOST_TEST(keys(table::api_keys_by_team, {"nothing/", "", true}).empty());
}

BOOST_AUTO_TEST_CASE(visitor_stops_the_scan) {
  fill_index();
  std::vector<std::string> seen;
  svc::test::require_ok(env->scan(table::api_keys_by_team, {}, [&](std::string_view k, std::string_view) {
    seen.emplace_back(k);
    return seen.size() < 2;
  }));
  BOOST_TEST(seen == (strings{"alpha", "team_a/k1"}));
}

BOOST_AUTO_TEST_CASE(read_sees_one_commit_throughout) {
  write_batch before;
  before.put(table::key_hashes, "h1", encode_text("key_1"));
  commit(before);
  std::vector<std::string> seen;
  auto st = env->read([&](const snapshot& s) -> status {
    // A commit made while the snapshot is open is not part of it, for gets and scans alike.
    write_batch during;
    during.put(table::key_hashes, "h2", encode_text("key_2"));
    during.erase(table::key_hashes, "h1");
    commit(during);
    BOOST_TEST(svc::test::found(s.get(table::key_hashes, "h1")).has_value());
    BOOST_TEST(!svc::test::found(s.get(table::key_hashes, "h2")));
    svc::test::require_ok(s.scan(table::key_hashes, {}, [&](std::string_view k, std::string_view) {
      seen.emplace_back(k);
      return true;
    }));
    return {"the function's own status"};
  });
  BOOST_TEST(st.message == "the function's own status");
  BOOST_TEST(seen == (strings{"h1"}));
  BOOST_TEST(keys(table::key_hashes, {}) == (strings{"h2"}));
  env->fail_reads(true);
  bool ran = false;
  BOOST_TEST(!env->read([&](const snapshot&) { ran = true; return status{}; }).ok());
  BOOST_TEST(!ran);
}

BOOST_AUTO_TEST_CASE(cursor_paging_through_index_keys) {
  fill_index();
  index_table idx{*env, table::api_keys_by_team};
  bool more = false;
  auto p1 = svc::test::scanned(idx.keys({"team_a/", "", false}, 2, more));
  BOOST_TEST(p1 == (strings{"team_a/k1", "team_a/k2"}));
  BOOST_TEST(more);
  auto p2 = svc::test::scanned(idx.keys({"team_a/", p1.back(), false}, 2, more));
  BOOST_TEST(p2 == (strings{"team_a/k3"}));
  BOOST_TEST(!more);
  // Exactly a full page: nothing more.
  auto all = svc::test::scanned(idx.keys({"team_a/", "", false}, 3, more));
  BOOST_TEST(all.size() == 3u);
  BOOST_TEST(!more);
  // Reverse paging.
  auto r1 = svc::test::scanned(idx.keys({"team_a/", "", true}, 2, more));
  BOOST_TEST(r1 == (strings{"team_a/k3", "team_a/k2"}));
  BOOST_TEST(more);
  auto r2 = svc::test::scanned(idx.keys({"team_a/", r1.back(), true}, 2, more));
  BOOST_TEST(r2 == (strings{"team_a/k1"}));
  BOOST_TEST(!more);
}

BOOST_AUTO_TEST_CASE(damaged_values_read_as_absent_and_are_skipped) {
  tables t{*env};
  write_batch b;
  t.balances.put(b, "team_1", balance_record{"team_1", 1, 0, {}});
  auto good = encode_record(balance_record{"team_2", 2, 0, {}});
  auto wrong_version = good;
  wrong_version[0] = 2;
  b.put(table::balances, "team_2", wrong_version);
  b.put(table::balances, "team_3", std::string(1, format_version) + "{\"team_id\":\"team_3\",");
  b.put(table::balances, "team_4", std::string(1, format_version) + R"({"team_id":"team_4","available":"x","held":0})");
  b.put(table::balances, "team_5", std::string(1, format_version) + R"({"team_id":"team_5","held":0})");
  b.put(table::balances, "team_6", std::string{});
  t.balances.put(b, "team_7", balance_record{"team_7", 7, 0, {}});
  t.balances.put(b, "team_8", balance_record{"team_8", 8, 0, {}});
  commit(b);

  BOOST_TEST(env->count(table::balances) == 8u);
  BOOST_TEST(svc::test::found(t.balances.get("team_1")).has_value());
  for (auto k : {"team_2", "team_3", "team_4", "team_5", "team_6"}) {
    BOOST_TEST_CONTEXT("key " << k) {
      BOOST_TEST(svc::test::found(env->get(table::balances, k)).has_value()); // the bytes are there...
      BOOST_TEST(!svc::test::found(t.balances.get(k)).has_value());           // ...but do not decode
    }
  }
  BOOST_TEST(!decode_value(wrong_version).has_value());
  BOOST_TEST(decode_value(good).has_value());

  bool more = true;
  auto page = svc::test::scanned(t.balances.page({}, 10, more));
  BOOST_TEST(!more);
  BOOST_REQUIRE(page.size() == 3u);
  BOOST_TEST(page[0].team_id == "team_1");
  BOOST_TEST(page[1].team_id == "team_7");
  BOOST_TEST(page[2].team_id == "team_8");

  // Damaged records do not count towards the page size.
  auto first = svc::test::scanned(t.balances.page({}, 2, more));
  BOOST_REQUIRE(first.size() == 2u);
  BOOST_TEST(first[1].team_id == "team_7");
  BOOST_TEST(more);

  std::vector<std::string> seen;
  svc::test::require_ok(t.balances.for_each([&](const balance_record& r) {
    seen.push_back(r.team_id);
    return true;
  }));
  BOOST_TEST(seen == (strings{"team_1", "team_7", "team_8"}));
}

BOOST_AUTO_TEST_CASE(wrong_version_of_an_index_value_reads_as_absent) {
  write_batch b;
  b.put(table::key_hashes, "h1", std::string{"\x02key_1"});
  b.put(table::key_hashes, "h2", encode_text("key_2"));
  commit(b);
  index_table idx{*env, table::key_hashes};
  BOOST_TEST(!svc::test::found(idx.get("h1")));
  BOOST_TEST((svc::test::found(idx.get("h2")) == std::optional<std::string>{"key_2"}));
}

BOOST_AUTO_TEST_CASE(reopen_after_close_keeps_data) {
  {
    tables t{*env};
    write_batch b;
    t.teams.put(b, "team_1", team("team_1", "Durable"));
    commit(b);
  }
  env.reset();
  env = open_env(dir.path);
  tables t{*env};
  auto r = svc::test::found(t.teams.get("team_1"));
  BOOST_REQUIRE(r);
  BOOST_TEST(r->name == "Durable");
  BOOST_TEST(env->count(table::teams) == 1u);
}

BOOST_AUTO_TEST_CASE(a_store_of_another_format_version_is_refused) {
  BOOST_TEST((svc::test::found(env->get(table::meta, "format_version")) == std::optional<std::string>{"2"}));
  write_batch b;
  b.put(table::meta, "format_version", "3");
  commit(b);
  env.reset();
  std::string error;
  BOOST_TEST(!environment::open(dir.path, error));
  BOOST_TEST(error.find("format version '3'") != std::string::npos, error);
}

BOOST_AUTO_TEST_CASE(backup_produces_a_readable_copy) {
  tables t{*env};
  write_batch b;
  for (int i = 0; i < 50; ++i)
    t.teams.put(b, "team_" + std::to_string(100 + i), team("team_" + std::to_string(100 + i), "n"));
  commit(b);
  write_batch del;
  for (int i = 0; i < 25; ++i)
    del.erase(table::teams, "team_" + std::to_string(100 + i));
  commit(del);

  temp_dir copy;
  auto st = env->backup(copy.path);
  BOOST_REQUIRE_MESSAGE(st.ok(), st.message);
  BOOST_TEST(fs::exists(fs::path{copy.path} / "data.mdb"));
  // The original stays usable after the copy.
  BOOST_TEST(env->count(table::teams) == 25u);

  auto restored = open_env(copy.path);
  tables rt{*restored};
  BOOST_TEST(restored->count(table::teams) == 25u);
  BOOST_TEST(!svc::test::found(rt.teams.get("team_100")));
  BOOST_TEST(svc::test::found(rt.teams.get("team_149")).has_value());
}

// The copy holds every key hash and webhook secret: only its owner may read it.
BOOST_AUTO_TEST_CASE(a_backup_is_a_0600_file_in_a_0700_directory) {
  const auto fresh = dir.path + "/backup-new";
  auto st = env->backup(fresh);
  BOOST_REQUIRE_MESSAGE(st.ok(), st.message);
  struct stat d {}, f {};
  BOOST_REQUIRE(::stat(fresh.c_str(), &d) == 0);
  BOOST_REQUIRE(::stat((fresh + "/data.mdb").c_str(), &f) == 0);
  BOOST_TEST((d.st_mode & 0777) == 0700u);
  BOOST_TEST((f.st_mode & 0777) == 0600u);
  // Nothing is written into a directory others can enter, nor over a copy.
  const auto open_dir = dir.path + "/backup-open";
  BOOST_REQUIRE(::mkdir(open_dir.c_str(), 0755) == 0);
  BOOST_REQUIRE(::chmod(open_dir.c_str(), 0755) == 0);
  BOOST_TEST(!env->backup(open_dir).ok());
  BOOST_TEST(!fs::exists(open_dir + "/data.mdb"));
  BOOST_TEST(!env->backup(fresh).ok(), "a second backup does not overwrite the first");
  // Nor into a 0700 directory of another user, who could read the copy.
  const auto theirs = dir.path + "/backup-theirs";
  BOOST_REQUIRE(::mkdir(theirs.c_str(), 0700) == 0);
  if (::chown(theirs.c_str(), 65534, 65534) == 0) {
    auto refused = env->backup(theirs);
    BOOST_TEST(!refused.ok());
    BOOST_TEST(refused.message.find("another user") != std::string::npos, refused.message);
    BOOST_TEST(!fs::exists(theirs + "/data.mdb"));
  } else {
    BOOST_TEST_MESSAGE("not root: a directory of another user is not made, its refusal not checked");
  }
}

BOOST_AUTO_TEST_CASE(backup_into_missing_dir_fails) {
  auto st = env->backup(dir.path + "/does/not/exist");
  BOOST_TEST(!st.ok());
  BOOST_TEST(!st.message.empty());
}

BOOST_AUTO_TEST_CASE(open_fails_for_a_missing_directory) {
  std::string error;
  auto bad = environment::open(dir.path + "/missing/sub", error);
  BOOST_TEST(!bad);
  BOOST_TEST(!error.empty());
}

BOOST_AUTO_TEST_CASE(a_failed_read_is_an_error_not_an_absent_key) {
  fill_index();
  BOOST_TEST(env->probe().ok());
  env->fail_reads(true);
  auto present = env->get(table::api_keys_by_team, "team_a/k1");
  BOOST_TEST(present.failed());
  BOOST_TEST(!present.has_value());
  BOOST_TEST(!present.absent(), "the key may well exist");
  BOOST_TEST(!present.why().empty());
  BOOST_TEST(env->get(table::meta, "no such key").failed());
  std::size_t visited = 0;
  auto st = env->scan(table::api_keys_by_team, {}, [&](std::string_view, std::string_view) { return ++visited, true; });
  BOOST_TEST(!st.ok());
  BOOST_TEST(visited == 0u);
  BOOST_TEST(!env->probe().ok());
  index_table idx{*env, table::api_keys_by_team};
  bool more = false;
  BOOST_TEST(idx.get("team_a/k1").failed());
  BOOST_TEST(idx.keys({}, 10, more).failed());
  record_table<svc::schema::team_record> teams{*env, table::teams};
  BOOST_TEST(teams.get("team_1").failed());
  BOOST_TEST(teams.page({}, 10, more).failed());
  BOOST_TEST(!teams.for_each([](const svc::schema::team_record&) { return true; }).ok());

  env->fail_reads(false);
  BOOST_TEST(env->probe().ok());
  auto again = env->get(table::api_keys_by_team, "team_a/k1");
  BOOST_TEST(again.has_value());
  BOOST_TEST(env->get(table::meta, "no such key").absent());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
