#include "actors/job_directory.hpp"

#define BOOST_TEST_MODULE actors_job_directory
#include <boost/test/unit_test.hpp>

#include <string>

#include "job_fixture.hpp"
#include "persistence/job_rows.hpp"
#include "tests/support/read_results.hpp"

// The job directory: routing cancels and waits by team, answering for jobs
// that are no longer live from LMDB, and resuming live jobs at start.

namespace {

using svc::actors::cancel_atom;
using svc::actors::fault_atom;
using svc::actors::job_directory_state;
using svc::actors::wait_atom;
using svc::schema::balance_record;
using svc::schema::error_code;
using svc::schema::hold_status;
using svc::schema::job_record;
using svc::schema::job_status;

} // namespace

BOOST_FIXTURE_TEST_SUITE(job_directory_suite, svc::test::job_fixture)

BOOST_AUTO_TEST_CASE(cancelling_a_terminal_job_is_invalid_state) {
  start(scripted);
  auto j = create(make_job("a lighthouse"));
  BOOST_REQUIRE((finish(j.id).status == job_status::succeeded));
  auto c = ask<job_record>(jobs, cancel_atom::value, team, j.id);
  BOOST_REQUIRE(c.answered);
  BOOST_TEST(!c.value);
  BOOST_TEST((code_of(c.error) == error_code::invalid_state));
  BOOST_TEST(svc::actors::to_api_error(c.error).message == "The image '" + j.id + "' is succeeded; cancel is not possible.");
  BOOST_TEST((stored(j.id).status == job_status::succeeded));
  BOOST_TEST(balance_is(opening - 40, 0));
  // Another team's job and an unknown id are not found.
  auto other = ask<job_record>(jobs, cancel_atom::value, std::string{"team_2"}, j.id);
  BOOST_TEST((code_of(other.error) == error_code::resource_not_found));
  auto unknown = ask<job_record>(jobs, cancel_atom::value, team, std::string{"img_nope"});
  BOOST_TEST((code_of(unknown.error) == error_code::resource_not_found));
}

BOOST_AUTO_TEST_CASE(a_live_job_of_another_team_is_not_found) {
  start(scripted);
  auto j = create(make_job("a lighthouse [hold]"));
  auto c = ask<job_record>(jobs, cancel_atom::value, std::string{"team_2"}, j.id);
  BOOST_TEST((code_of(c.error) == error_code::resource_not_found));
  auto w = ask<job_record>(jobs, wait_atom::value, std::string{"team_2"}, j.id);
  BOOST_TEST((code_of(w.error) == error_code::resource_not_found));
  BOOST_TEST(!svc::schema::is_terminal(stored(j.id).status));
}

BOOST_AUTO_TEST_CASE(wait_answers_once_the_job_is_terminal) {
  start(scripted);
  auto j = create(make_job("a lighthouse [hold]"));
  BOOST_REQUIRE(reaches(j.id, job_status::processing));
  self->send(jobs, wait_atom::value, team, j.id);
  self->send(jobs, wait_atom::value, team, j.id);
  run_pending();
  BOOST_TEST(!receive<job_record>().answered);

  scripted.release();
  finish(j.id);
  for (int i = 0; i < 2; ++i) {
    auto w = receive<job_record>();
    BOOST_REQUIRE(w.value);
    BOOST_TEST((w.value->status == job_status::succeeded));
    BOOST_TEST(w.value->outputs.size() == 1u);
  }
  // A terminal job is answered at once, from LMDB.
  auto again = ask<job_record>(jobs, wait_atom::value, team, j.id);
  BOOST_REQUIRE(again.value);
  BOOST_TEST((again.value->status == job_status::succeeded));
  auto unknown = ask<job_record>(jobs, wait_atom::value, team, std::string{"img_nope"});
  BOOST_TEST((code_of(unknown.error) == error_code::resource_not_found));
}

BOOST_AUTO_TEST_CASE(jobs_found_live_at_start_are_resumed) {
  // As a crash would leave them: one job queued, one processing, both holding
  // credits, and a live row whose job is already terminal.
  auto first = make_job("a lighthouse [hold]", 40);
  auto second = make_job("a harbour", 30);
  second.status = job_status::processing;
  second.started_at = clock->now();
  second.progress = 0.4;
  auto done = make_job("a bridge", 10);
  done.status = job_status::succeeded;
  svc::persistence::write_batch batch;
  svc::persistence::put_job(tables, batch, first);
  svc::persistence::put_job(tables, batch, second);
  svc::persistence::put_job(tables, batch, done);
  tables.live_jobs.put(batch, done.id, done.id);
  for (auto* j : {&first, &second})
    tables.holds.put(batch, svc::actors::hold_key(team, j->id),
                     svc::schema::hold_record{team, j->id, j->credits, hold_status::held, clock->now()});
  tables.balances.put(batch, team, balance_record{team, opening - 70, 70, {}});
  BOOST_REQUIRE(*ask<bool>(store, svc::actors::commit_atom::value, std::move(batch)).value);

  start(scripted, 1); // one worker: the first job holds it, the second waits
  BOOST_TEST(state_of<job_directory_state>(jobs).recovered == 2u);
  BOOST_REQUIRE(reaches(first.id, job_status::processing));
  // The processing job's render died with the process: it is queued again.
  auto requeued = stored(second.id);
  BOOST_TEST((requeued.status == job_status::queued));
  BOOST_TEST(requeued.progress == 0.0);
  BOOST_TEST(!requeued.started_at);
  BOOST_TEST(svc::test::found(tables.live_jobs.get(second.id)).has_value());
  BOOST_TEST(pool->queued() == 1u);

  BOOST_REQUIRE(ask<job_record>(jobs, cancel_atom::value, team, first.id).value);
  auto r = finish(second.id);
  BOOST_TEST((r.status == job_status::succeeded));
  BOOST_TEST((r.cost_status == hold_status::charged));
  BOOST_TEST(r.outputs.size() == 1u);
  BOOST_TEST(balance_is(opening - 30, 0));
  BOOST_TEST(!svc::test::found(tables.live_jobs.get(second.id)));
  BOOST_TEST((stored(done.id).status == job_status::succeeded)); // left as it was
}

// A crash loop must not keep a job alive: the queue deadline a restart gives
// a job it found processing is stored, and later restarts keep it.
BOOST_AUTO_TEST_CASE(a_requeued_job_keeps_its_queue_deadline_over_later_restarts) {
  using namespace std::chrono_literals;
  // As a crash leaves them: two jobs processing, created long before the queue TTL.
  auto blocker = make_job("a lighthouse [hold]", 40); // resumed first, it takes the only worker
  auto looping = make_job("a harbour", 30);
  svc::persistence::write_batch batch;
  for (auto* j : {&blocker, &looping}) {
    j->status = job_status::processing;
    j->created_at = clock->now() - 10min;
    j->started_at = clock->now() - 1min;
    svc::persistence::put_job(tables, batch, *j);
    tables.holds.put(batch, svc::actors::hold_key(team, j->id),
                     svc::schema::hold_record{team, j->id, j->credits, hold_status::held, clock->now()});
  }
  tables.balances.put(batch, team, balance_record{team, opening - 70, 70, {}});
  BOOST_REQUIRE(*ask<bool>(store, svc::actors::commit_atom::value, std::move(batch)).value);
  auto deadline_of = [&](const std::string& id) -> std::optional<svc::core::time_point> {
    for (auto& [deadline, job] : state_of<job_directory_state>(jobs).queue_deadlines)
      if (job == id)
        return deadline;
    return std::nullopt;
  };

  auto restarted = clock->now();
  start(scripted, 1);
  auto first = deadline_of(looping.id);
  BOOST_REQUIRE(first.has_value());
  BOOST_TEST((*first >= restarted + cfg.queue_ttl - 1ms && *first <= clock->now() + cfg.queue_ttl),
             "a full TTL from the restart");
  BOOST_REQUIRE(reaches(looping.id, job_status::queued));
  BOOST_TEST((stored(looping.id).requeue_deadline == first), "stored with the re-queued record");
  BOOST_REQUIRE(run_until([&] { return pool->running() == 1u; })); // the blocker's render

  // Half a TTL later the process dies again, just after a worker took the job once more.
  pool->shutdown();
  stop(jobs);
  advance(30s);
  auto again = stored(looping.id);
  again.status = job_status::processing;
  again.started_at = clock->now();
  svc::persistence::write_batch taken;
  svc::persistence::put_job(tables, taken, again);
  BOOST_REQUIRE(*ask<bool>(store, svc::actors::commit_atom::value, std::move(taken)).value);

  start(scripted, 1);
  BOOST_TEST((deadline_of(looping.id) == first), "the second restart keeps the first deadline");
  BOOST_REQUIRE(reaches(looping.id, job_status::queued));
  BOOST_TEST((stored(looping.id).requeue_deadline == first));
  // The blocker must hold the worker before time moves, or it too is still queued at the deadline (its
  // stored status says `processing` from before the restart, so the pool is what tells).
  BOOST_REQUIRE(run_until([&] { return pool->running() == 1u; }));
  // So it expires at that deadline, with its credits refunded.
  advance(30s);
  auto expired = finish(looping.id);
  BOOST_TEST((expired.status == job_status::expired));
  check_refunded(expired);
  scripted.release();
  BOOST_TEST((finish(blocker.id).status == job_status::succeeded));
  BOOST_TEST(balance_is(opening - 40, 0));
}

BOOST_AUTO_TEST_CASE(a_job_actor_that_dies_fails_only_its_job) {
  start(scripted);
  auto doomed = create(make_job("a lighthouse [hold]"));
  auto other = create(make_job("a harbour [hold]"));
  BOOST_REQUIRE(run_until([&] { return stored(doomed.id).status == job_status::processing; }));
  auto victim = state_of<job_directory_state>(jobs).jobs.at(doomed.id).handle;
  self->send(victim, fault_atom::value);

  // It fails as `internal`, refunded, with its render stopped.
  auto failed = finish(doomed.id);
  BOOST_TEST((failed.status == job_status::failed));
  BOOST_REQUIRE(failed.failure.has_value());
  BOOST_TEST(failed.failure->code == "internal");
  check_refunded(failed);
  BOOST_TEST(run_until([&] { return scripted.cancelled() == 1; }));
  // The directory, the other job and new creates never notice.
  BOOST_TEST(!svc::schema::is_terminal(stored(other.id).status));
  BOOST_TEST(state_of<job_directory_state>(jobs).jobs.count(other.id) == 1u);
  auto later = create(make_job("a pier"));
  BOOST_TEST((finish(later.id).status == job_status::succeeded));
  scripted.release();
  BOOST_TEST((finish(other.id).status == job_status::succeeded));
  BOOST_TEST(balance_is(opening - 80, 0));
}

BOOST_AUTO_TEST_SUITE_END()
