#include "actors/job.hpp"

#include <cmath>
#include <utility>

#include "actors/mailbox_depth.hpp"
#include "actors/render_task.hpp"
#include "actors/supervision.hpp"
#include "core/log.hpp"
#include "core/metric_catalogue.hpp"
#include "persistence/job_rows.hpp"
#include "persistence/webhook_rows.hpp"
#include "schema/event_types.hpp"
#include "schema/job_view.hpp"
#include "schema/webhook_views.hpp"

namespace svc::actors {
namespace {

using job_self = job_actor::stateful_pointer<job_state>;
using schema::hold_status;
using schema::job_record;
using schema::job_status;

// Progress as stored and shown: two decimals, so records do not show 0.30000000000000004.
double rounded(double p) { return std::round(std::clamp(p, 0.0, 1.0) * 100.0) / 100.0; }

// Writes the current record without waiting: later writes of this job reach
// the store after it, since one sender's messages arrive in order. A write
// that fails is made again (with the record as it then is) a second later,
// until one lands; the terminal write is the settlement's, retried itself.
void persist(job_self self, const context& ctx) {
  persistence::write_batch batch;
  batch.finishes_accepted_work = true;
  persistence::put_job(*ctx.tables, batch, self->state.record);
  self->request(ctx.store, caf::infinite, commit_atom::value, std::move(batch))
    .then([](bool) {},
          [self](caf::error& err) {
            core::log_warn("job", self->state.record.id + ": write failed: " + caf::to_string(err) + "; retrying");
            self->delayed_send(self, std::chrono::seconds{1}, flush_atom::value);
          });
}

void settle(job_self self, const context& ctx, const job_services& services, std::chrono::milliseconds retry);

// The v1.0 event of a terminal status, if it has one (`expired` and
// `moderation_rejected` are v1.1 events: none today).
std::optional<std::string_view> event_type_of(const job_record& r) {
  bool image = r.kind == schema::job_kind::image;
  switch (r.status) {
  case job_status::succeeded: return image ? schema::image_completed : schema::video_completed;
  case job_status::failed: return image ? schema::image_failed : schema::video_failed;
  case job_status::cancelled: return image ? schema::image_cancelled : schema::video_cancelled;
  default: return std::nullopt;
  }
}

// Minted once, so a retried settlement commits the same event.
void mint_terminal_event(job_self self, const context& ctx) {
  auto& r = self->state.record;
  auto type = event_type_of(r);
  if (!type || !ctx.urls)
    return;
  auto data = schema::job_view(r, {ctx.urls->base_url, ctx.urls->url_secret});
  self->state.event =
    schema::mint_event(r.team_id, *type, r.api_version, false, *r.completed_at, std::move(data), r.correlation);
}

// Commits the terminal record with its settlement, then answers the waiters and exits.
void end_job_as(job_self self, const context& ctx, const job_services& services, job_status status,
                std::optional<schema::job_failure> failure) {
  auto& st = self->state;
  auto& r = st.record;
  st.ending = true;
  st.cancel.cancel();
  r.status = status;
  r.failure = std::move(failure);
  r.completed_at = ctx.clock->now();
  r.cost_status = status == job_status::succeeded ? hold_status::charged : hold_status::refunded;
  if (status == job_status::succeeded) {
    r.progress = 1;
    r.outputs_expire_at = *r.completed_at + ctx.cfg->output_ttl;
  }
  mint_terminal_event(self, ctx);
  settle(self, ctx, services, std::chrono::milliseconds{100});
}

// Counted once the ledger committed the settlement.
void count_settlement(const job_record& r) {
  auto& m = core::metrics::svc();
  m.jobs_settled.with({std::string{schema::to_string(r.kind)}, std::string{schema::to_string(r.status)}}).inc();
  (r.cost_status == hold_status::charged ? m.credits_charged : m.credits_refunded)
    .get()
    .inc(static_cast<double>(r.credits));
}

void settle(job_self self, const context& ctx, const job_services& services, std::chrono::milliseconds retry) {
  auto& r = self->state.record;
  settlement s;
  s.job_id = r.id;
  s.to = r.cost_status;
  s.kind = r.kind;
  s.outputs = static_cast<int64_t>(r.outputs.size());
  s.at = *r.completed_at;
  persistence::put_job(*ctx.tables, s.writes, r);
  if (self->state.event)
    persistence::put_event(*ctx.tables, s.writes, *self->state.event, ctx.cfg->event_retention,
                           persistence::fan_out::pending);
  auto deadline = ctx.cfg->request_deadline;
  self->request(services.ledgers, deadline, resolve_atom::value, r.team_id)
    .then(
      [=](ledger_actor& ledger) {
        self->request(ledger, caf::infinite, settle_atom::value, std::move(s))
          .then(
            [=](schema::balance_record&) {
              count_settlement(self->state.record);
              if (self->state.event && ctx.webhooks)
                self->send(ctx.webhooks, publish_atom::value, *self->state.event);
              for (auto& w : self->state.waiters)
                w.deliver(self->state.record);
              self->state.waiters.clear();
              self->quit();
            },
            [=](caf::error& err) {
              if (is_domain_error(err, schema::error_code::invalid_state)) {
                // An actor of this job that died had settled it: that settlement stands.
                self->quit();
                return;
              }
              core::log_error("job", r.id + ": settling failed: " + caf::to_string(err) + "; retrying");
              self->delayed_send(self, retry, settle_atom::value);
            });
      },
      [=](caf::error& err) {
        core::log_error("job", r.id + ": no ledger: " + caf::to_string(err) + "; retrying");
        self->delayed_send(self, retry, settle_atom::value);
      });
}

// Renders on a pool thread (render_task.hpp), so no actor thread blocks on
// the back end or on fsync; the results come back as messages.
void submit(job_self self, const job_services& services) {
  auto me = caf::actor_cast<job_actor>(self);
  services.pool->submit(render_task(me, services, self->state.record, self->state.engine, self->state.cancel));
}

// A job found `processing` after a restart: its render died with the
// process, so it is queued again. The write also stores the re-queue
// deadline the directory gave it.
void requeue_if_processing(job_self self, const context& ctx) {
  auto& r = self->state.record;
  if (r.status != job_status::processing)
    return;
  r.status = job_status::queued;
  r.progress = 0;
  r.started_at.reset();
  self->state.persisted_progress = 0;
  persist(self, ctx);
}

// An engine that failed (refused, reset, restarted and lost the render,
// busy) fails the render, not the job: it waits again, first among its
// team's jobs, for another engine, up to `--render-attempts` renders in all.
// It is neither charged nor refunded meanwhile. The local back end has no
// other engine: its failure ends the job.
bool requeue_after_engine_failure(job_self self, const context& ctx, const std::string& why) {
  auto& st = self->state;
  auto& r = st.record;
  auto directory = caf::actor_cast<job_directory_actor>(st.directory);
  if (st.engine.empty() || !directory || static_cast<int>(r.engine_failures.size()) + 1 >= ctx.cfg->render_attempts)
    return false;
  r.engine_failures.push_back(st.engine);
  core::log_warn("job", r.id + ": render " + std::to_string(r.engine_failures.size()) + " of at most " +
                          std::to_string(ctx.cfg->render_attempts) + " failed on engine " + st.engine + " (" + why +
                          "); queued again for another engine");
  r.status = job_status::queued;
  r.progress = 0;
  r.started_at.reset();
  st.persisted_progress = 0;
  st.dispatched = false;
  persist(self, ctx);
  self->send(directory, requeue_atom::value, r.id, std::exchange(st.engine, {}));
  return true;
}

// Tells the directory that the render ended, so its engine slot is free for
// the next job while this one settles.
void tell_rendered(job_self self, bool succeeded) {
  if (auto directory = caf::actor_cast<job_directory_actor>(self->state.directory))
    self->send(directory, rendered_atom::value, self->state.record.id, succeeded);
}

// Moderates the prompts (the rules may have changed since the create), then queues the render.
void dispatch(job_self self, const context& ctx, const job_services& services) {
  auto& st = self->state;
  if (st.ending || st.dispatched)
    return;
  st.dispatched = true;
  if (auto rejected = moderation_failure(*services.moderation, st.record))
    end_job_as(self, ctx, services, job_status::moderation_rejected, std::move(rejected));
  else
    submit(self, services);
}

} // namespace

std::optional<schema::job_failure> moderation_failure(const providers::moderation_rules& rules,
                                                      const schema::job_record& r) {
  // The negative prompt too: a back end may weigh it either way, and it must not carry what the prompt may not.
  auto rule = rules.check(r.prompt);
  auto negative_rule = rule ? std::nullopt : rules.check(r.negative_prompt);
  if (!rule && !negative_rule)
    return std::nullopt;
  return schema::job_failure{"moderation_rejected", std::string{rule ? "the prompt" : "the negative_prompt"}
                                                      + " breaks the content rules (\"" + (rule ? rule : negative_rule)->rule
                                                      + "\")"};
}

caf::error not_cancellable(const schema::job_record& r) {
  return make_domain_error(schema::error_code::invalid_state, "id",
                           {{"kind", std::string{to_string(r.kind)}},
                            {"id", r.id},
                            {"state", std::string{to_string(r.status)}},
                            {"action", "cancel"}});
}

job_actor::behavior_type job(job_self self, context ctx, job_services services, job_record record,
                             job_begin begin, std::optional<schema::job_failure> died) {
  auto& st = self->state;
  register_actor(self, ctx, "job", record.id, record.team_id);
  log_exceptions(self, "job");
  st.record = std::move(record);
  auto& r = st.record;
  st.persisted_progress = r.progress;
  if (died) {
    end_job_as(self, ctx, services, job_status::failed, std::move(died));
  } else {
    requeue_if_processing(self, ctx);
    if (begin == job_begin::render)
      dispatch(self, ctx, services);
  }

  return {
    [=](cancel_atom) -> caf::result<job_record> {
      auto& st = self->state;
      if (st.ending)
        return not_cancellable(st.record);
      auto promise = self->make_response_promise<job_record>();
      st.waiters.push_back(promise);
      end_job_as(self, ctx, services, job_status::cancelled, std::nullopt);
      return promise;
    },
    [=](wait_atom) -> caf::result<job_record> {
      auto& st = self->state;
      if (st.waiters.size() >= max_job_waiters)
        return st.record;
      auto promise = self->make_response_promise<job_record>();
      st.waiters.push_back(promise);
      return promise;
    },
    [=](dispatch_atom, std::string& engine) {
      self->state.engine = std::move(engine);
      self->state.directory = caf::actor_cast<caf::actor_addr>(self->current_sender());
      dispatch(self, ctx, services);
    },
    [=](started_atom) {
      auto& st = self->state;
      if (st.ending || st.record.status != job_status::queued)
        return;
      st.record.status = job_status::processing;
      st.record.started_at = ctx.clock->now();
      persist(self, ctx);
    },
    [=](slot_free_atom) {
      auto& st = self->state;
      auto directory = caf::actor_cast<job_directory_actor>(st.directory);
      if (!st.ending && st.dispatched && directory)
        self->send(directory, slot_free_atom::value, st.record.id);
    },
    [=](progress_atom, double p) {
      auto& st = self->state;
      p = rounded(p);
      if (st.ending || st.record.status != job_status::processing || p <= st.record.progress || p >= 1.0)
        return;
      st.record.progress = p;
      // A durable write per tenth is plenty for pollers and costs nothing under group commit.
      if (p - st.persisted_progress >= 0.1 - 1e-9) {
        st.persisted_progress = p;
        persist(self, ctx);
      }
    },
    [=](finished_atom, rendered_outputs& out) {
      auto& st = self->state;
      if (st.ending) { // cancelled or expired while the worker stored its files
        persistence::remove_job_outputs(*services.blobs, st.record, out.outputs.size(), "job");
        return;
      }
      tell_rendered(self, true);
      st.record.outputs = std::move(out.outputs);
      end_job_as(self, ctx, services, job_status::succeeded, std::nullopt);
    },
    [=](failed_atom, std::string& code, std::string& message) {
      // A render cancelled by someone else than this job is the worker pool
      // shutting down: the job stays as it is in LMDB and resumes at the next start.
      if (self->state.ending || code == "cancelled")
        return;
      if (code == "provider_unavailable" && requeue_after_engine_failure(self, ctx, message))
        return;
      tell_rendered(self, false);
      end_job_as(self, ctx, services, job_status::failed, schema::job_failure{std::move(code), std::move(message)});
    },
    [=](expire_atom) {
      auto& st = self->state;
      if (st.ending || st.record.status != job_status::queued)
        return;
      end_job_as(self, ctx, services, job_status::expired,
          schema::job_failure{"queue_expired", "no worker took the job within the queue TTL"});
    },
    [=](engine_down_atom, const std::string& engine, const std::string& why) {
      auto& st = self->state;
      if (st.ending || !st.dispatched || st.engine != engine)
        return;
      // The render there stops (its late answers find a fresh token's job)
      // and the job goes on elsewhere, as after any failure of its engine.
      st.cancel.cancel();
      st.cancel = providers::cancel_token{};
      auto message = "the engine failed its health probe: " + why;
      if (!requeue_after_engine_failure(self, ctx, message)) {
        tell_rendered(self, false);
        end_job_as(self, ctx, services, job_status::failed, schema::job_failure{"provider_unavailable", message});
      }
    },
    [=](flush_atom) {
      if (!self->state.ending)
        persist(self, ctx);
    },
    // Like a shutdown's: the render stops (see `~job_state`) and the worker's
    // `cancelled` failure finds no one; the stored record resumes elsewhere.
    [=](release_atom) { self->quit(); },
    [=](settle_atom) {
      if (self->state.ending) // a settlement that failed: try again
        settle(self, ctx, services, std::chrono::milliseconds{1000});
    },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      auto& r = self->state.record;
      char progress[16];
      std::snprintf(progress, sizeof progress, "%.2f", r.progress);
      return {std::string{to_string(r.status)} + " progress=" + progress
                + (self->state.dispatched ? "" : " waiting_for_dispatch") + (self->state.ending ? " ending" : ""),
              mailbox_depth(self)};
    },
  };
}

} // namespace svc::actors
