#include "actors/job.hpp"

#include <cmath>

#include "actors/mailbox_depth.hpp"
#include "actors/supervision.hpp"
#include "core/crypto.hpp"
#include "core/log.hpp"
#include "core/metric_catalogue.hpp"
#include "core/positional_file.hpp"
#include "persistence/job_rows.hpp"
#include "persistence/webhook_rows.hpp"
#include "schema/event_types.hpp"
#include "schema/job_view.hpp"
#include "schema/webhook_views.hpp"

namespace svc::actors {
namespace {

using self_ptr = job_actor::stateful_pointer<job_state>;
using schema::hold_status;
using schema::job_record;
using schema::job_status;

// Progress as stored and shown: two decimals, so records do not show 0.30000000000000004.
double rounded(double p) { return std::round(std::clamp(p, 0.0, 1.0) * 100.0) / 100.0; }

// Writes the current record without waiting: later writes of this job reach
// the store after it, since one sender's messages arrive in order. A write
// that fails is made again (with the record as it then is) a second later,
// until one lands; the terminal write is the settlement's, retried itself.
void persist(self_ptr self, const context& ctx) {
  persistence::write_batch batch;
  persistence::put_job(*ctx.tables, batch, self->state.record);
  self->request(ctx.store, caf::infinite, commit_atom::value, std::move(batch))
    .then([](bool) {},
          [self](caf::error& err) {
            core::log_warn("job", self->state.record.id + ": write failed: " + caf::to_string(err) + "; retrying");
            self->delayed_send(self, std::chrono::seconds{1}, flush_atom::value);
          });
}

void settle(self_ptr self, const context& ctx, const job_services& services, std::chrono::milliseconds retry);

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
void mint_terminal_event(self_ptr self, const context& ctx) {
  auto& r = self->state.record;
  auto type = event_type_of(r);
  if (!type || !ctx.urls)
    return;
  auto data = schema::job_view(r, {ctx.urls->base_url, ctx.urls->url_secret});
  self->state.event =
    schema::mint_event(r.team_id, *type, r.api_version, false, *r.completed_at, std::move(data), r.correlation);
}

// Commits the terminal record with its settlement, then answers the waiters and exits.
void end(self_ptr self, const context& ctx, const job_services& services, job_status status,
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

void settle(self_ptr self, const context& ctx, const job_services& services, std::chrono::milliseconds retry) {
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

providers::render_request render_request_of(const job_record& r) {
  providers::render_request req;
  req.prompt = r.prompt;
  req.negative_prompt = r.negative_prompt;
  req.width = r.width;
  req.height = r.height;
  req.seed = r.seed;
  req.steps = r.steps;
  req.num_outputs = r.num_outputs;
  if (r.kind == schema::job_kind::video) {
    req.num_outputs = 1;
    req.duration_seconds = r.duration_seconds;
    req.fps = r.fps;
  }
  for (auto& l : r.loras)
    req.loras.push_back({l.slug, l.weight});
  req.correlation = r.correlation;
  return req;
}

// Renders on a pool thread and stores the outputs there, so no actor thread
// blocks on the back end or on fsync; the results come back as messages.
void submit(self_ptr self, const job_services& services) {
  auto& r = self->state.record;
  providers::pool_task task;
  task.cancel = self->state.cancel;
  auto me = caf::actor_cast<job_actor>(self);
  task.run = [me, services, job = r, token = self->state.cancel] {
    auto request = render_request_of(job);
    if (job.init_image) {
      // Read here, on the pool thread: an upload may be 20 MiB.
      auto bytes = services.blobs->get(schema::file_blob_key(*job.init_image));
      if (!bytes) {
        caf::anon_send(me, failed_atom::value, std::string{"init_image_unavailable"},
                       "the init image " + *job.init_image + " expired and was deleted before the job started");
        return;
      }
      request.init_image = std::move(*bytes);
    }
    auto storing_failed = [&](const std::string& what, const persistence::status& st) {
      core::log_error("job", job.id + ": storing " + what + " failed: " + st.message);
      caf::anon_send(me, failed_atom::value, std::string{"provider_error"}, std::string{"storing the output failed"});
    };
    // A video goes into its blob's temp file as it is encoded, so no worker
    // holds a whole MP4; dropped uncommitted, the temp file goes with it.
    std::unique_ptr<persistence::blob_writer> video;
    if (job.kind == schema::job_kind::video) {
      if (auto st = services.blobs->create(schema::output_blob_key(job, 0), video); !st.ok())
        return storing_failed("the video", st);
      request.video_file = video.get();
    }
    caf::anon_send(me, started_atom::value);
    auto began = std::chrono::steady_clock::now();
    auto outcome = services.backend->render(
      request, [me](double p) { caf::anon_send(me, progress_atom::value, p); }, token);
    core::metrics::svc()
      .render_seconds.with({std::string{schema::to_string(job.kind)}})
      .observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
    if (video && !video->failure().ok()) // the disk refused the MP4, not the back end
      return storing_failed("the video", video->failure());
    if (!outcome.ok()) {
      if (outcome.error().code != "cancelled") // a shutdown's doing, not the back end's
        core::metrics::svc().backend_errors.with({outcome.error().code}).inc();
      caf::anon_send(me, failed_atom::value, outcome.error().code, outcome.error().message);
      return;
    }
    auto& result = outcome.value();
    // A render that completed although its job was cancelled: the job is
    // ending or gone and would never delete files stored now.
    if (token.cancelled())
      return;
    rendered_outputs stored;
    if (result.in_video_file) {
      // Hashed before the commit closes the file; read back from the page cache.
      auto hash = core::sha256_of(*video);
      auto st = hash ? video->commit() : persistence::status{"reading it back failed"};
      if (!st.ok())
        return storing_failed("the video", st);
      stored.outputs.push_back({result.content_type, video->size(), result.width, result.height, core::to_hex(*hash)});
    }
    for (std::size_t i = 0; i < result.outputs.size(); ++i) {
      auto& bytes = result.outputs[i];
      if (auto st = services.blobs->put(schema::output_blob_key(job, i), bytes); !st.ok()) {
        persistence::remove_job_outputs(*services.blobs, job, i, "job");
        return storing_failed("output " + std::to_string(i), st);
      }
      stored.outputs.push_back({result.content_type, bytes.size(), result.width, result.height,
                                core::to_hex(core::sha256(bytes))});
    }
    if (token.cancelled()) { // cancelled while storing
      persistence::remove_job_outputs(*services.blobs, job, stored.outputs.size(), "job");
      return;
    }
    caf::anon_send(me, finished_atom::value, std::move(stored));
  };
  services.pool->submit(std::move(task));
}

// A job found `processing` after a restart: its render died with the
// process, so it is queued again. The write also stores the re-queue
// deadline the directory gave it.
void requeue_if_processing(self_ptr self, const context& ctx) {
  auto& r = self->state.record;
  if (r.status != job_status::processing)
    return;
  r.status = job_status::queued;
  r.progress = 0;
  r.started_at.reset();
  self->state.persisted_progress = 0;
  persist(self, ctx);
}

// Moderates the prompts (the rules may have changed since the create), then queues the render.
void dispatch(self_ptr self, const context& ctx, const job_services& services) {
  auto& st = self->state;
  if (st.ending || st.dispatched)
    return;
  st.dispatched = true;
  if (auto rejected = moderation_failure(*services.moderation, st.record))
    end(self, ctx, services, job_status::moderation_rejected, std::move(rejected));
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

job_actor::behavior_type job(self_ptr self, context ctx, job_services services, job_record record,
                             job_begin begin, std::optional<schema::job_failure> died) {
  auto& st = self->state;
  register_actor(self, ctx, "job", record.id, record.team_id);
  log_exceptions(self, "job");
  st.record = std::move(record);
  auto& r = st.record;
  st.persisted_progress = r.progress;
  if (died) {
    end(self, ctx, services, job_status::failed, std::move(died));
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
      end(self, ctx, services, job_status::cancelled, std::nullopt);
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
    [=](dispatch_atom) { dispatch(self, ctx, services); },
    [=](started_atom) {
      auto& st = self->state;
      if (st.ending || st.record.status != job_status::queued)
        return;
      st.record.status = job_status::processing;
      st.record.started_at = ctx.clock->now();
      persist(self, ctx);
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
      st.record.outputs = std::move(out.outputs);
      end(self, ctx, services, job_status::succeeded, std::nullopt);
    },
    [=](failed_atom, std::string& code, std::string& message) {
      // A render cancelled by someone else than this job is the worker pool
      // shutting down: the job stays as it is in LMDB and resumes at the next start.
      if (self->state.ending || code == "cancelled")
        return;
      end(self, ctx, services, job_status::failed, schema::job_failure{std::move(code), std::move(message)});
    },
    [=](expire_atom) {
      auto& st = self->state;
      if (st.ending || st.record.status != job_status::queued)
        return;
      end(self, ctx, services, job_status::expired,
          schema::job_failure{"queue_expired", "no worker took the job within the queue TTL"});
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
