#pragma once
// Every actor interface of Svc, one typed_actor alias per kind, one comment per
// message. Read this file first: it is the whole runtime in one page.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "persistence/write_batch.hpp"
#include "schema/credit_entry.hpp"
#include "schema/errors.hpp"
#include "schema/file_record.hpp"
#include "schema/rate_buckets.hpp"
#include "schema/job_record.hpp"
#include "schema/records.hpp"
#include "schema/webhook_records.hpp"
#include "actors/webhook_transport.hpp"
#include "core/mail.hpp"

namespace svc::actors {

// --- atoms (CAF 0.17: at most 10 characters)
using commit_atom = caf::atom_constant<caf::atom("commit")>;
using flush_atom = caf::atom_constant<caf::atom("flush")>;
using take_atom = caf::atom_constant<caf::atom("take")>;
using describe_atom = caf::atom_constant<caf::atom("describe")>;
using register_atom = caf::atom_constant<caf::atom("register")>;
using list_atom = caf::atom_constant<caf::atom("list")>;
using snapshot_atom = caf::atom_constant<caf::atom("snapshot")>;
using resolve_atom = caf::atom_constant<caf::atom("resolve")>;
using limits_atom = caf::atom_constant<caf::atom("limits")>;
using create_atom = caf::atom_constant<caf::atom("create")>;
using rotate_atom = caf::atom_constant<caf::atom("rotate")>;
using revoke_atom = caf::atom_constant<caf::atom("revoke")>;
using expire_atom = caf::atom_constant<caf::atom("expire")>;
using credit_atom = caf::atom_constant<caf::atom("credit")>;
using refund_atom = caf::atom_constant<caf::atom("refund")>;
using patch_atom = caf::atom_constant<caf::atom("patch")>;
using sweep_atom = caf::atom_constant<caf::atom("sweep")>;
using admit_atom = caf::atom_constant<caf::atom("admit")>;
using settle_atom = caf::atom_constant<caf::atom("settle")>;
using cancel_atom = caf::atom_constant<caf::atom("cancel")>;
using wait_atom = caf::atom_constant<caf::atom("wait")>;
using started_atom = caf::atom_constant<caf::atom("started")>;
using progress_atom = caf::atom_constant<caf::atom("progress")>;
using finished_atom = caf::atom_constant<caf::atom("finished")>;
using failed_atom = caf::atom_constant<caf::atom("failed")>;
using publish_atom = caf::atom_constant<caf::atom("publish")>;
using deliver_atom = caf::atom_constant<caf::atom("deliver")>;
using attempted_atom = caf::atom_constant<caf::atom("attempted")>;
using retry_atom = caf::atom_constant<caf::atom("retry")>;
using test_atom = caf::atom_constant<caf::atom("testfire")>;
using replay_atom = caf::atom_constant<caf::atom("replay")>;
using delete_atom = caf::atom_constant<caf::atom("delete")>;
using changed_atom = caf::atom_constant<caf::atom("changed")>;
using send_atom = caf::atom_constant<caf::atom("send")>;
using window_atom = caf::atom_constant<caf::atom("window")>;
using grace_atom = caf::atom_constant<caf::atom("grace")>;
using charge_atom = caf::atom_constant<caf::atom("charge")>;
using fault_atom = caf::atom_constant<caf::atom("fault")>;
using respawn_atom = caf::atom_constant<caf::atom("respawn")>;
using disable_atom = caf::atom_constant<caf::atom("disable")>;
using enable_atom = caf::atom_constant<caf::atom("enable")>;
using dispatch_atom = caf::atom_constant<caf::atom("dispatch")>;
using ready_atom = caf::atom_constant<caf::atom("ready")>;
using recover_atom = caf::atom_constant<caf::atom("recover")>;
using loaded_atom = caf::atom_constant<caf::atom("loaded")>;

// --- message types

/// A team's operator overrides of bucket classes, by class name.
using bucket_overrides = std::map<std::string, schema::bucket_limits>;

/// What a live actor says about itself for `/admin/actors`.
struct actor_status {
  std::string state;    ///< one line, e.g. "reads=1199/1200 images_post=120/120"
  uint64_t mailbox = 0; ///< messages waiting
};

/// One row of `/admin/actors`.
struct actor_summary {
  std::string kind, id, team, state;
  uint64_t mailbox = 0;
  int64_t age_ms = 0;
};

/// Filter of `/admin/actors`: empty strings match everything.
struct actor_filter {
  std::string kind, team;
  uint64_t limit = 100;
};

/// A rate-limit verdict and the values of the X-RateLimit-* headers.
struct rate_decision {
  bool allowed = false;
  int64_t limit = 0;       ///< bucket capacity
  int64_t remaining = 0;   ///< whole tokens left after this request
  int64_t reset_epoch = 0; ///< Unix second at which the bucket is full again
  int64_t retry_after = 0; ///< seconds until one token is back (when refused)
  std::string bucket;      ///< class name, for the 429 message
};

/// Continuation for a take from outside the actor system (the HTTP side);
/// called once, on an actor thread, so it must only hand the value over.
struct take_callback {
  std::function<void(const rate_decision&)> fn;
};

/// A newly issued key: its record and the plaintext, shown once.
struct issued_key {
  schema::api_key_record record;
  std::string plaintext;
  schema::api_key_record previous; ///< the rotated key (empty id on create)
};

/// A new team and its opening balance.
struct new_team {
  std::string name, owner_email;
  int64_t credits = 0;
};

/// An operator's (or, for the threshold, the team's) change to a team: only
/// the fields given change, and only if every one of them is valid.
struct team_update {
  std::optional<std::string> name, owner_email, default_api_version;
  std::optional<int64_t> balance_low_threshold;
};

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

/// What became of an admission.
struct admission_result {
  /// An earlier create holds the idempotency key: nothing was admitted and
  /// `earlier` is its stored answer (the caller compares request hashes).
  bool replayed = false;
  schema::idempotency_record earlier;
  schema::balance_record balance; ///< after the hold
};

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

/// A create for the job directory: the job as it will be stored (`queued`)
/// and, under an `Idempotency-Key`, the record that replays its answer.
struct job_admission {
  schema::job_record job;
  std::optional<schema::idempotency_record> idempotency;
};

/// What a render produced, as the worker stored it.
struct rendered_outputs {
  std::vector<schema::job_output> outputs;
};

/// A new webhook endpoint, complete (id, secret, times), and under an
/// `Idempotency-Key` the record that replays the create's answer.
struct endpoint_creation {
  schema::webhook_endpoint_record endpoint;
  std::optional<schema::idempotency_record> idempotency;
};

/// What became of a creation: `replayed` with the earlier answer, or created.
struct endpoint_created {
  bool replayed = false;
  schema::idempotency_record earlier;
  schema::webhook_endpoint_record endpoint;
};

/// A PATCH of an endpoint: only the fields present change (validated by the caller).
struct endpoint_patch {
  std::optional<std::string> url;
  std::optional<std::vector<std::string>> events; ///< `["*"]` already expanded
  std::optional<std::map<std::string, std::string>> metadata;
  std::optional<bool> is_active;                   ///< true re-enables and resets the failure count
};

/// An upload to store: the record (all but `bytes` and `sha256`, which the
/// writer fills in from the bytes) and the bytes, shared so no message copies them.
struct file_upload {
  schema::file_record record;
  std::shared_ptr<const std::string> bytes;
};

/// How far a directory's recovery at start has come (`/readyz`).
struct recovery_status {
  bool done = false;      ///< everything found at start is back in memory
  int64_t recovered = 0;  ///< what it brought back so far (jobs, or delivery tasks and events)
};

/// The answer to a test fire.
struct test_fire {
  std::string endpoint_id;
  std::string event_id;
  bool enqueued = false; ///< false when the endpoint is disabled
};

// --- interfaces

/// Every actor answers `describe` for the registry.
using introspectable_actor = caf::typed_actor<
  /// One-line state and mailbox size.
  caf::replies_to<describe_atom>::with<actor_status>,
  /// Throws, so tests can prove supervision (sent only under `--fault-injection`).
  caf::reacts_to<fault_atom>>;

/// The single LMDB writer: group commit, one synced transaction per batch.
using store_actor = introspectable_actor::extend<
  /// Commits the batch (with whatever else is pending) and answers after fsync.
  caf::replies_to<commit_atom, persistence::write_batch>::with<bool>,
  /// Internal: commits everything queued so far.
  caf::reacts_to<flush_atom>>;

/// Knows every live actor for the operator listing.
using registry_actor = caf::typed_actor<
  /// Adds an actor (kind, id, team); it is dropped when it terminates.
  caf::reacts_to<register_atom, std::string, std::string, std::string, caf::actor_addr>,
  /// Lists matching live actors with their self-description.
  caf::replies_to<list_atom, actor_filter>::with<std::vector<actor_summary>>,
  /// Makes the live actors of a kind and id throw (`POST /admin/faults`); how many.
  caf::replies_to<fault_atom, std::string, std::string>::with<int64_t>>;

/// One team's rate buckets, every class, shared by all its keys.
using bucket_actor = introspectable_actor::extend<
  /// Takes one token of a class and calls back with the verdict (HTTP path).
  caf::reacts_to<take_atom, schema::bucket_class, take_callback>,
  /// Takes one token of a class and answers the verdict (actor callers, tests).
  caf::replies_to<take_atom, schema::bucket_class>::with<rate_decision>,
  /// Takes n tokens of a class if it holds one, possibly into debt (a cost known after the work).
  caf::replies_to<charge_atom, schema::bucket_class, int64_t>::with<rate_decision>,
  /// Replaces the operator overrides (class name -> limits); answers once applied.
  caf::replies_to<limits_atom, bucket_overrides>::with<bool>,
  /// Persists the levels now; answers after the commit.
  caf::replies_to<snapshot_atom>::with<bool>,
  /// Internal: periodic snapshot timer.
  caf::reacts_to<flush_atom>>;

/// Owns the bucket actor of every team: spawns on first use, restoring the snapshot.
using bucket_directory_actor = introspectable_actor::extend<
  /// The bucket actor of a team.
  caf::replies_to<resolve_atom, std::string>::with<bucket_actor>,
  /// Charges a team's bucket (see bucket_actor), spawning it if needed.
  caf::replies_to<charge_atom, std::string, schema::bucket_class, int64_t>::with<rate_decision>,
  /// Updates a team's overrides if its bucket is live; answers once applied.
  caf::replies_to<limits_atom, std::string, bucket_overrides>::with<bool>,
  /// Snapshots every bucket (shutdown); answers when all are persisted.
  caf::replies_to<snapshot_atom>::with<bool>>;

/// Buckets of unauthenticated clients, one per address, never persisted.
using anonymous_bucket_actor = introspectable_actor::extend<
  /// Takes one token for an address and calls back with the verdict.
  caf::reacts_to<take_atom, std::string, take_callback>,
  /// Internal: drops buckets that are full again.
  caf::reacts_to<sweep_atom>>;

/// Issues and rotates API keys; owns the rotation grace timers.
using keyring_actor = introspectable_actor::extend<
  /// Issues a key of a scope for a team.
  caf::replies_to<create_atom, std::string, schema::scope>::with<issued_key>,
  /// Rotates a key (optionally only within a team): new key, old gets deactivate_at.
  caf::replies_to<rotate_atom, std::string, std::string>::with<issued_key>,
  /// Revokes a key at once (optionally only within a team); the record with `revoked_at`.
  caf::replies_to<revoke_atom, std::string, std::string>::with<schema::api_key_record>,
  /// Internal: a grace deadline passed; deactivates the key.
  caf::reacts_to<expire_atom, std::string>>;

/// Creates and changes team records (and writes a new team's opening balance).
using team_directory_actor = introspectable_actor::extend<
  /// Creates a team with an opening balance.
  caf::replies_to<create_atom, new_team>::with<schema::team_record>,
  /// Changes the fields an update gives; `invalid_parameter` (nothing changed) if any is invalid.
  caf::replies_to<patch_atom, std::string, team_update>::with<schema::team_record>,
  /// Disables a team with the operator's reason: its keys are refused from the next request on.
  /// A team already disabled keeps its first disable (time and reason).
  caf::replies_to<disable_atom, std::string, std::string>::with<schema::team_record>,
  /// Enables a disabled team again (an enabled one is answered as it is).
  caf::replies_to<enable_atom, std::string>::with<schema::team_record>,
  /// Overrides one bucket class for a team.
  caf::replies_to<limits_atom, std::string, schema::bucket_class, schema::bucket_limits>::with<schema::team_record>>;

/// One team's credits: the balance and every running job's hold. A change is
/// applied in memory at once (so concurrent creates never overdraw) and
/// answered only after its commit is durable; a failed commit makes the
/// ledger quit and be reloaded from LMDB.
using ledger_actor = introspectable_actor::extend<
  /// Holds the price and commits the job's rows with it; `insufficient_credits`
  /// with nothing held, `idempotency_key_in_use` while another create with the
  /// same key is being committed, `replayed` when one already was.
  caf::replies_to<admit_atom, admission>::with<admission_result>,
  /// Charges or refunds a job's hold and commits its terminal rows; the balance after.
  caf::replies_to<settle_atom, settlement>::with<schema::balance_record>,
  /// Adds (or with a negative amount removes) available credits: the operator
  /// top-up, with the operator's reason (may be empty) for the history.
  caf::replies_to<credit_atom, int64_t, std::string>::with<schema::balance_record>,
  /// Gives back what a succeeded job of the team was charged (job id, reason),
  /// once: the history entry; `invalid_state` for a job not succeeded or refunded already.
  caf::replies_to<refund_atom, std::string, std::string>::with<schema::credit_entry_record>,
  /// The current balance.
  caf::replies_to<caf::get_atom>::with<schema::balance_record>>;

/// Owns the ledger of every team: spawns on first use, restoring it from LMDB.
/// The team-addressed messages check that the team exists, then delegate.
using ledger_directory_actor = introspectable_actor::extend<
  /// The ledger of an existing team.
  caf::replies_to<resolve_atom, std::string>::with<ledger_actor>,
  /// `credit` on a team's ledger (`POST /admin/teams/{id}/credits`): team, amount, reason.
  caf::replies_to<credit_atom, std::string, int64_t, std::string>::with<schema::balance_record>,
  /// `refund` on the ledger of the job's team (`POST /admin/jobs/{id}/refund`): job id, reason.
  caf::replies_to<refund_atom, std::string, std::string>::with<schema::credit_entry_record>,
  /// `get` on a team's ledger.
  caf::replies_to<caf::get_atom, std::string>::with<schema::balance_record>>;

/// One generation (image or video) while it is not terminal: it takes a
/// worker, reports progress, stores outputs and settles its hold; then it exits.
using job_actor = introspectable_actor::extend<
  /// Cancels: the record as `cancelled`, or `invalid_state` if already terminal.
  caf::replies_to<cancel_atom>::with<schema::job_record>,
  /// Answers with the record once it is terminal (the caller's timeout bounds the wait).
  caf::replies_to<wait_atom>::with<schema::job_record>,
  /// From the job directory: a worker slot is free; moderate and queue the render.
  caf::reacts_to<dispatch_atom>,
  /// From the worker: it took the job (`processing`).
  caf::reacts_to<started_atom>,
  /// From the worker: progress 0..1.
  caf::reacts_to<progress_atom, double>,
  /// From the worker: outputs rendered and stored.
  caf::reacts_to<finished_atom, rendered_outputs>,
  /// From the worker: the back end failed (code, message), or the task was dropped.
  caf::reacts_to<failed_atom, std::string, std::string>,
  /// From the job directory: the queue TTL passed (expires the job if still queued).
  caf::reacts_to<expire_atom>,
  /// Internal: retries a settlement that failed.
  caf::reacts_to<settle_atom>,
  /// Internal: writes the record again after a write that failed.
  caf::reacts_to<flush_atom>>;

/// Owns every live job: admits creates through the team's ledger, keeps the
/// queue (a queued job has no actor until a worker slot is free for it),
/// spawns the actors, resumes non-terminal jobs at start, routes cancels and waits.
using job_directory_actor = introspectable_actor::extend<
  /// Admits a create and starts its job; the admission result.
  caf::replies_to<create_atom, job_admission>::with<admission_result>,
  /// Cancels a team's job (`resource_not_found` for another team's or an unknown id).
  caf::replies_to<cancel_atom, std::string, std::string>::with<schema::job_record>,
  /// A team's job once terminal; at once if it already is.
  caf::replies_to<wait_atom, std::string, std::string>::with<schema::job_record>,
  /// Internal: the earliest queue deadline passed.
  caf::reacts_to<expire_atom>,
  /// Internal: fails the job whose actor died (retried while the store cannot read it).
  caf::reacts_to<respawn_atom, std::string>,
  /// Whether the jobs found at start are all back (`/readyz`).
  caf::replies_to<ready_atom>::with<recovery_status>,
  /// Internal: hands queued jobs to free worker slots (again after a read that failed).
  caf::reacts_to<dispatch_atom>,
  /// Internal: resumes the next batch of `live_jobs` after this key.
  caf::reacts_to<recover_atom, std::string>>;

/// Deletes what outlives its owner when its stored deadline passes: output
/// bytes, idempotency records, events, delivery rows, uploaded files.
using expiry_sweeper_actor = introspectable_actor::extend<
  /// Internal: handles every due `expiries` row, then re-arms.
  caf::reacts_to<sweep_atom>>;

/// One webhook endpoint: the only writer of its record. It keeps its
/// pending delivery tasks, attempts up to a few at once, writes one delivery
/// row per attempt, retries on the configured schedule, counts failures and
/// disables itself by the contract's rule, and drops the previous secret when
/// its grace ends. Every timer is a deadline stored in LMDB.
using endpoint_actor = introspectable_actor::extend<
  /// Applies a PATCH; the record after it.
  caf::replies_to<patch_atom, endpoint_patch>::with<schema::webhook_endpoint_record>,
  /// New secret; the previous one kept for `--secret-grace`. The record (with the plaintext).
  caf::replies_to<rotate_atom>::with<schema::webhook_endpoint_record>,
  /// Deletes the endpoint and its pending tasks, then exits.
  caf::replies_to<delete_atom>::with<bool>,
  /// Enqueues a signed synthetic event of a type (test fire), minted with the
  /// Svc-Version applied to the request that fired it and its correlation.
  caf::replies_to<test_atom, std::string, std::string, schema::correlation>::with<test_fire>,
  /// Enqueues every event since a time that the endpoint subscribes to and never received; the count.
  caf::replies_to<replay_atom, core::time_point>::with<int64_t>,
  /// A committed delivery task to attempt (at once or at its due time).
  caf::reacts_to<deliver_atom, schema::delivery_task>,
  /// From the transport: how the attempt of a task ended.
  caf::reacts_to<attempted_atom, std::string, webhook_answer>,
  /// Internal: a task's retry is due.
  caf::reacts_to<retry_atom, std::string>,
  /// Internal: the previous secret's grace (ending at that time) is over.
  caf::reacts_to<grace_atom, core::time_point>,
  /// Internal: the disable window of the last success has passed; disables if still failing.
  caf::reacts_to<window_atom>,
  /// Internal: commits the writes queued so far (a failed commit's retry).
  caf::reacts_to<flush_atom>>;

/// Owns every webhook endpoint actor and fans events out to them: an event
/// committed with a `pending_events` row becomes one delivery task per active
/// subscribed endpoint of its team, committed in one batch, then handed over.
/// At start it spawns every endpoint and fans out what a crash left pending
/// (in batches, answering meanwhile).
/// The endpoint-addressed messages check the team, then delegate.
using webhook_directory_actor = introspectable_actor::extend<
  /// Commits a new endpoint (and its idempotency record) and spawns its actor.
  caf::replies_to<create_atom, endpoint_creation>::with<endpoint_created>,
  /// `patch` on a team's endpoint (`resource_not_found` for another team's).
  caf::replies_to<patch_atom, std::string, std::string, endpoint_patch>::with<schema::webhook_endpoint_record>,
  /// `rotate` on a team's endpoint.
  caf::replies_to<rotate_atom, std::string, std::string>::with<schema::webhook_endpoint_record>,
  /// `delete` on a team's endpoint.
  caf::replies_to<delete_atom, std::string, std::string>::with<bool>,
  /// `test` on a team's endpoint with an event type, the request's Svc-Version and its correlation.
  caf::replies_to<test_atom, std::string, std::string, std::string, std::string, schema::correlation>::with<test_fire>,
  /// `replay` on a team's endpoint since a time.
  caf::replies_to<replay_atom, std::string, std::string, core::time_point>::with<int64_t>,
  /// An event committed with its `pending_events` row: fan it out.
  caf::reacts_to<publish_atom, schema::event_record>,
  /// From an endpoint: its committed record changed (`true`: it was deleted).
  caf::reacts_to<changed_atom, schema::webhook_endpoint_record, bool>,
  /// Internal: respawns an endpoint whose actor died, from LMDB.
  caf::reacts_to<respawn_atom, std::string>,
  /// From an endpoint: its pending tasks (this many) are loaded and scheduled.
  caf::reacts_to<loaded_atom, std::string, int64_t>,
  /// Whether the pending tasks and events found at start are all back (`/readyz`).
  caf::replies_to<ready_atom>::with<recovery_status>,
  /// Internal: fans out the next batch of `pending_events` after this key.
  caf::reacts_to<recover_atom, std::string>>;

/// Stores uploaded files on its own thread (it runs detached, since hashing
/// and fsync block): the bytes into the blob store, then the record and its
/// rows through the store, so an answer means both are durable.
using file_writer_actor = introspectable_actor::extend<
  /// Stores an upload; the record as stored, or `internal_error` with nothing stored.
  caf::replies_to<create_atom, file_upload>::with<schema::file_record>>;

/// Sends e-mail (SMTP relay or outbox file) off the actor threads from a
/// durable queue (`mail_queue`); retries a relay that fails, then falls back
/// to the outbox.
using mailer_actor = introspectable_actor::extend<
  /// Queues a message (a committed `mail_queue` row) and sends it; true once the row is durable.
  caf::replies_to<send_atom, core::mail_message>::with<bool>,
  /// Another writer committed rows to `mail_queue` (`queue_mail`): send them.
  caf::reacts_to<flush_atom>,
  /// Internal: the retry timer of that generation fired; attempts what is due.
  caf::reacts_to<retry_atom, uint64_t>,
  /// Internal: writes the rows again whose last write failed.
  caf::reacts_to<commit_atom>>;

/// The LoRA catalogue: seeds the built-ins, adds operator LoRAs.
using lora_catalogue_actor = introspectable_actor::extend<
  /// Adds a LoRA (slug unique).
  caf::replies_to<create_atom, schema::lora_record>::with<schema::lora_record>>;

// --- domain errors

/// A domain error for a requester: the catalogue code, the parameter at fault
/// and the arguments of the message template.
caf::error make_domain_error(schema::error_code code, std::string param = {}, schema::message_args args = {});

/// 503 `storage_unavailable` for a store read that failed; `why` (LMDB's
/// reason) goes to the log under `component`, never to the client.
caf::error storage_failure(std::string_view component, std::string_view why);

/// Whether `err` is the domain error `code`.
bool is_domain_error(const caf::error& err, schema::error_code code);

/// The error of a failed request as the API reports it (timeouts: 503 `unavailable`).
schema::api_error to_api_error(const caf::error& err);

/// Registers the domain error category with an actor system config.
void add_domain_error_category(caf::actor_system_config& cfg);

} // namespace svc::actors

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::persistence::write_batch)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::schema::bucket_class)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::schema::bucket_limits)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::schema::scope)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::schema::team_record)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::schema::balance_record)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::schema::hold_record)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::schema::credit_entry_record)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::schema::job_record)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::admission)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::admission_result)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::settlement)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::job_admission)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::rendered_outputs)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::schema::lora_record)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::actor_status)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::actor_summary)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(std::vector<svc::actors::actor_summary>)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::actor_filter)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::rate_decision)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::take_callback)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::issued_key)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::schema::api_key_record)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::new_team)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::team_update)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::bucket_overrides)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::endpoint_creation)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::endpoint_created)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::endpoint_patch)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::test_fire)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::recovery_status)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::webhook_answer)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::schema::webhook_endpoint_record)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::schema::event_record)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::schema::correlation)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::schema::delivery_task)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::core::mail_message)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::schema::file_record)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(svc::actors::file_upload)
