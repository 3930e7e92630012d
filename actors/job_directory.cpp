#include "actors/job_directory.hpp"

#include <algorithm>
#include <cstdio>

#include "actors/job_directory_parts.hpp"
#include "actors/mailbox_depth.hpp"
#include "actors/render_cost.hpp"
#include "actors/supervision.hpp"
#include "actors/team_gate.hpp"
#include "core/log.hpp"
#include "core/metric_catalogue.hpp"
#include "persistence/job_rows.hpp"

namespace svc::actors {
namespace {

using schema::job_record;

caf::error not_found(const std::string& id) {
  auto kind = schema::job_kind_of_id(id);
  return make_domain_error(schema::error_code::resource_not_found, "id",
                           {{"kind", kind ? std::string{to_string(*kind)} : "job"}, {"id", id}});
}

// A team's class on /metrics: its render weight (`1`, `2`, `0.5`), which
// the operator sets to few values, so the label stays bounded.
std::string weight_label(double weight) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", weight);
  return text;
}

// The gauge of renders waiting for a worker reads it (with the pool's own queue).
void publish_queue_length(job_directory_self self, const job_services& services) {
  if (services.waiting_jobs)
    services.waiting_jobs->store(self->state.queue.size());
}

void arm_queue_deadline(job_directory_self self, const context& ctx) {
  auto& st = self->state;
  if (st.deadline_armed || st.queue_deadlines.empty())
    return;
  st.deadline_armed = true;
  self->delayed_send(self, until(ctx, st.queue_deadlines.front().first), queue_due_atom::value);
}

} // namespace

void add_queue_deadline(job_directory_self self, const context& ctx, core::time_point deadline,
                        const std::string& id) {
  auto& q = self->state.queue_deadlines;
  auto pos = q.end();
  while (pos != q.begin() && std::prev(pos)->first > deadline)
    --pos;
  q.insert(pos, {deadline, id});
  // A deadline earlier than the armed one waits for that timer: only a clock
  // step back can cause it, and it fires late, never early.
  arm_queue_deadline(self, ctx);
}

queued_job queued_job_of(const job_record& record) {
  return {record.id, record.team_id, record.model, render_cost(record), record.created_at};
}

void learn_share(job_directory_self self, const context& ctx, const std::string& team_id) {
  // Read as stored at each job: a restart, or a change this node was not told of, shows at the next one.
  if (auto team = ctx.tables->teams.get(team_id); team.has_value())
    self->state.queue.set_share(team_id, {team->renders.weight, static_cast<int>(team->renders.max_concurrent)});
}

// The job's queue deadline: creation + TTL. A worker had taken it before the
// restart: it goes back to the queue with a full TTL from now, not expired
// for time the server was down. That deadline is given once: the job actor
// stores it with the re-queued record, and later restarts keep it, so a
// crash loop cannot keep a job alive forever.
core::time_point queue_deadline(const context& ctx, job_record& record) {
  if (record.requeue_deadline)
    return *record.requeue_deadline;
  auto deadline = record.created_at + ctx.cfg->queue_ttl;
  if (record.status == schema::job_status::processing) // in whole ms, as it is stored
    deadline = *(record.requeue_deadline = core::from_unix_ms(
                   core::to_unix_ms(std::max(deadline, ctx.clock->now() + ctx.cfg->queue_ttl))));
  return deadline;
}

job_actor spawn_job(job_directory_self self, const context& ctx, const job_services& services,
                    job_record record, job_begin begin, std::optional<schema::job_failure> died) {
  auto id = record.id;
  auto team = record.team_id;
  auto failed_on = record.engine_failures;
  auto handle = self->spawn(job, ctx, services, std::move(record), begin, std::move(died));
  adopt(self, handle);
  self->state.job_ids[handle.address()] = id;
  self->state.jobs[id] = {handle, std::move(team), begin == job_begin::render, std::nullopt, std::move(failed_on)};
  if (begin == job_begin::render)
    ++self->state.dispatched;
  return handle;
}

// Queues a job that is not terminal (its stored record) behind the others.
void enqueue(job_directory_self self, const context& ctx, const job_services& services, job_record& record) {
  auto deadline = queue_deadline(ctx, record);
  learn_share(self, ctx, record.team_id);
  if (!self->state.queue.push(queued_job_of(record)))
    return;
  add_queue_deadline(self, ctx, deadline, record.id);
  publish_queue_length(self, services);
}

namespace {

// The engine of placement `p` did its part: its slot is free and what the
// render took corrects its team's tag. Once per placement.
void release_slot(job_directory_self self, const context& ctx, job_directory_state::live_job::placement& p) {
  auto& st = self->state;
  if (std::exchange(p.released, true))
    return;
  auto took = std::chrono::duration<double>(ctx.clock->now() - p.since).count();
  st.queue.finished(p.job.team, p.job.cost, took);
  if (p.job.cost > 0 && took > 0) // over the last few dozen renders
    st.seconds_per_estimate += place_smoothing * (took / p.job.cost - st.seconds_per_estimate);
  if (p.engine)
    st.engines.give_back(*p.engine);
}

// A dispatched job's render ended (it said so, its actor exited, or its
// engine failed it): its engine slot is free, and what the render took
// corrects its team's tag. What the fair queue gave, if it was placed.
std::optional<queued_job> end_placement(job_directory_self self, const context& ctx,
                                        job_directory_state::live_job& job) {
  auto& st = self->state;
  if (job.dispatched) {
    job.dispatched = false;
    --st.dispatched;
  }
  auto p = std::exchange(job.placed, std::nullopt);
  if (!p)
    return std::nullopt;
  release_slot(self, ctx, *p);
  return std::move(p->job);
}

// Where queued job `id` stands, from the places of the queue as it is now.
queue_place place_of(job_directory_self self, const context& ctx, const std::string& id, const std::string& model) {
  auto& st = self->state;
  auto now = ctx.clock->now();
  if (st.places_version != st.queue.version()) {
    st.places = st.queue.places();
    st.places_version = st.queue.version();
  }
  auto it = st.places.find(id);
  if (it == st.places.end())
    return {};
  queue_place out{static_cast<int64_t>(it->second.ahead) + 1, 0};
  if (auto slots = st.engines.slots_for(model); slots > 0) {
    auto wait = std::chrono::duration<double>(it->second.seconds_ahead * st.seconds_per_estimate / slots);
    out.estimated_start_ms = core::to_unix_ms(now + std::chrono::duration_cast<std::chrono::milliseconds>(wait));
  }
  return out;
}

// Engine `name` failed its probes: each render on it goes elsewhere (its job re-queues it).
void move_renders_off(job_directory_self self, const std::string& name, const std::string& why) {
  for (auto& [id, job] : self->state.jobs)
    if (job.placed && job.placed->engine == name)
      self->send(job.handle, engine_down_atom::value, name, why);
}

// The engines a stored change drained (`svcctl engine drain`) stay drained.
void drain_stored(job_directory_self self, const context& ctx) {
  auto st = ctx.tables->engines.for_each([&](const schema::engine_record& r) {
    if (r.draining)
      self->state.engines.drain(r.name, true);
    return true;
  });
  if (!st.ok())
    core::log_error("job_directory", "reading the drained engines failed: " + st.message);
}

} // namespace

// Hands queued jobs to the free worker slots: a job woken earlier is told to
// go, any other gets its actor, from its stored record.
void dispatch(job_directory_self self, const context& ctx, const job_services& services) {
  auto& st = self->state;
  // A model no engine serves is dispatched all the same, for its back end to fail it.
  auto placeable = [&st](const std::string& model) { return st.engines.can_place(model) || !st.engines.serves(model); };
  auto go = [&](job_directory_state::live_job& job, const queued_job& next) {
    auto engine = st.engines.take(next.model, job.failed_on);
    auto waited = std::chrono::duration<double>(ctx.clock->now() - next.since).count();
    core::metrics::svc().queue_wait_seconds.with({weight_label(st.queue.share_of(next.team).weight)}).observe(waited);
    job.dispatched = true;
    job.placed = job_directory_state::live_job::placement{next, ctx.clock->now(), engine};
    ++st.dispatched;
    self->send(job.handle, dispatch_atom::value, engine.value_or(""));
  };
  while (!st.dispatch_armed) {
    auto next = st.queue.pop(placeable);
    if (!next)
      break;
    auto& id = next->id;
    // A job that does not render after all gives its team's charge back.
    auto not_rendered = [&] { st.queue.finished(next->team, next->cost, 0); };
    if (auto it = st.jobs.find(id); it != st.jobs.end()) {
      if (it->second.dispatched)
        not_rendered();
      else
        go(it->second, *next);
      continue;
    }
    auto record = ctx.tables->jobs.get(id);
    if (record.failed()) { // it keeps its place; the queue waits a second
      core::log_error("job_directory", "job " + id + " not started yet, the store failed: " + record.why());
      not_rendered();
      st.queue.push_front(*next);
      st.dispatch_armed = true;
      self->delayed_send(self, std::chrono::seconds{1}, dispatch_atom::value);
      break;
    }
    if (record.absent() || schema::is_terminal(record->status)) {
      core::log_warn("job_directory", "queued job " + id + " is missing or terminal in the store");
      not_rendered();
      continue;
    }
    if (!holds_team(ctx, record->team_id)) { // its shard left this node; it resumes at the new owner
      not_rendered();
      continue;
    }
    spawn_job(self, ctx, services, std::move(*record), job_begin::wait_for_dispatch);
    go(st.jobs[id], *next);
  }
  publish_queue_length(self, services);
}

namespace {

// The actor of a live job, or, for a job with none, its stored record: the
// actor is spawned for a job that waits in the queue (or that no one knew:
// not resumed yet at start, or not resumed for a failed read), which keeps
// its place in the queue; a terminal job's record is the answer.
struct found_job {
  job_actor handle;
  std::optional<job_record> terminal;
  caf::error error;
};

found_job find_job(job_directory_self self, const context& ctx, const job_services& services,
                   const std::string& team, const std::string& id) {
  found_job out;
  if (!holds_team(ctx, team)) {
    out.error = team_not_held();
    return out;
  }
  if (auto it = self->state.jobs.find(id); it != self->state.jobs.end()) {
    if (it->second.team_id != team)
      out.error = not_found(id);
    else
      out.handle = it->second.handle;
    return out;
  }
  auto record = ctx.tables->jobs.get(id);
  if (record.failed())
    out.error = storage_failure("job_directory", record.why());
  else if (record.absent() || record->team_id != team)
    out.error = not_found(id);
  else if (schema::is_terminal(record->status))
    out.terminal = std::move(*record);
  else {
    enqueue(self, ctx, services, *record);
    out.handle = spawn_job(self, ctx, services, std::move(*record), job_begin::wait_for_dispatch);
  }
  return out;
}

// The actor of job `id` died: only that job fails (`internal`, its hold
// refunded, its `*.failed` event published), through a successor actor that
// settles it from the record as last committed. A job that was settled
// already (it died after its settlement) is left as it is.
void fail_dead_job(job_directory_self self, const context& ctx, const job_services& services,
                   const std::string& id) {
  auto record = ctx.tables->jobs.get(id);
  if (retry_later_if_failed<job_died_atom>(self, record, id, "job_directory", "job " + id + " not failed yet"))
    return;
  if (record.absent() || schema::is_terminal(record->status))
    return;
  core::log_error("job_directory", "the actor of job " + id + " died; the job fails");
  schema::job_failure failure{"internal", "the job failed inside Svc; its credits were refunded"};
  spawn_job(self, ctx, services, std::move(*record), job_begin::wait_for_dispatch, std::move(failure));
}

// Admits through the team's ledger, then queues the job (a prompt that
// breaks a moderation rule is rejected at once, not after the queue).
void admit(job_directory_self self, const context& ctx, const job_services& services,
           const ledger_actor& ledger, job_admission& a, caf::typed_response_promise<admission_result> promise) {
  admission adm;
  adm.job_id = a.job.id;
  adm.credits = a.job.credits;
  adm.cause = a.job.correlation;
  persistence::put_job(*ctx.tables, adm.writes, a.job);
  if (a.idempotency) {
    persistence::put_idempotency(*ctx.tables, adm.writes, *a.idempotency);
    adm.idempotency_key = persistence::idempotency_key(a.job.team_id, a.idempotency->route, a.idempotency->key);
  }
  // The HTTP side's request carries the deadline; an internal timer here would only cost.
  self->request(ledger, caf::infinite, admit_atom::value, std::move(adm))
    .then(
      [=, job = std::move(a.job)](admission_result& r) mutable {
        if (!r.replayed) {
          ++self->state.admitted;
          auto& m = core::metrics::svc();
          m.jobs_created.with({std::string{schema::to_string(job.kind)}}).inc();
          m.credits_held.get().inc(static_cast<double>(job.credits));
          // One committed while its shard was being released stays queued for the new owner.
          bool held = holds_team(ctx, job.team_id);
          if (held && moderation_failure(*services.moderation, job)) {
            spawn_job(self, ctx, services, std::move(job), job_begin::render);
          } else if (held) {
            enqueue(self, ctx, services, job);
            dispatch(self, ctx, services);
          }
        }
        promise.deliver(std::move(r));
      },
      [=](caf::error& err) mutable { promise.deliver(std::move(err)); });
}

} // namespace

std::size_t job_dispatch_slots(const job_services& services) { return 2 * services.pool->threads(); }

job_directory_actor::behavior_type job_directory(job_directory_self self, context ctx, job_services services) {
  register_actor(self, ctx, "job_directory", "job_directory", "");
  log_exceptions(self, "job_directory");
  self->set_down_handler([=](caf::down_msg& dm) {
    auto& st = self->state;
    if (erase_child(st.ledgers, dm.source)) // a ledger resolved earlier (not a child)
      return;
    release(self, dm.source);
    if (auto it = st.job_ids.find(dm.source); it != st.job_ids.end()) {
      auto id = std::move(it->second);
      st.job_ids.erase(it);
      if (auto job = st.jobs.find(id); job != st.jobs.end()) {
        end_placement(self, ctx, job->second);
        st.jobs.erase(job);
      }
      st.queue.erase(id); // it ended while queued
      auto released = st.releases.releasing(dm.source);
      st.releases.gone(dm.source);
      if (died(dm.reason) && !released)
        fail_dead_job(self, ctx, services, id);
      dispatch(self, ctx, services);
    }
  });
  self->state.engines = engine_slots(services.backend->engines(), static_cast<int>(job_dispatch_slots(services)));
  drain_stored(self, ctx);
  self->state.recovery_began = ctx.clock->now();
  publish_queue_length(self, services);
  self->send(self, recover_atom::value, std::string{});
  return {
    [=](create_atom, job_admission& a) -> caf::result<admission_result> {
      auto team = a.job.team_id;
      if (!holds_team(ctx, team))
        return team_not_held();
      auto promise = self->make_response_promise<admission_result>();
      if (auto it = self->state.ledgers.find(team); it != self->state.ledgers.end()) {
        admit(self, ctx, services, it->second, a, promise);
        return promise;
      }
      self->request(services.ledgers, ctx.cfg->request_deadline, resolve_atom::value, team)
        .then(
          [=, a = std::move(a)](ledger_actor& ledger) mutable {
            if (self->state.ledgers.emplace(team, ledger).second)
              self->monitor(ledger);
            admit(self, ctx, services, ledger, a, promise);
          },
          [=](caf::error& err) mutable { promise.deliver(std::move(err)); });
      return promise;
    },
    [=](cancel_atom, const std::string& team, const std::string& id) -> caf::result<job_record> {
      auto found = find_job(self, ctx, services, team, id);
      if (found.handle)
        return self->delegate(found.handle, cancel_atom::value);
      if (found.terminal)
        return not_cancellable(*found.terminal);
      return std::move(found.error);
    },
    [=](wait_atom, const std::string& team, const std::string& id) -> caf::result<job_record> {
      auto found = find_job(self, ctx, services, team, id);
      if (found.handle)
        return self->delegate(found.handle, wait_atom::value);
      if (found.terminal)
        return std::move(*found.terminal);
      return std::move(found.error);
    },
    [=](queue_due_atom) {
      auto& st = self->state;
      st.deadline_armed = false;
      auto now = ctx.clock->now();
      while (!st.queue_deadlines.empty() && st.queue_deadlines.front().first <= now) {
        auto id = std::move(st.queue_deadlines.front().second);
        st.queue_deadlines.pop_front();
        if (auto it = st.jobs.find(id); it != st.jobs.end()) {
          self->send(it->second.handle, expire_atom::value);
          continue;
        }
        if (!st.queue.contains(id))
          continue; // ended meanwhile
        auto record = ctx.tables->jobs.get(id);
        if (record.failed()) { // expired a second late rather than never
          core::log_error("job_directory", "job " + id + " not expired yet, the store failed: " + record.why());
          add_queue_deadline(self, ctx, now + std::chrono::seconds{1}, id);
          continue;
        }
        if (record.absent() || schema::is_terminal(record->status)) {
          st.queue.erase(id);
          continue;
        }
        self->send(spawn_job(self, ctx, services, std::move(*record), job_begin::wait_for_dispatch),
                   expire_atom::value);
      }
      publish_queue_length(self, services);
      arm_queue_deadline(self, ctx);
    },
    [=](job_died_atom, const std::string& id) {
      if (!self->state.jobs.count(id))
        fail_dead_job(self, ctx, services, id);
    },
    [=](ready_atom) -> recovery_status {
      auto& st = self->state;
      return {!st.recovering, static_cast<int64_t>(st.recovered)};
    },
    [=](dispatch_atom) {
      self->state.dispatch_armed = false;
      dispatch(self, ctx, services);
    },
    [=](share_atom, const std::string& team_id, const schema::render_share& share) {
      self->state.queue.set_share(team_id, {share.weight, static_cast<int>(share.max_concurrent)});
      dispatch(self, ctx, services); // a cap raised may let a job go now
    },
    [=](engines_atom) {
      auto& st = self->state;
      std::vector<engine_status> out;
      for (auto& e : st.engines.view())
        out.push_back({e.spec.name, e.spec.kind, e.spec.url, e.spec.slots, e.spec.models, e.state, e.last_error,
                       e.renders_done, e.renders_failed, {}});
      for (auto& [id, job] : st.jobs)
        if (job.placed && job.placed->engine && !job.placed->released)
          for (auto& e : out)
            if (e.name == *job.placed->engine)
              e.jobs.push_back(id);
      for (auto& e : out)
        std::sort(e.jobs.begin(), e.jobs.end());
      return out;
    },
    [=](requeue_atom, const std::string& id, const std::string& engine) {
      auto& st = self->state;
      auto it = st.jobs.find(id);
      if (it == st.jobs.end() || !it->second.dispatched || !it->second.placed)
        return;
      auto& job = it->second;
      st.engines.count_render(engine, false);
      // A dead engine fails renders at once: as failed probes, two in a row
      // take it down before it draws every job's render attempts.
      if (st.engines.render_failed(engine) == engine_slots::health_change::went_down) {
        core::log_warn("job_directory", "engine " + engine + " is down (its renders failed); its renders go elsewhere");
        move_renders_off(self, engine, "its renders failed");
      }
      auto given = end_placement(self, ctx, job);
      job.failed_on.push_back(engine);
      st.queue.push_front(std::move(*given));
      dispatch(self, ctx, services);
    },
    [=](position_atom, const std::string& team, const std::string& id) -> caf::result<queue_place> {
      if (!holds_team(ctx, team))
        return team_not_held();
      auto record = ctx.tables->jobs.get(id);
      if (record.failed())
        return storage_failure("job_directory", record.why());
      if (record.absent() || record->team_id != team)
        return not_found(id);
      return place_of(self, ctx, id, record->model);
    },
    [=](slot_free_atom, const std::string& id) {
      auto& st = self->state;
      auto it = st.jobs.find(id);
      if (it == st.jobs.end() || !it->second.placed)
        return;
      release_slot(self, ctx, *it->second.placed);
      dispatch(self, ctx, services);
    },
    [=](rendered_atom, const std::string& id, bool succeeded) {
      auto& st = self->state;
      auto it = st.jobs.find(id);
      if (it == st.jobs.end() || !it->second.placed)
        return;
      if (auto& engine = it->second.placed->engine)
        st.engines.count_render(*engine, succeeded);
      end_placement(self, ctx, it->second);
      dispatch(self, ctx, services);
    },
    [=](joined_atom, const engine_status& e) {
      if (self->state.engines.join({e.name, static_cast<int>(e.slots), e.models, e.kind, e.url}))
        dispatch(self, ctx, services);
    },
    [=](left_atom, const std::string& name) { self->state.engines.leave(name); },
    [=](disable_atom, const std::string& name) { self->state.engines.drain(name, true); },
    [=](enable_atom, const std::string& name) {
      if (self->state.engines.drain(name, false))
        dispatch(self, ctx, services);
    },
    [=](probed_atom, const std::string& name, const std::string& error) {
      switch (self->state.engines.probed(name, error)) {
      case engine_slots::health_change::went_down:
        core::log_warn("job_directory", "engine " + name + " is down (" + error + "); its renders go elsewhere");
        move_renders_off(self, name, error);
        break;
      case engine_slots::health_change::came_up:
        core::log_info("job_directory", "engine " + name + " is up again");
        dispatch(self, ctx, services);
        break;
      case engine_slots::health_change::none: break;
      }
    },
    [=](recover_atom, const std::string& after) { recover_batch(self, ctx, services, after); },
    [=](release_atom, core::shard_id shard) { return release_shard(self, ctx, shard); },
    [=](adopt_atom, core::shard_id shard) { return adopt_shard(self, ctx, services, shard); },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      auto& st = self->state;
      return {"actors=" + std::to_string(st.jobs.size()) + " queued=" + std::to_string(st.queue.size())
                + " dispatched=" + std::to_string(st.dispatched) + " slots=" + std::to_string(st.engines.busy()) + "/"
                + std::to_string(st.engines.total()) + " admitted=" + std::to_string(st.admitted)
                + " recovered=" + std::to_string(st.recovered) + (st.recovering ? " recovering" : ""),
              mailbox_depth(self)};
    },
  };
}

} // namespace svc::actors
