#include "actors/endpoint_deliveries.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include "actors/endpoint_writes.hpp"
#include "actors/mailer.hpp"
#include "core/ids.hpp"
#include "core/log.hpp"
#include "core/metric_catalogue.hpp"
#include "core/shard.hpp"
#include "persistence/webhook_rows.hpp"
#include "schema/event_types.hpp"
#include "schema/webhook_signature.hpp"
#include "schema/webhook_views.hpp"

namespace svc::actors {
namespace {

using schema::delivery_task;
using schema::webhook_endpoint_record;

// Runs `f` after whatever `write` already runs once durable.
void and_then(endpoint_write& write, std::function<void()> f) {
  write.after = [first = std::move(write.after), f = std::move(f)] {
    if (first)
      first();
    f();
  };
}

// The version of events no request caused: the team's default.
std::string team_version(const context& ctx, const std::string& team_id) {
  auto team = ctx.tables->teams.get(team_id);
  return team.has_value() ? team->default_api_version : std::string{};
}

webhook_post signed_post(const webhook_endpoint_record& e, const schema::event_record& event, int64_t t) {
  webhook_post post;
  post.url = e.url;
  auto ts = std::to_string(t);
  post.headers = {{"Content-Type", "application/json"},
                  {"User-Agent", std::string{webhook_user_agent}},
                  {"Svc-Event-Id", event.id},
                  {"Svc-Event-Type", event.type},
                  {"Svc-Version", event.api_version},
                  {"Svc-Webhook-Signature", schema::signature_header(e.secret, t, event.body)},
                  {"webhook-id", event.id},
                  {"webhook-timestamp", ts},
                  {"webhook-signature", schema::standard_signature(e.secret, event.id, t, event.body)}};
  // Each attempt is a span of its own in the trace of the request that caused the event.
  for (auto& h : schema::outbound_headers(event.correlation))
    post.headers.push_back(std::move(h));
  post.body = event.body;
  return post;
}

void attempt(endpoint_self self, const context& ctx, const endpoint_services& services, const delivery_task& task) {
  auto event = ctx.tables->events.get(task.event_id);
  if (event.failed()) { // the event may well exist: try again shortly, the task stays
    core::log_error(endpoint_component(self),
                    "event " + task.event_id + " unreadable, delivery retried: " + event.why());
    self->delayed_send(self, std::chrono::seconds{1}, retry_atom::value, task.id);
    return;
  }
  if (event.absent()) { // retention ended: nothing left to send
    core::log_warn(endpoint_component(self), "event " + task.event_id + " is gone; dropping its delivery");
    endpoint_write w;
    persistence::erase_task(*ctx.tables, w.rows, task);
    self->state.tasks.erase(task.id);
    write_in_order(self, ctx, std::move(w));
    return;
  }
  auto t = core::to_unix_ms(ctx.clock->now()) / 1000;
  ++self->state.in_flight;
  ++self->state.attempts;
  self->state.attempting.emplace(task.id, attempted_event{event->type, event->created_at});
  auto me = caf::actor_cast<endpoint_actor>(self);
  if (!services.transport) {
    webhook_answer none;
    none.error = schema::delivery_error::connect_error;
    none.detail = "this server has no outbound webhook transport";
    self->send(me, attempted_atom::value, task.id, std::move(none));
    return;
  }
  services.transport->post(signed_post(self->state.record, *event, t),
                           [me, id = task.id](webhook_answer answer) {
                             caf::anon_send(me, attempted_atom::value, id, std::move(answer));
                           });
}

core::mail_message disabled_mail(const context& ctx, const webhook_endpoint_record& e, const std::string& to) {
  core::mail_message m;
  m.from = ctx.cfg->mail_from;
  m.to = to;
  m.subject = "Svc webhook endpoint " + e.id + " was disabled";
  m.body = "Your webhook endpoint " + e.id + " (" + e.url + ") failed " + std::to_string(e.consecutive_failures)
           + " deliveries in a row with no success within the disable window, so Svc disabled it.\n\n"
             "Events that occur while it is disabled are kept: re-enable it with\n"
             "  PATCH /v1/webhook_endpoints/" + e.id + " {\"is_active\": true}\n"
             "and catch up with POST /v1/webhook_endpoints/" + e.id + "/replay or GET /v1/events.\n";
  return m;
}

// Auto-disable: the record, the `webhook.endpoint_disabled` event for the
// team's other endpoints, the dropped queue and the owner's mail (a
// `mail_queue` row) commit together; then the directory learns it (before
// the event, so the event skips this endpoint) and the mailer sends the mail.
void disable(endpoint_self self, const context& ctx, const endpoint_services& services, endpoint_write& write) {
  auto& r = self->state.record;
  auto now = ctx.clock->now();
  r.is_active = false;
  r.disabled_at = now;
  core::metrics::svc().webhook_endpoints_disabled.get().inc();
  r.updated_at = now;
  self->state.record_changed = true;
  erase_queued_tasks(self, ctx, write.rows);
  forget_queued_tasks(self);
  auto event = schema::mint_event(r.team_id, schema::webhook_endpoint_disabled, team_version(ctx, r.team_id), false,
                                  now, schema::webhook_endpoint_view(r));
  persistence::put_event(*ctx.tables, write.rows, event, ctx.cfg->event_retention, persistence::fan_out::pending);
  bool mailed = false;
  if (services.mailer) {
    auto team = ctx.tables->teams.get(r.team_id);
    if (team.failed())
      core::log_error(endpoint_component(self), "no mail about the disabling, the owner is unreadable: " + team.why());
    if (team.has_value() && !team->owner_email.empty()) {
      queue_mail(ctx, write.rows, disabled_mail(ctx, r, team->owner_email));
      mailed = true;
    }
  }
  core::log_warn(endpoint_component(self),
                 "disabled after " + std::to_string(r.consecutive_failures) + " consecutive failures");
  and_then(write, [self, services, event, mailed, record = r] {
    if (services.directory) {
      self->send(services.directory, changed_atom::value, record, false);
      self->send(services.directory, publish_atom::value, event);
    }
    if (mailed)
      self->send(services.mailer, queued_atom::value);
  });
}

bool succeeded_within_window(const context& ctx, const webhook_endpoint_record& r) {
  return r.last_success_at && ctx.clock->now() - *r.last_success_at < ctx.cfg->disable_window;
}

// The attempt's outcome class: the receiver's status class, or what kept it from answering.
void count_attempt(const webhook_answer& answer) {
  auto& m = core::metrics::svc();
  auto outcome = answer.status ? core::metrics::status_class(static_cast<unsigned>(*answer.status))
                               : std::string{schema::to_string(answer.error)};
  m.webhook_attempts.with({outcome}).inc();
  m.webhook_attempt_seconds.get().observe(std::chrono::duration<double>(answer.duration).count());
}

// Event creation to a successful delivery (retries and the time waiting for
// them included); a clock set back since the event counts as 0.
void count_delivery(const attempted_event& event, core::time_point now) {
  auto latency = std::chrono::duration<double>(now - event.created_at).count();
  core::metrics::svc().webhook_delivery_latency.get().observe(std::max(latency, 0.0));
}

} // namespace

std::string endpoint_component(endpoint_self self) { return "endpoint " + self->state.record.id; }

void load_tasks(endpoint_self self, const context& ctx, const endpoint_services& services) {
  persistence::scan_range range;
  range.prefix = self->state.record.id + "/";
  bool more = false;
  auto tasks = ctx.tables->delivery_tasks.page(range, std::numeric_limits<std::size_t>::max(), more);
  int64_t loaded = 0;
  if (tasks.failed()) { // they stay in LMDB for the next start
    core::log_error(endpoint_component(self), "pending deliveries not loaded, the store failed: " + tasks.why());
  } else {
    for (auto& t : *tasks)
      self->state.tasks.emplace(t.id, t);
    for (auto& t : *tasks)
      schedule(self, ctx, services, t);
    loaded = static_cast<int64_t>(tasks->size());
  }
  if (services.directory)
    self->send(services.directory, loaded_atom::value, self->state.record.id, loaded);
}

void schedule(endpoint_self self, const context& ctx, const endpoint_services& services, const delivery_task& task) {
  auto wait = until(ctx, task.due_at);
  if (wait.count() == 0) {
    self->state.ready.push_back(task.id);
    pump(self, ctx, services);
  } else {
    self->delayed_send(self, wait, retry_atom::value, task.id);
  }
}

void pump(endpoint_self self, const context& ctx, const endpoint_services& services) {
  auto& st = self->state;
  while (st.in_flight < max_parallel_deliveries && !st.ready.empty()) {
    auto id = std::move(st.ready.front());
    st.ready.pop_front();
    auto it = st.tasks.find(id);
    if (it == st.tasks.end())
      continue;
    attempt(self, ctx, services, it->second);
  }
}

void check_disable(endpoint_self self, const context& ctx, const endpoint_services& services, endpoint_write& write) {
  auto& st = self->state;
  auto& r = st.record;
  if (!r.is_active || r.consecutive_failures < ctx.cfg->disable_failures)
    return;
  if (!succeeded_within_window(ctx, r)) {
    disable(self, ctx, services, write);
  } else if (!st.window_armed) {
    st.window_armed = true;
    self->delayed_send(self, until(ctx, *r.last_success_at + ctx.cfg->disable_window), window_atom::value);
  }
}

void erase_queued_tasks(endpoint_self self, const context& ctx, persistence::write_batch& batch) {
  auto& st = self->state;
  for (auto& [id, task] : st.tasks)
    if (!st.attempting.count(id))
      persistence::erase_task(*ctx.tables, batch, task);
}

void forget_queued_tasks(endpoint_self self) {
  auto& st = self->state;
  for (auto it = st.tasks.begin(); it != st.tasks.end();)
    it = st.attempting.count(it->first) ? std::next(it) : st.tasks.erase(it);
  st.ready.clear();
}

void on_attempted(endpoint_self self, const context& ctx, const endpoint_services& services, const std::string& id,
                  webhook_answer& answer) {
  auto& st = self->state;
  if (st.in_flight > 0)
    --st.in_flight;
  std::optional<attempted_event> event; // remembered at the attempt: no second read of the event
  if (auto a = st.attempting.find(id); a != st.attempting.end()) {
    event = std::move(a->second);
    st.attempting.erase(a);
  }
  auto it = st.tasks.find(id);
  if (it == st.tasks.end()) { // deleted meanwhile
    pump(self, ctx, services);
    return;
  }
  auto task = it->second;
  auto& r = st.record;
  auto now = ctx.clock->now();
  count_attempt(answer);
  schema::delivery_record d;
  d.id = core::make_id("dlv", core::shard_of_team(r.team_id));
  d.endpoint_id = r.id;
  d.team_id = r.team_id;
  d.event_id = task.event_id;
  d.attempt = task.attempt;
  d.succeeded = answer.succeeded();
  d.response_status = answer.status;
  d.error = answer.error;
  d.error_detail = std::move(answer.detail);
  d.response_body = answer.body.substr(0, schema::stored_response_bytes);
  d.duration_ms = answer.duration.count();
  d.created_at = now;
  if (event)
    d.event_type = std::move(event->type);
  endpoint_write write;
  write.rows.finishes_accepted_work = true; // the event is owed: a full store must still let it be delivered
  auto finish = [&] {
    d.is_terminal = true;
    st.tasks.erase(task.id);
    persistence::erase_task(*ctx.tables, write.rows, task);
  };
  if (d.succeeded) {
    if (event)
      count_delivery(*event, now);
    finish();
    r.consecutive_failures = 0;
    r.last_success_at = now;
  } else {
    ++st.failures;
    ++r.consecutive_failures;
    r.last_failure_at = now;
    check_disable(self, ctx, services, write);
    if (!r.is_active) {
      // Disabled (now or while this attempt ran): no retry; the event stays replayable.
      finish();
    } else if (task.attempt < schema::max_delivery_attempts) {
      auto& gaps = ctx.cfg->retry_schedule;
      auto gap = gaps.empty() ? core::duration{0} : gaps[std::min<std::size_t>(task.attempt - 1, gaps.size() - 1)];
      task.attempt += 1;
      task.due_at = now + gap;
      d.next_attempt_at = task.due_at;
      st.tasks[task.id] = task;
      persistence::put_task(*ctx.tables, write.rows, task);
      and_then(write, [self, ctx, services, task] {
        if (self->state.tasks.count(task.id))
          schedule(self, ctx, services, task);
      });
    } else {
      finish();
      d.is_dead_letter = true;
      core::metrics::svc().webhook_dead_letters.get().inc();
    }
  }
  persistence::put_delivery(*ctx.tables, write.rows, d, ctx.cfg->event_retention);
  st.record_changed = true;
  write_in_order(self, ctx, std::move(write));
  pump(self, ctx, services);
}

} // namespace svc::actors
