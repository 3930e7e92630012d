#include "actors/endpoint.hpp"

#include <limits>
#include <set>

#include <boost/json.hpp>

#include "actors/committed_reply.hpp"
#include "actors/supervision.hpp"
#include "core/ids.hpp"
#include "core/log.hpp"
#include "persistence/webhook_rows.hpp"
#include "schema/event_types.hpp"
#include "schema/job_view.hpp"
#include "schema/views.hpp"
#include "schema/webhook_signature.hpp"
#include "schema/webhook_views.hpp"

namespace svc::actors {
namespace {

using self_ptr = endpoint_actor::stateful_pointer<endpoint_state>;
using schema::delivery_task;
using schema::webhook_endpoint_record;

std::string component(self_ptr self) { return "endpoint " + self->state.record.id; }

// The version of events no request caused: the team's default.
std::string team_version(const context& ctx, const std::string& team_id) {
  auto team = ctx.tables->teams.get(team_id);
  return team.has_value() ? team->default_api_version : std::string{};
}

void pump(self_ptr self, const context& ctx, const endpoint_services& services);

// Commits `batch`, then runs what had to wait for it (notifications, timers).
void commit_then_run(self_ptr self, const context& ctx, persistence::write_batch batch,
                     std::vector<std::function<void()>> after) {
  commit_quietly(self, ctx.store, std::move(batch), component(self), [after = std::move(after)] {
    for (auto& f : after)
      f();
  });
}

// A task is attempted now if due, else when its stored deadline comes.
void schedule(self_ptr self, const context& ctx, const endpoint_services& services, const delivery_task& task) {
  auto wait = until(ctx, task.due_at);
  if (wait.count() == 0) {
    self->state.ready.push_back(task.id);
    pump(self, ctx, services);
  } else {
    self->delayed_send(self, wait, retry_atom::value, task.id);
  }
}

// Drops every task not in flight: a disabled endpoint keeps no queue, and
// what it missed stays replayable (nothing marks those events delivered).
// An attempt in flight still gets its row when its answer comes.
void drop_queued_tasks(self_ptr self, const context& ctx, persistence::write_batch& batch) {
  auto& st = self->state;
  for (auto it = st.tasks.begin(); it != st.tasks.end();) {
    if (st.attempting.count(it->first)) {
      ++it;
      continue;
    }
    persistence::erase_task(*ctx.tables, batch, it->second);
    it = st.tasks.erase(it);
  }
  st.ready.clear();
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
  post.body = event.body;
  return post;
}

void attempt(self_ptr self, const context& ctx, const endpoint_services& services, const delivery_task& task) {
  auto event = ctx.tables->events.get(task.event_id);
  if (event.failed()) { // the event may well exist: try again shortly, the task stays
    core::log_error(component(self), "event " + task.event_id + " unreadable, delivery retried: " + event.why());
    self->delayed_send(self, std::chrono::seconds{1}, retry_atom::value, task.id);
    return;
  }
  if (event.absent()) { // retention ended: nothing left to send
    core::log_warn(component(self), "event " + task.event_id + " is gone; dropping its delivery");
    persistence::write_batch batch;
    persistence::erase_task(*ctx.tables, batch, task);
    self->state.tasks.erase(task.id);
    commit_quietly(self, ctx.store, std::move(batch), component(self));
    return;
  }
  auto t = core::to_unix_ms(ctx.clock->now()) / 1000;
  ++self->state.in_flight;
  ++self->state.attempts;
  self->state.attempting.emplace(task.id, event->type);
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

void pump(self_ptr self, const context& ctx, const endpoint_services& services) {
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
// team's other endpoints and the dropped queue commit together; then the
// directory learns it (before the event, so the event skips this endpoint)
// and the owner gets a mail.
void disable(self_ptr self, const context& ctx, const endpoint_services& services, persistence::write_batch& batch,
             std::vector<std::function<void()>>& after) {
  auto& r = self->state.record;
  auto now = ctx.clock->now();
  r.is_active = false;
  r.disabled_at = now;
  r.updated_at = now;
  drop_queued_tasks(self, ctx, batch);
  persistence::put_endpoint(*ctx.tables, batch, r);
  auto event = schema::mint_event(r.team_id, schema::webhook_endpoint_disabled, team_version(ctx, r.team_id), false,
                                  now, schema::webhook_endpoint_view(r));
  persistence::put_event(*ctx.tables, batch, event, ctx.cfg->event_retention, persistence::fan_out::pending);
  core::log_warn(component(self), "disabled after " + std::to_string(r.consecutive_failures) + " consecutive failures");
  after.push_back([self, ctx, services, event, record = r] {
    if (services.directory) {
      self->send(services.directory, changed_atom::value, record, false);
      self->send(services.directory, publish_atom::value, event);
    }
    auto team = ctx.tables->teams.get(record.team_id);
    if (team.failed())
      core::log_error(component(self), "no mail about the disabling, the owner is unreadable: " + team.why());
    if (services.mailer && team.has_value() && !team->owner_email.empty())
      self->send(services.mailer, send_atom::value, disabled_mail(ctx, record, team->owner_email));
  });
}

bool succeeded_within_window(const context& ctx, const webhook_endpoint_record& r) {
  return r.last_success_at && ctx.clock->now() - *r.last_success_at < ctx.cfg->disable_window;
}

// The contract's rule after a failure: disable now, or, while a recent
// success holds it off, check again when that success leaves the window.
void check_disable(self_ptr self, const context& ctx, const endpoint_services& services,
                   persistence::write_batch& batch, std::vector<std::function<void()>>& after) {
  auto& st = self->state;
  auto& r = st.record;
  if (!r.is_active || r.consecutive_failures < ctx.cfg->disable_failures)
    return;
  if (!succeeded_within_window(ctx, r)) {
    disable(self, ctx, services, batch, after);
  } else if (!st.window_armed) {
    st.window_armed = true;
    self->delayed_send(self, until(ctx, *r.last_success_at + ctx.cfg->disable_window), window_atom::value);
  }
}

void on_attempted(self_ptr self, const context& ctx, const endpoint_services& services, const std::string& id,
                  webhook_answer& answer) {
  auto& st = self->state;
  if (st.in_flight > 0)
    --st.in_flight;
  std::string event_type; // remembered at the attempt: no second read of the event
  if (auto a = st.attempting.find(id); a != st.attempting.end()) {
    event_type = std::move(a->second);
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
  schema::delivery_record d;
  d.id = core::make_id("dlv");
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
  d.event_type = std::move(event_type);
  persistence::write_batch batch;
  std::vector<std::function<void()>> after;
  auto finish = [&] {
    d.is_terminal = true;
    st.tasks.erase(task.id);
    persistence::erase_task(*ctx.tables, batch, task);
  };
  if (d.succeeded) {
    finish();
    r.consecutive_failures = 0;
    r.last_success_at = now;
  } else {
    ++st.failures;
    ++r.consecutive_failures;
    r.last_failure_at = now;
    check_disable(self, ctx, services, batch, after);
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
      persistence::put_task(*ctx.tables, batch, task);
      after.push_back([self, ctx, services, task] {
        if (self->state.tasks.count(task.id))
          schedule(self, ctx, services, task);
      });
    } else {
      finish();
      d.is_dead_letter = true;
    }
  }
  persistence::put_delivery(*ctx.tables, batch, d, ctx.cfg->event_retention);
  persistence::put_endpoint(*ctx.tables, batch, r);
  commit_then_run(self, ctx, std::move(batch), std::move(after));
  pump(self, ctx, services);
}

// What a test fire carries: a sample of the type's `data`, marked by the
// envelope's `synthetic: true`.
boost::json::value sample_data(const context& ctx, const webhook_endpoint_record& e, std::string_view type,
                               const std::string& version) {
  if (type == schema::usage_balance_low) {
    auto team = ctx.tables->teams.get(e.team_id);
    auto balance = ctx.tables->balances.get(e.team_id);
    return schema::balance_view(balance.has_value() ? *balance : schema::balance_record{e.team_id, 0, 0, {}},
                                team.has_value() ? team->balance_low_threshold : 0);
  }
  if (type == schema::webhook_endpoint_disabled)
    return schema::webhook_endpoint_view(e);
  // image.* and video.*: a whole record of the type's outcome, as GET shows one.
  schema::job_record sample;
  bool video = type.substr(0, 6) == "video.";
  sample.kind = video ? schema::job_kind::video : schema::job_kind::image;
  sample.id = core::make_id(schema::id_prefix(sample.kind));
  sample.team_id = e.team_id;
  auto outcome = type.substr(type.find('.') + 1);
  sample.status = outcome == "completed"  ? schema::job_status::succeeded
                  : outcome == "failed"   ? schema::job_status::failed
                                          : schema::job_status::cancelled;
  sample.prompt = "Svc test fire";
  sample.width = video ? 768 : 1024;
  sample.height = video ? 432 : 1024;
  sample.duration_seconds = video ? 4 : 0;
  sample.fps = video ? 24 : 0;
  sample.api_version = version;
  sample.cost_status = sample.status == schema::job_status::succeeded ? schema::hold_status::charged
                                                                      : schema::hold_status::refunded;
  if (sample.status == schema::job_status::failed)
    sample.failure = schema::job_failure{"provider_error", "a sample failure (test fire)"};
  sample.progress = sample.status == schema::job_status::succeeded ? 1 : 0;
  sample.created_at = ctx.clock->now();
  sample.completed_at = sample.created_at;
  auto base = ctx.urls ? ctx.urls->base_url : std::string{};
  auto secret = ctx.urls ? ctx.urls->url_secret : std::string{};
  return schema::job_view(sample, {base, secret});
}

caf::result<test_fire> fire_test(self_ptr self, const context& ctx, const endpoint_services& services,
                                 const std::string& type, const std::string& version) {
  auto& r = self->state.record;
  auto now = ctx.clock->now();
  auto event = schema::mint_event(r.team_id, type, version, true, now, sample_data(ctx, r, type, version));
  persistence::write_batch batch;
  persistence::put_event(*ctx.tables, batch, event, ctx.cfg->event_retention, persistence::fan_out::done);
  test_fire answer{r.id, event.id, r.is_active};
  std::function<void()> after;
  if (r.is_active) {
    delivery_task task{core::make_ulid(), r.id, event.id, 1, now};
    persistence::put_task(*ctx.tables, batch, task);
    self->state.tasks.emplace(task.id, task);
    after = [self, ctx, services, task] {
      if (self->state.tasks.count(task.id))
        schedule(self, ctx, services, task);
    };
  }
  return reply_after_commit<test_fire>(self, ctx.store, std::move(batch), answer, std::move(after));
}

// The events `replay` would enqueue: missed since `since` (and since the
// endpoint exists), subscribed, neither delivered nor pending; at most
// `max_replay_events`.
persistence::read_result<std::vector<std::string>> missed_events(self_ptr self, const context& ctx,
                                                                 core::time_point since) {
  auto& st = self->state;
  auto& r = st.record;
  std::set<std::string> pending;
  for (auto& [id, task] : st.tasks)
    pending.insert(task.event_id);
  auto from = std::max(since, r.created_at);
  persistence::scan_range range;
  range.prefix = r.team_id + "/";
  range.start_after = r.team_id + "/evt_" + core::ulid_floor(from - std::chrono::milliseconds{1});
  bool more = false;
  auto keys = ctx.tables->events_by_team.keys(range, static_cast<std::size_t>(max_replay_events) * 4, more);
  if (keys.failed())
    return keys;
  std::vector<std::string> missed;
  for (auto& key : *keys) {
    if (static_cast<int64_t>(missed.size()) == max_replay_events)
      break;
    auto event_id = key.substr(range.prefix.size());
    if (pending.count(event_id))
      continue;
    auto delivered = ctx.tables->delivered_events.get(persistence::owned_key(r.id, event_id));
    auto event = ctx.tables->events.get(event_id);
    if (delivered.failed() || event.failed())
      return decltype(keys)::error(delivered.failed() ? delivered.why() : event.why());
    if (delivered.has_value() || event.absent() || event->synthetic || event->created_at < from
        || !schema::subscribes(r, event->type))
      continue;
    missed.push_back(std::move(event_id));
  }
  return missed;
}

// One task per missed event, committed, then scheduled; `promise` gets
// their count (or the store's error).
void enqueue_replay(self_ptr self, const context& ctx, const endpoint_services& services,
                    const std::vector<std::string>& events, caf::typed_response_promise<int64_t> promise) {
  auto& st = self->state;
  auto now = ctx.clock->now();
  persistence::write_batch batch;
  std::vector<delivery_task> tasks;
  for (auto& event_id : events) {
    delivery_task task{core::make_ulid(), st.record.id, event_id, 1, now};
    persistence::put_task(*ctx.tables, batch, task);
    st.tasks.emplace(task.id, task);
    tasks.push_back(std::move(task));
  }
  self->request(ctx.store, caf::infinite, commit_atom::value, std::move(batch))
    .then(
      [=](bool) mutable {
        for (auto& t : tasks)
          if (self->state.tasks.count(t.id))
            schedule(self, ctx, services, t);
        promise.deliver(static_cast<int64_t>(tasks.size()));
      },
      [=](caf::error& err) mutable { promise.deliver(std::move(err)); });
}

// A replay is paid for from the team's `webhook_replay_events` bucket, one
// token per event it enqueues (into debt if it must), and refused while that
// bucket is empty: replays cannot turn the service into a reflector that
// re-sends the same events at a receiver without bound.
caf::result<int64_t> replay(self_ptr self, const context& ctx, const endpoint_services& services,
                            core::time_point since) {
  auto& r = self->state.record;
  if (!r.is_active)
    return make_domain_error(schema::error_code::invalid_state, "id",
                             {{"kind", "webhook endpoint"}, {"id", r.id}, {"state", "disabled"}, {"action", "replay"}});
  auto missed = missed_events(self, ctx, since);
  if (missed.failed())
    return storage_failure(component(self), missed.why());
  auto events = std::move(*missed);
  auto promise = self->make_response_promise<int64_t>();
  if (events.empty() || !services.buckets) {
    enqueue_replay(self, ctx, services, events, promise);
    return promise;
  }
  // `await`: no other message changes the tasks between the scan and the enqueue.
  self
    ->request(services.buckets, ctx.cfg->request_deadline, charge_atom::value, r.team_id,
              schema::bucket_class::webhook_replay_events, static_cast<int64_t>(events.size()))
    .await(
      [=](const rate_decision& d) mutable {
        if (d.allowed)
          return enqueue_replay(self, ctx, services, events, promise);
        promise.deliver(make_domain_error(schema::error_code::too_many_requests, "",
                                          {{"bucket", d.bucket}, {"seconds", std::to_string(d.retry_after)}}));
      },
      [=](caf::error& err) mutable { promise.deliver(std::move(err)); });
  return promise;
}

void arm_grace(self_ptr self, const context& ctx) {
  auto& r = self->state.record;
  if (r.previous_secret_expires_at)
    self->delayed_send(self, until(ctx, *r.previous_secret_expires_at), grace_atom::value,
                       *r.previous_secret_expires_at);
}

void load_tasks(self_ptr self, const context& ctx, const endpoint_services& services) {
  persistence::scan_range range;
  range.prefix = self->state.record.id + "/";
  bool more = false;
  auto tasks = ctx.tables->delivery_tasks.page(range, std::numeric_limits<std::size_t>::max(), more);
  if (tasks.failed()) {
    core::log_error(component(self), "pending deliveries not loaded, the store failed: " + tasks.why());
    return;
  }
  for (auto& t : *tasks)
    self->state.tasks.emplace(t.id, t);
  for (auto& t : *tasks)
    schedule(self, ctx, services, t);
}

} // namespace

endpoint_actor::behavior_type endpoint(self_ptr self, context ctx, endpoint_services services,
                                       webhook_endpoint_record record) {
  register_actor(self, ctx, "endpoint", record.id, record.team_id);
  log_exceptions(self, "endpoint");
  self->state.record = std::move(record);
  arm_grace(self, ctx);
  load_tasks(self, ctx, services);
  {
    std::vector<std::function<void()>> after;
    persistence::write_batch batch;
    check_disable(self, ctx, services, batch, after); // a window that ended while svcd was down
    if (!batch.empty())
      commit_then_run(self, ctx, std::move(batch), std::move(after));
  }
  return {
    [=](patch_atom, endpoint_patch& p) -> caf::result<webhook_endpoint_record> {
      auto& r = self->state.record;
      auto now = ctx.clock->now();
      persistence::write_batch batch;
      if (p.url)
        r.url = std::move(*p.url);
      if (p.events)
        r.events = std::move(*p.events);
      if (p.metadata)
        r.metadata = std::move(*p.metadata);
      if (p.is_active) {
        if (*p.is_active) { // the contract: `true` re-enables and resets the count
          r.consecutive_failures = 0;
          r.disabled_at.reset();
          self->state.window_armed = false;
        }
        if (!*p.is_active && r.is_active)
          drop_queued_tasks(self, ctx, batch);
        r.is_active = *p.is_active;
      }
      r.updated_at = now;
      persistence::put_endpoint(*ctx.tables, batch, r);
      return reply_after_commit<webhook_endpoint_record>(self, ctx.store, std::move(batch), r, [self, services] {
        if (services.directory)
          self->send(services.directory, changed_atom::value, self->state.record, false);
      });
    },
    [=](rotate_atom) -> caf::result<webhook_endpoint_record> {
      auto& r = self->state.record;
      auto now = ctx.clock->now();
      r.previous_secret = r.secret;
      r.previous_secret_expires_at = now + ctx.cfg->secret_grace;
      r.secret = schema::make_webhook_secret();
      r.updated_at = now;
      persistence::write_batch batch;
      persistence::put_endpoint(*ctx.tables, batch, r);
      arm_grace(self, ctx);
      return reply_after_commit<webhook_endpoint_record>(self, ctx.store, std::move(batch), r);
    },
    [=](delete_atom) -> caf::result<bool> {
      auto& r = self->state.record;
      persistence::write_batch batch;
      if (auto erased = persistence::erase_endpoint(*ctx.tables, batch, r); !erased.ok())
        return storage_failure(component(self), erased.message);
      drop_queued_tasks(self, ctx, batch);
      return reply_after_commit<bool>(self, ctx.store, std::move(batch), true, [self, services] {
        if (services.directory)
          self->send(services.directory, changed_atom::value, self->state.record, true);
        self->quit();
      });
    },
    [=](test_atom, const std::string& type, const std::string& version) -> caf::result<test_fire> {
      return fire_test(self, ctx, services, type, version);
    },
    [=](replay_atom, core::time_point since) -> caf::result<int64_t> { return replay(self, ctx, services, since); },
    [=](deliver_atom, delivery_task& task) {
      auto& st = self->state;
      if (!st.record.is_active) { // disabled since the fan-out: the event stays replayable
        persistence::write_batch batch;
        persistence::erase_task(*ctx.tables, batch, task);
        commit_quietly(self, ctx.store, std::move(batch), component(self));
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
      persistence::write_batch batch;
      persistence::put_endpoint(*ctx.tables, batch, r);
      commit_quietly(self, ctx.store, std::move(batch), component(self));
    },
    [=](window_atom) {
      self->state.window_armed = false;
      std::vector<std::function<void()>> after;
      persistence::write_batch batch;
      check_disable(self, ctx, services, batch, after);
      if (!batch.empty())
        commit_then_run(self, ctx, std::move(batch), std::move(after));
    },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      auto& st = self->state;
      return {std::string{st.record.is_active ? "active" : "disabled"} + " pending=" + std::to_string(st.tasks.size())
                + " in_flight=" + std::to_string(st.in_flight) + " failures_in_a_row="
                + std::to_string(st.record.consecutive_failures) + " attempts=" + std::to_string(st.attempts),
              self->mailbox().size()};
    },
  };
}

} // namespace svc::actors
