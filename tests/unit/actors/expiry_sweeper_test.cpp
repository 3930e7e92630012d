#include "actors/expiry_sweeper.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <string>

#include "actor_fixture.hpp"
#include "persistence/file_rows.hpp"
#include "persistence/job_rows.hpp"
#include "persistence/value_codec.hpp"
#include "tests/support/file_records.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(actors_expiry_sweeper)

namespace {

using namespace std::chrono_literals;
using svc::actors::expiry_sweeper_state;
using namespace svc::persistence;
using namespace svc::schema;

struct sweeper_fixture : svc::test::actor_fixture {
  svc::persistence::file_blob_store blobs{dir.path + "/blobs"};

  explicit sweeper_fixture(uint64_t map_size = svc::core::default_map_size) : actor_fixture(map_size) {
    cfg.output_ttl = std::chrono::hours{1};
    cfg.idempotency_ttl = std::chrono::hours{24};
  }

  void commit(svc::persistence::write_batch batch) {
    auto ok = ask<bool>(store, svc::actors::commit_atom::value, std::move(batch));
    BOOST_REQUIRE(ok.value && *ok.value);
  }

  /// A succeeded job with `outputs` stored files whose bytes expire at `expires`.
  job_record succeeded_job(const std::string& id, svc::core::time_point expires, int outputs = 2) {
    job_record j;
    j.id = id;
    j.team_id = "team_1";
    j.status = svc::schema::job_status::succeeded;
    j.num_outputs = outputs;
    j.created_at = clock->now();
    j.outputs_expire_at = expires;
    for (int i = 0; i < outputs; ++i) {
      std::string bytes = id + " output " + std::to_string(i);
      BOOST_REQUIRE(blobs.put(svc::schema::output_blob_key(j, static_cast<std::size_t>(i)), bytes).ok());
      j.outputs.push_back({"image/png", bytes.size(), 64, 64, std::string(64, 'a')});
    }
    svc::persistence::write_batch b;
    svc::persistence::put_job(tables, b, j);
    commit(std::move(b));
    return j;
  }

  /// Stores an idempotency record (and its expiry row) for `key` expiring at `expires`.
  std::string remember(const std::string& key, svc::core::time_point expires) {
    idempotency_record r;
    r.team_id = "team_1";
    r.route = "images";
    r.key = key;
    r.body = key;
    r.created_at = clock->now();
    r.expires_at = expires;
    svc::persistence::write_batch b;
    svc::persistence::put_idempotency(tables, b, r);
    commit(std::move(b));
    return svc::persistence::idempotency_key("team_1", "images", key);
  }

  bool outputs_exist(const job_record& j) const {
    for (std::size_t i = 0; i < j.outputs.size(); ++i)
      if (!blobs.get(svc::schema::output_blob_key(j, i)))
        return false;
    return true;
  }

  bool no_outputs(const job_record& j) const {
    for (std::size_t i = 0; i < j.outputs.size(); ++i)
      if (blobs.get(svc::schema::output_blob_key(j, i)))
        return false;
    return true;
  }

  /// Stores an upload of team_1 whose lifetime ends at `expires`.
  svc::schema::file_record uploaded(const std::string& id, svc::core::time_point expires) {
    auto f = svc::test::png_upload(id, clock->now(), expires);
    BOOST_REQUIRE(blobs.put(svc::schema::file_blob_key(id), "png").ok());
    svc::persistence::write_batch b;
    svc::persistence::put_file(tables, b, f);
    commit(std::move(b));
    return f;
  }

  std::size_t expiry_rows() const {
    std::size_t n = 0;
    svc::test::require_ok(tables.expiries.for_each_key([&](std::string_view) { return ++n, true; }));
    return n;
  }

  svc::actors::expiry_sweeper_actor spawn_sweeper() {
    // Not detached as in svcd: the test thread runs it, on virtual time.
    auto h = track(sys.spawn(svc::actors::expiry_sweeper, ctx(), static_cast<svc::persistence::blob_store*>(&blobs)));
    sched.run(); // the first sweep runs at once
    return h;
  }
};

// A 2 MiB map holding 400 expired idempotency records of 1.5 KB, filled
// with other rows until it refuses new work: a round's deletes copy a page
// for each leaf they touch, more than the reserve has (issue 30: the sweeper
// retried the same round for ever, and a full store never emptied).
struct full_store_sweeper : sweeper_fixture {
  static constexpr int records = 400;

  full_store_sweeper() : sweeper_fixture(uint64_t{2} << 20) {
    auto expired = clock->now() - 1h;
    for (int i = 0; i < records; i += 50) {
      svc::persistence::write_batch b;
      for (int k = i; k < i + 50; ++k) {
        idempotency_record r;
        r.team_id = "team_1";
        r.route = "images";
        char key[16];
        std::snprintf(key, sizeof key, "k%04d", k);
        r.key = key;
        r.body = std::string(1500, 'b');
        r.created_at = expired - 1h;
        // Deadlines in another order than keys: a round's deletes are spread over every leaf.
        r.expires_at = expired + std::chrono::milliseconds{k * 7 % records};
        svc::persistence::put_idempotency(tables, b, r);
      }
      commit(std::move(b));
    }
    fill_with(3000, fill_with(20000, 0));
  }

  /// Stores rows of `bytes` from key `first` on until the store refuses one; the key it refused.
  int fill_with(std::size_t bytes, int first) {
    for (int i = first; i < first + 10000; ++i) {
      svc::persistence::write_batch b;
      b.put(table::meta, "filler/" + std::to_string(i), encode_text(std::string(bytes, 'f')));
      auto st = env->commit(b);
      if (!st.ok()) {
        BOOST_REQUIRE_MESSAGE(st.out_of_room, st.message);
        return i;
      }
    }
    BOOST_FAIL("a 2 MiB map took 10000 rows of " << bytes << " bytes");
    return 0;
  }

  std::size_t idempotency_rows() const { return env->count(table::idempotency); }
};

} // namespace

BOOST_FIXTURE_TEST_CASE(a_full_store_is_swept_in_rounds_it_has_room_for, full_store_sweeper) {
  BOOST_REQUIRE(idempotency_rows() == std::size_t{records});
  spawn_sweeper();
  for (int round = 0; round < 100 && idempotency_rows() > 0; ++round)
    advance(svc::actors::expiry_sweep_interval(cfg));
  BOOST_TEST(idempotency_rows() == 0u);
  BOOST_TEST(expiry_rows() == 0u);
  // With room freed, new work commits again.
  svc::persistence::write_batch b;
  b.put(table::meta, "after the sweep", encode_text(std::string(20000, 'a')));
  BOOST_TEST(env->commit(b).ok());
}

BOOST_AUTO_TEST_CASE(the_interval_is_a_tenth_of_the_shortest_ttl_within_bounds) {
  svc::core::config c;
  c.output_ttl = std::chrono::hours{1};
  c.idempotency_ttl = std::chrono::hours{24};
  BOOST_TEST(svc::actors::expiry_sweep_interval(c).count() == 1000);
  c.output_ttl = 5s;
  BOOST_TEST(svc::actors::expiry_sweep_interval(c).count() == 500);
  c.idempotency_ttl = 2s;
  BOOST_TEST(svc::actors::expiry_sweep_interval(c).count() == 200);
  c.output_ttl = 50ms;
  BOOST_TEST(svc::actors::expiry_sweep_interval(c).count() == 10);
}

BOOST_FIXTURE_TEST_SUITE(sweeper_suite, sweeper_fixture)

BOOST_AUTO_TEST_CASE(due_rows_are_handled_and_future_rows_kept) {
  auto now = clock->now();
  auto due_job = succeeded_job("img_due", now - 1s);
  auto later_job = succeeded_job("img_later", now + 1h);
  auto due_key = remember("due", now - 1s);
  auto later_key = remember("later", now + 2h);
  BOOST_TEST(expiry_rows() == 4u);

  auto sweeper = spawn_sweeper();
  // Due: output files deleted (the record stays and keeps describing them),
  // the idempotency record erased, both rows gone.
  BOOST_TEST(no_outputs(due_job));
  auto record = svc::test::found(tables.jobs.get("img_due"));
  BOOST_REQUIRE(record);
  BOOST_TEST(record->outputs.size() == 2u);
  BOOST_TEST(!svc::test::found(tables.idempotency.get(due_key)));
  BOOST_TEST(!svc::test::found(tables.expiries.get(expiry_key(now - 1s, expiry_kind::outputs, "img_due"))));
  // Not yet due: untouched.
  BOOST_TEST(outputs_exist(later_job));
  BOOST_TEST(svc::test::found(tables.idempotency.get(later_key)).has_value());
  BOOST_TEST(expiry_rows() == 2u);
  BOOST_TEST(state_of<expiry_sweeper_state>(sweeper).outputs_deleted == 1u);
  BOOST_TEST(state_of<expiry_sweeper_state>(sweeper).idempotency_deleted == 1u);

  // The sweeper looks again every interval and finds each row once it is due.
  advance(59min);
  BOOST_TEST(outputs_exist(later_job));
  advance(2min);
  BOOST_TEST(no_outputs(later_job));
  BOOST_TEST(svc::test::found(tables.idempotency.get(later_key)).has_value());
  BOOST_TEST(expiry_rows() == 1u);
  advance(1h);
  BOOST_TEST(!svc::test::found(tables.idempotency.get(later_key)));
  BOOST_TEST(expiry_rows() == 0u);
  BOOST_TEST(state_of<expiry_sweeper_state>(sweeper).outputs_deleted == 2u);
  BOOST_TEST(state_of<expiry_sweeper_state>(sweeper).idempotency_deleted == 2u);
}

BOOST_AUTO_TEST_CASE(a_newer_record_under_the_same_key_outlives_the_old_row) {
  auto now = clock->now();
  auto key = remember("reused", now - 1s);
  remember("reused", now + 1h); // the key was used again after the first record expired
  BOOST_TEST(expiry_rows() == 2u);
  spawn_sweeper();
  auto record = svc::test::found(tables.idempotency.get(key));
  BOOST_REQUIRE(record);
  BOOST_TEST(svc::core::to_unix_ms(record->expires_at) == svc::core::to_unix_ms(now + 1h));
  BOOST_TEST(expiry_rows() == 1u);
  advance(1h + 1s);
  BOOST_TEST(!svc::test::found(tables.idempotency.get(key)));
  BOOST_TEST(expiry_rows() == 0u);
}

BOOST_AUTO_TEST_CASE(rows_of_vanished_subjects_and_foreign_rows_are_dropped) {
  auto now = clock->now();
  svc::persistence::write_batch b;
  tables.expiries.put(b, expiry_key(now - 1s, expiry_kind::outputs, "img_gone"), "img_gone");
  tables.expiries.put(b, expiry_key(now - 1s, expiry_kind::idempotency, "team_1/images/gone"), "team_1/images/gone");
  tables.expiries.put(b, "00/not-a-deadline", "x"); // sorts first
  commit(std::move(b));
  auto later = succeeded_job("img_later", now + 1h);
  spawn_sweeper();
  BOOST_TEST(expiry_rows() == 1u);
  BOOST_TEST(outputs_exist(later));
}

BOOST_AUTO_TEST_CASE(an_expired_file_loses_its_bytes_and_rows) {
  auto now = clock->now();
  auto due = uploaded("file_01KAK3R5N2W9X7Q4V6B8C0D1EF", now - 1s);
  auto later = uploaded("file_01KAK3R5N2W9X7Q4V6B8C0D1EG", now + 1h);
  auto sweeper = spawn_sweeper();
  BOOST_TEST(!blobs.get(svc::schema::file_blob_key(due.id)));
  BOOST_TEST(!svc::test::found(tables.files.get(due.id)));
  BOOST_TEST(!svc::test::found(tables.files_by_team.get("team_1/" + due.id)));
  BOOST_TEST(blobs.get(svc::schema::file_blob_key(later.id)).has_value());
  BOOST_TEST(svc::test::found(tables.files.get(later.id)).has_value());
  BOOST_TEST(expiry_rows() == 1u);
  advance(1h + 1s);
  BOOST_TEST(!blobs.get(svc::schema::file_blob_key(later.id)));
  BOOST_TEST(!svc::test::found(tables.files.get(later.id)));
  BOOST_TEST(expiry_rows() == 0u);
  BOOST_TEST(state_of<expiry_sweeper_state>(sweeper).files_deleted == 2u);
}

BOOST_AUTO_TEST_CASE(a_backlog_is_swept_in_batches_without_waiting) {
  auto now = clock->now();
  constexpr std::size_t n = svc::actors::expiry_sweep_batch + 100;
  svc::persistence::write_batch b;
  for (std::size_t i = 0; i < n; ++i) {
    idempotency_record r;
    r.team_id = "team_1";
    r.route = "images";
    r.key = "k" + std::to_string(i);
    r.created_at = now - 2h;
    r.expires_at = now - 1h + std::chrono::milliseconds{i};
    svc::persistence::put_idempotency(tables, b, r);
  }
  commit(std::move(b));
  auto sweeper = spawn_sweeper();
  BOOST_TEST(expiry_rows() == 100u);
  advance(0ms); // the next batch is due at once, not after an interval
  BOOST_TEST(expiry_rows() == 0u);
  BOOST_TEST(state_of<expiry_sweeper_state>(sweeper).idempotency_deleted == n);
}

BOOST_AUTO_TEST_CASE(a_job_past_its_retention_loses_rows_and_files_and_usage_stays) {
  cfg.job_retention = 1h;
  auto now = clock->now();
  auto job = succeeded_job("img_retired", now + 2h); // its outputs would outlive the retention
  svc::persistence::write_batch b;
  tables.usage.put(b, "team_1/2025-11-21", svc::schema::usage_record{"team_1", "2025-11-21", 40, 2, 0});
  commit(std::move(b));
  auto sweeper = spawn_sweeper();
  BOOST_TEST(svc::test::found(tables.jobs.get(job.id)).has_value());

  advance(1h + 2s);
  BOOST_TEST(!svc::test::found(tables.jobs.get(job.id)));
  BOOST_TEST(!svc::test::found(tables.jobs_by_team.get("team_1/" + job.id)));
  BOOST_TEST(no_outputs(job));
  BOOST_TEST(expiry_rows() == 0u);
  BOOST_TEST(state_of<expiry_sweeper_state>(sweeper).jobs_deleted == 1u);
  auto usage = svc::test::found(tables.usage.get("team_1/2025-11-21"));
  BOOST_REQUIRE(usage);
  BOOST_TEST(usage->credits_charged == 40);
  BOOST_TEST(usage->images == 2);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
