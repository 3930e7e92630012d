#include "actors/endpoint.hpp"

#include "actors/endpoint_deliveries.hpp"
#include "actors/endpoint_replay.hpp"
#include "actors/endpoint_samples.hpp"
#include "actors/endpoint_writes.hpp"
#include "actors/mailbox_depth.hpp"
#include "actors/supervision.hpp"
#include "core/log.hpp"
#include "persistence/webhook_rows.hpp"
#include "schema/webhook_signature.hpp"
#include "schema/webhook_views.hpp"

namespace svc::actors {
namespace {

using schema::delivery_task;
using schema::webhook_endpoint_record;

void arm_grace(endpoint_self self, const context& ctx) {
  auto& r = self->state.record;
  if (r.previous_secret_expires_at)
    self->delayed_send(self, until(ctx, *r.previous_secret_expires_at), grace_atom::value,
                       *r.previous_secret_expires_at);
}

// A PATCH: committed first, then applied (a deactivation drops the queue,
// a re-enable resets the failure count); the record after it once durable.
caf::result<webhook_endpoint_record> patch(endpoint_self self, const context& ctx, const endpoint_services& services,
                                           endpoint_patch p) {
  auto& r = self->state.record;
  auto promise = self->make_response_promise<webhook_endpoint_record>();
  bool deactivates = p.is_active && !*p.is_active && r.is_active;
  bool enables = p.is_active && *p.is_active;
  endpoint_write write;
  if (deactivates)
    erase_queued_tasks(self, ctx, write.rows);
  write.change = [p, now = ctx.clock->now()](webhook_endpoint_record& r) {
    if (p.url)
      r.url = *p.url;
    if (p.events)
      r.events = *p.events;
    if (p.metadata)
      r.metadata = *p.metadata;
    if (p.is_active) {
      if (*p.is_active) { // the contract: `true` re-enables and resets the count
        r.consecutive_failures = 0;
        r.disabled_at.reset();
      }
      r.is_active = *p.is_active;
    }
    r.updated_at = now;
  };
  write.after = [=]() mutable {
    if (deactivates)
      forget_queued_tasks(self);
    if (enables)
      self->state.window_armed = false;
    if (services.directory)
      self->send(services.directory, changed_atom::value, self->state.record, false);
    promise.deliver(self->state.record);
  };
  write.refused = [=](const caf::error& err) mutable { promise.deliver(err); };
  write_in_order(self, ctx, std::move(write));
  return promise;
}

// A new secret, the previous one kept for `--secret-grace`. Deliveries are
// signed with the new one only once it is durable, which is also when the
// client sees it.
caf::result<webhook_endpoint_record> rotate(endpoint_self self, const context& ctx) {
  auto promise = self->make_response_promise<webhook_endpoint_record>();
  auto now = ctx.clock->now();
  endpoint_write write;
  auto secret = schema::make_webhook_secret();
  write.change = [secret, now, grace = ctx.cfg->secret_grace](webhook_endpoint_record& r) {
    r.previous_secret = r.secret;
    r.previous_secret_expires_at = now + grace;
    r.secret = secret;
    r.updated_at = now;
  };
  write.after = [=]() mutable {
    arm_grace(self, ctx);
    promise.deliver(self->state.record);
  };
  write.refused = [=](const caf::error& err) mutable { promise.deliver(err); };
  write_in_order(self, ctx, std::move(write));
  return promise;
}

// Deletes the record and the queued tasks; once durable the directory
// forgets the endpoint and the actor exits.
caf::result<bool> erase(endpoint_self self, const context& ctx, const endpoint_services& services) {
  endpoint_write write;
  if (auto erased = persistence::erase_endpoint(*ctx.tables, write.rows, self->state.record); !erased.ok())
    return storage_failure(endpoint_component(self), erased.message);
  erase_queued_tasks(self, ctx, write.rows);
  write.erases_record = true;
  auto promise = self->make_response_promise<bool>();
  write.after = [=]() mutable {
    if (services.directory)
      self->send(services.directory, changed_atom::value, self->state.record, true);
    promise.deliver(true);
    self->quit();
  };
  write.refused = [=](const caf::error& err) mutable { promise.deliver(err); };
  write_in_order(self, ctx, std::move(write));
  return promise;
}

// A disable window that ended, at start or when its timer fires.
void recheck_disable(endpoint_self self, const context& ctx, const endpoint_services& services) {
  endpoint_write write;
  check_disable(self, ctx, services, write);
  if (!write.rows.empty())
    write_in_order(self, ctx, std::move(write));
}

} // namespace

endpoint_actor::behavior_type endpoint(endpoint_self self, context ctx, endpoint_services services,
                                       webhook_endpoint_record record) {
  register_actor(self, ctx, "endpoint", record.id, record.team_id);
  log_exceptions(self, "endpoint");
  self->state.record = std::move(record);
  arm_grace(self, ctx);
  load_tasks(self, ctx, services);
  recheck_disable(self, ctx, services); // a window that ended while svcd was down
  return {
    [=](patch_atom, endpoint_patch& p) -> caf::result<webhook_endpoint_record> {
      return patch(self, ctx, services, std::move(p));
    },
    [=](rotate_atom) -> caf::result<webhook_endpoint_record> { return rotate(self, ctx); },
    [=](delete_atom) -> caf::result<bool> { return erase(self, ctx, services); },
    [=](test_fire_atom, const std::string& type, const std::string& version,
        const schema::correlation& cause) -> caf::result<test_fire> {
      return fire_test(self, ctx, services, type, version, cause);
    },
    [=](replay_atom, core::time_point since) -> caf::result<int64_t> { return replay(self, ctx, services, since); },
    [=](deliver_atom, delivery_task& task) {
      auto& st = self->state;
      if (!st.record.is_active) { // disabled since the fan-out: the event stays replayable
        endpoint_write drop;
        persistence::erase_task(*ctx.tables, drop.rows, task);
        write_in_order(self, ctx, std::move(drop));
        return;
      }
      st.tasks[task.id] = task;
      schedule(self, ctx, services, task);
    },
    [=](attempted_atom, const std::string& id, webhook_answer& answer) {
      on_attempted(self, ctx, services, id, answer);
    },
    [=](retry_atom, const std::string& id) {
      if (self->state.tasks.count(id)) {
        self->state.ready.push_back(id);
        pump(self, ctx, services);
      }
    },
    [=](grace_atom, core::time_point ends) {
      auto& r = self->state.record;
      if (!r.previous_secret_expires_at || *r.previous_secret_expires_at != ends)
        return; // rotated again since: a later timer owns it
      r.previous_secret.clear();
      r.previous_secret_expires_at.reset();
      r.updated_at = ctx.clock->now();
      write_record(self, ctx);
    },
    [=](window_atom) {
      self->state.window_armed = false;
      recheck_disable(self, ctx, services);
    },
    [=](flush_atom) {
      self->state.retry_armed = false;
      flush_writes(self, ctx);
    },
    [=](release_atom) { quit_when_written(self, ctx); },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      auto& st = self->state;
      return {std::string{st.record.is_active ? "active" : "disabled"} + " pending=" + std::to_string(st.tasks.size())
                + " in_flight=" + std::to_string(st.in_flight) + " failures_in_a_row="
                + std::to_string(st.record.consecutive_failures) + " attempts=" + std::to_string(st.attempts)
                + (st.retry_armed ? " writes_failing" : ""),
              mailbox_depth(self)};
    },
  };
}

} // namespace svc::actors
