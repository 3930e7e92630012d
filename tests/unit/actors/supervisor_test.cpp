#include "actors/supervisor.hpp"

#include <boost/test/unit_test.hpp>

#include "actors/job_directory.hpp"
#include "job_fixture.hpp"

BOOST_AUTO_TEST_SUITE(actors_supervisor)

// The supervisor: it forwards requests to its incarnation, respawns it when
// it dies (the new one re-runs its recovery), and stops it at shutdown.
// Proved on the job directory, whose death also takes its jobs.

namespace {

using namespace svc::actors;
using svc::schema::job_status;

struct supervised_jobs : svc::test::job_fixture {
  job_directory_actor supervised;

  void start_supervised() {
    pool = std::make_unique<svc::providers::worker_pool>(2);
    svc::actors::job_services services{&scripted, pool.get(), &faulty, &moderation, ledgers};
    supervised = track(svc::actors::supervise<job_directory_actor>(
      sys, "job_directory", [ctx = ctx(), services](caf::actor_system& s) {
        return s.spawn(svc::actors::job_directory, ctx, services);
      }));
    jobs = supervised;
    run_pending();
  }

  // `finish` looks into the directory's state; this one only at LMDB.
  svc::schema::job_record settled(const std::string& id) {
    BOOST_REQUIRE(run_until([&] { return svc::schema::is_terminal(stored(id).status); }));
    return stored(id);
  }

  supervisor_state& supervisor() {
    return dynamic_cast<caf::stateful_actor<supervisor_state>&>(*caf::actor_cast<caf::abstract_actor*>(supervised))
      .state;
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(supervisor_suite, supervised_jobs)

BOOST_AUTO_TEST_CASE(a_directory_that_dies_is_respawned_and_recovers_its_jobs) {
  start_supervised();
  auto j = create(make_job("a lighthouse [hold]"));
  BOOST_REQUIRE(run_until([&] { return stored(j.id).status == job_status::processing; }));
  auto first = supervisor().incarnation;
  self->send(first, fault_atom::value);

  // The old incarnation's job died with it (its render stopped); the new one
  // resumed the job from LMDB, behind the same handle.
  BOOST_REQUIRE(run_until([&] { return supervisor().restarts == 1 && supervisor().incarnation; }));
  BOOST_TEST((supervisor().incarnation != first));
  BOOST_TEST(run_until([&] { return scripted.cancelled() == 1; }));
  scripted.release();
  BOOST_TEST((settled(j.id).status == job_status::succeeded));
  auto later = create(make_job("a pier"));
  BOOST_TEST((settled(later.id).status == job_status::succeeded));
  BOOST_TEST(balance_is(opening - 80, 0));
}

BOOST_AUTO_TEST_CASE(a_shutdown_stops_the_incarnation_before_the_supervisor) {
  start_supervised();
  auto incarnation = supervisor().incarnation;
  self->monitor(incarnation);
  self->monitor(supervised);
  caf::anon_send_exit(supervised, caf::exit_reason::user_shutdown);
  run_pending();
  std::vector<caf::actor_addr> order;
  for (int i = 0; i < 2; ++i)
    self->receive([&](caf::down_msg& dm) { order.push_back(dm.source); });
  BOOST_REQUIRE(order.size() == 2u);
  BOOST_TEST((order[0] == incarnation.address()));
  BOOST_TEST((order[1] == supervised.address()));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
