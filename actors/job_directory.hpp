#pragma once
// The job directory: the one actor that knows every live job. It admits
// creates through the team's ledger (the hold and the job's rows commit
// together) and queues the job. A queued job has no actor: the directory
// keeps its id in the queue and spawns its actor (which reads nothing else
// from memory: its record comes from LMDB) when a worker slot is free for
// it, or earlier when someone needs it (a cancel, a `Prefer: wait` caller,
// its queue deadline). At start it resumes every job `live_jobs` lists, in
// batches, answering meanwhile; `ready` says when it is done. It also keeps
// the jobs' queue deadlines (creation + `--queue-ttl`, so nearly always in
// creation order) behind one timer, instead of one timer per job.

#include <deque>
#include <optional>
#include <utility>
#include <vector>
#include <string>
#include <unordered_map>

#include "actors/job.hpp"
#include "actors/engine_slots.hpp"
#include "actors/fair_queue.hpp"
#include "actors/release_round.hpp"

namespace svc::actors {

/// `live_jobs` rows read per read transaction at start; other messages are
/// handled between two batches.
inline constexpr std::size_t job_recovery_batch = 2000;

/// The weight of each render in the moving average of measured seconds per estimated one.
inline constexpr double place_smoothing = 0.05;

struct job_directory_state {
  struct live_job {
    job_actor handle;
    std::string team_id;
    bool dispatched = false; ///< holds a worker slot (its render is queued or running)
    /// Given by the fair queue and placed: what its team was charged, since
    /// when, and the engine slot it holds (none for a model no engine serves).
    struct placement {
      queued_job job;  ///< as the fair queue gave it, with what its team was charged
      core::time_point since;
      std::optional<std::string> engine;
      bool released = false; ///< its engine did its part: the slot and the team's charge are given back
    };
    std::optional<placement> placed;
    std::vector<std::string> failed_on; ///< engines its renders failed on: others go first
  };
  std::unordered_map<std::string, live_job> jobs;            ///< jobs with an actor, by id
  std::unordered_map<caf::actor_addr, std::string> job_ids;  ///< job id by actor, for down messages
  std::unordered_map<std::string, ledger_actor> ledgers;     ///< by team id, resolved once
  fair_queue queue;          ///< jobs waiting for a worker slot (some woken, with an actor), fair between teams
  /// The queue's places as last computed, and the queue's version then:
  /// pollers of queued jobs share one pass over the queue while it is unchanged.
  std::unordered_map<std::string, fair_queue::place> places;
  std::optional<std::uint64_t> places_version;
  /// Measured render seconds per estimated engine second (render_cost.hpp),
  /// a moving average: what turns a job's place into its start time.
  double seconds_per_estimate = 1.0;
  engine_slots engines;      ///< the engines' slots, taken by dispatched jobs
  std::size_t dispatched = 0; ///< jobs holding a worker slot
  /// Queue deadlines of live jobs, earliest first.
  std::deque<std::pair<core::time_point, std::string>> queue_deadlines;
  bool deadline_armed = false; ///< a timer for the front deadline is pending
  bool recovering = true;      ///< `live_jobs` not all read yet
  bool dispatch_armed = false; ///< a dispatch retry (after a failed read) is pending
  core::time_point recovery_began;
  uint64_t admitted = 0, recovered = 0;
  release_rounds releases; ///< shards being released, waiting for their job actors to exit
  static inline const char* name = "job_directory";
};

/// Slots of the local back end (no engines of its own): two per pool
/// thread, so a worker whose job is settling has the next render waiting.
std::size_t job_dispatch_slots(const job_services& services);

job_directory_actor::behavior_type job_directory(job_directory_actor::stateful_pointer<job_directory_state> self,
                                                 context ctx, job_services services);

} // namespace svc::actors
