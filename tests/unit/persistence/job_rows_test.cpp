#include "persistence/job_rows.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "persistence/store_tables.hpp"
#include "tests/support/lmdb_fixture.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(persistence_job_rows)

namespace {

using namespace svc::persistence;
using svc::core::from_unix_ms;
using svc::schema::job_record;
using svc::schema::job_status;

struct rows_fixture : svc::test::lmdb_fixture {

  std::vector<std::string> expiry_keys() const {
    bool more = false;
    return svc::test::scanned(t.expiries.keys({}, 1000, more));
  }
};

job_record sample_job(job_status status) {
  job_record j;
  j.id = "img_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  j.team_id = "team_1";
  j.status = status;
  j.prompt = "a lighthouse";
  j.width = j.height = 512;
  j.credits = 40;
  j.created_at = from_unix_ms(1763720130123);
  return j;
}

} // namespace

BOOST_AUTO_TEST_CASE(expiry_key_has_the_documented_shape) {
  auto k = expiry_key(from_unix_ms(1763720130123), expiry_kind::outputs, "img_1");
  BOOST_TEST(k == "0001763720130123/outputs/img_1");
  BOOST_TEST(expiry_key(from_unix_ms(5), expiry_kind::idempotency, "team_1/images/k") ==
             "0000000000000005/idempotency/team_1/images/k");
  // Times before the epoch clamp to 0 rather than breaking the order.
  BOOST_TEST(expiry_key(from_unix_ms(-5), expiry_kind::outputs, "img_1") == "0000000000000000/outputs/img_1");
}

BOOST_AUTO_TEST_CASE(expiry_keys_parse_back) {
  for (auto kind : {expiry_kind::outputs, expiry_kind::idempotency, expiry_kind::event, expiry_kind::delivery,
                    expiry_kind::file}) {
    for (std::string subject : {"img_1", "team_1/images/key/with/slashes", "x"}) {
      for (int64_t ms : {int64_t{0}, int64_t{1763720130123}, int64_t{9000000000000} /* year 2255: near the end of a ns time_point */}) {
        expiry_entry e;
        BOOST_TEST_CONTEXT(subject << " " << ms) {
          BOOST_REQUIRE(parse_expiry_key(expiry_key(from_unix_ms(ms), kind, subject), e));
          BOOST_TEST(e.deadline_ms == ms);
          BOOST_TEST((e.kind == kind));
          BOOST_TEST(e.subject == subject);
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(foreign_expiry_keys_do_not_parse) {
  expiry_entry e;
  for (auto bad : {"", "0001763720130123", "0001763720130123/", "0001763720130123/outputs",
                   "0001763720130123/outputs/", "0001763720130123/blobs/img_1", "000176372013012x/outputs/img_1",
                   "1763720130123/outputs/img_1", "+001763720130123/outputs/img_1", "0001763720130123-outputs/img_1"})
    BOOST_TEST(!parse_expiry_key(bad, e), bad);
}

BOOST_FIXTURE_TEST_CASE(expiries_scan_in_deadline_order, rows_fixture) {
  // Deadlines whose decimal lengths differ still sort by time.
  std::vector<int64_t> deadlines{1763720130123, 999, 1763720130122, 999999999999, 5, 1763720130124};
  write_batch b;
  for (std::size_t i = 0; i < deadlines.size(); ++i)
    t.expiries.put(b, expiry_key(from_unix_ms(deadlines[i]), i % 2 ? expiry_kind::outputs : expiry_kind::idempotency,
                                 "s" + std::to_string(i)),
                   "s" + std::to_string(i));
  commit(b);
  std::vector<int64_t> seen;
  for (auto& k : expiry_keys()) {
    expiry_entry e;
    BOOST_REQUIRE(parse_expiry_key(k, e));
    seen.push_back(e.deadline_ms);
  }
  std::vector<int64_t> sorted = deadlines;
  std::sort(sorted.begin(), sorted.end());
  BOOST_TEST(seen == sorted, boost::test_tools::per_element());
}

BOOST_FIXTURE_TEST_CASE(put_job_keeps_live_jobs_in_step, rows_fixture) {
  auto j = sample_job(job_status::queued);
  write_batch b;
  put_job(t, b, j);
  commit(b);
  auto stored = svc::test::found(t.jobs.get(j.id));
  BOOST_REQUIRE(stored);
  BOOST_TEST((stored->status == job_status::queued));
  BOOST_TEST((svc::test::found(t.jobs_by_team.get("team_1/" + j.id)) == std::optional<std::string>{j.id}));
  BOOST_TEST((svc::test::found(t.live_jobs.get(j.id)) == std::optional<std::string>{j.id}));

  j.status = job_status::processing;
  write_batch p;
  put_job(t, p, j);
  commit(p);
  BOOST_TEST(svc::test::found(t.live_jobs.get(j.id)).has_value());

  for (auto terminal : {job_status::failed, job_status::cancelled, job_status::expired,
                        job_status::moderation_rejected}) {
    j.status = terminal;
    write_batch e;
    put_job(t, e, j);
    commit(e);
    BOOST_TEST(!svc::test::found(t.live_jobs.get(j.id)));
    BOOST_TEST((svc::test::found(t.jobs.get(j.id))->status == terminal));
    BOOST_TEST(expiry_keys().empty()); // only succeeded jobs have outputs to expire
  }
}

BOOST_FIXTURE_TEST_CASE(a_succeeded_job_gets_its_outputs_expiry_row, rows_fixture) {
  auto j = sample_job(job_status::queued);
  write_batch b;
  put_job(t, b, j);
  commit(b);
  j.status = job_status::succeeded;
  j.outputs_expire_at = from_unix_ms(1763723730123);
  write_batch s;
  put_job(t, s, j);
  commit(s);
  BOOST_TEST(!svc::test::found(t.live_jobs.get(j.id)));
  auto keys = expiry_keys();
  BOOST_REQUIRE(keys.size() == 1u);
  BOOST_TEST(keys[0] == "0001763723730123/outputs/" + j.id);
  BOOST_TEST((svc::test::found(t.expiries.get(keys[0])) == std::optional<std::string>{j.id}));
  // A second listing row would mean a second job.
  bool more = false;
  BOOST_TEST(svc::test::scanned(t.jobs_by_team.keys({}, 10, more)).size() == 1u);
}

BOOST_FIXTURE_TEST_CASE(erase_job_removes_every_row_put_job_wrote, rows_fixture) {
  auto j = sample_job(job_status::succeeded);
  j.outputs_expire_at = from_unix_ms(1763723730123);
  write_batch b;
  put_job(t, b, j);
  commit(b);
  write_batch e;
  erase_job(t, e, j);
  commit(e);
  BOOST_TEST(env->count(table::jobs) == 0u);
  BOOST_TEST(env->count(table::jobs_by_team) == 0u);
  BOOST_TEST(env->count(table::live_jobs) == 0u);
  BOOST_TEST(expiry_keys().empty());
}

BOOST_FIXTURE_TEST_CASE(put_idempotency_writes_the_record_and_its_expiry, rows_fixture) {
  svc::schema::idempotency_record r;
  r.team_id = "team_1";
  r.route = "images";
  r.key = "order-42";
  r.request_sha256 = std::string(64, 'b');
  r.body = "{}";
  r.created_at = from_unix_ms(1763720130123);
  r.expires_at = from_unix_ms(1763806530123);
  BOOST_TEST(idempotency_key("team_1", "images", "order-42") == "team_1/images/order-42");
  write_batch b;
  put_idempotency(t, b, r);
  commit(b);
  auto stored = svc::test::found(t.idempotency.get("team_1/images/order-42"));
  BOOST_REQUIRE(stored);
  BOOST_TEST(stored->request_sha256 == r.request_sha256);
  auto keys = expiry_keys();
  BOOST_REQUIRE(keys.size() == 1u);
  expiry_entry e;
  BOOST_REQUIRE(parse_expiry_key(keys[0], e));
  BOOST_TEST((e.kind == expiry_kind::idempotency));
  BOOST_TEST(e.subject == "team_1/images/order-42");
  BOOST_TEST(e.deadline_ms == 1763806530123);
}

BOOST_AUTO_TEST_SUITE_END()
