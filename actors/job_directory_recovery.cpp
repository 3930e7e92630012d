#include "actors/job_directory_parts.hpp"

#include <chrono>

#include "actors/recovery_batch.hpp"
#include "actors/team_gate.hpp"
#include "core/log.hpp"

namespace svc::actors {

// Resumes the jobs of `ids` (`live_jobs` keys) that this node holds and no
// one resumed yet; with `shard`, only that shard's; how many. The queued
// jobs wait in the queue without an actor. A job found `processing` (its
// render died with the process, or with the shard's old owner) gets its
// actor at once, which stores it re-queued, and goes first: it had left the queue.
int64_t resume_jobs(job_directory_self self, const context& ctx, const job_services& services,
                    const std::vector<std::string>& ids, std::optional<core::shard_id> shard) {
  auto& st = self->state;
  int64_t resumed = 0;
  std::vector<queued_job> interrupted;
  for (auto& id : ids) {
    if (st.jobs.count(id) || st.queue.contains(id)) // created, cancelled or waited for meanwhile
      continue;
    auto record = ctx.tables->jobs.get(id);
    if (record.failed()) {
      core::log_error("job_directory", "job " + id + " not resumed, the store failed: " + record.why());
      continue;
    }
    if (record.absent() || schema::is_terminal(record->status)) {
      core::log_warn("job_directory", "live_jobs lists " + id + " but its record is missing or terminal");
      continue;
    }
    // Another node's (a shard moved away before its rows here were erased), or not this adoption's.
    if (!holds_team(ctx, record->team_id) || (shard && core::shard_of_team(record->team_id) != *shard))
      continue;
    ++st.recovered;
    ++resumed;
    if (record->status != schema::job_status::processing) {
      enqueue(self, ctx, services, *record);
      continue;
    }
    add_queue_deadline(self, ctx, queue_deadline(ctx, *record), id);
    learn_share(self, ctx, record->team_id);
    interrupted.push_back(queued_job_of(*record));
    spawn_job(self, ctx, services, std::move(*record), job_begin::wait_for_dispatch);
  }
  for (auto it = interrupted.rbegin(); it != interrupted.rend(); ++it)
    st.queue.push_front(*it);
  dispatch(self, ctx, services);
  return resumed;
}

// Resumes the `live_jobs` rows after `after` (one read transaction), then
// asks for the next batch, so creates, cancels and reads are answered
// between two batches.
void recover_batch(job_directory_self self, const context& ctx, const job_services& services,
                   const std::string& after) {
  auto& st = self->state;
  auto live = recovery_batch(self, ctx.tables->live_jobs, after, job_recovery_batch, "job_directory", "unfinished jobs");
  if (!live)
    return;
  resume_jobs(self, ctx, services, live->keys, std::nullopt);
  if (continue_recovery(self, *live))
    return;
  st.recovering = false;
  if (st.recovered > 0) {
    auto took = std::chrono::duration_cast<std::chrono::milliseconds>(ctx.clock->now() - st.recovery_began);
    core::log_info("job_directory", "resumed " + std::to_string(st.recovered) + " unfinished jobs in "
                                      + std::to_string(took.count()) + " ms");
  }
}

} // namespace svc::actors
