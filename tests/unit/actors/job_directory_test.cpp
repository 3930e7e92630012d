#include "actors/job_directory.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "job_fixture.hpp"
#include "persistence/job_rows.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(actors_job_directory)

// The job directory: routing cancels and waits by team, answering for jobs
// that are no longer live from LMDB, the queue (a queued job has no actor
// until a worker slot is free for it or someone needs it), and resuming live
// jobs at start in batches while it answers.

namespace {

using namespace svc::actors;
using namespace svc::schema;

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
  // As a crash would leave them: one job queued, two processing, all holding
  // credits, and a live row whose job is already terminal.
  auto queued = make_job("a lighthouse", 40);
  auto first = make_job("a harbour [hold]", 30);
  auto second = make_job("a bridge", 20);
  for (auto* j : {&first, &second}) {
    j->status = job_status::processing;
    j->started_at = clock->now();
    j->progress = 0.4;
  }
  auto done = make_job("a pier", 10);
  done.status = job_status::succeeded;
  svc::persistence::write_batch batch;
  for (auto* j : {&queued, &first, &second, &done})
    svc::persistence::put_job(tables, batch, *j);
  tables.live_jobs.put(batch, done.id, done.id);
  for (auto* j : {&queued, &first, &second})
    tables.holds.put(batch, svc::actors::hold_key(team, j->id),
                     svc::schema::hold_record{team, j->id, j->credits, hold_status::held, clock->now()});
  tables.balances.put(batch, team, balance_record{team, opening - 90, 90, {}});
  BOOST_REQUIRE(*ask<bool>(store, svc::actors::commit_atom::value, std::move(batch)).value);

  // One worker, two slots: the interrupted renders left the queue before the
  // crash, so they go first; the first holds the worker, the second waits in
  // the pool, the queued job waits in the queue.
  start(scripted, 1);
  BOOST_TEST(state_of<job_directory_state>(jobs).recovered == 3u);
  BOOST_REQUIRE(reaches(first.id, job_status::processing));
  // The second one's render died with the process: it is queued again.
  auto requeued = stored(second.id);
  BOOST_TEST((requeued.status == job_status::queued));
  BOOST_TEST(requeued.progress == 0.0);
  BOOST_TEST(!requeued.started_at);
  BOOST_TEST(svc::test::found(tables.live_jobs.get(second.id)).has_value());
  BOOST_TEST(holds_within([&] { return pool->queued() == 1u; }), "the worker took the first render, the next waits");
  BOOST_TEST(state_of<job_directory_state>(jobs).queue.contains(queued.id));

  BOOST_REQUIRE(ask<job_record>(jobs, cancel_atom::value, team, first.id).value);
  for (auto* j : {&second, &queued}) {
    auto r = finish(j->id);
    BOOST_TEST((r.status == job_status::succeeded));
    BOOST_TEST((r.cost_status == hold_status::charged));
    BOOST_TEST(r.outputs.size() == 1u);
    BOOST_TEST(!svc::test::found(tables.live_jobs.get(j->id)));
  }
  BOOST_TEST(balance_is(opening - 60, 0));
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

BOOST_AUTO_TEST_CASE(a_queued_job_has_no_actor_until_a_worker_slot_is_free_for_it) {
  start(scripted, 1); // two slots: one render running, one waiting in the pool
  std::vector<job_record> made;
  for (int i = 0; i < 6; ++i)
    made.push_back(create(make_job("a lighthouse [hold] " + std::to_string(i), 10)));
  BOOST_REQUIRE(reaches(made[0].id, job_status::processing));
  auto& st = state_of<job_directory_state>(jobs);
  BOOST_TEST(st.jobs.size() == 2u, "only the jobs holding a slot have an actor");
  BOOST_TEST(st.queue.size() == 4u);
  BOOST_TEST(holds_within([&] { return pool->queued() == 1u; }), "the worker took the first render, the next waits");
  for (std::size_t i = 1; i < made.size(); ++i)
    BOOST_TEST((stored(made[i].id).status == job_status::queued));

  // A queued job is cancelled through an actor woken for it; the queue goes on without it.
  auto c = ask<job_record>(jobs, cancel_atom::value, team, made[4].id);
  BOOST_REQUIRE(c.value);
  BOOST_TEST((c.value->status == job_status::cancelled));
  check_refunded(finish(made[4].id));
  BOOST_TEST(st.queue.size() == 3u);
  BOOST_TEST(st.jobs.size() == 2u);

  // Each job gets its actor when a slot frees, in creation order.
  scripted.release();
  for (auto i : {0, 1, 2, 3, 5})
    BOOST_TEST((finish(made[i].id).status == job_status::succeeded));
  BOOST_TEST(scripted.started() == 5);
  BOOST_TEST(st.queue.size() == 0u);
  BOOST_TEST(balance_is(opening - 50, 0));
}

BOOST_AUTO_TEST_CASE(a_team_that_comes_later_is_served_ahead_of_another_teams_backlog) {
  start(scripted, 1); // two slots
  std::vector<job_record> made;
  for (int i = 0; i < 6; ++i)
    made.push_back(create(make_job("hog [hold] " + std::to_string(i), 10)));
  auto late = make_job("newcomer [hold]", 10);
  late.team_id = "team_2";
  made.push_back(create(late));
  BOOST_REQUIRE(reaches(made[0].id, job_status::processing));
  scripted.release();
  for (auto& j : made)
    BOOST_TEST((finish(j.id).status == job_status::succeeded));
  auto order = scripted.prompts();
  BOOST_REQUIRE(order.size() == 7u);
  // The two slots had hog 0 and 1; the next free one goes to the newcomer, not to hog 2.
  BOOST_TEST(order[2] == "newcomer [hold]");
  for (int i = 0; i < 6; ++i)
    BOOST_TEST(order[i < 2 ? i : i + 1] == "hog [hold] " + std::to_string(i), "a team's own jobs keep their order");
}

BOOST_AUTO_TEST_CASE(a_model_whose_engine_is_busy_holds_back_no_other_model) {
  scripted.serve({"gpu-a", 1, {"flux"}});
  scripted.serve({"gpu-b", 1, {"sdxl"}});
  start(scripted, 2);
  std::vector<job_record> made;
  for (int i = 0; i < 3; ++i) {
    auto j = make_job("flux [hold] " + std::to_string(i), 10);
    j.model = "flux";
    made.push_back(create(j));
  }
  auto sdxl = make_job("sdxl [hold]", 10);
  sdxl.model = "sdxl";
  made.push_back(create(sdxl));
  BOOST_TEST(run_until([&] { return scripted.started() == 2; }), "flux 0 on gpu-a and the sdxl job on gpu-b");
  auto& st = state_of<job_directory_state>(jobs);
  BOOST_TEST(st.queue.size() == 2u, "flux 1 and 2 wait in Svc's queue, not in an engine's or the pool's");
  BOOST_TEST((scripted.prompts() == std::vector<std::string>{"flux [hold] 0", "sdxl [hold]"}));
  BOOST_TEST((scripted.engines_used() == std::vector<std::string>{"gpu-a", "gpu-b"}));
  scripted.release();
  for (auto& j : made)
    BOOST_TEST((finish(j.id).status == job_status::succeeded));
  BOOST_TEST(scripted.most_at_once("gpu-a") == 1, "no engine ran more renders than its slots");
  BOOST_TEST(scripted.most_at_once("gpu-b") == 1);
  BOOST_TEST(st.engines.busy() == 0);
}

// Two one-slot engines serving sdxl; `prompt`'s 10-credit sdxl job, run to its end.
job_record run_on_two_engines(svc::test::job_fixture& f, const std::string& prompt) {
  f.scripted.serve({"gpu-a", 1, {"sdxl"}});
  f.scripted.serve({"gpu-b", 1, {"sdxl"}});
  f.start(f.scripted, 2);
  auto j = f.make_job(prompt, 10);
  j.model = "sdxl";
  return f.finish(f.create(j).id);
}

BOOST_AUTO_TEST_CASE(a_render_its_engine_failed_runs_again_on_another_and_is_charged_once) {
  auto done = run_on_two_engines(*this, "a lighthouse [down:gpu-a]");
  BOOST_TEST((done.status == job_status::succeeded));
  BOOST_TEST((scripted.engines_used() == std::vector<std::string>{"gpu-a", "gpu-b"}));
  BOOST_TEST((stored(done.id).engine_failures == std::vector<std::string>{"gpu-a"}));
  BOOST_TEST(balance_is(opening - 10, 0), "charged once");
}

BOOST_AUTO_TEST_CASE(a_job_whose_engines_all_fail_ends_after_its_render_attempts) {
  cfg.render_attempts = 3;
  auto done = run_on_two_engines(*this, "a lighthouse [down:gpu-a][down:gpu-b]");
  BOOST_TEST((done.status == job_status::failed));
  BOOST_REQUIRE(done.failure);
  BOOST_TEST(done.failure->code == "provider_unavailable");
  BOOST_TEST(scripted.started() == 3, "three renders, then the job fails");
  BOOST_TEST((scripted.engines_used() == std::vector<std::string>{"gpu-a", "gpu-b", "gpu-a"}),
             "each retry goes to an engine it has not failed on while one is free");
  check_refunded(done);
  BOOST_TEST(balance_is(opening, 0));
  auto& st = state_of<job_directory_state>(jobs);
  BOOST_TEST(st.engines.busy() == 0);
}

// Two one-slot engines serving sdxl, and `n` of `prompt`'s 10-credit sdxl jobs.
std::vector<job_record> queue_on_two_engines(svc::test::job_fixture& f, const std::string& prompt, int n) {
  f.scripted.serve({"gpu-a", 1, {"sdxl"}});
  f.scripted.serve({"gpu-b", 1, {"sdxl"}});
  f.start(f.scripted, 2);
  std::vector<job_record> made;
  for (int i = 0; i < n; ++i) {
    auto j = f.make_job(prompt + " " + std::to_string(i), 10);
    j.model = "sdxl";
    made.push_back(f.create(j));
  }
  return made;
}

BOOST_AUTO_TEST_CASE(a_drained_engine_takes_no_new_render_until_it_is_resumed) {
  auto made = queue_on_two_engines(*this, "drained [hold]", 0);
  self->send(jobs, disable_atom::value, std::string{"gpu-a"});
  for (int i = 0; i < 2; ++i) {
    auto j = make_job("drained [hold] " + std::to_string(i), 10);
    j.model = "sdxl";
    made.push_back(create(j));
  }
  BOOST_REQUIRE(run_until([&] { return scripted.started() == 1; }));
  BOOST_TEST(holds_within([&] { return scripted.started() == 1; }, std::chrono::milliseconds{200}),
             "the second job waits for gpu-b rather than going to the drained gpu-a");
  BOOST_TEST((scripted.engines_used() == std::vector<std::string>{"gpu-b"}));
  self->send(jobs, enable_atom::value, std::string{"gpu-a"});
  BOOST_TEST(run_until([&] { return scripted.started() == 2; }), "resumed, gpu-a takes the waiting job");
  BOOST_TEST((scripted.engines_used() == std::vector<std::string>{"gpu-b", "gpu-a"}));
  scripted.release();
  for (auto& j : made)
    BOOST_TEST((finish(j.id).status == job_status::succeeded));
}

BOOST_AUTO_TEST_CASE(an_engine_that_fails_its_probes_has_its_render_moved_and_charged_once) {
  auto made = queue_on_two_engines(*this, "moved [hold]", 1);
  BOOST_REQUIRE(run_until([&] { return scripted.started() == 1; }));
  BOOST_REQUIRE((scripted.engines_used() == std::vector<std::string>{"gpu-a"}));
  self->send(jobs, probed_atom::value, std::string{"gpu-a"}, std::string{"connection refused"});
  BOOST_TEST(holds_within([&] { return scripted.started() == 1; }, std::chrono::milliseconds{100}),
             "one failed probe moves nothing");
  self->send(jobs, probed_atom::value, std::string{"gpu-a"}, std::string{"connection refused"});
  BOOST_TEST(run_until([&] { return scripted.started() == 2 && scripted.cancelled() == 1; }),
             "the render on gpu-a is stopped and runs again on gpu-b");
  BOOST_TEST((scripted.engines_used() == std::vector<std::string>{"gpu-a", "gpu-b"}));
  auto listed = ask<std::vector<engine_status>>(jobs, engines_atom::value);
  BOOST_REQUIRE(listed.value);
  BOOST_TEST(listed.value->at(0).state == "down");
  BOOST_TEST(listed.value->at(0).last_error == "connection refused");
  BOOST_TEST(listed.value->at(0).renders_failed == 1);
  scripted.release();
  auto done = finish(made[0].id);
  BOOST_TEST((done.status == job_status::succeeded));
  BOOST_TEST((stored(done.id).engine_failures == std::vector<std::string>{"gpu-a"}));
  BOOST_TEST(balance_is(opening - 10, 0), "charged once");
  auto after = ask<std::vector<engine_status>>(jobs, engines_atom::value);
  BOOST_TEST(after.value->at(1).renders_done == 1);
}

BOOST_AUTO_TEST_CASE(an_engine_joining_at_run_time_takes_the_waiting_work) {
  scripted.serve({"gpu-a", 1, {"sdxl"}});
  start(scripted, 2);
  std::vector<job_record> made;
  for (int i = 0; i < 2; ++i) {
    auto j = make_job("joined [hold] " + std::to_string(i), 10);
    j.model = "sdxl";
    made.push_back(create(j));
  }
  BOOST_REQUIRE(run_until([&] { return scripted.started() == 1; }));
  engine_status gpu_b;
  gpu_b.name = "gpu-b";
  gpu_b.slots = 1;
  gpu_b.models = {"sdxl"};
  self->send(jobs, joined_atom::value, gpu_b);
  BOOST_TEST(run_until([&] { return scripted.started() == 2; }), "the second job goes to the new engine at once");
  BOOST_TEST((scripted.engines_used() == std::vector<std::string>{"gpu-a", "gpu-b"}));
  self->send(jobs, left_atom::value, std::string{"gpu-a"});
  auto listed = ask<std::vector<engine_status>>(jobs, engines_atom::value);
  BOOST_REQUIRE(listed.value);
  BOOST_TEST(listed.value->size() == 1u, "a removed engine is no longer listed");
  scripted.release();
  for (auto& j : made)
    BOOST_TEST((finish(j.id).status == job_status::succeeded), "its running render finished");
}

BOOST_AUTO_TEST_CASE(a_queued_job_knows_its_place_and_when_it_should_start) {
  auto made = queue_on_two_engines(*this, "placed [hold]", 5);
  BOOST_REQUIRE(run_until([&] { return scripted.started() == 2; }));
  auto place = [&](const std::string& id) {
    auto p = ask<queue_place>(jobs, position_atom::value, team, id);
    BOOST_REQUIRE(p.value);
    return *p.value;
  };
  auto now_ms = svc::core::to_unix_ms(clock->now());
  BOOST_TEST(place(made[0].id).position == 0, "rendering, not queued");
  auto third = place(made[2].id), fifth = place(made[4].id);
  BOOST_TEST(third.position == 1);
  BOOST_TEST(fifth.position == 3);
  BOOST_TEST(third.estimated_start_ms >= now_ms);
  BOOST_TEST(fifth.estimated_start_ms > third.estimated_start_ms, "two jobs ahead on two slots take time");
  auto other = ask<queue_place>(jobs, position_atom::value, std::string{"team_2"}, made[2].id);
  BOOST_TEST((code_of(other.error) == error_code::resource_not_found), "another team's job has no place for it");
  self->send(jobs, disable_atom::value, std::string{"gpu-a"});
  self->send(jobs, disable_atom::value, std::string{"gpu-b"});
  BOOST_TEST(place(made[2].id).estimated_start_ms == 0, "no start is foreseen while no engine takes work");
  self->send(jobs, enable_atom::value, std::string{"gpu-a"});
  self->send(jobs, enable_atom::value, std::string{"gpu-b"});
  scripted.release();
  for (auto& j : made)
    BOOST_TEST((finish(j.id).status == job_status::succeeded));
}

BOOST_AUTO_TEST_CASE(a_teams_cap_leaves_the_other_slots_to_other_teams) {
  // As the team directory stores it (`svcctl team limits --max-concurrent 1`).
  auto set_cap = [&](int64_t cap) {
    auto t = *svc::test::found(tables.teams.get(team));
    t.renders.max_concurrent = cap;
    svc::persistence::write_batch batch;
    tables.teams.put(batch, team, t);
    BOOST_REQUIRE(*ask<bool>(store, commit_atom::value, std::move(batch)).value);
  };
  set_cap(1);
  start(scripted, 2); // four slots
  std::vector<job_record> made;
  for (int i = 0; i < 3; ++i)
    made.push_back(create(make_job("capped [hold] " + std::to_string(i), 10)));
  BOOST_REQUIRE(run_until([&] { return scripted.started() >= 1; }));
  BOOST_TEST(holds_within([&] { return scripted.started() == 1; }, std::chrono::milliseconds{200}),
             "one render at a time for the capped team, with three slots free");
  auto other = make_job("other [hold]", 10);
  other.team_id = "team_2";
  made.push_back(create(other));
  BOOST_TEST(run_until([&] { return scripted.started() == 2; }), "another team takes a free slot");
  // The cap lifted while the team's jobs wait: they go at once, not at the team's next create.
  set_cap(0);
  caf::anon_send(jobs, share_atom::value, team, render_share{1, 0});
  auto& st = state_of<job_directory_state>(jobs);
  BOOST_TEST(run_until([&] { return st.queue.size() == 0u && st.engines.busy() == 4; }),
             "both waiting jobs took the two free slots");
  scripted.release();
  for (auto& j : made)
    BOOST_TEST((finish(j.id).status == job_status::succeeded));
}

BOOST_AUTO_TEST_CASE(a_caller_waiting_for_a_queued_job_is_answered_when_it_ends) {
  start(scripted, 1);
  create(make_job("a lighthouse [hold]", 10));
  create(make_job("a harbour [hold]", 10));
  auto waited = create(make_job("a bridge [hold]", 10));
  auto& st = state_of<job_directory_state>(jobs);
  BOOST_TEST(st.jobs.count(waited.id) == 0u);
  self->send(jobs, wait_atom::value, team, waited.id);
  run_pending();
  BOOST_TEST(!receive<job_record>().answered);
  BOOST_TEST(st.jobs.count(waited.id) == 1u, "woken for the caller");
  BOOST_TEST(st.queue.contains(waited.id), "and still in its place in the queue");
  BOOST_TEST(holds_within([&] { return pool->queued() == 1u; }), "the worker took the first render, the next waits");

  scripted.release();
  finish(waited.id);
  auto w = receive<job_record>();
  BOOST_REQUIRE(w.value);
  BOOST_TEST((w.value->status == job_status::succeeded));
  BOOST_TEST(scripted.started() == 3);
}

BOOST_AUTO_TEST_CASE(a_queued_job_without_an_actor_expires_at_its_deadline) {
  start(scripted, 1);
  auto busy = create(make_job("a lighthouse [hold]", 10));
  create(make_job("a harbour [hold]", 10));
  auto waiting = create(make_job("a bridge", 30));
  BOOST_REQUIRE(reaches(busy.id, job_status::processing));
  BOOST_TEST(state_of<job_directory_state>(jobs).jobs.count(waiting.id) == 0u);

  advance(std::chrono::duration_cast<std::chrono::milliseconds>(cfg.queue_ttl) - std::chrono::seconds{1});
  BOOST_TEST((stored(waiting.id).status == job_status::queued));
  advance(std::chrono::seconds{1});
  auto r = finish(waiting.id);
  BOOST_TEST((r.status == job_status::expired));
  check_refunded(r);
  BOOST_TEST(state_of<job_directory_state>(jobs).queue.size() == 0u);
  BOOST_TEST((stored(busy.id).status == job_status::processing), "a job being rendered does not expire");
}

// More than two batches of `live_jobs`: the directory answers before its
// first batch (not ready yet), and a job not resumed yet can be cancelled.
BOOST_AUTO_TEST_CASE(live_jobs_are_resumed_in_batches_while_the_directory_answers) {
  auto n = static_cast<int64_t>(2 * svc::actors::job_recovery_batch + 3);
  std::vector<job_record> crashed;
  svc::persistence::write_batch batch;
  for (int64_t i = 0; i < n; ++i) {
    auto j = make_job("a lighthouse [hold]", 1);
    svc::persistence::put_job(tables, batch, j);
    tables.holds.put(batch, svc::actors::hold_key(team, j.id),
                     svc::schema::hold_record{team, j.id, 1, hold_status::held, clock->now()});
    crashed.push_back(std::move(j));
  }
  tables.balances.put(batch, team, balance_record{team, opening, n, {}});
  BOOST_REQUIRE(*ask<bool>(store, svc::actors::commit_atom::value, std::move(batch)).value);

  pool = std::make_unique<svc::providers::worker_pool>(1);
  svc::actors::job_services services{&scripted, pool.get(), &faulty, &moderation, ledgers};
  jobs = track(sys.spawn(svc::actors::job_directory, ctx(), services));
  auto& last = crashed.back();
  self->send(jobs, ready_atom::value);
  self->send(jobs, cancel_atom::value, team, last.id);
  run_pending();
  auto early = receive<recovery_status>();
  BOOST_REQUIRE(early.value);
  BOOST_TEST(!early.value->done);
  BOOST_TEST(early.value->recovered == 0);
  auto cancelled = receive<job_record>();
  BOOST_REQUIRE(cancelled.value);
  BOOST_TEST((cancelled.value->status == job_status::cancelled));

  auto ready = ask<recovery_status>(jobs, ready_atom::value);
  BOOST_REQUIRE(ready.value);
  BOOST_TEST(ready.value->done);
  BOOST_TEST(ready.value->recovered == n - 1, "the cancelled job was not resumed again");
  check_refunded(finish(last.id));
  auto& st = state_of<job_directory_state>(jobs);
  BOOST_TEST(st.jobs.size() == 2u);
  BOOST_TEST(st.queue.size() == static_cast<std::size_t>(n - 3));
  BOOST_TEST(balance_is(opening + 1, n - 1));
  BOOST_TEST(reaches(crashed.front().id, job_status::processing), "the first job takes the worker");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
