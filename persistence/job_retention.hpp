#pragma once
// Job retention (`--job-retention`): a terminal job that ended longer ago
// than the retention is deleted, its rows and its output files. The `jobs`
// table is walked in key order, which is creation order within each kind
// (`img_`, then `vid_`: ids are ULIDs), so a walk stops at the first job
// created after the cutoff: no job after it can have ended before it. Usage
// rows are not touched, so usage answers stay as they were.

#include <cstddef>
#include <vector>

#include "core/clock.hpp"
#include "persistence/store_tables.hpp"

namespace svc::persistence {

/// What one round of retention found.
struct retention_round {
  std::vector<schema::job_record> jobs; ///< retired: their erasure joined the batch
  bool more = false;                    ///< the round stopped at a bound: run another at once
};

/// Jobs one round retires at most, so its commit stays small (four rows each).
inline constexpr std::size_t retention_batch = 128;

/// Adds to `batch` the erasure of up to `most` terminal jobs that ended
/// before `cutoff`, oldest first. Their output files are the caller's
/// to delete once the batch is committed (a failed commit then loses
/// nothing). A failed store read is returned, with nothing added.
status retire_jobs(const tables& t, core::time_point cutoff, write_batch& batch, retention_round& round,
                   std::size_t most = retention_batch);

} // namespace svc::persistence
