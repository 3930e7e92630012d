#pragma once
// The expiry sweeper: deletes what outlives the actor that made it once its
// stored deadline passes: a job's output bytes after `--output-ttl`, an
// idempotency record after `--idempotency-ttl`, an event and a delivery row
// after their retention, an uploaded file (bytes and rows) after
// `--file-ttl`. Deadlines are rows of the `expiries` table, ordered by time,
// so a restart finds every one of them and one overdue during downtime goes
// at the first sweep. It also retires terminal jobs `--job-retention` after
// they ended (persistence/job_retention.hpp). It runs detached, since
// deleting files blocks. Its commits only delete, so the store's reserve
// takes them even when it is full (a round too large for the room left is
// halved until one fits), and they make the room that lets writes work again.

#include "actors/context.hpp"
#include "persistence/blob_store.hpp"

namespace svc::actors {

/// Rows handled per sweep at most, so one sweep's commit stays small.
inline constexpr std::size_t expiry_sweep_batch = 512;

struct expiry_sweeper_state {
  uint64_t outputs_deleted = 0, idempotency_deleted = 0, events_deleted = 0, deliveries_deleted = 0,
           files_deleted = 0, jobs_deleted = 0;
  /// Rows this round may handle: halved after the store had no room for a
  /// round's deletes (their copy-on-write pages), doubled back after one that
  /// committed, so a full store is emptied in rounds it has room for.
  std::size_t round_rows = expiry_sweep_batch;
  static inline const char* name = "expiry_sweeper";
};

/// How often the sweeper looks: a tenth of the shortest TTL, between 10 ms and 1 s.
std::chrono::milliseconds expiry_sweep_interval(const core::config& cfg);

expiry_sweeper_actor::behavior_type expiry_sweeper(expiry_sweeper_actor::stateful_pointer<expiry_sweeper_state> self,
                                                   context ctx, persistence::blob_store* blobs);

} // namespace svc::actors
