#pragma once
// What the job directory's source files share, internal to actors/: its live
// work (job_directory.cpp), its recovery at start (job_directory_recovery.cpp)
// and its shard handover (job_directory_handover.cpp).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "actors/job_directory.hpp"
#include "core/shard.hpp"

namespace svc::actors {

using job_directory_self = job_directory_actor::stateful_pointer<job_directory_state>;

// --- live work (job_directory.cpp)

/// Spawns the actor of `record`'s job and keeps it under the job's id; a
/// `render` begin takes a worker slot. With `died`, the job fails at once.
job_actor spawn_job(job_directory_self self, const context& ctx, const job_services& services,
                    schema::job_record record, job_begin begin,
                    std::optional<schema::job_failure> died = std::nullopt);

/// The job's queue deadline: creation + TTL, or the re-queue deadline it was given once.
core::time_point queue_deadline(const context& ctx, schema::job_record& record);

/// Keeps `deadline` for job `id`, earliest first, and arms the timer if none is pending.
void add_queue_deadline(job_directory_self self, const context& ctx, core::time_point deadline,
                        const std::string& id);

/// Queues a job that is not terminal (its stored record) behind the others.
void enqueue(job_directory_self self, const context& ctx, const job_services& services, schema::job_record& record);

/// What the fair queue keeps of `record`.
queued_job queued_job_of(const schema::job_record& record);

/// Tells the fair queue `team_id`'s weight and cap, as its stored record has them.
void learn_share(job_directory_self self, const context& ctx, const std::string& team_id);

/// Hands queued jobs to the free worker slots.
void dispatch(job_directory_self self, const context& ctx, const job_services& services);

// --- recovery at start (job_directory_recovery.cpp)

/// Resumes the jobs of `ids` (`live_jobs` keys) that this node holds and no
/// one resumed yet; with `shard`, only that shard's. How many.
int64_t resume_jobs(job_directory_self self, const context& ctx, const job_services& services,
                    const std::vector<std::string>& ids, std::optional<core::shard_id> shard);

/// Resumes the batch of `live_jobs` rows after `after`, then asks for the next.
void recover_batch(job_directory_self self, const context& ctx, const job_services& services,
                   const std::string& after);

// --- shard handover (job_directory_handover.cpp)

/// Resumes every unfinished job of `shard`, whose rows were just committed here; how many.
caf::result<int64_t> adopt_shard(job_directory_self self, const context& ctx, const job_services& services,
                                 core::shard_id shard);

/// Lets go of `shard`'s jobs; the actors stopped, once they are gone.
caf::result<int64_t> release_shard(job_directory_self self, const context& ctx, core::shard_id shard);

} // namespace svc::actors
