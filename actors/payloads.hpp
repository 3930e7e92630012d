#pragma once
// The values actor messages carry on one node, beyond schema/'s records (the
// cluster's are in `cluster_payloads.hpp`). Each is described once (SVC_DESCRIBE),
// which gives CAF its `inspect`, so any message may be serialised and cross nodes.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/described.hpp"
#include "persistence/write_batch.hpp"
#include "schema/job_record.hpp"
#include "schema/rate_buckets.hpp"
#include "schema/records.hpp"
#include "schema/webhook_records.hpp"
#include "schema/file_record.hpp"

namespace svc::actors {

/// A team's operator overrides of bucket classes, by class name.
using bucket_overrides = std::map<std::string, schema::bucket_limits>;

/// What a live actor says about itself for `/admin/actors`.
struct actor_status {
  std::string state;    ///< one line, e.g. "reads=1199/1200 images_post=120/120"
  uint64_t mailbox = 0; ///< messages waiting
};
SVC_DESCRIBE(actor_status, (state, mailbox))

/// One engine as the job directory schedules it (`GET /admin/engines`).
struct engine_status {
  std::string name;                ///< "" for the local back end (the built-in renderer, one A1111 server)
  std::string kind;                ///< `comfyui`, `cog`, `a1111`, `procedural`; `local` for the local back end
  std::string url;                 ///< without credentials; empty for the built-in renderer
  int64_t slots = 0;               ///< renders it runs at once
  std::vector<std::string> models; ///< ids of the models it serves; empty for the local back end (every one)
  std::string state;               ///< `up`, `draining` or `down`
  std::string last_error;          ///< of its last failed health probe; empty when none failed
  int64_t renders_done = 0;        ///< renders it finished since this node started
  int64_t renders_failed = 0;      ///< renders it failed since this node started (its failures, not cancels)
  std::vector<std::string> jobs;   ///< the jobs holding its slots now
};
SVC_DESCRIBE(engine_status, (name, kind, url, slots, models, state, last_error, renders_done, renders_failed, jobs))

/// Where a queued job stands in its node's fair queue (`GET /v1/images/{id}`).
struct queue_place {
  int64_t position = 0;            ///< 1: it starts next; 0: it is not queued here
  int64_t estimated_start_ms = 0;  ///< Unix ms; 0 when no engine serving its model takes work now
};
SVC_DESCRIBE(queue_place, (position, estimated_start_ms))

/// One row of `/admin/actors`.
struct actor_summary {
  std::string kind, id, team, state;
  uint64_t mailbox = 0;
  int64_t age_ms = 0;
};
SVC_DESCRIBE(actor_summary, (kind, id, team, state, mailbox, age_ms))

/// Filter of `/admin/actors`: empty strings match everything.
struct actor_filter {
  std::string kind, team;
  uint64_t limit = 100;
};
SVC_DESCRIBE(actor_filter, (kind, team, limit))

/// A rate-limit verdict and the values of the X-RateLimit-* headers.
struct rate_decision {
  bool allowed = false;
  int64_t limit = 0;       ///< bucket capacity
  int64_t remaining = 0;   ///< whole tokens left after this request
  int64_t reset_epoch = 0; ///< Unix second at which the bucket is full again
  int64_t retry_after = 0; ///< seconds until one token is back (when refused)
  std::string bucket;      ///< class name, for the 429 message
};
SVC_DESCRIBE(rate_decision, (allowed, limit, remaining, reset_epoch, retry_after, bucket))

/// A newly issued key: its record and the plaintext, shown once.
struct issued_key {
  schema::api_key_record record;
  std::string plaintext;
  schema::api_key_record previous; ///< the rotated key (empty id on create)
};
SVC_DESCRIBE(issued_key, (record, plaintext, previous))

/// A new team and its opening balance.
struct new_team {
  std::string name, owner_email;
  int64_t credits = 0;
};
SVC_DESCRIBE(new_team, (name, owner_email, credits))

/// An operator's (or, for the threshold, the team's) change to a team: only
/// the fields given change, and only if every one of them is valid.
struct team_update {
  std::optional<std::string> name, owner_email, default_api_version;
  std::optional<int64_t> balance_low_threshold;
};
SVC_DESCRIBE(team_update, (name, owner_email, default_api_version, balance_low_threshold))

/// A create for a team's ledger to admit: the hold of the price and the rows
/// that make the job exist, committed in one transaction, so an acknowledged
/// create has its job, its hold and its idempotency record, or none of them.
struct admission {
  std::string job_id;
  int64_t credits = 0;
  persistence::write_batch writes; ///< the job's rows and the idempotency record
  std::string idempotency_key;     ///< its `idempotency` table key; empty without the header
  schema::correlation cause;       ///< the create request; a `usage.balance_low` the hold causes carries it
};
SVC_DESCRIBE(admission, (job_id, credits, writes, idempotency_key, cause))

/// What became of an admission.
struct admission_result {
  /// An earlier create holds the idempotency key: nothing was admitted and
  /// `earlier` is its stored answer (the caller compares request hashes).
  bool replayed = false;
  schema::idempotency_record earlier;
  schema::balance_record balance; ///< after the hold
};
SVC_DESCRIBE(admission_result, (replayed, earlier, balance))

/// A job's end for its team's ledger: charge or refund the hold, and commit
/// the job's terminal rows with it, so a job is settled exactly once.
struct settlement {
  std::string job_id;
  schema::hold_status to = schema::hold_status::charged; ///< `charged` or `refunded`
  schema::job_kind kind = schema::job_kind::image;       ///< for the usage row (when charged)
  int64_t outputs = 0;                                   ///< images produced (when charged)
  core::time_point at;                                   ///< the usage day is this UTC day
  persistence::write_batch writes;                       ///< the job's terminal rows
};
SVC_DESCRIBE(settlement, (job_id, to, kind, outputs, at, writes))

/// A create for the job directory: the job as it will be stored (`queued`)
/// and, under an `Idempotency-Key`, the record that replays its answer.
struct job_admission {
  schema::job_record job;
  std::optional<schema::idempotency_record> idempotency;
};
SVC_DESCRIBE(job_admission, (job, idempotency))

/// What a render produced, as the worker stored it.
struct rendered_outputs {
  std::vector<schema::job_output> outputs;
};
SVC_DESCRIBE(rendered_outputs, (outputs))

/// A new webhook endpoint, complete (id, secret, times), and under an
/// `Idempotency-Key` the record that replays the create's answer.
struct endpoint_creation {
  schema::webhook_endpoint_record endpoint;
  std::optional<schema::idempotency_record> idempotency;
};
SVC_DESCRIBE(endpoint_creation, (endpoint, idempotency))

/// What became of a creation: `replayed` with the earlier answer, or created.
struct endpoint_created {
  bool replayed = false;
  schema::idempotency_record earlier;
  schema::webhook_endpoint_record endpoint;
};
SVC_DESCRIBE(endpoint_created, (replayed, earlier, endpoint))

/// A PATCH of an endpoint: only the fields present change (validated by the caller).
struct endpoint_patch {
  std::optional<std::string> url;
  std::optional<std::vector<std::string>> events; ///< `["*"]` already expanded
  std::optional<std::map<std::string, std::string>> metadata;
  std::optional<bool> is_active;                   ///< true re-enables and resets the failure count
};
SVC_DESCRIBE(endpoint_patch, (url, events, metadata, is_active))

/// An upload to store: the record (all but `bytes` and `sha256`, which the
/// writer fills in from the bytes) and the bytes, shared so no message copies them.
struct file_upload {
  schema::file_record record;
  std::shared_ptr<const std::string> bytes;
};
SVC_DESCRIBE(file_upload, (record, bytes))

/// How far a directory's recovery at start has come (`/readyz`).
struct recovery_status {
  bool done = false;      ///< everything found at start is back in memory
  int64_t recovered = 0;  ///< what it brought back so far (jobs, or delivery tasks and events)
};
SVC_DESCRIBE(recovery_status, (done, recovered))

/// The answer to a test fire.
struct test_fire {
  std::string endpoint_id;
  std::string event_id;
  bool enqueued = false; ///< false when the endpoint is disabled
};
SVC_DESCRIBE(test_fire, (endpoint_id, event_id, enqueued))

} // namespace svc::actors
