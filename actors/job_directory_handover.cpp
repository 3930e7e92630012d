#include "actors/job_directory_parts.hpp"

#include <algorithm>
#include <chrono>
#include <set>

#include "actors/recovery_batch.hpp"
#include "core/log.hpp"

namespace svc::actors {

// Resumes every unfinished job of `shard` (its rows just committed here),
// reading the shard's range of `live_jobs`. How many, or the store's failure
// (jobs resumed so far stay resumed, and a second adoption skips them).
caf::result<int64_t> adopt_shard(job_directory_self self, const context& ctx, const job_services& services,
                                 core::shard_id shard) {
  auto began = ctx.clock->now();
  int64_t resumed = 0;
  auto scan_failure = each_key_batch(ctx.tables->live_jobs, shard, job_recovery_batch,
                                     [&](const std::vector<std::string>& ids) {
                                       resumed += resume_jobs(self, ctx, services, ids, shard);
                                     });
  if (scan_failure)
    return storage_failure("job_directory", *scan_failure);
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(ctx.clock->now() - began);
  core::log_info("job_directory", "shard " + std::to_string(shard) + ": resumed " + std::to_string(resumed)
                                    + " unfinished jobs in " + std::to_string(took.count()) + " ms");
  return resumed;
}

// Lets go of `shard`: its job actors exit as at a shutdown (their renders
// are abandoned; the down handler does not fail them), its queued jobs and
// their deadlines and its teams' ledger handles are forgotten. Every job
// stays as stored. Answers the actors stopped once they are gone.
caf::result<int64_t> release_shard(job_directory_self self, const context& ctx, core::shard_id shard) {
  auto& st = self->state;
  std::set<caf::actor_addr> told;
  std::set<std::string> dropped;
  for (auto& [id, job] : st.jobs)
    if (core::shard_of_team(job.team_id) == shard) {
      self->send(job.handle, release_atom::value);
      told.insert(job.handle.address());
      dropped.insert(id);
    }
  for (auto& id : st.queue.ids()) {
    if (dropped.count(id))
      continue;
    auto record = ctx.tables->jobs.get(id);
    if (record.failed()) // `dispatch` checks its team again before starting it
      core::log_error("job_directory", "queued job " + id + " kept on release, the store failed: " + record.why());
    else if (record.absent() || core::shard_of_team(record->team_id) == shard)
      dropped.insert(id);
  }
  for (auto& id : dropped)
    st.queue.erase(id);
  auto& deadlines = st.queue_deadlines;
  deadlines.erase(std::remove_if(deadlines.begin(), deadlines.end(),
                                 [&](const auto& d) { return dropped.count(d.second) != 0; }),
                  deadlines.end());
  for (auto it = st.ledgers.begin(); it != st.ledgers.end();) {
    if (core::shard_of_team(it->first) == shard) {
      self->demonitor(it->second.address());
      it = st.ledgers.erase(it);
    } else {
      ++it;
    }
  }
  core::log_info("job_directory", "shard " + std::to_string(shard) + ": releasing " + std::to_string(told.size())
                                    + " job actors, " + std::to_string(dropped.size() - told.size())
                                    + " queued jobs forgotten");
  return st.releases.begin(self, std::move(told));
}

} // namespace svc::actors
