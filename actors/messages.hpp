#pragma once
// Every actor interface of Svc, one typed_actor alias per kind, one comment per
// message, by family. Read this file first: it is the whole runtime in one page.
// What the messages carry is in `payloads.hpp`, `cluster_payloads.hpp` and
// schema/'s records; each is serialisable and has a type name (`message_types.hpp`).

#include <cstdint>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/cluster_payloads.hpp"
#include "actors/payloads.hpp"
#include "actors/webhook_transport.hpp"
#include "core/mail.hpp"
#include "core/shard.hpp"
#include "schema/credit_entry.hpp"
#include "schema/errors.hpp"

namespace svc::actors {

// --- atoms (CAF 0.17: at most 10 characters). One meaning each; where
// several actors take one, it means the same at each: `flush` is "write
// out what is pending now", `expire` is "your deadline passed", `respawn`
// is "start a successor for the actor that died".
using commit_atom = caf::atom_constant<caf::atom("commit")>;
using flush_atom = caf::atom_constant<caf::atom("flush")>;
using chained_commit_atom = caf::atom_constant<caf::atom("chcommit")>;
using chain_resume_atom = caf::atom_constant<caf::atom("chresume")>;
using queued_atom = caf::atom_constant<caf::atom("queued")>;
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
using queue_due_atom = caf::atom_constant<caf::atom("queuedue")>;
using deactivate_atom = caf::atom_constant<caf::atom("deactivate")>;
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
using test_fire_atom = caf::atom_constant<caf::atom("testfire")>;
using replay_atom = caf::atom_constant<caf::atom("replay")>;
using delete_atom = caf::atom_constant<caf::atom("delete")>;
using changed_atom = caf::atom_constant<caf::atom("changed")>;
using send_atom = caf::atom_constant<caf::atom("send")>;
using window_atom = caf::atom_constant<caf::atom("window")>;
using grace_atom = caf::atom_constant<caf::atom("grace")>;
using charge_atom = caf::atom_constant<caf::atom("charge")>;
using fault_atom = caf::atom_constant<caf::atom("fault")>;
using respawn_atom = caf::atom_constant<caf::atom("respawn")>;
using job_died_atom = caf::atom_constant<caf::atom("jobdied")>;
using disable_atom = caf::atom_constant<caf::atom("disable")>;
using enable_atom = caf::atom_constant<caf::atom("enable")>;
using dispatch_atom = caf::atom_constant<caf::atom("dispatch")>;
using requeue_atom = caf::atom_constant<caf::atom("requeue")>;
using share_atom = caf::atom_constant<caf::atom("share")>;
using engines_atom = caf::atom_constant<caf::atom("engines")>;
using rendered_atom = caf::atom_constant<caf::atom("rendered")>;
using engine_down_atom = caf::atom_constant<caf::atom("enginedown")>;
using joined_atom = caf::atom_constant<caf::atom("joined")>;
using left_atom = caf::atom_constant<caf::atom("left")>;
using probe_atom = caf::atom_constant<caf::atom("probe")>;
using probed_atom = caf::atom_constant<caf::atom("probed")>;
using position_atom = caf::atom_constant<caf::atom("position")>;
using slot_free_atom = caf::atom_constant<caf::atom("slotfree")>;
using ready_atom = caf::atom_constant<caf::atom("ready")>;
using recover_atom = caf::atom_constant<caf::atom("recover")>;
using loaded_atom = caf::atom_constant<caf::atom("loaded")>;
using forward_atom = caf::atom_constant<caf::atom("forward")>;
using answered_atom = caf::atom_constant<caf::atom("answered")>;
using hello_atom = caf::atom_constant<caf::atom("hello")>;
using ping_atom = caf::atom_constant<caf::atom("ping")>;
using heartbeat_atom = caf::atom_constant<caf::atom("heartbeat")>;
using import_atom = caf::atom_constant<caf::atom("import")>;
// A shard moves between nodes: `release` is "stop holding its state here,
// after saving what only memory holds", `adopt` is "resume what its rows
// (just copied here) leave unfinished".
using release_atom = caf::atom_constant<caf::atom("release")>;
using adopt_atom = caf::atom_constant<caf::atom("adopt")>;
// "What do you hold of this shard?": the new owner's digest of its copy.
using verify_atom = caf::atom_constant<caf::atom("verify")>;

// --- every actor

/// Every actor answers `describe` for the registry.
using introspectable_actor = caf::typed_actor<
  /// One-line state and mailbox size.
  caf::replies_to<describe_atom>::with<actor_status>,
  /// Throws, so tests can prove supervision (sent only under `--fault-injection`).
  caf::reacts_to<fault_atom>>;

// --- storage: the one LMDB writer, uploaded files, and what expires

/// The single LMDB writer: group commit, one synced transaction per batch.
using store_actor = introspectable_actor::extend<
  /// Commits the batch (with whatever else is pending) and answers after fsync.
  caf::replies_to<commit_atom, persistence::write_batch>::with<bool>,
  /// Commits a batch that builds on the sender's earlier chained batches (a
  /// ledger writes whole balance rows computed from changes still committing):
  /// once one of them failed, every later one fails with the same error,
  /// until the sender says with `chain_resume` that it reloaded from LMDB.
  caf::replies_to<chained_commit_atom, persistence::write_batch>::with<bool>,
  /// The sender dropped what it built on its failed batch: its chained
  /// batches sent from now on commit again.
  caf::reacts_to<chain_resume_atom>,
  /// Internal: commits everything queued so far.
  caf::reacts_to<flush_atom>>;

/// Stores uploaded files on its own thread (it runs detached, since hashing
/// and fsync block): the bytes into the blob store, then the record and its
/// rows through the store, so an answer means both are durable.
using file_writer_actor = introspectable_actor::extend<
  /// Stores an upload; the record as stored, or `internal_error` with nothing stored.
  caf::replies_to<create_atom, file_upload>::with<schema::file_record>>;

/// Deletes what outlives its owner when its stored deadline passes: output
/// bytes, idempotency records, events, delivery rows, uploaded files.
using expiry_sweeper_actor = introspectable_actor::extend<
  /// Internal: handles every due `expiries` row, then re-arms.
  caf::reacts_to<sweep_atom>>;

// --- operators: the live-actor registry

/// Knows every live actor for the operator listing.
using registry_actor = caf::typed_actor<
  /// Adds an actor (kind, id, team); it is dropped when it terminates.
  caf::reacts_to<register_atom, std::string, std::string, std::string, caf::actor_addr>,
  /// Lists matching live actors with their self-description.
  caf::replies_to<list_atom, actor_filter>::with<std::vector<actor_summary>>,
  /// Makes the live actors of a kind and id throw (`POST /admin/faults`); how many.
  caf::replies_to<fault_atom, std::string, std::string>::with<int64_t>>;

// --- rate limits: team buckets, anonymous buckets, and the HTTP side's relay

/// One team's rate buckets, every class, shared by all its keys.
using bucket_actor = introspectable_actor::extend<
  /// Takes one token of a class and answers the verdict.
  caf::replies_to<take_atom, schema::bucket_class>::with<rate_decision>,
  /// Takes n tokens of a class if it holds one, possibly into debt (a cost known after the work).
  caf::replies_to<charge_atom, schema::bucket_class, int64_t>::with<rate_decision>,
  /// Replaces the operator overrides (class name -> limits); answers once applied.
  caf::replies_to<limits_atom, bucket_overrides>::with<bool>,
  /// Persists the levels now; answers after the commit.
  caf::replies_to<snapshot_atom>::with<bool>,
  /// Persists the levels, then exits (its team's shard leaves this node).
  caf::reacts_to<release_atom>,
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
  caf::replies_to<snapshot_atom>::with<bool>,
  /// Persists and stops the buckets of a shard's teams; how many, once all are gone.
  caf::replies_to<release_atom, core::shard_id>::with<int64_t>>;

/// Buckets of unauthenticated clients, one per address, never persisted.
using anonymous_bucket_actor = introspectable_actor::extend<
  /// Takes one token for an address and answers the verdict.
  caf::replies_to<take_atom, std::string>::with<rate_decision>,
  /// Internal: drops buckets that are full again.
  caf::reacts_to<sweep_atom>>;

/// The HTTP side's relay of rate-token takes (http/take_relay.hpp): it asks
/// the bucket actors from the asio threads, so a take costs no spawned actor,
/// and resumes the continuation waiting under the ticket with the verdict.
using take_relay_actor = caf::typed_actor<
  /// Takes a token of a class from a team's bucket for the continuation under this ticket.
  caf::reacts_to<take_atom, bucket_actor, schema::bucket_class, uint64_t>,
  /// Takes a token for an unauthenticated client's address for the continuation under this ticket.
  caf::reacts_to<take_atom, anonymous_bucket_actor, std::string, uint64_t>>;

// --- teams, keys and credits

/// Issues and rotates API keys; owns the rotation grace timers.
using keyring_actor = introspectable_actor::extend<
  /// Issues a key of a scope for a team.
  caf::replies_to<create_atom, std::string, schema::scope>::with<issued_key>,
  /// Rotates a key (optionally only within a team): new key, old gets deactivate_at.
  caf::replies_to<rotate_atom, std::string, std::string>::with<issued_key>,
  /// Revokes a key at once (optionally only within a team); the record with `revoked_at`.
  caf::replies_to<revoke_atom, std::string, std::string>::with<schema::api_key_record>,
  /// Internal: a grace deadline passed; deactivates the key.
  caf::reacts_to<deactivate_atom, std::string>,
  /// Re-arms the grace timers of a shard's keys; how many.
  caf::replies_to<adopt_atom, core::shard_id>::with<int64_t>>;

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
  caf::replies_to<limits_atom, std::string, schema::bucket_class, schema::bucket_limits>::with<schema::team_record>,
  /// Sets a team's claim on the render engines (weight, cap); `invalid_parameter` out of bounds.
  caf::replies_to<share_atom, std::string, schema::render_share>::with<schema::team_record>>;

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
  caf::replies_to<caf::get_atom>::with<schema::balance_record>,
  /// Exits once the commits it sent before are answered (its team's shard leaves this node).
  caf::reacts_to<release_atom>>;

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
  caf::replies_to<caf::get_atom, std::string>::with<schema::balance_record>,
  /// Stops the ledgers of a shard's teams; how many, once all are gone.
  caf::replies_to<release_atom, core::shard_id>::with<int64_t>>;

// --- jobs: generations, their queue, and the LoRAs they may use

/// One generation (image or video) while it is not terminal: it takes a
/// worker, reports progress, stores outputs and settles its hold; then it exits.
using job_actor = introspectable_actor::extend<
  /// Cancels: the record as `cancelled`, or `invalid_state` if already terminal.
  caf::replies_to<cancel_atom>::with<schema::job_record>,
  /// Answers with the record once it is terminal (the caller's timeout bounds the wait).
  caf::replies_to<wait_atom>::with<schema::job_record>,
  /// From the job directory: a slot of this engine ("": any) is free for it; moderate and queue the render.
  caf::reacts_to<dispatch_atom, std::string>,
  /// From the worker: it took the job (`processing`).
  caf::reacts_to<started_atom>,
  /// From the worker: the engine did its part; its outputs are being fetched.
  caf::reacts_to<slot_free_atom>,
  /// From the worker: progress 0..1.
  caf::reacts_to<progress_atom, double>,
  /// From the worker: outputs rendered and stored.
  caf::reacts_to<finished_atom, rendered_outputs>,
  /// From the worker: the back end failed (code, message), or the task was dropped.
  caf::reacts_to<failed_atom, std::string, std::string>,
  /// From the job directory: the queue TTL passed (expires the job if still queued).
  caf::reacts_to<expire_atom>,
  /// From the job directory: this engine failed its health probes (engine,
  /// why); a render on it goes to another engine, as when it fails.
  caf::reacts_to<engine_down_atom, std::string, std::string>,
  /// Internal: retries a settlement that failed.
  caf::reacts_to<settle_atom>,
  /// Internal: writes the record again after a write that failed.
  caf::reacts_to<flush_atom>,
  /// Exits as at a shutdown: its render is abandoned, its record stays as stored.
  caf::reacts_to<release_atom>>;

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
  caf::reacts_to<queue_due_atom>,
  /// Internal: fails the job whose actor died (retried while the store cannot read it).
  caf::reacts_to<job_died_atom, std::string>,
  /// Whether the jobs found at start are all back (`/readyz`).
  caf::replies_to<ready_atom>::with<recovery_status>,
  /// Internal: hands queued jobs to free worker slots (again after a read that failed).
  caf::reacts_to<dispatch_atom>,
  /// From a job whose engine failed its render: it waits again, first among
  /// its team's jobs, for another engine (id, the engine that failed).
  caf::reacts_to<requeue_atom, std::string, std::string>,
  /// A team's claim on the engines changed (stored already): its queued jobs are served by it from now on.
  caf::reacts_to<share_atom, std::string, schema::render_share>,
  /// The engines with their slots and the jobs that hold them.
  caf::replies_to<engines_atom>::with<std::vector<engine_status>>,
  /// Where a team's queued job stands (team, id); position 0 when it is not queued.
  caf::replies_to<position_atom, std::string, std::string>::with<queue_place>,
  /// From a job: its engine did its part of the render (id); its slot is free, the outputs are being fetched.
  caf::reacts_to<slot_free_atom, std::string>,
  /// From a job: its render ended (id, whether it succeeded); its engine slot is free.
  caf::reacts_to<rendered_atom, std::string, bool>,
  /// From the engine registry: an engine joined (added at run time).
  caf::reacts_to<joined_atom, engine_status>,
  /// From the engine registry: an engine was removed; it leaves with its last render.
  caf::reacts_to<left_atom, std::string>,
  /// From the engine registry: an engine is drained (takes no new renders) or resumed.
  caf::reacts_to<disable_atom, std::string>,
  caf::reacts_to<enable_atom, std::string>,
  /// From the engine registry: a health probe of an engine passed (empty) or failed (why).
  caf::reacts_to<probed_atom, std::string, std::string>,
  /// Internal: resumes the next batch of `live_jobs` after this key.
  caf::reacts_to<recover_atom, std::string>,
  /// Stops the job actors of a shard's teams and forgets its queued jobs and
  /// ledgers (their jobs stay as stored); the actors stopped, once all are gone.
  caf::replies_to<release_atom, core::shard_id>::with<int64_t>,
  /// Resumes the unfinished jobs of a shard as a start does; how many.
  caf::replies_to<adopt_atom, core::shard_id>::with<int64_t>>;

/// The operator's changes to the engines while svcd runs, each stored
/// before it is answered so a restart keeps it, and the engines' health
/// probes. Detached: both wait on the engines.
using engine_registry_actor = introspectable_actor::extend<
  /// Adds an engine (`added` record) once its checks pass; its status.
  caf::replies_to<create_atom, schema::engine_record>::with<engine_status>,
  /// Removes an engine: it takes no new renders and leaves with its last.
  caf::replies_to<delete_atom, std::string>::with<bool>,
  /// Drains an engine (no new renders; those running finish).
  caf::replies_to<disable_atom, std::string>::with<bool>,
  /// Resumes a drained engine.
  caf::replies_to<enable_atom, std::string>::with<bool>,
  /// Internal: the next round of health probes.
  caf::reacts_to<probe_atom>>;

/// The LoRA catalogue: seeds the built-ins, adds operator LoRAs.
using lora_catalogue_actor = introspectable_actor::extend<
  /// Adds a LoRA (slug unique).
  caf::replies_to<create_atom, schema::lora_record>::with<schema::lora_record>>;

// --- webhooks: endpoints and the fan-out of events

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
  caf::replies_to<test_fire_atom, std::string, std::string, schema::correlation>::with<test_fire>,
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
  caf::reacts_to<flush_atom>,
  /// Exits once its queued writes are committed (its team's shard leaves this node).
  caf::reacts_to<release_atom>>;

/// Owns every webhook endpoint actor and fans events out to them: an event
/// committed with a `pending_events` row becomes one delivery task per active
/// subscribed endpoint of its team, committed in one batch, then handed over.
/// At start it spawns every endpoint and fans out what a crash left pending
/// (in batches, answering meanwhile).
/// The endpoint-addressed messages check the team, then delegate.
using endpoint_directory_actor = introspectable_actor::extend<
  /// Commits a new endpoint (and its idempotency record) and spawns its actor.
  caf::replies_to<create_atom, endpoint_creation>::with<endpoint_created>,
  /// `patch` on a team's endpoint (`resource_not_found` for another team's).
  caf::replies_to<patch_atom, std::string, std::string, endpoint_patch>::with<schema::webhook_endpoint_record>,
  /// `rotate` on a team's endpoint.
  caf::replies_to<rotate_atom, std::string, std::string>::with<schema::webhook_endpoint_record>,
  /// `delete` on a team's endpoint.
  caf::replies_to<delete_atom, std::string, std::string>::with<bool>,
  /// `test` on a team's endpoint with an event type, the request's Svc-Version and its correlation.
  caf::replies_to<test_fire_atom, std::string, std::string, std::string, std::string, schema::correlation>::with<test_fire>,
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
  caf::reacts_to<recover_atom, std::string>,
  /// Stops the endpoints of a shard's teams; how many, once all are gone.
  caf::replies_to<release_atom, core::shard_id>::with<int64_t>,
  /// Spawns the stored endpoints of a shard (they load their tasks) and fans
  /// out its pending events; endpoints and events handled.
  caf::replies_to<adopt_atom, core::shard_id>::with<int64_t>>;

// --- mail

/// Sends e-mail (SMTP relay or outbox file) off the actor threads from a
/// durable queue (`mail_queue`); retries a relay that fails, then falls back
/// to the outbox.
using mailer_actor = introspectable_actor::extend<
  /// Queues a message (a committed `mail_queue` row) and sends it; true once the row is durable.
  caf::replies_to<send_atom, core::mail_message>::with<bool>,
  /// Another writer committed rows to `mail_queue` (`queue_mail`): send them.
  caf::reacts_to<queued_atom>,
  /// Internal: the retry timer of that generation fired; attempts what is due.
  caf::reacts_to<retry_atom, uint64_t>,
  /// Internal: writes the rows again whose last write failed.
  caf::reacts_to<flush_atom>>;

// --- cluster: shard moves and the links between nodes

/// Moves a shard's live state off this node or onto it (issue 16, shard
/// moves). The caller freezes the shard first (`context::owns_team` false
/// for it), so nothing creates new state for its teams meanwhile.
using shard_handover_actor = caf::typed_actor<
  /// Stops every actor holding state of the shard's teams after saving what
  /// only memory held, then commits a store round trip, so every write they
  /// sent is durable; false if a part failed (logged).
  caf::replies_to<release_atom, core::shard_id>::with<bool>,
  /// With the shard's rows committed here and `owns_team` true for it:
  /// resumes its jobs, deliveries, pending events and key grace timers.
  caf::replies_to<adopt_atom, core::shard_id>::with<bool>>;

/// The receiving side of a shard move, behind the node actor
/// (cluster/shard_intake.hpp): commits the pages and blob pieces the shard's
/// owner sends, resumes the shard's actors once it is handed over, and drops
/// what was imported when the move fails. Detached: blob writes block it.
/// Each message names the node that sent it, as the cluster gate proved it.
using shard_intake_actor = caf::typed_actor<
  /// A page of a shard moving here, committed before the answer; false when refused.
  caf::replies_to<import_atom, shard_rows_v1, std::string>::with<bool>,
  /// A piece of a moving shard's blob, written before the answer; false when refused.
  caf::replies_to<import_atom, blob_piece_v1, std::string>::with<bool>,
  /// The digest of what this node committed of the shard moving here (an
  /// error when it moves no such shard here from the sender).
  caf::replies_to<verify_atom, uint16_t, std::string>::with<shard_digest_v1>,
  /// The map names this node for the shard now: resume its jobs and deliveries.
  caf::replies_to<adopt_atom, uint16_t, std::string>::with<bool>,
  /// The move failed before the map changed: drop what was imported of the shard.
  caf::replies_to<delete_atom, uint16_t, std::string>::with<bool>>;

/// A cluster node's entry point, published on the cluster's mutual-TLS
/// listener: the only actor other nodes address. It runs requests routed to
/// this node through the same pipeline as the ones its own clients send.
using node_actor = caf::typed_actor<
  /// Requests that the sender (another node's node actor) accepted from
  /// clients: each answered with `answered` under its ticket, to the sender.
  caf::reacts_to<forward_atom, forwarded_calls>,
  /// Answers to requests this node forwarded; each settled only if its
  /// ticket went to the sender.
  caf::reacts_to<answered_atom, forwarded_answers>,
  /// A peer linked to this node: its node id and its node actor (a
  /// `node_actor`; an alias cannot name itself). Of two nodes only the one
  /// with the lower id dials, so each pair shares one connection (two
  /// dialing at once make CAF drop one, and with it the link).
  caf::reacts_to<hello_atom, std::string, caf::strong_actor_ptr>,
  /// Are you there? (the peers' heartbeat: a node that does not answer in
  /// time is down, though its connection may look alive, as a hung one's does)
  caf::replies_to<ping_atom>::with<bool>,
  /// A page of a shard moving here from its owner, committed before the
  /// answer; false when the page is malformed (nothing of it is kept).
  caf::replies_to<import_atom, shard_rows_v1>::with<bool>,
  /// A piece of a moving shard's blob, written before the answer; false when malformed.
  caf::replies_to<import_atom, blob_piece_v1>::with<bool>,
  /// The digest of what this node committed of a shard its owner moves here:
  /// the owner changes the map only when it matches its own.
  caf::replies_to<verify_atom, uint16_t>::with<shard_digest_v1>,
  /// The map names this node for the shard now: resume its jobs and deliveries.
  caf::replies_to<adopt_atom, uint16_t>::with<bool>,
  /// The move failed before the map changed: drop what was imported of the shard.
  caf::replies_to<delete_atom, uint16_t>::with<bool>>;

/// The HTTP side's link to the other nodes: connects to each node of the
/// view, forwards requests to their node actors, and fails the requests in
/// flight to a node the moment its link goes down.
using peer_router_actor = caf::typed_actor<
  /// The membership or the shard map changed.
  caf::reacts_to<changed_atom, cluster_view>,
  /// Internal: time to ping every linked peer.
  caf::reacts_to<heartbeat_atom>,
  /// Internal: time to connect again to node `node_id` (attempt `generation`).
  caf::reacts_to<retry_atom, std::string, uint64_t>,
  /// A peer with a lower id linked to this node (see `node_actor`).
  caf::reacts_to<hello_atom, std::string, caf::strong_actor_ptr>,
  /// This node's own node actor, which it introduces to the peers it dials.
  caf::reacts_to<register_atom, node_actor>,
  /// The view and each peer's state.
  caf::replies_to<list_atom>::with<cluster_status>,
  /// A move of a shard from this node changed state (shown by `list`).
  caf::reacts_to<progress_atom, shard_move_status>,
  /// The node actor of node `node_id` while its link is up (null otherwise).
  caf::replies_to<resolve_atom, std::string>::with<caf::strong_actor_ptr>>;

// --- domain errors

/// A domain error for a requester: the catalogue code, the parameter at fault
/// and the arguments of the message template.
caf::error make_domain_error(schema::error_code code, std::string param = {}, schema::message_args args = {});

/// 400 `invalid_parameter` for `param`, with `detail` saying what is wrong.
caf::error invalid_parameter(std::string param, std::string detail);

/// 404 `resource_not_found` for the team `id`.
caf::error team_not_found(const std::string& id);

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
