#pragma once
// The job actor: one per generation that is not terminal. It owns the job's
// record and is the only writer of it until it exits: queued -> processing
// (a worker took it) -> succeeded | failed | cancelled, or expired (still
// queued after the queue TTL) and moderation_rejected (the prompt broke a
// moderation rule), each persisted before anyone can see it. The terminal
// row is committed by the team's ledger together with the charge or refund.

#include <atomic>
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
  std::atomic<std::size_t>* waiting_jobs = nullptr; ///< the directory's queue length, for /metrics; may be null
};

/// At most this many `Prefer: wait` callers are held per job; more get the record at once.
inline constexpr std::size_t max_job_waiters = 256;

/// How a job actor begins: its render queued for a worker, or waiting for
/// the directory's `dispatch` (woken while queued for a cancel, a waiter or
/// its expiry, or found `processing` at start and re-queued).
enum class job_begin { render, wait_for_dispatch };

struct job_state {
  schema::job_record record;            ///< as last persisted (or being persisted)
  providers::cancel_token cancel;       ///< stops the render, queued or running
  std::vector<caf::typed_response_promise<schema::job_record>> waiters;
  double persisted_progress = 0;        ///< progress of the last progress write
  bool ending = false;                  ///< a terminal state is being committed
  bool dispatched = false;              ///< moderated and handed to the worker pool
  std::string engine;                   ///< where the directory placed its render ("": the back end chooses)
  caf::actor_addr directory;            ///< who dispatched it, told when its engine fails (weak: it holds this job)
  std::optional<schema::event_record> event; ///< the terminal event, committed with the settlement
  static inline const char* name = "job";
  // An actor that dies (or follows its directory out) stops its render.
  ~job_state() { cancel.cancel(); }
};

/// The 409 `invalid_state` of cancelling a job that is already terminal.
caf::error not_cancellable(const schema::job_record& r);

/// The failure of a job whose prompt or negative prompt breaks a moderation
/// rule (`moderation_rejected`), if it does.
std::optional<schema::job_failure> moderation_failure(const providers::moderation_rules& rules,
                                                      const schema::job_record& r);

/// Spawned by the job directory with the job's record as stored: when a
/// worker slot is free for it, when someone needs it while it is queued
/// (`wait_for_dispatch`), or for a job found `processing` at start (it
/// re-queues). With `died` set, for a job whose actor died, which then fails
/// with that failure at once.
job_actor::behavior_type job(job_actor::stateful_pointer<job_state> self, context ctx, job_services services,
                             schema::job_record record, job_begin begin, std::optional<schema::job_failure> died);

} // namespace svc::actors
