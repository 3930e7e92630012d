#pragma once
// The job directory: the one actor that knows every live job. It admits
// creates through the team's ledger (the hold and the job's rows commit
// together) and then spawns the job actor; at start it respawns every job
// the `live_jobs` index lists, so a restart resumes all non-terminal work.
// It also keeps the jobs' queue deadlines (creation + `--queue-ttl`, so
// nearly always in creation order) behind one timer, instead of one timer
// per job, and tells a job when its deadline passes.

#include <deque>
#include <string>
#include <unordered_map>

#include "actors/job.hpp"

namespace svc::actors {

struct job_directory_state {
  struct live_job {
    job_actor handle;
    std::string team_id;
  };
  std::unordered_map<std::string, live_job> jobs;            ///< by job id
  std::unordered_map<caf::actor_addr, std::string> job_ids;  ///< job id by actor, for down messages
  std::unordered_map<std::string, ledger_actor> ledgers;     ///< by team id, resolved once
  /// Queue deadlines of live jobs, earliest first.
  std::deque<std::pair<core::time_point, std::string>> queue_deadlines;
  bool deadline_armed = false; ///< a timer for the front deadline is pending
  uint64_t admitted = 0, recovered = 0;
  static inline const char* name = "job_directory";
};

job_directory_actor::behavior_type job_directory(job_directory_actor::stateful_pointer<job_directory_state> self,
                                                 context ctx, job_services services);

} // namespace svc::actors
