#pragma once
// The rows that make up a job and the records that expire with it, written
// into a batch, so every writer (create, the job actor, the expiry sweeper)
// keeps the tables and their indexes in step.

#include <string>
#include <string_view>

#include "core/clock.hpp"
#include "persistence/blob_store.hpp"
#include "persistence/store_tables.hpp"
#include "schema/job_record.hpp"

namespace svc::persistence {

/// A job's current row, its team-listing row, and its `live_jobs` row while it
/// is not terminal (erased once it is).
void put_job(const tables& t, write_batch& batch, const schema::job_record& job);

/// Erases a terminal job: its row, its team-listing row, its `live_jobs` row
/// and its output expiry; the caller deletes its output files. Usage rows,
/// events and the idempotency record keep their own lifetimes.
void erase_job(const tables& t, write_batch& batch, const schema::job_record& job);

/// Deletes output files 0..count-1 of a job (absent ones are no error);
/// failures are logged under `component`.
void remove_job_outputs(blob_store& blobs, const schema::job_record& job, std::size_t count,
                        std::string_view component);

/// The `idempotency` key of a create: `team_id/route/key`.
std::string idempotency_key(std::string_view team_id, std::string_view route, std::string_view key);

/// An idempotency record and its expiry row.
void put_idempotency(const tables& t, write_batch& batch, const schema::idempotency_record& r);

/// What an `expiries` row removes when its deadline passes.
enum class expiry_kind { outputs, idempotency, event, delivery, file };

/// The `expiries` key: `<16-digit Unix ms>/<kind>/<subject>`, so key order is deadline order.
std::string expiry_key(core::time_point deadline, expiry_kind kind, std::string_view subject);

/// A parsed `expiries` key.
struct expiry_entry {
  int64_t deadline_ms = 0;
  expiry_kind kind = expiry_kind::outputs;
  std::string subject; ///< a job id (`outputs`), an `idempotency` key, an event id, a `deliveries` key, a file id
};

/// Parses an `expiries` key; false for anything this version did not write.
bool parse_expiry_key(std::string_view key, expiry_entry& out);

} // namespace svc::persistence
