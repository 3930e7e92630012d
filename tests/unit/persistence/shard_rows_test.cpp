#include "persistence/shard_rows.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "persistence/blob_store.hpp"
#include "persistence/shard_digest.hpp"
#include "persistence/shard_keys.hpp"
#include "persistence/webhook_rows.hpp"
#include "tests/support/lmdb_fixture.hpp"
#include "tests/support/read_results.hpp"
#include "tests/support/shard_team_rows.hpp"
#include "tests/support/whole_store.hpp"

BOOST_AUTO_TEST_SUITE(persistence_shard_rows)

namespace {

using namespace svc::persistence;
namespace schema = svc::schema;
using svc::core::shard_id;
using svc::core::shard_of_team;
using svc::test::puts_of;
using svc::test::row_map;
using svc::test::team_rows;
using svc::test::whole_store;

/// A team id unlike `others` in shard (the suffix counts up until it is).
std::string team_in_new_shard(const std::string& stem, const std::vector<std::string>& others) {
  for (char c = 'A'; c <= 'Z'; ++c) {
    auto id = stem + c;
    bool taken = false;
    for (auto& o : others)
      taken = taken || shard_of_team(o) == shard_of_team(id);
    if (!taken)
      return id;
  }
  BOOST_FAIL("no team id in a new shard");
  return {};
}

/// Two teams in two shards, a legacy team whose ids name team B's shard, and
/// rows of the store-wide tables (a LoRA, a queued mail).
struct shard_fixture : svc::test::lmdb_fixture {
  std::string a_id = "team_01KAK3R5N2W9X7Q4V6B8C0D1EA";
  std::string b_id = team_in_new_shard("team_01KAK3R5N2W9X7Q4V6B8C0D1E", {a_id});
  std::string legacy_id = team_in_new_shard("team_01KAK3R5N2W9X7Q4V6B8C0D2E", {a_id, b_id});
  shard_id a_shard = shard_of_team(a_id), b_shard = shard_of_team(b_id);
  team_rows a{t, a_id, a_shard}, b{t, b_id, b_shard}, legacy{t, legacy_id, b_shard};
  write_batch store_wide_rows;

  shard_fixture() {
    schema::lora_record lora;
    lora.id = "lora_01KAK3R5N2W9X7Q4V6B8C0D1EA";
    lora.slug = "ink";
    lora.name = "Ink";
    t.loras.put(store_wide_rows, lora.id, lora);
    t.lora_slugs.put(store_wide_rows, lora.slug, lora.id);
    schema::queued_mail mail;
    mail.id = "mail_01KAK3R5N2W9X7Q4V6B8C0D1EA";
    mail.message = {"Svc <noreply@svc.test>", "ops@example.test", "Endpoint disabled", "text"};
    t.mail_queue.put(store_wide_rows, mail.id, mail);
    for (auto* batch : {&a.batch, &b.batch, &legacy.batch, &store_wide_rows})
      commit(*batch);
  }

  /// Every page of `shard` at `max_bytes`: their rows, blobs and number.
  struct read_all {
    row_map rows;
    std::set<std::string> blobs;
    std::size_t pages = 0, rows_read = 0;
  };
  read_all read_pages(shard_id shard, std::size_t max_bytes) const {
    read_all out;
    std::string cursor;
    do {
      auto page = read_shard_rows(t, shard, cursor, max_bytes);
      BOOST_REQUIRE_MESSAGE(!page.failed(), page.why());
      BOOST_REQUIRE(!page->rows.empty() || page->next.empty());
      ++out.pages;
      out.rows_read += page->rows.size();
      for (auto& r : page->rows)
        out.rows[{r.from, r.key}] = r.value;
      out.blobs.insert(page->blobs.begin(), page->blobs.end());
      cursor = page->next;
      BOOST_REQUIRE(out.pages < 1000);
    } while (!cursor.empty());
    return out;
  }
};

/// Shard A's rows as a move sends them, and a second store they were put into.
struct copied_shard {
  std::vector<shard_row> rows;
  svc::test::temp_dir dir;
  std::unique_ptr<environment> env = svc::test::open_environment(dir.path);
  tables t{*env};

  copied_shard(const shard_fixture& from, shard_id shard) {
    for (auto& [where, value] : from.read_pages(shard, 256).rows)
      rows.push_back({where.first, where.second, value});
    write_batch batch;
    std::string why;
    BOOST_REQUIRE_MESSAGE(put_shard_rows(batch, shard, rows, why), why);
    BOOST_REQUIRE(env->commit(batch).ok());
  }
};

bool holds_every_row(const row_map& store, const row_map& rows) {
  for (auto& [where, value] : rows) {
    auto it = store.find(where);
    if (it == store.end() || it->second != value)
      return false;
  }
  return true;
}

bool holds_no_row(const row_map& store, const row_map& rows) {
  for (auto& row : rows)
    if (store.count(row.first))
      return false;
  return true;
}

} // namespace

BOOST_FIXTURE_TEST_CASE(the_store_holds_exactly_what_the_teams_wrote, shard_fixture) {
  BOOST_REQUIRE(a_shard != b_shard);
  auto expected = a.rows();
  for (auto* other : {&b, &legacy})
    expected.merge(other->rows());
  expected.merge(puts_of(store_wide_rows));
  auto store = whole_store(*env);
  store.erase({table::meta, "format_version"});
  BOOST_TEST(store.size() == expected.size());
  BOOST_TEST((store == expected));
  BOOST_TEST(a.rows().size() >= 30u);
}

BOOST_FIXTURE_TEST_CASE(tiny_pages_return_exactly_the_shards_rows, shard_fixture) {
  auto all = read_pages(a_shard, 1);
  BOOST_TEST((all.rows == a.rows()));
  BOOST_TEST(all.rows_read == a.rows().size()); // no row twice
  BOOST_TEST(all.pages == a.rows().size());     // one row a page, and no empty last page
  BOOST_TEST(all.blobs == a.blobs);
  auto larger = read_pages(a_shard, 600);
  BOOST_TEST((larger.rows == a.rows()));
  BOOST_TEST(larger.pages > 1u);
  BOOST_TEST(larger.pages < all.pages);
  BOOST_TEST(read_pages(a_shard, 1 << 20).pages == 1u);
  BOOST_TEST((read_pages(b_shard, 1).rows == b.rows()));
}

BOOST_FIXTURE_TEST_CASE(a_legacy_team_moves_by_its_team_not_by_its_ids, shard_fixture) {
  BOOST_REQUIRE(svc::core::shard_of_id(legacy.job_id) == std::optional<shard_id>{b_shard});
  auto l = read_pages(shard_of_team(legacy_id), 1);
  BOOST_TEST((l.rows == legacy.rows()));
  BOOST_TEST(l.blobs == legacy.blobs);
  BOOST_TEST((read_pages(b_shard, 1).rows == b.rows())); // none of the legacy team's, whose ids name this shard
}

BOOST_FIXTURE_TEST_CASE(put_rows_make_every_record_readable_in_an_empty_store, shard_fixture) {
  copied_shard copied{*this, a_shard};
  auto& t2 = copied.t;
  auto copy = whole_store(*copied.env);
  copy.erase({table::meta, "format_version"});
  BOOST_TEST((copy == a.rows()));
  auto team = svc::test::found(t2.teams.get(a_id));
  BOOST_REQUIRE(team);
  BOOST_TEST(team->name == "team " + a_id);
  BOOST_TEST(svc::test::found(t2.balances.get(a_id))->available == 90);
  auto key_id = svc::test::found(t2.key_hashes.get(a.key_hash));
  BOOST_REQUIRE(key_id);
  BOOST_TEST(*key_id == a.key_id);
  BOOST_TEST(svc::test::found(t2.api_keys.get(*key_id))->team_id == a_id);
  BOOST_TEST(svc::test::found(t2.jobs.get(a.job_id))->outputs.size() == 1u);
  BOOST_TEST((svc::test::found(t2.live_jobs.get(a.live_job_id)) == std::optional<std::string>{a.live_job_id}));
  BOOST_TEST(svc::test::found(t2.holds.get(owned_key(a_id, a.live_job_id)))->credits == 10);
  BOOST_TEST(svc::test::found(t2.webhook_endpoints.get(a.endpoint_id))->url == "https://hooks.example.test/svc");
  bool more = false;
  scan_range tasks{a.endpoint_id + "/", {}, false};
  BOOST_TEST(svc::test::scanned(t2.delivery_tasks.page(tasks, 10, more)).size() == 1u);
  BOOST_TEST(svc::test::scanned(t2.deliveries.page(tasks, 10, more)).size() == 1u);
  BOOST_TEST(svc::test::found(t2.events.get(a.event_id))->team_id == a_id);
  BOOST_TEST((svc::test::found(t2.pending_events.get(a.event_id)) == std::optional<std::string>{a.event_id}));
  BOOST_TEST(svc::test::found(t2.files.get(a.file_id))->team_id == a_id);
  scan_range history{a_id + "/", {}, false};
  BOOST_TEST(svc::test::scanned(t2.credit_entries.page(history, 10, more)).size() == 2u);
  BOOST_TEST(svc::test::scanned(t2.expiries.keys({}, 10, more)).size() == 6u); // outputs, idempotency, event, 2 deliveries, file
  BOOST_TEST(!svc::test::found(t2.teams.get(b_id)));
}

BOOST_FIXTURE_TEST_CASE(erase_removes_the_shard_and_keeps_the_rest, shard_fixture) {
  write_batch batch;
  std::vector<std::string> blobs;
  auto erased = erase_shard_rows(t, a_shard, batch, blobs);
  BOOST_REQUIRE_MESSAGE(!erased.failed(), erased.why());
  BOOST_TEST(*erased == a.rows().size());
  BOOST_TEST((std::set<std::string>{blobs.begin(), blobs.end()} == a.blobs));
  commit(batch);
  auto store = whole_store(*env);
  BOOST_TEST(holds_no_row(store, a.rows()));
  for (auto* kept : {&b, &legacy})
    BOOST_TEST(holds_every_row(store, kept->rows()));
  BOOST_TEST(holds_every_row(store, puts_of(store_wide_rows)));
}

BOOST_FIXTURE_TEST_CASE(erasing_page_by_page_finds_every_row, shard_fixture) {
  // Each page is committed before the next is read: rows found through
  // another table's record must be met before that record is gone.
  std::string cursor;
  std::size_t erased = 0;
  do {
    auto page = read_shard_rows(t, a_shard, cursor, 1);
    BOOST_REQUIRE_MESSAGE(!page.failed(), page.why());
    write_batch batch;
    for (auto& row : page->rows)
      batch.erase(row.from, row.key);
    erased += page->rows.size();
    commit(batch);
    cursor = page->next;
  } while (!cursor.empty());
  BOOST_TEST(erased == a.rows().size());
  auto store = whole_store(*env);
  BOOST_TEST(holds_no_row(store, a.rows()));
  BOOST_TEST(holds_every_row(store, b.rows()));
}

BOOST_FIXTURE_TEST_CASE(put_refuses_store_wide_and_malformed_rows, shard_fixture) {
  const std::string good_value = encode_text("x");
  const std::vector<shard_row> refused{
    {table::meta, "format_version", "1"},
    {table::loras, "lora_01KAK3R5N2W9X7Q4V6B8C0D1EA", good_value},
    {table::lora_slugs, "ink", good_value},
    {table::mail_queue, "mail_01KAK3R5N2W9X7Q4V6B8C0D1EA", good_value},
    {static_cast<table>(table_count), "k", good_value},
    {static_cast<table>(255), "k", good_value},
    {table::teams, "", good_value},
    {table::teams, std::string(511, 't'), good_value}, // no room for the shard byte
    {table::legacy_shards, "img_1", encode_legacy_shard(static_cast<shard_id>(a_shard + 1))},
    {table::teams, "team_1", ""},
    {table::teams, "team_1", "{\"id\":\"team_1\"}"},
  };
  for (auto& row : refused) {
    write_batch batch;
    std::string why;
    const std::vector<shard_row> rows{{table::teams, "team_ok", good_value}, row};
    BOOST_TEST(!put_shard_rows(batch, a_shard, rows, why));
    BOOST_TEST(!why.empty());
    BOOST_TEST(batch.empty()); // not even the good row before it
  }
  write_batch batch;
  std::string why;
  BOOST_TEST(put_shard_rows(batch, a_shard,
                            {{table::credit_entries, "team_1/cre_1", good_value},
                             {table::legacy_shards, "img_1", encode_legacy_shard(a_shard)}},
                            why));
  BOOST_TEST(batch.ops.size() == 2u);
  BOOST_TEST((batch.ops[0].shard == std::optional<shard_id>{a_shard})); // in the shard's range, whatever its key names
  BOOST_TEST(!batch.ops[1].shard);                                      // the legacy map has no ranges
  BOOST_TEST((table_from_index(static_cast<std::uint8_t>(table::credit_entries)) == table::credit_entries));
  BOOST_TEST(!table_from_index(static_cast<std::uint8_t>(table_count)));
}

BOOST_FIXTURE_TEST_CASE(a_failing_store_or_a_foreign_cursor_is_an_error, shard_fixture) {
  auto foreign = read_shard_rows(t, a_shard, "nosuchtable/x", 1);
  BOOST_TEST(foreign.failed());
  BOOST_TEST(read_shard_rows(t, a_shard, "meta/format_version", 1).failed()); // a table no walk visits
  env->fail_reads(true);
  BOOST_TEST(read_shard_rows(t, a_shard, "", 1).failed());
  write_batch batch;
  std::vector<std::string> blobs;
  BOOST_TEST(erase_shard_rows(t, a_shard, batch, blobs).failed());
  BOOST_TEST(batch.empty());
}

// The two copies of a move compare by digest before the old owner's map
// change (issue 30: it erased its copy after the grace period whatever the
// new owner held): equal for an exact copy, different for a row or a blob
// byte missing or changed.
BOOST_FIXTURE_TEST_CASE(two_copies_of_a_shard_have_one_digest_and_any_difference_shows, shard_fixture) {
  svc::test::temp_dir blob_dir_1, blob_dir_2;
  file_blob_store blobs{blob_dir_1.path}, blobs2{blob_dir_2.path};
  for (auto& name : a.blobs) {
    BOOST_REQUIRE(blobs.put(name, "bytes of " + name).ok());
    BOOST_REQUIRE(blobs2.put(name, "bytes of " + name).ok());
  }
  copied_shard copied{*this, a_shard};
  auto& t2 = copied.t;
  auto& rows = copied.rows;
  auto here = digest_shard(t, blobs, a_shard), there = digest_shard(t2, blobs2, a_shard);
  BOOST_REQUIRE(here.has_value() && there.has_value());
  BOOST_TEST(here->rows == a.rows().size());
  BOOST_TEST(here->blobs == a.blobs.size());
  BOOST_TEST(here->sha256.size() == 64u);
  BOOST_TEST(there->sha256 == here->sha256);
  BOOST_TEST((there->rows == here->rows && there->blobs == here->blobs && there->bytes == here->bytes));
  BOOST_TEST(digest_shard(t, blobs, b_shard)->sha256 != here->sha256, "another shard");

  BOOST_REQUIRE(blobs2.put(*a.blobs.begin(), "other bytes of the same length!!").ok());
  BOOST_TEST(digest_shard(t2, blobs2, a_shard)->sha256 != here->sha256, "a blob's bytes differ");
  BOOST_REQUIRE(blobs2.put(*a.blobs.begin(), "bytes of " + *a.blobs.begin()).ok());
  BOOST_TEST(digest_shard(t2, blobs2, a_shard)->sha256 == here->sha256);

  write_batch lose_one;
  lose_one.erase_in_shard(rows.back().from, a_shard, rows.back().key);
  BOOST_REQUIRE(copied.env->commit(lose_one).ok());
  auto short_copy = digest_shard(t2, blobs2, a_shard);
  BOOST_TEST(short_copy->rows == here->rows - 1);
  BOOST_TEST(short_copy->sha256 != here->sha256);
}

BOOST_AUTO_TEST_SUITE_END()
