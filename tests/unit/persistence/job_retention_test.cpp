#include "persistence/job_retention.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "persistence/job_rows.hpp"
#include "tests/support/lmdb_fixture.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(persistence_job_retention)

namespace {

using namespace svc::persistence;
using namespace std::chrono_literals;
using namespace svc::core;
using namespace svc::schema;

const time_point t0 = from_unix_ms(1763720130000);

struct retention_fixture : svc::test::lmdb_fixture {

  /// Stores a job created at `created`; terminal ones ended at `ended`.
  job_record job(std::string id, job_status status, time_point created, time_point ended) {
    write_batch b;
    auto j = stage(b, std::move(id), status, created, ended);
    commit(b);
    return j;
  }

  /// Adds the rows of such a job to `b`.
  job_record stage(write_batch& b, std::string id, job_status status, time_point created, time_point ended) {
    job_record j;
    j.id = std::move(id);
    j.team_id = "team_1";
    j.status = status;
    j.created_at = created;
    if (svc::schema::is_terminal(status))
      j.completed_at = ended;
    if (status == job_status::succeeded)
      j.outputs_expire_at = ended + 1h;
    put_job(t, b, j);
    return j;
  }

  /// One round at `cutoff`, committed; the ids it retired.
  std::vector<std::string> retire(time_point cutoff, bool* more = nullptr) {
    write_batch b;
    retention_round round;
    svc::test::require_ok(retire_jobs(t, cutoff, b, round));
    if (!b.empty())
      commit(b);
    if (more)
      *more = round.more;
    std::vector<std::string> ids;
    for (auto& j : round.jobs)
      ids.push_back(j.id);
    return ids;
  }

  bool exists(const std::string& id) const { return svc::test::found(t.jobs.get(id)).has_value(); }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(retention_suite, retention_fixture)

BOOST_AUTO_TEST_CASE(terminal_jobs_that_ended_before_the_cutoff_go_with_every_row) {
  job("img_1", job_status::succeeded, t0, t0 + 1min);
  job("img_2", job_status::failed, t0 + 1s, t0 + 10min); // ended after the cutoff
  job("img_3", job_status::queued, t0 + 2s, {});         // still running
  job("img_4", job_status::cancelled, t0 + 3s, t0 + 4s);
  job("img_5", job_status::expired, t0 + 20min, t0 + 35min); // created after the cutoff: the walk stops
  job("vid_1", job_status::moderation_rejected, t0, t0 + 1s);
  auto usage_row = svc::schema::usage_record{"team_1", "2025-11-21", 40, 1, 0};
  write_batch b;
  t.usage.put(b, "team_1/2025-11-21", usage_row);
  commit(b);

  auto retired = retire(t0 + 5min);
  BOOST_TEST((retired == std::vector<std::string>{"img_1", "img_4", "vid_1"}));
  for (auto id : {"img_1", "img_4", "vid_1"}) {
    BOOST_TEST(!exists(id), id);
    BOOST_TEST(!svc::test::found(t.jobs_by_team.get(std::string{"team_1/"} + id)), id);
  }
  BOOST_TEST(!svc::test::found(t.expiries.get(expiry_key(t0 + 1min + 1h, expiry_kind::outputs, "img_1"))));
  for (auto id : {"img_2", "img_3", "img_5"})
    BOOST_TEST(exists(id), id);
  BOOST_TEST(svc::test::found(t.live_jobs.get("img_3")).has_value());
  auto usage = svc::test::found(t.usage.get("team_1/2025-11-21"));
  BOOST_REQUIRE(usage);
  BOOST_TEST(usage->credits_charged == 40);

  BOOST_TEST((retire(t0 + 10min) == std::vector<std::string>{"img_2"}));
  BOOST_TEST(retire(t0 + 10min).empty());
}

BOOST_AUTO_TEST_CASE(a_round_retires_a_bounded_batch_and_says_more_is_left) {
  const auto n = retention_batch + 10;
  write_batch b;
  for (std::size_t i = 0; i < n; ++i) {
    char id[16];
    std::snprintf(id, sizeof id, "img_%05zu", i);
    stage(b, id, job_status::cancelled, t0 + std::chrono::milliseconds{i}, t0 + 1s);
  }
  commit(b);
  bool more = false;
  BOOST_TEST(retire(t0 + 1h, &more).size() == retention_batch);
  BOOST_TEST(more);
  BOOST_TEST(retire(t0 + 1h, &more).size() == 10u);
  BOOST_TEST(!more);
  BOOST_TEST(env->count(table::jobs) == 0u);
}

// Old jobs that cannot go yet (still running) bound a round too, so a long
// queue of them never makes one round walk the whole table.
BOOST_AUTO_TEST_CASE(a_round_looks_at_a_bounded_number_of_jobs) {
  write_batch b;
  for (std::size_t i = 0; i < 4 * retention_batch + 1; ++i) {
    char id[16];
    std::snprintf(id, sizeof id, "img_%05zu", i);
    stage(b, id, job_status::queued, t0, {});
  }
  stage(b, "img_99999", job_status::failed, t0, t0);
  commit(b);
  bool more = false;
  BOOST_TEST(retire(t0 + 1h, &more).empty());
  BOOST_TEST(more);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
