#include "actors/expiry_sweeper.hpp"

#include <algorithm>
#include <limits>

#include "actors/mailbox_depth.hpp"
#include "actors/supervision.hpp"
#include "core/log.hpp"
#include "persistence/file_rows.hpp"
#include "persistence/job_retention.hpp"
#include "persistence/job_rows.hpp"
#include "persistence/webhook_rows.hpp"

namespace svc::actors {
namespace {

using expiry_sweeper_self = expiry_sweeper_actor::stateful_pointer<expiry_sweeper_state>;

// Deletes every output file of a job; the record keeps describing them, and
// their URLs answer 410 from their signed expiry on.
persistence::status delete_outputs(const context& ctx, persistence::blob_store& blobs, const std::string& job_id) {
  auto job = ctx.tables->jobs.get(job_id);
  if (job.has_value())
    persistence::remove_job_outputs(blobs, *job, job->outputs.size(), "expiry_sweeper");
  return {job.why()};
}

// An event past its retention: its row, its feed row and the marks that it
// reached each endpoint of its team.
persistence::status delete_event(const context& ctx, persistence::write_batch& batch, const std::string& event_id) {
  auto event = ctx.tables->events.get(event_id);
  if (event.failed())
    return {event.why()};
  ctx.tables->events.erase(batch, event_id);
  if (event.absent())
    return {};
  ctx.tables->events_by_team.erase(batch, persistence::owned_key(event->team_id, event_id));
  bool more = false;
  persistence::scan_range range;
  range.prefix = event->team_id + "/";
  auto endpoints = ctx.tables->endpoints_by_team.keys(range, std::numeric_limits<std::size_t>::max(), more);
  if (endpoints.failed())
    return {endpoints.why()};
  for (auto& key : *endpoints)
    ctx.tables->delivered_events.erase(batch, persistence::owned_key(key.substr(range.prefix.size()), event_id));
  return {};
}

// An uploaded file past its lifetime: its bytes, its record and its listing row.
persistence::status delete_file(const context& ctx, persistence::blob_store& blobs, persistence::write_batch& batch,
                                const std::string& file_id) {
  auto file = ctx.tables->files.get(file_id);
  if (file.failed())
    return {file.why()};
  persistence::remove_file_bytes(blobs, file_id, "expiry_sweeper");
  if (file.has_value())
    persistence::erase_file(*ctx.tables, batch, *file);
  else
    ctx.tables->files.erase(batch, file_id);
  return {};
}

// The due rows of `expiries`, at most a batch of them: their subjects' bytes
// are deleted and their rows' erasure joins `batch`; `more` when rows are left.
persistence::status sweep_expiries(expiry_sweeper_self self, const context& ctx, persistence::blob_store& blobs,
                                   int64_t now_ms, persistence::write_batch& batch, bool& more) {
  std::vector<persistence::expiry_entry> due;
  std::vector<std::string> keys;
  auto scanned = ctx.tables->expiries.for_each_key([&](std::string_view key) {
    persistence::expiry_entry e;
    if (!persistence::parse_expiry_key(key, e)) {
      keys.emplace_back(key); // not ours to keep: drop it
      return true;
    }
    if (e.deadline_ms > now_ms)
      return false;
    if (due.size() == self->state.round_rows) {
      more = true;
      return false;
    }
    keys.emplace_back(key);
    due.push_back(std::move(e));
    return true;
  });
  if (!scanned.ok())
    return scanned;
  auto& st = self->state;
  for (auto& e : due) {
    persistence::status done;
    switch (e.kind) {
    case persistence::expiry_kind::outputs:
      done = delete_outputs(ctx, blobs, e.subject);
      ++st.outputs_deleted;
      break;
    case persistence::expiry_kind::idempotency: {
      // A newer record under the same key (the old one expired) keeps its own row.
      auto record = ctx.tables->idempotency.get(e.subject);
      done = {record.why()};
      if (record.has_value() && core::to_unix_ms(record->expires_at) <= now_ms)
        ctx.tables->idempotency.erase(batch, e.subject);
      ++st.idempotency_deleted;
      break;
    }
    case persistence::expiry_kind::event:
      done = delete_event(ctx, batch, e.subject);
      ++st.events_deleted;
      break;
    case persistence::expiry_kind::delivery:
      ctx.tables->deliveries.erase(batch, e.subject);
      ++st.deliveries_deleted;
      break;
    case persistence::expiry_kind::file:
      done = delete_file(ctx, blobs, batch, e.subject);
      ++st.files_deleted;
      break;
    }
    if (!done.ok())
      return done;
  }
  for (auto& k : keys)
    ctx.tables->expiries.erase(batch, std::move(k));
  return {};
}

} // namespace

std::chrono::milliseconds expiry_sweep_interval(const core::config& cfg) {
  auto shortest = std::min({cfg.output_ttl, cfg.idempotency_ttl, cfg.event_retention, cfg.file_ttl, cfg.job_retention});
  auto tenth = std::chrono::duration_cast<std::chrono::milliseconds>(shortest) / 10;
  return std::clamp(tenth, std::chrono::milliseconds{10}, std::chrono::milliseconds{1000});
}

expiry_sweeper_actor::behavior_type expiry_sweeper(expiry_sweeper_self self, context ctx, persistence::blob_store* blobs) {
  register_actor(self, ctx, "expiry_sweeper", "expiry_sweeper", "");
  log_exceptions(self, "expiry_sweeper");
  self->send(self, sweep_atom::value);
  return {
    [=](sweep_atom) {
      auto now = ctx.clock->now();
      persistence::write_batch batch;
      bool more = false;
      persistence::retention_round retired;
      auto done = sweep_expiries(self, ctx, *blobs, core::to_unix_ms(now), batch, more);
      if (done.ok())
        done = persistence::retire_jobs(*ctx.tables, now - ctx.cfg->job_retention, batch, retired,
                                        std::max<std::size_t>(1, self->state.round_rows / 4)); // four rows a job
      // A read the store failed leaves the round's rows in place for the next round.
      if (!done.ok()) {
        core::log_error("expiry_sweeper", "round skipped, the store failed: " + done.message);
        self->delayed_send(self, expiry_sweep_interval(*ctx.cfg), sweep_atom::value);
        return;
      }
      auto next = more || retired.more ? std::chrono::milliseconds{0} : expiry_sweep_interval(*ctx.cfg);
      if (batch.empty()) {
        self->delayed_send(self, next, sweep_atom::value);
        return;
      }
      // Only deletes: the store's reserve takes them even when it is full,
      // and the room they free takes writes again.
      self->request(ctx.store, ctx.cfg->request_deadline, commit_atom::value, std::move(batch))
        .then(
          [=](bool) {
            // A retired job's files go once its rows are gone, so a failed commit loses nothing.
            for (auto& job : retired.jobs)
              persistence::remove_job_outputs(*blobs, job, job.outputs.size(), "expiry_sweeper");
            auto& st = self->state;
            st.jobs_deleted += retired.jobs.size();
            st.round_rows = std::min(expiry_sweep_batch, st.round_rows * 2);
            self->delayed_send(self, next, sweep_atom::value);
          },
          [=](caf::error& err) {
            auto& st = self->state;
            if (is_domain_error(err, schema::error_code::insufficient_storage) && st.round_rows > 1) {
              // Too many pages to copy for the room left: a smaller round at once.
              st.round_rows /= 2;
              self->send(self, sweep_atom::value);
              return;
            }
            core::log_warn("expiry_sweeper", "commit failed: " + caf::to_string(err));
            self->delayed_send(self, expiry_sweep_interval(*ctx.cfg), sweep_atom::value);
          });
    },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      auto& st = self->state;
      return {"outputs_deleted=" + std::to_string(st.outputs_deleted)
                + " idempotency_deleted=" + std::to_string(st.idempotency_deleted)
                + " events_deleted=" + std::to_string(st.events_deleted)
                + " deliveries_deleted=" + std::to_string(st.deliveries_deleted)
                + " files_deleted=" + std::to_string(st.files_deleted)
                + " jobs_deleted=" + std::to_string(st.jobs_deleted),
              mailbox_depth(self)};
    },
  };
}

} // namespace svc::actors
