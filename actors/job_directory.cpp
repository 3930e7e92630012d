#include "actors/job_directory.hpp"

#include <algorithm>

#include "actors/mailbox_depth.hpp"
#include "actors/supervision.hpp"
#include "core/log.hpp"
#include "core/metric_catalogue.hpp"
#include "persistence/job_rows.hpp"

namespace svc::actors {
namespace {

using self_ptr = job_directory_actor::stateful_pointer<job_directory_state>;
using schema::job_record;

caf::error not_found(const std::string& id) {
  auto kind = schema::job_kind_of_id(id);
  return make_domain_error(schema::error_code::resource_not_found, "id",
                           {{"kind", kind ? std::string{to_string(*kind)} : "job"}, {"id", id}});
}

void arm_queue_deadline(self_ptr self, const context& ctx) {
  auto& st = self->state;
  if (st.deadline_armed || st.queue_deadlines.empty())
    return;
  st.deadline_armed = true;
  self->delayed_send(self, until(ctx, st.queue_deadlines.front().first), expire_atom::value);
}

void add_queue_deadline(self_ptr self, const context& ctx, core::time_point deadline, const std::string& id) {
  auto& q = self->state.queue_deadlines;
  auto pos = q.end();
  while (pos != q.begin() && std::prev(pos)->first > deadline)
    --pos;
  q.insert(pos, {deadline, id});
  // A deadline earlier than the armed one waits for that timer: only a clock
  // step back can cause it, and it fires late, never early.
  arm_queue_deadline(self, ctx);
}

void track(self_ptr self, const job_actor& handle, const std::string& id, const std::string& team) {
  adopt(self, handle);
  self->state.job_ids[handle.address()] = id;
  self->state.jobs[id] = {handle, team};
}

void start_job(self_ptr self, const context& ctx, const job_services& services, job_record record) {
  auto id = record.id;
  auto team = record.team_id;
  auto deadline = record.created_at + ctx.cfg->queue_ttl;
  // A worker had taken it before the restart: it goes back to the queue with
  // a full TTL from now, not expired for time the server was down. That
  // deadline is given once: the job actor stores it with the re-queued
  // record, and later restarts keep it, so a crash loop cannot keep a job
  // alive forever.
  if (record.requeue_deadline)
    deadline = *record.requeue_deadline;
  else if (record.status == schema::job_status::processing) // in whole ms, as it is stored
    deadline = *(record.requeue_deadline = core::from_unix_ms(
                   core::to_unix_ms(std::max(deadline, ctx.clock->now() + ctx.cfg->queue_ttl))));
  add_queue_deadline(self, ctx, deadline, id);
  track(self, self->spawn(job, ctx, services, std::move(record), std::optional<schema::job_failure>{}), id, team);
}

// The actor of job `id` died: only that job fails (`internal`, its hold
// refunded, its `*.failed` event published), through a successor actor that
// settles it from the record as last committed. A job that was settled
// already (it died after its settlement) is left as it is.
void fail_dead_job(self_ptr self, const context& ctx, const job_services& services, const std::string& id) {
  auto record = ctx.tables->jobs.get(id);
  if (record.failed()) {
    core::log_error("job_directory", "job " + id + " not failed yet, the store failed: " + record.why());
    self->delayed_send(self, std::chrono::seconds{1}, respawn_atom::value, id);
    return;
  }
  if (record.absent() || schema::is_terminal(record->status))
    return;
  core::log_error("job_directory", "the actor of job " + id + " died; the job fails");
  auto team = record->team_id;
  schema::job_failure failure{"internal", "the job failed inside Svc; its credits were refunded"};
  track(self, self->spawn(job, ctx, services, std::move(*record), std::optional{std::move(failure)}), id, team);
}

void recover(self_ptr self, const context& ctx, const job_services& services) {
  std::vector<std::string> ids;
  auto scanned = ctx.tables->live_jobs.for_each_key([&](std::string_view id) {
    ids.emplace_back(id);
    return true;
  });
  if (!scanned.ok())
    core::log_error("job_directory", "unfinished jobs not all resumed, the store failed: " + scanned.message);
  for (auto& id : ids) {
    auto record = ctx.tables->jobs.get(id);
    if (record.failed()) {
      core::log_error("job_directory", "job " + id + " not resumed, the store failed: " + record.why());
      continue;
    }
    if (record.absent() || schema::is_terminal(record->status)) {
      core::log_warn("job_directory", "live_jobs lists " + id + " but its record is missing or terminal");
      continue;
    }
    start_job(self, ctx, services, std::move(*record));
    ++self->state.recovered;
  }
  if (!ids.empty())
    core::log_info("job_directory", "resumed " + std::to_string(self->state.recovered) + " unfinished jobs");
}

// Admits through the team's ledger, then starts the job.
void admit(self_ptr self, const context& ctx, const job_services& services, const ledger_actor& ledger,
           job_admission& a, caf::typed_response_promise<admission_result> promise) {
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
          start_job(self, ctx, services, std::move(job));
        }
        promise.deliver(std::move(r));
      },
      [=](caf::error& err) mutable { promise.deliver(std::move(err)); });
}

} // namespace

job_directory_actor::behavior_type job_directory(self_ptr self, context ctx, job_services services) {
  register_actor(self, ctx, "job_directory", "job_directory", "");
  log_exceptions(self, "job_directory");
  self->set_down_handler([=](caf::down_msg& dm) {
    auto& st = self->state;
    if (erase_child(st.ledgers, dm.source)) // a ledger resolved earlier (not a child)
      return;
    release(self, dm.source);
    if (auto it = st.job_ids.find(dm.source); it != st.job_ids.end()) {
      auto id = std::move(it->second);
      st.jobs.erase(id);
      st.job_ids.erase(it);
      if (died(dm.reason))
        fail_dead_job(self, ctx, services, id);
    }
  });
  recover(self, ctx, services);
  return {
    [=](create_atom, job_admission& a) -> caf::result<admission_result> {
      auto promise = self->make_response_promise<admission_result>();
      auto team = a.job.team_id;
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
      if (auto it = self->state.jobs.find(id); it != self->state.jobs.end()) {
        if (it->second.team_id != team)
          return not_found(id);
        return self->delegate(it->second.handle, cancel_atom::value);
      }
      auto record = ctx.tables->jobs.get(id);
      if (record.failed())
        return storage_failure("job_directory", record.why());
      if (record.absent() || record->team_id != team)
        return not_found(id);
      return not_cancellable(*record);
    },
    [=](wait_atom, const std::string& team, const std::string& id) -> caf::result<job_record> {
      if (auto it = self->state.jobs.find(id); it != self->state.jobs.end()) {
        if (it->second.team_id != team)
          return not_found(id);
        return self->delegate(it->second.handle, wait_atom::value);
      }
      auto record = ctx.tables->jobs.get(id);
      if (record.failed())
        return storage_failure("job_directory", record.why());
      if (record.absent() || record->team_id != team)
        return not_found(id);
      return std::move(*record);
    },
    [=](expire_atom) {
      auto& st = self->state;
      st.deadline_armed = false;
      auto now = ctx.clock->now();
      while (!st.queue_deadlines.empty() && st.queue_deadlines.front().first <= now) {
        if (auto it = st.jobs.find(st.queue_deadlines.front().second); it != st.jobs.end())
          self->send(it->second.handle, expire_atom::value);
        st.queue_deadlines.pop_front();
      }
      arm_queue_deadline(self, ctx);
    },
    [=](respawn_atom, const std::string& id) {
      if (!self->state.jobs.count(id))
        fail_dead_job(self, ctx, services, id);
    },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      auto& st = self->state;
      return {"live=" + std::to_string(st.jobs.size()) + " admitted=" + std::to_string(st.admitted)
                + " recovered=" + std::to_string(st.recovered),
              mailbox_depth(self)};
    },
  };
}

} // namespace svc::actors
