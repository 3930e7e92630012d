#pragma once
// The system builder: configures CAF, seeds the catalogue, spawns every
// long-lived actor (recovering their timers from LMDB) and stops them in an
// order that persists what they hold.

#include <memory>

#include "actors/context.hpp"
#include "actors/job.hpp"
#include "persistence/counted_blob_store.hpp"
#include "persistence/environment.hpp"
#include "providers/engine_callbacks.hpp"
#include "schema/model_catalogue.hpp"

namespace svc::actors {

/// The long-lived actors every request path may talk to.
struct runtime_handles {
  store_actor store;
  registry_actor registry;
  bucket_directory_actor buckets;
  anonymous_bucket_actor anonymous;
  keyring_actor keyring;
  team_directory_actor teams;
  ledger_directory_actor ledgers;
  lora_catalogue_actor loras;
  job_directory_actor jobs;
  engine_registry_actor engines; ///< the operator's changes to the engines, and their probes
  expiry_sweeper_actor expiries;
  endpoint_directory_actor webhooks;
  mailer_actor mailer;
  file_writer_actor files;
  shard_handover_actor handover; ///< lets go of a shard or takes one up (cluster shard moves)
};

/// What the runtime gets from outside the actor layer: where outputs are
/// served (for event payloads) and the outbound transports.
struct runtime_links {
  public_urls urls;                             ///< the bound base URL and the URL secret
  webhook_transport* webhooks = nullptr;        ///< posts deliveries; outlives the runtime
  core::mail_sender* mail = nullptr;            ///< mail to team owners; may be null (no mail)
  core::mail_sender* mail_fallback = nullptr;   ///< where mail the relay keeps refusing goes; may be null
  team_ownership owns_team;                     ///< in a cluster, the teams this node holds; empty: all
  providers::engine_callbacks engine_callbacks; ///< where Cog engines post their webhooks
};

/// Applies Svc's scheduler settings and error category to a CAF config.
void configure_actor_system(caf::actor_system_config& caf_cfg, const core::config& cfg);

class runtime {
public:
  /// Seeds and spawns; nullptr with `error` set when the store cannot be prepared.
  static std::unique_ptr<runtime> start(caf::actor_system& sys, const core::config& cfg,
                                        std::shared_ptr<const core::clock> clock, persistence::environment& env,
                                        runtime_links links, std::string& error);

  /// Persists bucket levels, stops the workers (their jobs stay queued in LMDB
  /// for the next start), then stops every actor, the store last. Idempotent.
  void stop();

  ~runtime();

  const runtime_handles& handles() const { return handles_; }
  const context& ctx() const { return ctx_; }
  const persistence::tables& tables() const { return *tables_; }
  /// Where job outputs and uploaded files are stored.
  const persistence::blob_store& blobs() const { return *blobs_; }
  /// The blob store for a writer outside the actors (a shard moving here).
  persistence::blob_store& blobs() { return *blobs_; }
  /// Bytes and number of the stored blobs (for /metrics).
  persistence::blob_usage stored_blobs() const { return blobs_->usage(); }
  /// The models this node offers (`GET /v1/models`, the `model` field).
  const schema::model_catalogue& models() const { return *models_; }
  /// The render workers (renders in flight and worker count for the console and /metrics).
  const providers::worker_pool& workers() const { return *pool_; }
  /// Jobs waiting for a worker: those in the job directory's queue and the renders the pool has not started.
  std::size_t queued_renders() const { return waiting_jobs_.load() + pool_->queued(); }

private:
  runtime(caf::actor_system& sys, persistence::environment& env);

  caf::actor_system& sys_;
  std::unique_ptr<persistence::tables> tables_;
  std::unique_ptr<providers::generation_backend> backend_;
  std::shared_ptr<const schema::model_catalogue> models_;
  std::unique_ptr<providers::worker_pool> pool_;
  std::unique_ptr<persistence::counted_blob_store> blobs_;
  std::unique_ptr<providers::moderation_rules> moderation_;
  std::atomic<std::size_t> waiting_jobs_{0}; ///< published by the job directory
  context ctx_;
  runtime_handles handles_;
  bool stopped_ = false;
};

} // namespace svc::actors
