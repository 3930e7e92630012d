#pragma once
// The job actor: one per generation that is not terminal. It owns the job's
// record and is the only writer of it until it exits: queued -> processing
// (a worker took it) -> succeeded | failed | cancelled, or expired (still
// queued after the queue TTL) and moderation_rejected (the prompt broke a
// moderation rule), each persisted before anyone can see it. The terminal
// row is committed by the team's ledger together with the charge or refund.

#include <vector>

#include "actors/context.hpp"
#include "persistence/blob_store.hpp"
#include "providers/cancel_token.hpp"
#include "providers/generation_backend.hpp"
#include "providers/moderation.hpp"
#include "providers/worker_pool.hpp"

namespace svc::actors {

/// What jobs render with; owned by the runtime, outliving every job.
struct job_services {
  providers::generation_backend* backend = nullptr;
  providers::worker_pool* pool = nullptr;
  persistence::blob_store* blobs = nullptr;
  const providers::moderation_rules* moderation = nullptr;
  ledger_directory_actor ledgers;
};

/// At most this many `Prefer: wait` callers are held per job; more get the record at once.
inline constexpr std::size_t max_job_waiters = 256;

struct job_state {
  schema::job_record record;            ///< as last persisted (or being persisted)
  providers::cancel_token cancel;       ///< stops the render, queued or running
  std::vector<caf::typed_response_promise<schema::job_record>> waiters;
  double persisted_progress = 0;        ///< progress of the last progress write
  bool ending = false;                  ///< a terminal state is being committed
  std::optional<schema::event_record> event; ///< the terminal event, committed with the settlement
  static inline const char* name = "job";
  // An actor that dies (or follows its directory out) stops its render.
  ~job_state() { cancel.cancel(); }
};

/// The 409 `invalid_state` of cancelling a job that is already terminal.
caf::error not_cancellable(const schema::job_record& r);

/// Spawned by the job directory for a job just admitted (`queued`) or found
/// non-terminal at start (a `processing` job re-queues); with `died` set, for
/// a job whose actor died, which then fails with that failure at once.
job_actor::behavior_type job(job_actor::stateful_pointer<job_state> self, context ctx, job_services services,
                             schema::job_record record, std::optional<schema::job_failure> died);

} // namespace svc::actors
